"""Op explained: the selected step's inputs and output side by side, and where each output
element came from.

One general mechanism: hovering (or clicking) an output cell asks ``app.explain.provenance`` which
input elements it came from, off the GUI thread, and lights them up; for index and mask
operands (gather's index) the entries that chose them light up too. There is no
per-op highlighting code: what only some ops need comes from ``widgets.explain.op_extras.EXTRAS``.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import Any

import torch
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase, QResizeEvent, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.explain.provenance import Provenance, trace
from app.explain.step_view import StepView, make_step_view, op_key, tensor_parts
from app.expr import Expr, Ref, Seq
from app.recipe.document import Document
from app.recipe.writer import write_step
from widgets.common.background import Job, JobError, start_job
from widgets.common.doc_links import listen
from widgets.common.i18n_text import lesson_text, op_summary
from widgets.explain.explained_grid import MARK_COLOURS, TensorCard, as_table_mask, palette_colour
from widgets.explain.op_extras import EXTRAS, Decoration, OpExtra

explain: Callable[[str | None, str, str], Any] | None
try:
    from app.catalog.error_lessons import explain
except ImportError:  # without the lesson table, torch's message is shown alone
    explain = None

ERROR_STYLE = "color: #c0392b;"
_MAX_LISTED = 4  # source elements named in the hint before "and N more"
EXTRA_MIN_WIDTH = 280  # the extra goes beside the grids only when it gets this much

Index = tuple[int, ...]


def _trace(expr: Expr, inputs: dict[str, Any], index: Index,
           part: int | None) -> Provenance | str:
    """(Off the GUI thread.) Where output element ``index`` came from, or why that is unknown."""
    try:
        return trace(expr, inputs, index, part=part)
    except Exception as e:  # noqa: BLE001 - shown in the hint, never a crash
        return f"{type(e).__name__}: {e}"


def _index_text(name: str, index: Index) -> str:
    return f"{name}[{', '.join(map(str, index))}]" if index else name


class OpView(QWidget):
    """The selected step explained: inputs and output as grids, provenance on hover, extras.

    Parameters
    ----------
    document : Document
        The open recipe; the view follows its selection and evaluations.
    undo_stack : QUndoStack or None
        Where edits made by extras (the tril slider) go.
    parent : QWidget, optional
    """

    traced = Signal(object)
    """Emitted with the ``Provenance`` (or None) once an output cell's sources are lit up."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self.step_view: StepView | None = None
        """What is shown: the selected step with its inputs and output."""
        self.input_cards: list[TensorCard] = []
        self.output_cards: list[TensorCard] = []
        self.extras: dict[type, OpExtra] = {}
        """The extras made so far, one per class, kept and updated."""
        self.extra: OpExtra | None = None
        """The extra shown for the selected step's op, if any."""
        self.provenance: Provenance | None = None
        """The latest provenance lit up."""
        self.active: tuple[int, Index] | None = None
        """The output element explained now: (part, index)."""
        self._pinned: tuple[int, Index] | None = None
        self._generation = 0
        self._cache: dict[tuple[int, Index], Provenance | str] = {}
        self._job: Job | None = None
        self._pending: tuple | None = None
        self._stale = True
        self._build()
        self._set_model_connected(True)

    # -- building ---------------------------------------------------------------------------
    def _build(self) -> None:
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.code = QLabel()
        self.code.setFont(mono)
        self.code.setTextFormat(Qt.TextFormat.PlainText)
        self.code.setWordWrap(True)
        self.code.setStyleSheet("font-weight: bold;")
        self.code.setToolTip(self.tr("The selected step"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setToolTip(self.tr("What the op does"))

        self.error_box = QFrame()
        self.error_box.setObjectName("lesson")
        self.error_box.setStyleSheet("QFrame#lesson { border: 1px solid #c0392b; "
                                     "border-radius: 4px; }")
        self.error_box.setToolTip(self.tr("Why the step failed, and what to change"))
        self.error_label, self.cause_label, self.fix_label = (QLabel() for _ in range(3))
        lesson = QVBoxLayout(self.error_box)
        for label in (self.error_label, self.cause_label, self.fix_label):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lesson.addWidget(label)
        self.error_label.setFont(mono)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_box.hide()

        self._inputs_row, self._outputs_row = QHBoxLayout(), QHBoxLayout()
        self.arrow = QLabel("→")
        big = self.arrow.font()
        big.setPointSizeF(big.pointSizeF() * 2)
        self.arrow.setFont(big)
        self.arrow.setToolTip(self.tr("The inputs on the left make the output on the right"))
        row = QHBoxLayout()
        row.addLayout(self._inputs_row)
        row.addWidget(self.arrow, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addLayout(self._outputs_row)
        self.no_output = QLabel(self.tr("no output:\nthe step failed"))
        self.no_output.setStyleSheet(ERROR_STYLE)
        self.no_output.setToolTip(self.tr("The step raised an error, so there is nothing to show"))
        row.addWidget(self.no_output, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addStretch(1)

        self.legend = QLabel(" &nbsp; ".join(
            f'<span style="background-color:{MARK_COLOURS[k].name()}">&nbsp;&nbsp;&nbsp;&nbsp;'
            f"</span>&nbsp;{html.escape(text)}" for k, text in (
                ("active", self.tr("output element")),
                ("source", self.tr("the inputs it came from")),
                ("used", self.tr("index or mask entries that chose them")))))
        self.legend.setWordWrap(True)
        self.legend.setToolTip(self.tr("Hover or click an output cell to see where it came from"))
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setToolTip(self.tr("Where the hovered output element came from"))

        self.extras_box = QGroupBox()
        self.extras_box.setToolTip(self.tr("A drawing of what this op does"))
        self._extras_layout = QVBoxLayout(self.extras_box)
        self._extras_layout.setContentsMargins(6, 4, 6, 4)
        self.extras_box.hide()

        # the grids, and the op's extra below them, or beside them where there is room
        grids = QVBoxLayout()
        grids.addLayout(row)
        grids.addWidget(self.legend)
        grids.addWidget(self.hint)
        grids.addStretch(1)
        self._body = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self._body.addLayout(grids)
        self._body.addWidget(self.extras_box, 0, Qt.AlignmentFlag.AlignTop)

        # one scrolling column: nothing is squeezed below the height it needs
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(6, 6, 6, 6)
        column.setSpacing(4)
        column.addWidget(self.code)
        column.addWidget(self.summary)
        column.addWidget(self.error_box)
        column.addLayout(self._body)
        column.addStretch(1)
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._scroll)

    def _arrange(self) -> None:
        """Put the extra beside the grids when both fit across, else below them."""
        room = self._scroll.viewport().width() - 24
        need = self._grids_width() + EXTRA_MIN_WIDTH
        side = not self.extras_box.isHidden() and need <= room
        self._body.setDirection(QBoxLayout.Direction.LeftToRight if side
                                else QBoxLayout.Direction.TopToBottom)

    def _grids_width(self) -> int:
        """How wide the row of grids wants to be (worked out now, not at the next layout)."""
        cards = self.input_cards + self.output_cards
        width = sum(max(c.grid.sizeHint().width(), c.title.sizeHint().width(),
                        c.facts.sizeHint().width()) + 12 for c in cards)
        for label in (self.arrow, self.no_output):
            if not label.isHidden():
                width += label.sizeHint().width() + 12
        return width

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._arrange()

    def _set_model_connected(self, connect: bool) -> None:
        """Connect to (or disconnect from) the document: the one place the view listens."""
        doc = self._document
        links = ((doc.evaluated, self._on_model_evaluated),
                 (doc.selection_changed, self._on_model_selection_changed))
        listen(self, links, connect)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self._set_model_connected(False)
        super().closeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    # -- public --------------------------------------------------------------------------------
    def activate_output(self, index: Index, part: int = 0, *, pin: bool = False) -> None:
        """Explain output element ``index`` (of output ``part``), as hovering it does.

        With ``pin`` it stays explained when the mouse leaves the grid, as a click does.
        """
        if part >= len(self.output_cards):
            return
        self.active = (part, tuple(index))
        if pin:
            self._pinned = self.active
        for k, card in enumerate(self.output_cards):
            model = card.grid.table_model
            model.set_marks({model.cell_of(self.active[1]): "active"} if k == part else {})
        found = self._cache.get(self.active)
        if found is not None:
            self._show_provenance(found)
        else:
            self._request((self._generation, part, self.active[1]))

    def refresh(self) -> None:
        """Show the selected step again (the document calls this through its signals)."""
        self._stale = False
        self._generation += 1
        self._cache.clear()
        self._pending = None
        sv = self.step_view = make_step_view(self._document)
        self._show_header(sv)
        self._show_cards(sv)
        decoration = self._show_extra(sv)
        self._decorate(decoration)
        self._arrange()
        self.provenance = None
        active = self._pinned
        if active is not None and active[0] < len(self.output_cards) \
                and self._fits(active[1], self.output_cards[active[0]]):
            self.activate_output(active[1], active[0], pin=True)
        else:
            self.active = self._pinned = None
            self.hint.setText(self._idle_hint(sv))

    # -- model to view ---------------------------------------------------------------------------
    def _on_model_evaluated(self, _run: object) -> None:
        self._refresh_if_shown()

    def _on_model_selection_changed(self, _index: int | None) -> None:
        self._pinned = None
        self._refresh_if_shown()

    def _refresh_if_shown(self) -> None:
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True  # worked out when the tab is shown

    # -- showing ---------------------------------------------------------------------------------
    def _show_header(self, sv: StepView | None) -> None:
        self.error_box.hide()
        if sv is None:
            self.code.setText("")
            self.summary.setText(self.tr("Select a step to see how its op works."))
            self.summary.show()
            return
        self.code.setText(write_step(sv.step))
        result = sv.result
        # a failed step shows its lesson instead of the op's summary
        self.summary.setText(op_summary(sv.spec) if sv.spec is not None and result.ok else "")
        self.summary.setVisible(bool(self.summary.text()))
        if result.status == "error":
            self.error_label.setText(f"{result.error_type}: {result.error}")
            lesson = explain(op_key(sv.step.expr), result.error_type, result.error) \
                if explain is not None else None
            self.cause_label.setText(self.tr("Why: {0}").format(lesson_text(lesson.cause))
                                     if lesson else "")
            self.fix_label.setText(self.tr("Fix: {0}").format(lesson_text(lesson.fix))
                                   if lesson else "")
            self.cause_label.setVisible(lesson is not None)
            self.fix_label.setVisible(lesson is not None)
            self.error_box.show()
        elif result.status in ("blocked", "skipped"):
            self.error_label.setText(self.tr("Not run: the step it depends on, '{0}', failed.")
                                     .format(result.blocked_by) if result.blocked_by
                                     else self.tr("Not run."))
            self.cause_label.hide()
            self.fix_label.hide()
            self.error_box.show()

    def _show_cards(self, sv: StepView | None) -> None:
        inputs: list[tuple[str, int | None, torch.Tensor, str]] = []
        outputs: list[tuple[str, int | None, torch.Tensor]] = []
        if sv is not None:
            roles: dict[str, str] = {}  # which parameter each name is given as
            for pname, expr in sv.operands().items():
                for item in expr.items if isinstance(expr, Seq) else (expr,):
                    if isinstance(item, Ref):
                        roles.setdefault(item.name, pname)
            for name, value in sv.inputs.items():
                for part, t in tensor_parts(value):
                    inputs.append((name, part, t, roles.get(name, self.tr("input"))))
            out_name = sv.step.name or self.tr("result")
            outputs = [(out_name, part, t) for part, t in tensor_parts(sv.output)]
        self._fill(self.input_cards, self._inputs_row, len(inputs), output=False)
        self._fill(self.output_cards, self._outputs_row, len(outputs), output=True)
        for card, (name, part, t, role) in zip(self.input_cards, inputs, strict=True):
            card.show_tensor(t, name, role, part, None if part is None else f"{name}[{part}]")
        for card, (name, part, t) in zip(self.output_cards, outputs, strict=True):
            card.show_tensor(t, name, self.tr("output"), part,
                             None if part is None else f"{name}[{part}]")
        failed = sv is not None and sv.result.status != "ok"
        self.no_output.setVisible(failed)
        self.arrow.setVisible(bool(outputs) or bool(inputs))
        self.legend.setVisible(bool(outputs) and bool(inputs))

    def _fill(self, cards: list[TensorCard], row: QHBoxLayout, n: int, *, output: bool) -> None:
        """Keep exactly ``n`` cards in ``row``, reusing the ones there."""
        while len(cards) < n:
            card = TensorCard()
            if output:
                card.grid.hovered.connect(functools.partial(self._on_view_hovered, card))
                card.grid.clicked_element.connect(functools.partial(self._on_view_clicked, card))
            cards.append(card)
            row.addWidget(card, 0, Qt.AlignmentFlag.AlignTop)
            card.show()  # now, not on the next turn of the event loop
        while len(cards) > n:
            card = cards.pop()
            row.removeWidget(card)
            card.deleteLater()

    def _show_extra(self, sv: StepView | None) -> Decoration:
        # a step that did not run has no inputs to draw
        kind = EXTRAS.get(sv.op) if sv is not None and sv.result.status in ("ok", "error") \
            else None
        if self.extra is not None and type(self.extra) is not kind:
            self.extra.hide()
            self.extra = None
        if kind is None or sv is None:
            self.extras_box.hide()
            return Decoration()
        extra = self.extras.get(kind)
        if extra is None:
            extra = self.extras[kind] = kind(self._document, self._stack)
            self._extras_layout.addWidget(extra)
        self.extra = extra
        try:
            decoration = extra.show_step(sv)
        except Exception as e:  # noqa: BLE001 - a drawing must never take the view down
            extra.caption.setText(self.tr("Nothing to draw: {0}").format(e))
            decoration = Decoration()
        self.extras_box.setTitle(extra.title())
        extra.show()
        self.extras_box.show()
        return decoration

    def _decorate(self, decoration: Decoration) -> None:
        for card in self.input_cards:
            tint = decoration.tints.get(card.label)
            card.grid.table_model.set_tint(None if tint is None else palette_colour(tint))
        if len(self.output_cards) != 1:
            return
        grid = self.output_cards[0].grid
        shape = grid.table_model.shape
        for array, setter in ((decoration.greyed, grid.table_model.set_greyed),
                              (decoration.labels, grid.table_model.set_labels)):
            setter(as_table_mask(array) if array is not None and array.shape == shape else None)
        grid.set_diagonal(decoration.diagonal)

    def _fits(self, index: Index, card: TensorCard) -> bool:
        shape = card.grid.table_model.shape
        return len(index) == len(shape) and all(0 <= i < s for i, s in zip(index, shape,
                                                                           strict=True))

    def _idle_hint(self, sv: StepView | None) -> str:
        if sv is not None and sv.result.ok and not self.output_cards and sv.step.name:
            return self.tr("The result is not a tensor: {0}").format(
                repr(sv.result.value)[:200])
        if sv is None or not self.output_cards:
            return ""
        if not self.input_cards:
            return self.tr("A new tensor: its elements do not come from other tensors of "
                           "the recipe.")
        return self.tr("Hover or click an output cell to light up the input elements it came "
                       "from.")

    # -- provenance --------------------------------------------------------------------------------
    def _on_view_hovered(self, card: TensorCard, index: Index | None) -> None:
        if index is None:
            if self._pinned is not None:
                self.activate_output(self._pinned[1], self._pinned[0])
            return
        self.activate_output(index, self.output_cards.index(card))

    def _on_view_clicked(self, card: TensorCard, index: Index) -> None:
        self.activate_output(index, self.output_cards.index(card), pin=True)

    def _request(self, key: tuple) -> None:
        """Trace ``key`` = (generation, part, index) off the GUI thread; one trace at a time."""
        sv = self.step_view
        if sv is None:
            return
        if self._job is not None:
            self._pending = key  # only the latest wish matters
            return
        part = key[1] if isinstance(sv.output, (list, tuple)) else None
        self._job = start_job(_trace, sv.step.expr, sv.inputs, key[2], part,
                              on_done=self._on_worker_traced, key=(key[0], part, key[2]))

    def _on_worker_traced(self, key: tuple, found: Provenance | str | JobError) -> None:
        self._job = None
        if isinstance(found, JobError):
            found = f"{found.type}: {found.message}"
        generation, part, index = key
        part = part or 0
        if generation == self._generation:
            self._cache[(part, index)] = found
            if self.active == (part, index):
                self._show_provenance(found)
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == self._generation \
                and (pending[1], pending[2]) not in self._cache:
            self._request(pending)

    def _show_provenance(self, found: Provenance | str) -> None:
        if isinstance(found, str):
            self.provenance = None
            for card in self.input_cards:
                card.grid.table_model.set_marks({})
            self.hint.setText(self.tr("Could not trace this element: {0}").format(found))
            self.traced.emit(None)
            return
        self.provenance = found
        for card in self.input_cards:
            model = card.grid.table_model
            marks: dict[tuple[int, int], str] = {}
            for role, table in (("source", found.sources), ("used", found.used)):
                for idx in table.get(card.name, []):
                    if card.part is not None:
                        if not idx or idx[0] != card.part:
                            continue
                        idx = idx[1:]
                    marks[model.cell_of(idx)] = role
            model.set_marks(marks)
        self.hint.setText(self._provenance_text(found))
        self.traced.emit(found)

    def _element_text(self, name: str, index: Index) -> str:
        """``x[1, 2]``, or ``parts[1][0, 2]`` for an input holding several tensors."""
        value = self.step_view.inputs.get(name) if self.step_view else None
        if isinstance(value, (list, tuple)) and index:
            return _index_text(f"{name}[{index[0]}]", index[1:])
        return _index_text(name, index)

    def _provenance_text(self, found: Provenance) -> str:
        assert self.active is not None
        part, index = self.active
        card = self.output_cards[part]
        model = card.grid.table_model
        row, col = model.cell_of(index)
        head = f"{_index_text(card.label, index)} = {model.data(model.index(row, col))}"
        sources = [self._element_text(n, i) for n, idxs in found.sources.items()
                   for i in idxs]
        if not self.input_cards:
            return self.tr("{0}: a new tensor, made by the op rather than taken from other "
                           "tensors of the recipe.").format(head)
        if not sources:
            return self.tr("{0} comes from no input element: the op made it (a zero, a fill "
                           "value).").format(head)
        listed = ", ".join(sources[:_MAX_LISTED])
        if len(sources) > _MAX_LISTED:
            listed += self.tr(" and {0} more").format(len(sources) - _MAX_LISTED)
        text = self.tr("{0} comes from {1}.").format(head, listed)
        used = []
        for name, idxs in found.used.items():
            value = self.step_view.inputs.get(name) if self.step_view else None
            for i in idxs[:_MAX_LISTED]:
                shown = self._element_text(name, i)
                if isinstance(value, torch.Tensor) and len(i) == value.dim():
                    shown += f" = {value[i].item()}"
                used.append(shown)
        if used:
            text += " " + self.tr("Chosen by {0}.").format(", ".join(used))
        return text


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.reader import read_recipe

    app = QApplication(sys.argv)
    doc = Document(read_recipe(
        "import torch\nx = torch.arange(12.0).view(3, 4)\n"
        "index = torch.tensor([[3, 0], [1, 1], [2, 0]])\ny = torch.gather(x, 1, index)\n"))
    doc.select(2)
    view = OpView(doc, QUndoStack())
    view.resize(900, 600)
    view.show()
    sys.exit(app.exec())
