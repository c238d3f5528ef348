"""The op explorer: browse the catalogue, apply an op to a recipe tensor, change it live.

Picking an op and pressing Apply appends a step. Selecting an op step loads it, and
from then on every parameter change edits that step at once (the recipe runs again
and every view follows), as undo steps that merge while the same step is edited.
Errors are shown as lessons: torch's message, its usual cause, and the fix.
"""

from __future__ import annotations

import functools
import html
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import torch
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QCloseEvent, QFontDatabase, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.catalog import CATALOG, OpSpec
from app.document import Document
from app.evaluator import RecipeRun, StepResult
from app.expr import BinOp, Call, Const, Expr, Ref, Seq, UnaryOp
from app.recipe import Step, check_name
from app.writer import write_expr, write_step
from widgets.i18n_text import lesson_text, op_summary
from widgets.param_form import ParamForm
from widgets.theme import current_palette, error_style
from widgets.timing_view import TimingView
from widgets.undo import push_edit

explain: Callable[[str | None, str, str], Any] | None
try:
    from app.lessons import explain
except ImportError:  # without the lesson table, torch's message is shown alone
    explain = None

#: Categories the builder panel offers; every other category is an op.
BUILDER_CATEGORIES = frozenset({"creation", "random", "output"})
#: Optional parameters of these kinds are written as keywords: ``diagonal=1``, ``dim=0``.
KEYWORD_KINDS = frozenset({"dim", "int", "bool", "float", "number", "dtype", "device", "str"})
HINT_STYLE = "color: palette(placeholder-text);"
_SPEC_ROLE = Qt.ItemDataRole.UserRole


# -- the op's call, worked out from the form (Qt-free helpers) --------------------------------
def op_spec(step: Step) -> OpSpec | None:
    """The catalogue entry of a step the op panel edits: one call of a non-builder op."""
    expr = step.expr
    if not isinstance(expr, Call) or (expr.is_method and not expr.args):
        return None
    spec = CATALOG.get(expr.op)
    return None if spec is None or spec.category in BUILDER_CATEGORIES else spec


def has_receiver(spec: OpSpec) -> bool:
    """Whether "Apply to" picks the op's main tensor (``x`` in ``x.view`` or ``tril(x)``)."""
    if spec.function_key is None:
        return True
    return any(p.name == spec.receiver and p.kind == "tensor" for p in spec.params)


def form_spec(spec: OpSpec) -> OpSpec:
    """``spec`` with the parameters the form shows: all but the one "Apply to" picks."""
    return replace(spec, params=spec.method_params()) if has_receiver(spec) else spec


def bind_op(spec: OpSpec, call: Call) -> tuple[Expr | None, dict[str, Expr]]:
    """Split a call into its receiver (for "Apply to") and the form's parameter values."""
    if call.is_method:
        values = spec.bind(call)
        first = spec.method_params()[0] if spec.method_params() else None
        value = values.get(first.name) if first is not None else None
        # x.to(torch.float64): torch reads a dtype in the device slot as the dtype
        if first is not None and first.kind == "device" and isinstance(value, Const) \
                and isinstance(value.value, torch.dtype) and "dtype" not in values:
            values["dtype"] = values.pop(first.name)
        if has_receiver(spec):
            return call.args[0], values
        return None, {**values, spec.receiver: call.args[0]}
    values = dict(spec.bind(call))
    return (values.pop(spec.receiver, None) if has_receiver(spec) else None), values


def build_call(spec: OpSpec, values: dict[str, Expr], receiver: Expr | None,
               spelling: str | None, keywords: frozenset[str] | set[str]) -> Call:
    """The call for the form's ``values``.

    ``spelling`` is ``"method"``, a namespace (``torch``, ``F``), or None for the
    catalogue's first spelling; optional parameters named in ``keywords`` are written
    as keywords when they come last.
    """
    values = dict(values)
    main = receiver if has_receiver(spec) else values.get(spec.receiver)
    if (spelling == "method" or spec.function_key is None) and main is not None \
            and spec.method:
        values.pop(spec.receiver, None)
        call = spec.make_call(values, receiver=main)
    else:
        if has_receiver(spec) and receiver is not None:
            values[spec.receiver] = receiver
        namespace = spelling if spelling not in (None, "method") else None
        call = spec.make_call(values, namespace=namespace)
    return _keywordize(call, spec, keywords)


def _keywordize(call: Call, spec: OpSpec, keywords: frozenset[str] | set[str]) -> Call:
    """Move trailing positional arguments named in ``keywords`` to keywords."""
    head = 1 if call.is_method else 0
    params = [p for p in (spec.method_params() if call.is_method else spec.params)
              if not p.keyword_only]
    args = list(call.args[head:])
    if len(args) > len(params) or any(p.varargs for p in params[:len(args)]):
        return call
    moved: list[tuple[str, Expr]] = []
    while args and params[len(args) - 1].name in keywords:
        moved.insert(0, (params[len(args) - 1].name, args.pop()))
    if not moved:
        return call
    return Call(call.op, call.args[:head] + tuple(args), tuple(moved) + call.kwargs)


def default_keywords(spec: OpSpec) -> set[str]:
    """The optional parameters a new step writes as keywords."""
    return {p.name for p in spec.params if not p.required and p.kind in KEYWORD_KINDS}


def call_keywords(spec: OpSpec, call: Call) -> set[str]:
    """The parameters to write as keywords when the form rewrites ``call``: those it gave
    as keywords, and optional ones it left out (``diagonal=1`` once the user sets it)."""
    given = {k for k, _ in call.kwargs}
    bound = set(spec.bind(call))
    return given | (default_keywords(spec) - bound)


def signature(spec: OpSpec) -> str:
    """``torch.tril(input, diagonal=0)`` and, for ops that are also methods, the method."""
    def one(head: str, params: tuple) -> str:
        parts: list[str] = []
        for p in params:
            if p.keyword_only and "*" not in parts:
                parts.append("*")
            text = ("*" if p.varargs else "") + p.name
            parts.append(text if p.required else f"{text}={write_expr(Const(p.default))}")
        return f"{head}({', '.join(parts)})"

    lines = [one(key, spec.params) for key in spec.function_keys[:1]]
    if spec.method:
        lines.append(one(f"{spec.receiver}.{spec.name}" if has_receiver(spec)
                         else f"Tensor.{spec.name}", spec.method_params()))
    return "\n".join(lines)


def _op_key(expr: Expr) -> str | None:
    if isinstance(expr, Call):
        return expr.op
    if isinstance(expr, (BinOp, UnaryOp)):
        return expr.op
    return None


def _disconnect(links: list[tuple[Any, weakref.WeakMethod]]) -> None:
    for signal, ref in links:
        slot = ref()
        if slot is not None:
            signal.disconnect(slot, missing_ok=True)


# -- the panel ------------------------------------------------------------------------------------
class OpPanel(QWidget):
    """Browse ops, apply one to a tensor in the recipe, and change an op step live.

    Parameters
    ----------
    document : Document
        The open recipe; steps are added to it, edited in it and selected.
    undo_stack : QUndoStack or None
        Where edits go, so they can be undone.
    parent : QWidget, optional
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self._specs = [s for s in CATALOG.specs if s.category not in BUILDER_CATEGORIES]
        self._spec = self._specs[0]
        self._spelling: str | None = None  # how the call is written: see build_call
        self._keywords: set[str] = default_keywords(self._spec)
        self._frozen: dict[str, tuple[Expr, str]] = {}  # values the form cannot show
        self._loaded_values: dict[str, Expr] = {}  # the values as the loaded step spells them
        self._receivers: list[Expr] = []
        self._editing: int | None = None  # the step whose parameters the panel edits
        self._loaded: Step | None = None  # that step as the panel last wrote or read it
        self._session = 0  # edits merge within one session of editing one step
        self._name_auto = True
        self._build()
        self._set_model_connected(True)
        self._show_spec(self._spec)
        self._on_model_selection_changed(document.selected)

    # -- building ----------------------------------------------------------------------------
    def _build(self) -> None:
        self._mono = mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Search ops: name or what it does"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setToolTip(self.tr("Show only ops whose name or summary contains "
                                            "this text, such as 'dim' or 'mask'."))
        self.op_tree = QTreeWidget()
        self.op_tree.setHeaderHidden(True)
        self.op_tree.setToolTip(self.tr("The ops, by category. Pick one to see what it does "
                                        "and to apply it."))
        for category in dict.fromkeys(s.category for s in self._specs):
            top = QTreeWidgetItem([category])
            top.setFlags(top.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            bold = top.font(0)
            bold.setBold(True)
            top.setFont(0, bold)
            for i, spec in enumerate(self._specs):
                if spec.category == category:
                    child = QTreeWidgetItem([spec.name])
                    child.setData(0, _SPEC_ROLE, i)
                    child.setToolTip(0, op_summary(spec))
                    top.addChild(child)
            self.op_tree.addTopLevelItem(top)
        self.op_tree.expandAll()

        browser = QWidget()
        box = QVBoxLayout(browser)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.search_edit)
        box.addWidget(self.op_tree)

        # what the op does
        self.title = QLabel()
        self.title.setFont(mono)
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setToolTip(self.tr("The chosen op."))
        self.doc_link = QLabel()
        self.doc_link.setOpenExternalLinks(True)
        self.doc_link.setToolTip(self.tr("Open PyTorch's documentation of this op."))
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.doc_link)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setToolTip(self.tr("What the op does."))
        self.signature = QLabel()
        self.signature.setFont(mono)
        self.signature.setWordWrap(True)
        self.signature.setStyleSheet(HINT_STYLE)
        self.signature.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.signature.setToolTip(self.tr("How the op is called, with its defaults."))

        # applying it
        self.mode_label = QLabel()
        self.mode_label.setWordWrap(True)
        self.mode_label.setToolTip(self.tr("Whether the panel adds a new step or changes the "
                                           "selected one."))
        self.mode_button = QPushButton()
        self.mode_button.setToolTip(self.tr("Switch between changing the selected step and "
                                            "adding a new one."))
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.mode_label, 1)
        mode_row.addWidget(self.mode_button)

        self.input_combo = QComboBox()
        self.input_combo.setToolTip(self.tr("The tensor the op is applied to, by name."))
        self.form = ParamForm()
        self.name_edit = QLineEdit()
        self.name_edit.setToolTip(self.tr("The variable the result is assigned to."))
        self.name_message = QLabel()
        self.name_message.setWordWrap(True)
        self.name_message.hide()
        inputs = QFormLayout()
        inputs.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._input_label = QLabel(self.tr("Apply to"))
        self._input_label.setBuddy(self.input_combo)
        self._input_label.setToolTip(self.input_combo.toolTip())
        inputs.addRow(self._input_label, self.input_combo)
        self._name_label = QLabel(self.tr("Result"))
        self._name_label.setBuddy(self.name_edit)
        self._name_label.setToolTip(self.name_edit.toolTip())

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
        self.preview.setToolTip(self.tr("The Python line the step is, as saved in the recipe."))
        self.apply_button = QPushButton(self.tr("Apply"))
        self.apply_button.setToolTip(self.tr("Append this op as a new step and select it."))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)

        apply_box = QGroupBox(self.tr("Step"))
        apply_layout = QVBoxLayout(apply_box)
        apply_layout.addLayout(mode_row)
        apply_layout.addLayout(inputs)
        apply_layout.addWidget(self.form)
        apply_layout.addLayout(names)
        apply_layout.addWidget(self.preview)
        apply_layout.addLayout(buttons)

        # errors as lessons
        self.lesson_box = QFrame()
        self.lesson_box.setObjectName("lesson")
        self.lesson_box.setStyleSheet("QFrame#lesson { border: 1px solid %s; border-radius: 4px; }"
                                      % current_palette().error)
        self.lesson_box.setToolTip(self.tr("Why the step failed, and what to change."))
        self.error_label = self._lesson_label(error_style())
        self.error_label.setFont(mono)
        self.cause_label = self._lesson_label("")
        self.fix_label = self._lesson_label("")
        lesson = QVBoxLayout(self.lesson_box)
        lesson.addWidget(self.error_label)
        lesson.addWidget(self.cause_label)
        lesson.addWidget(self.fix_label)
        self.lesson_box.hide()

        self.timing_view = TimingView(self._document)
        timing_box = QGroupBox(self.tr("Time it"))
        QVBoxLayout(timing_box).addWidget(self.timing_view)

        details = QWidget()
        column = QVBoxLayout(details)
        column.addLayout(heading)
        column.addWidget(self.summary)
        column.addWidget(self.signature)
        column.addWidget(apply_box)
        column.addWidget(self.lesson_box)
        column.addWidget(timing_box)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(details)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(browser)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 5)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)

        self.search_edit.textChanged.connect(self._on_view_search_changed)
        self.op_tree.currentItemChanged.connect(self._on_view_op_changed)
        self.mode_button.clicked.connect(self._on_view_mode_clicked)
        self.input_combo.currentIndexChanged.connect(self._on_view_params_changed)
        self.form.changed.connect(self._on_view_params_changed)
        self.name_edit.textEdited.connect(self._on_view_name_edited)
        self.name_edit.textChanged.connect(self._refresh)
        self.name_edit.editingFinished.connect(self._on_view_name_finished)
        self.apply_button.clicked.connect(self.apply)

    def _lesson_label(self, style: str) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setStyleSheet(style)
        return label

    def _set_model_connected(self, connect: bool) -> None:
        """Connect to (or disconnect from) the document: the one place the panel listens."""
        doc = self._document
        links = ((doc.evaluated, self._on_model_evaluated),
                 (doc.selection_changed, self._on_model_selection_changed))
        for signal, slot in links:
            if connect:
                signal.connect(slot)
            else:
                signal.disconnect(slot)
        if connect:
            # The document can outlive the widget's C++ half while Python holds the
            # wrapper: drop the connections when Qt destroys the widget.
            refs = [(signal, weakref.WeakMethod(slot)) for signal, slot in links]
            self.destroyed.connect(functools.partial(_disconnect, refs))

    def closeEvent(self, event: QCloseEvent) -> None:
        self._set_model_connected(False)
        super().closeEvent(event)

    # -- public ------------------------------------------------------------------------------------
    @property
    def spec(self) -> OpSpec:
        """The chosen op."""
        return self._spec

    @property
    def editing(self) -> int | None:
        """The index of the step the panel changes live, or None when it adds new steps."""
        return self._editing

    def set_op(self, name: str) -> None:
        """Choose op ``name`` (``"tril"``, ``"torch.tril"`` or ``"Tensor.view"``) for a new step."""
        spec = next(s for s in self._specs if name == s.name or name in s.keys)
        with QSignalBlocker(self.op_tree):
            self._select_item(spec)
        self._choose(spec)

    def set_input(self, name: str) -> None:
        """Apply the op to tensor ``name``."""
        self.input_combo.setCurrentIndex(self._receivers.index(Ref(name)))

    def current_call(self) -> Call | None:
        """The call the panel describes, or None while a field has an error."""
        errors = dict(self.form.errors())
        values = dict(self.form.values())
        for pname, (expr, message) in self._frozen.items():
            if errors.get(pname) == message:  # still as loaded: keep the step's own value
                values[pname] = expr
                errors.pop(pname)
        for pname, value in values.items():  # keep (a, b) a tuple when the form reads a list
            old = self._loaded_values.get(pname)
            if isinstance(value, Seq) and isinstance(old, Seq) and value.items == old.items:
                values[pname] = old
        receiver = self._current_receiver()
        if errors or (has_receiver(self._spec) and receiver is None):
            return None
        return build_call(self._spec, values, receiver, self._spelling, self._keywords)

    def apply(self) -> None:
        """Append the op as a new step, as one undoable edit, and select it.

        Does nothing while the panel is changing a selected step (see ``editing``).
        """
        call = self.current_call()
        if self._editing is not None or call is None or self._name_problem() is not None:
            return
        name = None if self._spec.in_place else self.name_edit.text().strip()
        step = Step(name, call)
        recipe = self._document.recipe
        push_edit(self._stack, recipe, lambda r: r.append(step),
                  self.tr("Apply {0}").format(self._spec.name))
        self._document.select(len(recipe.steps) - 1)

    # -- model to view -------------------------------------------------------------------------
    def _on_model_evaluated(self, run: RecipeRun) -> None:
        steps = self._document.recipe.steps
        index = self._editing
        if index is not None:
            if self._document.selected != index or index >= len(steps) \
                    or op_spec(steps[index]) is None:
                self._editing = self._loaded = None
            elif steps[index] != self._loaded:
                self._load(index)  # changed underneath the panel: undo, redo, another panel
        if self._editing is None:
            with QSignalBlocker(self.form), QSignalBlocker(self.input_combo):
                names = self._tensor_names()
                self.form.set_names(names)
                self._fill_receivers(names, self._current_receiver())
            if self._name_auto:
                self._set_auto_name()
        self._refresh()

    def _on_model_selection_changed(self, index: int | None) -> None:
        steps = self._document.recipe.steps
        if index is not None and index < len(steps) and op_spec(steps[index]) is not None:
            self._session += 1
            self._load(index)
        else:
            self._start_new(self._selected_name())
        self._refresh()

    def _load(self, index: int) -> None:
        """Show step ``index`` in the panel and edit it from now on."""
        step = self._document.recipe.steps[index]
        spec = op_spec(step)
        assert spec is not None and isinstance(step.expr, Call)
        call = step.expr
        receiver, values = bind_op(spec, call)
        names = self._tensor_names(before=index)
        self._spec, self._editing, self._loaded = spec, index, step
        self._spelling = "method" if call.is_method else call.op.rsplit(".", 1)[0]
        self._keywords = call_keywords(spec, call)
        with QSignalBlocker(self.op_tree), QSignalBlocker(self.form), \
                QSignalBlocker(self.input_combo), QSignalBlocker(self.name_edit):
            self._select_item(spec)
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
            current = Ref(receiver)
        elif not (isinstance(current, Ref) and current.name in names):
            current = None  # the newest tensor
        with QSignalBlocker(self.form), QSignalBlocker(self.input_combo):
            if self.form.spec is None or self.form.spec.name != self._spec.name:
                self._frozen, self._loaded_values = {}, {}
                self.form.set_spec(form_spec(self._spec), names)
            else:  # the same op: keep its values, for the same op on another tensor
                self.form.set_names(names)
            self._fill_receivers(names, current)
        self._set_auto_name()

    # -- view to model -------------------------------------------------------------------------
    def _on_view_search_changed(self, text: str) -> None:
        words = text.strip().lower()
        for i in range(self.op_tree.topLevelItemCount()):
            top = self.op_tree.topLevelItem(i)
            shown = 0
            for j in range(top.childCount()):
                child = top.child(j)
                spec = self._specs[child.data(0, _SPEC_ROLE)]
                match = not words or words in spec.name.lower() or words in spec.summary.lower()
                child.setHidden(not match)
                shown += match
            top.setHidden(shown == 0)
            top.setExpanded(True)

    def _on_view_op_changed(self, item: QTreeWidgetItem | None,
                            _previous: QTreeWidgetItem | None) -> None:
        if item is None or item.data(0, _SPEC_ROLE) is None:
            return
        spec = self._specs[item.data(0, _SPEC_ROLE)]
        if self._editing is None or spec is not self._spec:
            self._choose(spec)

    def _choose(self, spec: OpSpec) -> None:
        """Describe a new step of ``spec``, applied to the selected step's result."""
        self._spec = spec
        self._show_spec(spec)
        self._start_new(self._selected_name())
        self._refresh()

    def _on_view_mode_clicked(self) -> None:
        index = self._document.selected
        if self._editing is not None:
            self._start_new(self._selected_name())
        elif index is not None and op_spec(self._document.recipe.steps[index]) is not None:
            self._session += 1
            self._load(index)
        self._refresh()

    def _on_view_params_changed(self, *_: object) -> None:
        index = self._editing
        call = self.current_call()
        if index is not None and call is not None:
            step = self._document.recipe.steps[index]
            if call != step.expr:
                new = replace(step, expr=call)
                self._loaded = new  # so the evaluation that follows does not reload the form
                push_edit(self._stack, self._document.recipe,
                          lambda r: r.replace_step(index, new),
                          self.tr("Change {0}").format(step.label),
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
                  self.tr("Rename {0} to {1}").format(self._loaded.name, name))

    # -- helpers ---------------------------------------------------------------------------------
    def _select_item(self, spec: OpSpec) -> None:
        index = self._specs.index(spec)
        for i in range(self.op_tree.topLevelItemCount()):
            top = self.op_tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, _SPEC_ROLE) == index:
                    self.op_tree.setCurrentItem(top.child(j))
                    self.op_tree.scrollToItem(
                        top.child(j), QTreeWidget.ScrollHint.PositionAtCenter)
                    return

    def _tensor_names(self, before: int | None = None) -> list[str]:
        """Names an op can take: steps' names, without those known to hold no tensor."""
        doc = self._document
        steps = doc.recipe.steps if before is None else doc.recipe.steps[:before]
        names: dict[str, None] = {}
        for i, step in enumerate(steps):
            if not step.name:
                continue
            names.pop(step.name, None)
            result = doc.run.results[i] if i < len(doc.run.results) else None
            if result is None or not result.ok or isinstance(result.value, torch.Tensor):
                names[step.name] = None  # a failed step still names its tensor-to-be
        return list(names)

    def _selected_name(self) -> str | None:
        index = self._document.selected
        steps = self._document.recipe.steps
        return steps[index].name if index is not None and index < len(steps) else None

    def _fill_receivers(self, names: list[str], current: Expr | None) -> None:
        items: list[Expr] = [Ref(n) for n in names]
        if current is not None and current not in items:
            items.append(current)
        self._receivers = items
        self.input_combo.clear()
        for expr in items:
            self.input_combo.addItem(expr.name if isinstance(expr, Ref) else write_expr(expr))
        if items:
            self.input_combo.setCurrentIndex(items.index(current) if current in items
                                             else len(items) - 1)

    def _current_receiver(self) -> Expr | None:
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
            return self.tr("Give the result a name.")
        taken = set(self._document.recipe.names())
        if self._editing is not None and self._loaded is not None:
            taken.discard(self._loaded.name)  # type: ignore[arg-type]
        return check_name(name, taken)

    def _show_spec(self, spec: OpSpec) -> None:
        key = spec.function_key or f"Tensor.{spec.name}"
        self.title.setText(key)
        self.summary.setText(op_summary(spec))
        self.signature.setText(signature(spec))
        self.doc_link.setText('<a href="{0}">{1}</a>'.format(
            html.escape(spec.doc_url, quote=True), html.escape(self.tr("docs"))))
        self.doc_link.setToolTip(self.tr("Open PyTorch's documentation: {0}").format(
            spec.doc_url))
        receiver = has_receiver(spec)
        self.input_combo.setVisible(receiver)
        self._input_label.setVisible(receiver)

    def _refresh(self) -> None:
        """Bring mode, preview, name message, button and lesson in line with the state."""
        spec, editing = self._spec, self._editing is not None
        selected = self._document.selected
        steps = self._document.recipe.steps
        if editing and self._loaded is not None:
            self.mode_label.setText(self.tr("Changing step {0}: every change applies at "
                                            "once.").format(self._loaded.label))
            self.mode_button.setText(self.tr("New step"))
            self.mode_button.show()
        else:
            self.mode_label.setText(self.tr("New step: Apply adds it at the end."))
            can_edit = selected is not None and selected < len(steps) \
                and op_spec(steps[selected]) is not None
            self.mode_button.setText(self.tr("Edit {0}").format(steps[selected].label)
                                     if can_edit else "")
            self.mode_button.setVisible(can_edit)
        in_place = spec.in_place or (editing and self._loaded is not None
                                     and self._loaded.name is None)
        self.name_edit.setEnabled(not in_place)
        self._name_label.setEnabled(not in_place)
        self.name_edit.setPlaceholderText(
            self.tr("none: it changes its input in place") if in_place else "")

        call = self.current_call()
        name = self.name_edit.text().strip()
        if call is None:
            self.preview.setText(self.tr("Fix the marked fields to see the code.")
                                 if self._receivers or not has_receiver(spec)
                                 else self.tr("Add a tensor first: the op needs one."))
            self.preview.setStyleSheet(HINT_STYLE)
        else:
            shown = None if in_place or not name.isidentifier() else name
            step = Step(shown, call)
            if editing and self._loaded is not None and call == self._loaded.expr:
                step = self._loaded  # as the recipe spells it
            self.preview.setText(write_step(step))
            self.preview.setStyleSheet("")
        problem = self._name_problem()
        self.name_message.setText(problem or "")
        self.name_message.setStyleSheet(error_style())
        self.name_message.setVisible(bool(problem))
        self.apply_button.setVisible(not editing)
        self.apply_button.setEnabled(call is not None and problem is None)
        self._show_lesson()

    def _show_lesson(self) -> None:
        run, index = self._document.run, self._document.selected
        result = run.results[index] if index is not None and index < len(run.results) else None
        if result is None or result.status not in ("error", "blocked"):
            self.lesson_box.hide()
            return
        failed = result
        if result.status == "blocked":
            bad = self._failed_input(result, index)  # type: ignore[arg-type]
            if bad == result.blocked_by:
                head = self.tr("Not run: its input '{0}' failed.").format(bad)
            else:
                head = self.tr("Not run: its input '{0}' could not run, because '{1}' "
                               "failed.").format(bad, result.blocked_by)
            failed = run.result_for(result.blocked_by) or result
            self.error_label.setText(head + "\n" + self.tr("{0}: {1}: {2}").format(
                result.blocked_by, failed.error_type, failed.error))
        else:
            self.error_label.setText(self.tr("{0}: {1}").format(result.error_type, result.error))
        lesson = None
        if explain is not None and failed.status == "error":
            lesson = explain(_op_key(failed.step.expr), failed.error_type, failed.error)
        self.cause_label.setText(self.tr("Why: {0}").format(lesson_text(lesson.cause))
                                 if lesson else "")
        self.fix_label.setText(self.tr("Fix: {0}").format(lesson_text(lesson.fix))
                               if lesson else "")
        self.cause_label.setVisible(lesson is not None)
        self.fix_label.setVisible(lesson is not None)
        self.lesson_box.show()

    def _failed_input(self, result: StepResult, index: int) -> str:
        """The name ``result``'s step reads whose own step failed or was blocked."""
        results = self._document.run.results[:index]
        for name in result.step.reads:
            for r in reversed(results):
                if r.step.name == name:
                    if not r.ok:
                        return name
                    break
        return result.blocked_by


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.reader import read_recipe

    app = QApplication(sys.argv)
    doc = Document(read_recipe("import torch\nx = torch.ones(4, 4)\n"
                               "y = torch.tril(x, diagonal=1)\n"))
    doc.select(1)
    panel = OpPanel(doc, QUndoStack())
    panel.resize(420, 900)
    panel.show()
    sys.exit(app.exec())
