"""The tensor builder: pick a creation function, fill in its arguments, add it as a step.

Its Qt-free recipe edits (the seed step) and lookups live in ``widgets.ops.creation_steps``.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QFontDatabase, QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.catalog import CATALOG, OpSpec
from app.recipe.call_text import bind_texts, call_text
from app.recipe.document import Document
from app.recipe.kernel_results import tensor_names
from app.recipe.model import Recipe, Step, check_name, write_step
from app.recipe.op_call import node_literal, statement_value
from app.recipe.reader import form_step
from app.recipe.results import RecipeRun
from widgets.common.bounded_text import MAX_MESSAGE_LINE, bounded
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import op_summary
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, set_style_sheet
from widgets.common.undo import push_edit
from widgets.common.when_shown import WhenShown
from widgets.ops.creation_steps import (
    RANDOM_OPS,
    SEED_OP,
    creation_spec,
    example_values,
    seed_index,
    seed_recipe,
)
from widgets.ops.param_form import ParamForm

__all__ = ["HINT_STYLE", "RANDOM_OPS", "SEED_OP", "BuilderPanel", "creation_spec",
           "example_values", "seed_index", "seed_recipe"]

HINT_STYLE = "color: palette(placeholder-text);"


class BuilderPanel(FollowsDocument, QWidget):
    """Builds creation steps (``x = torch.zeros(2, 3)``) from a form, and the recipe's seed.

    Parameters
    ----------
    document : Document
        The open recipe; steps are added to it and selected.
    undo_stack : QUndoStack or None
        Where edits go, so they can be undone.
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self._name_auto = True  # the name was filled in by the panel, not typed
        self._loaded: Step | None = None  # the selected step the form shows
        self._loaded_call: str | None = None
        self._specs = CATALOG.in_category("creation")
        self._build()
        # behind another dock's tab, a run's result waits until the Builder is shown
        self._when_shown = WhenShown(self, lambda: self._on_model_evaluated(document.run))
        self._set_model_connected(True)
        if self._editable_index() is None:  # else the selected step's form, made once below
            self.set_function(self._specs[0].name)
        self._on_model_evaluated(document.run)
        translated(self, self._set_state_texts, now=False)

    def _set_state_texts(self) -> None:
        """The texts that depend on the function chosen and the form, in the UI's language."""
        for i, spec in enumerate(self._specs):
            self.function_combo.setItemData(i, op_summary(spec), Qt.ItemDataRole.ToolTipRole)
        self.summary.setText(op_summary(self._specs[self.function_combo.currentIndex()]))
        self._refresh()

    def _build(self) -> None:
        self._mono = mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.function_combo = QComboBox()
        for spec in self._specs:
            self.function_combo.addItem(spec.function_key or spec.name)
            self.function_combo.setItemData(self.function_combo.count() - 1, op_summary(spec),
                                            Qt.ItemDataRole.ToolTipRole)
        translated(self, lambda: (
            self.function_combo.setToolTip(self.tr("The torch function that creates the tensor."))))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet(HINT_STYLE)

        self.form = ParamForm()
        arguments = QGroupBox()
        translated(self, lambda arguments=arguments: arguments.setTitle(self.tr("Arguments")))
        QVBoxLayout(arguments).addWidget(self.form)

        self.name_edit = QLineEdit()
        translated(self, lambda: (
            self.name_edit.setToolTip(self.tr("The variable the new tensor is assigned to."))))
        self.name_message = QLabel()
        self.name_message.setWordWrap(True)
        self.name_message.hide()
        names = QFormLayout()
        name_label = QLabel()
        translated(self, lambda: name_label.setText(self.tr("Name")))
        names.addRow(name_label, self.name_edit)
        names.addRow(self.name_message)

        self.preview = QLabel()
        self.preview.setFont(mono)
        self.preview.setWordWrap(True)
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview.setFrameShape(QLabel.Shape.StyledPanel)
        self.preview.setMargin(4)
        translated(self, lambda: (
            self.preview.setToolTip(self.tr("The Python line the step will be, as saved in the "
                                            "recipe file."))))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setStyleSheet(error_style())
        self.status.hide()

        self.add_button = QPushButton()
        translated(self, lambda: self.add_button.setText(self.tr("Add")))
        translated(self, lambda: (
            self.add_button.setToolTip(self.tr("Append this step to the recipe and select it."))))
        self.update_button = QPushButton()
        translated(self, lambda: self.update_button.setText(self.tr("Update selected")))
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.update_button)

        self.seed_check = QCheckBox()
        translated(self, lambda: self.seed_check.setText(self.tr("Use a seed")))
        translated(self, lambda: self.seed_check.setToolTip(self.tr(
            "Put torch.manual_seed(N) before the first random step, so random tensors "
            "come out the same on every run.")))
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setKeyboardTracking(False)  # one undo step per seed, not per digit
        translated(self, lambda: (
            self.seed_spin.setToolTip(self.tr("The seed: any non-negative integer."))))
        seed = QGroupBox()
        translated(self, lambda seed=seed: seed.setTitle(self.tr("Random seed")))
        seed_row = QHBoxLayout(seed)
        seed_row.addWidget(self.seed_check)
        seed_row.addWidget(self.seed_spin, 1)

        layout = QVBoxLayout(self)
        function_row = QFormLayout()
        function_label = QLabel()
        translated(self, lambda: function_label.setText(self.tr("Function")))
        function_row.addRow(function_label, self.function_combo)
        layout.addLayout(function_row)
        layout.addWidget(self.summary)
        layout.addWidget(arguments)
        layout.addLayout(names)
        layout.addWidget(self.preview)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        layout.addWidget(seed)
        layout.addStretch(1)

        self.function_combo.currentIndexChanged.connect(self._on_view_function_changed)
        self.form.changed.connect(self._refresh)
        self.name_edit.textEdited.connect(self._on_view_name_edited)
        self.name_edit.textChanged.connect(self._refresh)
        self.add_button.clicked.connect(self.add)
        self.update_button.clicked.connect(self.update_selected)
        self.seed_check.toggled.connect(self._on_view_seed_toggled)
        self.seed_spin.valueChanged.connect(self._on_view_seed_changed)

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated_when_shown),
                (doc.selection_changed, self._on_model_selection_changed),
                (doc.reset, self._on_model_reset))

    # -- public ------------------------------------------------------------------------------
    @property
    def spec(self) -> OpSpec:
        """The chosen creation function."""
        return self._specs[self.function_combo.currentIndex()]

    def set_function(self, name: str) -> None:
        """Choose the creation function ``name`` (``"zeros"`` or ``"torch.zeros"``)."""
        index = next(i for i, s in enumerate(self._specs) if name in (s.name, s.function_key))
        if index == self.function_combo.currentIndex():
            self._on_view_function_changed(index)
        else:
            self.function_combo.setCurrentIndex(index)

    def current_call(self) -> str | None:
        """The text of the call the form describes, or None while a field has an error."""
        if self.form.errors():
            return None
        call = call_text(self.spec, self.form.values())
        return call if form_step(None, call) is not None else None

    def add(self) -> None:
        """Append the step the panel describes, as one undoable edit, and select it."""
        call, name = self.current_call(), self.name_edit.text().strip()
        if call is None or self._name_problems()[0] is not None:
            return
        step = form_step(name, call)
        if step is None:
            return
        recipe = self._document.recipe
        push_edit(self._stack, recipe, lambda r: r.append(step), self.tr("Add {0}").format(name))
        self._document.select(len(recipe.steps) - 1)

    def update_selected(self) -> None:
        """Replace the selected creation step with the panel's name and call."""
        index, call = self._editable_index(), self.current_call()
        name = self.name_edit.text().strip()
        if index is None or call is None or self._name_problems()[1] is not None:
            return

        def edit(r: Recipe) -> None:
            if r.steps[index].name != name:
                r.rename(index, name)  # later steps follow the new name
            r.replace_step(index, replace(r.steps[index], text=call))

        push_edit(self._stack, self._document.recipe, edit,
                  self.tr("Update {0}").format(name))

    def set_seed(self, seed: int | None) -> None:
        """Seed the recipe with ``torch.manual_seed(seed)``; None removes the seed step."""
        doc = self._document
        text = self.tr("Remove seed") if seed is None else self.tr("Seed {0}").format(seed)
        before, selected = seed_index(doc.recipe), doc.selected
        push_edit(self._stack, doc.recipe, lambda r: seed_recipe(r, seed), text)
        after = seed_index(doc.recipe)
        if selected is not None:  # keep the same step selected as steps shift
            if before is None and after is not None and after <= selected:
                doc.select(selected + 1)
            elif before is not None and after is None and before < selected:
                doc.select(selected - 1)

    # -- model to view -------------------------------------------------------------------------
    def _on_model_evaluated_when_shown(self, _run: RecipeRun) -> None:
        self._when_shown()

    def _on_model_evaluated(self, run: RecipeRun) -> None:
        recipe = self._document.recipe
        with QSignalBlocker(self.form):
            self.form.set_names(self._tensor_names())
        index = seed_index(recipe)
        with QSignalBlocker(self.seed_check), QSignalBlocker(self.seed_spin):
            self.seed_check.setChecked(index is not None)
            if index is not None:
                call = statement_value(self._document.step_text(index))  # torch.manual_seed(N)
                literal, seed = node_literal(call.args[0]) if isinstance(call, ast.Call) \
                    and call.args else (False, None)
                if literal and isinstance(seed, int):
                    self.seed_spin.setValue(seed)
        selected = self._editable_index()
        if selected is not None and recipe.steps[selected] != self._loaded:
            self._load(selected)  # changed underneath the form: by undo, or another panel
        elif self._name_auto and selected is None:
            self._set_auto_name()
        self._refresh()

    def _on_model_selection_changed(self, index: int | None) -> None:
        if self._editable_index() is not None:
            self._load(index)  # type: ignore[arg-type]
        elif self._loaded is not None:  # the form showed a step: never another one's
            self._on_model_reset()
        elif self._name_auto:
            self._set_auto_name()
        self._refresh()

    def _on_model_reset(self) -> None:
        """The form starts afresh (another recipe; or a step it cannot show selected after
        one it showed): the first function, its example values, a free name."""
        spec = self._specs[0]
        with QSignalBlocker(self.function_combo), QSignalBlocker(self.form):
            self.function_combo.setCurrentIndex(0)
            self.form.set_spec(spec, self._tensor_names())
            self.form.set_values(example_values(spec))
        self.summary.setText(op_summary(spec))
        self._loaded = self._loaded_call = None
        self._set_auto_name()
        self._refresh()

    def _load(self, index: int) -> None:
        step = self._document.recipe.steps[index]
        spec = creation_spec(step)
        assert spec is not None and not step.is_code
        with QSignalBlocker(self.function_combo), QSignalBlocker(self.form):
            self.function_combo.setCurrentIndex(self._specs.index(spec))
            self.form.set_spec(spec, self._tensor_names())
            self.form.set_values(bind_texts(spec, step.text))
        with QSignalBlocker(self.name_edit):
            self.name_edit.setText(step.name or "")
        self._loaded, self._name_auto = step, True
        self._loaded_call = self.current_call()  # the same call spelled the form's way
        self.summary.setText(op_summary(spec))

    # -- view to model ------------------------------------------------------------------------
    def _on_view_function_changed(self, index: int) -> None:
        spec = self._specs[index]
        with QSignalBlocker(self.form):
            self.form.set_spec(spec, self._tensor_names())
            self.form.set_values({**example_values(spec), **self.form.values()})
        self.summary.setText(op_summary(spec))
        self._refresh()

    def _on_view_name_edited(self, _text: str) -> None:
        self._name_auto = False

    def _on_view_seed_toggled(self, checked: bool) -> None:
        self.set_seed(self.seed_spin.value() if checked else None)

    def _on_view_seed_changed(self, value: int) -> None:
        if self.seed_check.isChecked():
            self.set_seed(value)

    # -- helpers --------------------------------------------------------------------------------
    def _tensor_names(self) -> list[str]:
        """The tensors an argument may name: with a step selected (which "Update selected"
        rewrites), only those made before it, so no step reads a name made later."""
        tensors = tensor_names(self._document.run)
        recipe, index = self._document.recipe, self._editable_index()
        kept = recipe.derived("bound_names", lambda _steps: {})  # by ``index``, for these steps
        if index not in kept:
            kept[index] = bound_names(recipe.steps, index)
        bound = kept[index]
        return [n for n in bound if n in tensors]

    def _editable_index(self) -> int | None:
        """The selected step, when it is a creation call this panel can edit."""
        index, steps = self._document.selected, self._document.recipe.steps
        if index is None or not 0 <= index < len(steps) or creation_spec(steps[index]) is None:
            return None
        return index

    def _set_auto_name(self) -> None:
        with QSignalBlocker(self.name_edit):
            self.name_edit.setText(self._document.recipe.unique_name("x"))
        self._name_auto = True

    def _name_problems(self) -> tuple[str | None, str | None]:
        """Why the name cannot be used to add a step, and to update the selected one."""
        name, recipe = self.name_edit.text().strip(), self._document.recipe
        if not name:
            empty = self.tr("Give the tensor a name.")
            return empty, empty
        for_add = check_name(name, taken=set(recipe.names()))
        index = self._editable_index()
        if index is None:
            return for_add, self.tr("No creation step is selected.")
        own = recipe.steps[index].name
        return for_add, (check_name(name) if name == own else check_name(name, set(recipe.names())))

    def _refresh(self) -> None:
        """Bring preview, messages and buttons in line with the form and the name."""
        call, errors = self.current_call(), self.form.errors()
        name = self.name_edit.text().strip()
        for_add, for_update = self._name_problems()
        if call is None:
            self.preview.setText(self.tr("Fix the marked fields to see the code."))
            set_style_sheet(self.preview, HINT_STYLE)
            self.preview.setFont(self.font())
        else:
            self.preview.setText(bounded(write_step(Step(name if name.isidentifier() else None,
                                                         call))))
            set_style_sheet(self.preview, "")
            self.preview.setFont(self._mono)
        index = self._editable_index()
        own_name = index is not None and for_add is not None and for_update is None
        if own_name:
            message = self.tr("'{0}' is the selected step: Update changes it; "
                              "give a new name to add another.").format(name)
        else:
            message = for_add or ""
        self.name_message.setText(bounded(message))
        set_style_sheet(self.name_message, HINT_STYLE if own_name else error_style())
        self.name_message.setVisible(bool(message))
        self.add_button.setEnabled(not errors and for_add is None)
        changed = index is not None and call is not None and (
            call != self._loaded_call or name != self._document.recipe.steps[index].name)
        self.update_button.setEnabled(not errors and for_update is None and changed)
        self.update_button.setToolTip(
            self.tr("Select a creation step in the recipe to update it.") if index is None
            else self.tr("Replace the selected step with this name and call."))
        result, failed = self._selected_result()
        set_style_sheet(self.status, error_style() if failed else HINT_STYLE)
        self.status.setText(bounded(result, width=MAX_MESSAGE_LINE))
        self.status.setVisible(bool(result))

    def _selected_result(self) -> tuple[str, bool]:
        """What the panel says of the selected step, and whether it is its error."""
        index, run = self._document.selected, self._document.run
        if index is None or index >= len(run.results):
            return "", False
        r = run.results[index]
        if r.status == "error":
            return self.tr("{0} failed: {1}: {2}").format(
                r.step.label, r.error_type, r.error), True
        if self._editable_index() is None:
            return self.tr("The selected step, {0}, is not made by a creation function: this "
                           "form makes a new tensor, it does not show that step.").format(
                               self._document.step_text(index, r.step).splitlines()[0]), False
        return "", False


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.reader import read_step
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(Recipe([read_step("a = torch.ones(2, 3)")]))
    panel = BuilderPanel(doc, QUndoStack())
    panel.resize(380, 700)
    sys.exit(run_demo(app, doc, panel))


def bound_names(steps: tuple, upto: int | None = None) -> list[str]:
    """The steps' names, each once, that the steps before ``upto`` (all: None) bind."""
    before: set[str] = set()
    for step in steps[:upto]:
        before.update(step.binds)
    return [n for n in dict.fromkeys(s.name for s in steps if s.name) if n in before]
