"""The op panel's Step box, and how it edits a step through the parameter form.

``StepEditing`` is mixed into ``OpPanel``. It builds the Step box (the mode line, "Apply
to", the parameter form, the result's name, the code preview and Apply), reads the call
the form describes, loads a selected op step into the form or starts a new step, and
turns form and name edits into undoable recipe edits. Its texts keep the ``OpPanel``
translation context.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from app.catalog import CATALOG
from app.catalog.call_keys import call_key
from app.recipe.call_text import (
    bind_op_texts,
    build_call_text,
    call_keywords_texts,
    parse_call,
    same_items,
    spelling_of,
)
from app.recipe.kernel_results import KernelValue, tensor_names
from app.recipe.model import Step, check_name, write_step
from app.recipe.op_call import (
    BUILDER_CATEGORIES,
    default_keywords,
    form_spec,
    has_receiver,
    op_spec,
)
from app.recipe.reader import form_step
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, set_style_sheet
from widgets.common.undo import push_edit
from widgets.ops.param_form import ParamForm

HINT_STYLE = "color: palette(placeholder-text);"


class StepEditing:
    """The Step box of ``OpPanel``: the step it adds, or the op step it changes live."""

    # -- building ----------------------------------------------------------------------------
    def _build_step_box(self) -> QGroupBox:
        """The Step box; the panel connects its signals."""
        mono = self._mono
        self.mode_label = QLabel()
        self.mode_label.setWordWrap(True)
        translated(self, lambda: self.mode_label.setToolTip(QCoreApplication.translate(
            "OpPanel", "Whether the panel adds a new step or changes the selected one.")))
        self.mode_button = QPushButton()
        translated(self, lambda: self.mode_button.setToolTip(QCoreApplication.translate(
            "OpPanel", "Switch between changing the selected step and adding a new one.")))
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.mode_label, 1)
        mode_row.addWidget(self.mode_button)

        self.input_combo = QComboBox()
        translated(self, lambda: self.input_combo.setToolTip(QCoreApplication.translate(
            "OpPanel", "The tensor the op is applied to, by name.")))
        self.form = ParamForm()
        self.name_edit = QLineEdit()
        translated(self, lambda: self.name_edit.setToolTip(QCoreApplication.translate(
            "OpPanel", "The variable the result is assigned to.")))
        self.name_message = QLabel()
        self.name_message.setWordWrap(True)
        self.name_message.hide()
        inputs = QFormLayout()
        inputs.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._input_label = QLabel()
        translated(self, lambda: (
            self._input_label.setText(QCoreApplication.translate("OpPanel", "Apply to"))))
        self._input_label.setBuddy(self.input_combo)
        translated(self, lambda: self._input_label.setToolTip(self.input_combo.toolTip()))
        inputs.addRow(self._input_label, self.input_combo)
        self._name_label = QLabel()
        translated(self, lambda: (
            self._name_label.setText(QCoreApplication.translate("OpPanel", "Result"))))
        self._name_label.setBuddy(self.name_edit)
        translated(self, lambda: self._name_label.setToolTip(self.name_edit.toolTip()))

        names = QFormLayout()
        names.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        names.addRow(self._name_label, self.name_edit)
        names.addRow(self.name_message)

        self.preview = QLabel()
        self.preview.setFont(mono)
        self.preview.setWordWrap(True)
        self.preview.setTextFormat(Qt.TextFormat.PlainText)
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview.setFrameShape(QLabel.Shape.StyledPanel)
        self.preview.setMargin(4)
        translated(self, lambda: self.preview.setToolTip(QCoreApplication.translate(
            "OpPanel", "The Python line the step is, as saved in the recipe.")))
        self.apply_button = QPushButton()
        translated(self, lambda: (
            self.apply_button.setText(QCoreApplication.translate("OpPanel", "Apply"))))
        translated(self, lambda: self.apply_button.setToolTip(QCoreApplication.translate(
            "OpPanel", "Append this op as a new step and select it.")))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)

        apply_box = QGroupBox()
        translated(self, lambda apply_box=apply_box: apply_box.setTitle(
            QCoreApplication.translate("OpPanel", "Step")))
        apply_layout = QVBoxLayout(apply_box)
        apply_layout.addLayout(mode_row)
        apply_layout.addLayout(inputs)
        apply_layout.addWidget(self.form)
        apply_layout.addLayout(names)
        apply_layout.addWidget(self.preview)
        apply_layout.addLayout(buttons)
        return apply_box

    # -- public ------------------------------------------------------------------------------------
    def current_call(self) -> str | None:
        """The text of the call the panel describes, or None while a field has an error."""
        errors = dict(self.form.errors())
        values = dict(self.form.values())
        for pname, (expr, message) in self._frozen.items():
            if errors.get(pname) == message:  # still as loaded: keep the step's own value
                values[pname] = expr
                errors.pop(pname)
        for pname, value in values.items():  # keep (a, b) a tuple when the form reads a list
            old = self._loaded_values.get(pname)
            if old is not None and same_items(value, old):
                values[pname] = old
        receiver = self._current_receiver()
        if errors or (has_receiver(self._spec) and receiver is None):
            return None
        text = build_call_text(self._spec, values, receiver, self._spelling, self._keywords)
        return text if form_step(None, text) is not None else None

    def apply(self) -> None:
        """Append the op as a new step, as one undoable edit, and select it.

        Does nothing while the panel is changing a selected step (see ``editing``).
        """
        call = self.current_call()
        if self._editing is not None or call is None or self._name_problem() is not None:
            return
        name = None if self._spec.in_place else self.name_edit.text().strip()
        step = form_step(name, call)
        if step is None:
            return
        recipe = self._document.recipe
        push_edit(self._stack, recipe, lambda r: r.append(step),
                  QCoreApplication.translate("OpPanel", "Apply {0}").format(self._spec.name))
        self._document.select(len(recipe.steps) - 1)

    # -- loading a step, or starting a new one ----------------------------------------------------
    def _load(self, index: int) -> None:
        """Show step ``index`` in the panel and edit it from now on."""
        step = self._document.recipe.steps[index]
        spec = op_spec(step)
        assert spec is not None
        text = step.text
        receiver, values = bind_op_texts(spec, text)
        names = self._tensor_names(before=index)
        self._spec, self._editing, self._loaded = spec, index, step
        self._spelling = spelling_of(parse_call(text))  # type: ignore[arg-type]
        self._keywords = call_keywords_texts(spec, text)
        with QSignalBlocker(self.op_tree), QSignalBlocker(self.form), \
                QSignalBlocker(self.input_combo), QSignalBlocker(self.name_edit):
            self.browser.select(spec)
            shown = form_spec(spec)
            if self.form.spec == shown:  # keep the editors, and the focus in them
                self.form.set_names(names)
            else:
                self.form.set_spec(shown, names)
            self.form.set_values(values)
            self._fill_receivers(names, receiver)
            self.name_edit.setText(step.name or "")
        errors = self.form.errors()
        self._frozen = {n: (values[n], errors[n]) for n in errors if n in values}
        self._loaded_values = values
        self._name_auto = False
        self._show_spec(spec)

    def _start_new(self, receiver: str | None) -> None:
        """Stop editing a step: the panel describes a new step applied to ``receiver``."""
        self._editing = self._loaded = None
        self._spelling = None
        self._keywords = default_keywords(self._spec)
        names = self._tensor_names()
        current = self._current_receiver()
        if receiver in names:
            current = receiver
        elif current not in names:
            current = None  # the newest tensor
        with QSignalBlocker(self.form), QSignalBlocker(self.input_combo):
            if self.form.spec is None or self.form.spec.name != self._spec.name:
                self._frozen, self._loaded_values = {}, {}
                self.form.set_spec(form_spec(self._spec), names)
            else:  # the same op: keep its values, for the same op on another tensor
                self.form.set_names(names)
            self._fill_receivers(names, current)
        self._set_auto_name()

    # -- view to model ---------------------------------------------------------------------------
    def _on_view_mode_clicked(self) -> None:
        index = self._document.selected
        if self._editing is not None:
            self._start_new(self._selected_name())
        elif self._op_step(index):
            self._session += 1
            self._load(index)
        self._refresh()

    def _on_view_params_changed(self, *_: object) -> None:
        index = self._editing
        call = self.current_call()
        if index is not None and call is not None:
            step = self._document.recipe.steps[index]
            new = replace(step, text=call)
            if new != step:
                self._loaded = new  # so the evaluation that follows does not reload the form
                push_edit(self._stack, self._document.recipe,
                          lambda r: r.replace_step(index, new),
                          QCoreApplication.translate("OpPanel", "Change {0}").format(step.label),
                          merge_key=("op-params", id(self), self._session, index))
                return  # the evaluation refreshes the panel
        self._refresh()

    def _on_view_name_edited(self, _text: str) -> None:
        self._name_auto = False

    def _on_view_name_finished(self) -> None:
        index, name = self._editing, self.name_edit.text().strip()
        if index is None or self._loaded is None or self._loaded.name is None \
                or name == self._loaded.name or self._name_problem() is not None:
            return
        push_edit(self._stack, self._document.recipe, lambda r: r.rename(index, name),
                  QCoreApplication.translate("OpPanel", "Rename {0} to {1}").format(
                      self._loaded.name, name))

    # -- helpers ---------------------------------------------------------------------------------
    def _tensor_names(self, before: int | None = None) -> list[str]:
        """Names an op can take: the steps' names (bound before step ``before``) that hold
        a tensor in the run on show, as the kernel said of the steps that have run.

        A step that has not run (on its way, failed, not reached) bound nothing yet: its
        name may come to hold anything (``model = nn.Linear(4, 4)``), and is not offered
        until the run has made it a tensor."""
        doc = self._document
        last = doc.recipe.derived("last_bindings", last_bindings) if before is None \
            else last_bindings(doc.recipe.steps[:before])
        tensors = tensor_names(doc.run)  # what the kernel said the names hold
        return [name for name in last if name in tensors]

    def _op_step(self, index: int | None) -> bool:
        """Whether step ``index`` is an op step the panel edits: one call of a catalogue op,
        on no module (``m.float()`` with ``m`` an ``nn.Linear`` is the module's ``float``,
        no tensor op, as the run said of ``m``)."""
        steps = self._document.recipe.steps
        if index is None or not 0 <= index < len(steps):
            return False
        spec = op_spec(steps[index])
        if spec is None:
            return False
        if not has_receiver(spec):
            return True
        receiver, _ = bind_op_texts(spec, steps[index].text)
        return not self._holds_no_tensor(receiver, index)

    def _holds_no_tensor(self, receiver: str | None, before: int) -> bool:
        """Whether the ``receiver`` text is known to be no tensor before step ``before``: a
        module the catalogue makes, or a name whose last binding the run said holds none."""
        call = None if receiver is None else parse_call(receiver)
        if call is not None:
            spec = CATALOG.get(call_key(call.func))
            return spec is not None and spec.category not in BUILDER_CATEGORIES \
                and bool(spec.extra.get("module"))
        if receiver is None or not receiver.isidentifier():
            return False
        steps, results = self._document.recipe.steps, self._document.run.results
        at = next((i for i in range(before - 1, -1, -1) if steps[i].name == receiver), None)
        if at is None or at >= len(results) or not isinstance(results[at].value, KernelValue):
            return False  # not run yet, or bound by code: its text is all there is
        summary = results[at].value.names.get(receiver)
        return summary is not None and summary.get("type") != "Tensor"

    def _selected_name(self) -> str | None:
        index = self._document.selected
        steps = self._document.recipe.steps
        return steps[index].name if index is not None and index < len(steps) else None

    def _fill_receivers(self, names: list[str], current: str | None) -> None:
        self._names_shown = list(names)  # (what the form and the receivers offer)
        items: list[str] = list(names)
        if current is not None and current not in items:
            items.append(current)
        self._receivers = items
        self.input_combo.clear()
        for text in items:
            self.input_combo.addItem(text)
        if items:
            self.input_combo.setCurrentIndex(items.index(current) if current in items
                                             else len(items) - 1)

    def _current_receiver(self) -> str | None:
        index = self.input_combo.currentIndex()
        return self._receivers[index] if 0 <= index < len(self._receivers) else None

    def _set_auto_name(self) -> None:
        with QSignalBlocker(self.name_edit):
            self.name_edit.setText("" if self._spec.in_place else
                                   self._document.recipe.unique_name(self._spec.name.strip("_")))
        self._name_auto = True

    def _name_problem(self) -> str | None:
        """Why the name field cannot be used now, or None."""
        if self._spec.in_place and self._editing is None:
            return None
        if self._editing is not None and (self._loaded is None or self._loaded.name is None):
            return None
        name = self.name_edit.text().strip()
        if not name:
            return QCoreApplication.translate("OpPanel", "Give the result a name.")
        taken = set(self._document.recipe.names())
        if self._editing is not None and self._loaded is not None:
            taken.discard(self._loaded.name)  # type: ignore[arg-type]
        return check_name(name, taken)

    def _refresh(self) -> None:
        """Bring mode, preview, name message, button and lesson in line with the state."""
        spec, editing = self._spec, self._editing is not None
        selected = self._document.selected
        steps = self._document.recipe.steps
        if editing and self._loaded is not None:
            self.mode_label.setText(QCoreApplication.translate(
                "OpPanel", "Changing step {0}: every change applies at once.").format(
                self._loaded.label))
            self.mode_button.setText(QCoreApplication.translate("OpPanel", "New step"))
            self.mode_button.show()
        else:
            self.mode_label.setText(QCoreApplication.translate(
                "OpPanel", "New step: Apply adds it at the end."))
            can_edit = self._op_step(selected)
            self.mode_button.setText(QCoreApplication.translate("OpPanel", "Edit {0}").format(
                steps[selected].label) if can_edit else "")
            self.mode_button.setVisible(can_edit)
        in_place = spec.in_place or (editing and self._loaded is not None
                                     and self._loaded.name is None)
        self.name_edit.setEnabled(not in_place)
        self._name_label.setEnabled(not in_place)
        self.name_edit.setPlaceholderText(QCoreApplication.translate(
            "OpPanel", "none: it changes its input in place") if in_place else "")

        call = self.current_call()
        name = self.name_edit.text().strip()
        if call is None:
            if self._receivers or not has_receiver(spec):
                text = QCoreApplication.translate("OpPanel",
                                                  "Fix the marked fields to see the code.")
            elif self._document.kernel_run is not None:  # its tensors are on their way
                text = QCoreApplication.translate(
                    "OpPanel", "The recipe's tensors are offered once its run has made them.")
            else:
                text = QCoreApplication.translate("OpPanel",
                                                  "Add a tensor first: the op needs one.")
            self.preview.setText(text)
            set_style_sheet(self.preview, HINT_STYLE)
        else:
            shown = None if in_place or not name.isidentifier() else name
            step = Step(shown, call)
            if editing and self._loaded is not None \
                    and replace(self._loaded, text=call) == self._loaded:
                step = self._loaded  # as the recipe spells it
            self.preview.setText(write_step(step))
            set_style_sheet(self.preview, "")
        problem = self._name_problem()
        self.name_message.setText(problem or "")
        set_style_sheet(self.name_message, error_style())
        self.name_message.setVisible(bool(problem))
        self.apply_button.setVisible(not editing)
        self.apply_button.setEnabled(call is not None and problem is None)
        self.lesson_box.show_result(self._document.run, self._document.selected)


def last_bindings(steps: tuple) -> dict[str, int]:
    """Each name the steps bind, with the index of its last binding, in that order."""
    last: dict[str, int] = {}
    for i, step in enumerate(steps):
        if step.name:
            last.pop(step.name, None)
            last[step.name] = i
    return last
