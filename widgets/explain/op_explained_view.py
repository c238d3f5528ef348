"""Op explained's passive view: the step's code, its lesson, the grids, the hint and the extra.

``OpExplainedView`` emits what the user does to the output grids and shows what it is
given; it never reads the document. ``widgets.explain.op_explained_controller`` drives it,
and ``widgets.explain.op_view.OpView`` puts the two together. Its texts keep the ``OpView``
translation context.
"""

from __future__ import annotations

import functools
import html

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFontDatabase, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.tensor_copy import TensorCopy
from protocol.provenance_data import Provenance
from widgets.common.retranslate import translated
from widgets.explain.explained_grid import MARK_COLOURS, TensorCard, as_table_mask, palette_colour
from widgets.explain.op_extras import Decoration

ERROR_STYLE = "color: #c0392b;"
EXTRA_MIN_WIDTH = 280  # the extra goes beside the grids only when it gets this much

Index = tuple[int, ...]
#: What one card shows: the tensor, its name, its role, which part of the value it is
#: (None for a lone tensor) and its title (None: the name).
CardContent = tuple[TensorCopy, str, str, int | None, str | None]


def index_text(name: str, index: Index) -> str:
    """``x[1, 2]``; ``x`` for the index ``()`` of a 0-d tensor."""
    return f"{name}[{', '.join(map(str, index))}]" if index else name


class OpExplainedView(QWidget):
    """The selected step explained: its code, inputs and output as grids, a hint, an extra.

    Attributes
    ----------
    input_cards, output_cards : list of TensorCard
        The grids shown, left and right of the arrow.
    """

    output_hovered = Signal(int, object)
    """Emitted with (part, index) when the mouse moves onto an element of output ``part``."""
    output_left = Signal()
    """Emitted when the mouse leaves an output grid."""
    output_clicked = Signal(int, object)
    """Emitted with (part, index) when the user clicks an element of output ``part``."""
    shown = Signal()
    """Emitted each time the view is shown (work waits for it behind another tab)."""
    iteration_picked = Signal(int)
    """Emitted with a loop's iteration picked in the iteration box (one the kernel kept)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.input_cards: list[TensorCard] = []
        self.output_cards: list[TensorCard] = []
        self._build()

    def _build(self) -> None:
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.code = QLabel()
        self.code.setFont(mono)
        self.code.setTextFormat(Qt.TextFormat.PlainText)
        self.code.setWordWrap(True)
        self.code.setStyleSheet("font-weight: bold;")
        translated(self, lambda: (
            self.code.setToolTip(QCoreApplication.translate("OpView", "The selected step"))))
        self.iteration = QSpinBox()
        self.iteration_label = QLabel()
        translated(self, lambda: (
            self.iteration_label.setText(QCoreApplication.translate("OpView", "Iteration:")),
            self.iteration.setToolTip(QCoreApplication.translate(
                "OpView", "Which iteration of the loop to explain: the ones the kernel "
                "kept (the first 100, an even sample, the last)"))))
        self._kept: list[int] = []
        self.iteration.valueChanged.connect(self._on_view_iteration)
        iteration_row = QHBoxLayout()
        iteration_row.addWidget(self.iteration_label)
        iteration_row.addWidget(self.iteration)
        iteration_row.addStretch(1)
        self.iteration_label.hide()
        self.iteration.hide()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: (
            self.summary.setToolTip(QCoreApplication.translate("OpView", "What the op does"))))

        self.error_box = QFrame()
        self.error_box.setObjectName("lesson")
        self.error_box.setStyleSheet("QFrame#lesson { border: 1px solid #c0392b; "
                                     "border-radius: 4px; }")
        translated(self, lambda: self.error_box.setToolTip(QCoreApplication.translate(
            "OpView", "Why the step failed, and what to change")))
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
        translated(self, lambda: self.arrow.setToolTip(QCoreApplication.translate(
            "OpView", "The inputs on the left make the output on the right")))
        row = QHBoxLayout()
        row.addLayout(self._inputs_row)
        row.addWidget(self.arrow, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addLayout(self._outputs_row)
        self.no_output = QLabel()
        translated(self, lambda: self.no_output.setText(QCoreApplication.translate("OpView",
                                                           "no output:\nthe step failed")))
        self.no_output.setStyleSheet(ERROR_STYLE)
        translated(self, lambda: self.no_output.setToolTip(QCoreApplication.translate(
            "OpView", "The step raised an error, so there is nothing to show")))
        row.addWidget(self.no_output, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addStretch(1)

        self.legend = QLabel()
        translated(self, lambda: self.legend.setText(" &nbsp; ".join(
            f'<span style="background-color:{MARK_COLOURS[k].name()}">&nbsp;&nbsp;&nbsp;&nbsp;'
            f"</span>&nbsp;{html.escape(text)}" for k, text in (
                ("active", QCoreApplication.translate("OpView", "output element")),
                ("source", QCoreApplication.translate("OpView", "the inputs it came from")),
                ("used", QCoreApplication.translate("OpView",
                                                    "index or mask entries that chose them"))))))
        self.legend.setWordWrap(True)
        translated(self, lambda: self.legend.setToolTip(QCoreApplication.translate(
            "OpView", "Hover or click an output cell to see where it came from")))
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: self.hint.setToolTip(QCoreApplication.translate(
            "OpView", "Where the hovered output element came from")))

        self.extras_box = QGroupBox()
        translated(self, lambda: self.extras_box.setToolTip(QCoreApplication.translate(
            "OpView", "A drawing of what this op does")))
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
        column.addLayout(iteration_row)
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

    # -- layout ------------------------------------------------------------------------------
    def arrange(self) -> None:
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
        self.arrange()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.shown.emit()

    # -- what the controller sets ---------------------------------------------------------------
    def show_iterations(self, kept: list[int], current: int | None) -> None:
        """Offer the loop's ``kept`` iterations, ``current`` picked; none hides the box."""
        self._kept = list(kept)
        shown = bool(kept) and current is not None
        self.iteration.setVisible(shown)
        self.iteration_label.setVisible(shown)
        if shown:
            with QSignalBlocker(self.iteration):
                self.iteration.setRange(kept[0], kept[-1])
                self.iteration.setValue(int(current))

    def _on_view_iteration(self, value: int) -> None:
        if not self._kept:
            return
        nearest = min(self._kept, key=lambda k: (abs(k - value), k))
        if nearest != value:
            with QSignalBlocker(self.iteration):
                self.iteration.setValue(nearest)
        self.iteration_picked.emit(nearest)

    def show_header(self, code: str, summary: str) -> None:
        """Show the step's ``code`` and the op's ``summary`` (empty hides it); no lesson."""
        self.error_box.hide()
        self.code.setText(code)
        self.summary.setText(summary)
        self.summary.setVisible(bool(summary))

    def show_failure(self, error: str, cause: str = "", fix: str = "") -> None:
        """Show why the step failed or did not run, with the lesson's ``cause`` and ``fix``."""
        self.error_label.setText(error)
        self.cause_label.setText(cause)
        self.fix_label.setText(fix)
        self.cause_label.setVisible(bool(cause))
        self.fix_label.setVisible(bool(fix))
        self.error_box.show()

    def show_cards(self, inputs: list[CardContent], outputs: list[CardContent],
                   failed: bool) -> None:
        """Show ``inputs`` left of the arrow and ``outputs`` right of it, reusing the cards."""
        self._fill(self.input_cards, self._inputs_row, len(inputs), output=False)
        self._fill(self.output_cards, self._outputs_row, len(outputs), output=True)
        for card, content in zip(self.input_cards + self.output_cards, inputs + outputs,
                                 strict=True):
            card.show_tensor(*content)
        self.no_output.setVisible(failed)
        self.arrow.setVisible(bool(outputs) or bool(inputs))
        self.legend.setVisible(bool(outputs) and bool(inputs))

    def _fill(self, cards: list[TensorCard], row: QHBoxLayout, n: int, *, output: bool) -> None:
        """Keep exactly ``n`` cards in ``row``, reusing the ones there."""
        while len(cards) < n:
            card = TensorCard()
            if output:
                card.grid.hovered.connect(functools.partial(self._on_card_hovered, card))
                card.grid.clicked_element.connect(functools.partial(self._on_card_clicked, card))
            cards.append(card)
            row.addWidget(card, 0, Qt.AlignmentFlag.AlignTop)
            card.show()  # now, not on the next turn of the event loop
        while len(cards) > n:
            card = cards.pop()
            row.removeWidget(card)
            card.deleteLater()

    def _on_card_hovered(self, card: TensorCard, index: Index | None) -> None:
        if index is None:
            self.output_left.emit()
        else:
            self.output_hovered.emit(self.output_cards.index(card), index)

    def _on_card_clicked(self, card: TensorCard, index: Index) -> None:
        self.output_clicked.emit(self.output_cards.index(card), index)

    def add_extra(self, extra: QWidget) -> None:
        """Give ``extra`` (an ``OpExtra``) its place in the extras box, hidden until shown."""
        self._extras_layout.addWidget(extra)

    def show_extra(self, extra: QWidget | None, title: str = "") -> None:
        """Show ``extra`` in the extras box under ``title``; None hides the box."""
        if extra is None:
            self.extras_box.hide()
            return
        self.extras_box.setTitle(title)
        extra.show()
        self.extras_box.show()

    def hide_extra(self, extra: QWidget) -> None:
        """Hide ``extra``, leaving the extras box to the next one shown."""
        extra.hide()

    def decorate(self, decoration: Decoration) -> None:
        """Tint the inputs, and grey, label and mark the diagonal of a lone output."""
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

    def output_fits(self, part: int, index: Index) -> bool:
        """Whether output ``part`` is shown and has an element ``index``."""
        if part >= len(self.output_cards):
            return False
        shape = self.output_cards[part].grid.table_model.shape
        return len(index) == len(shape) and all(0 <= i < s for i, s in zip(index, shape,
                                                                           strict=True))

    def output_element_text(self, part: int, index: Index) -> str:
        """``y[1, 0] = 5.0``: element ``index`` of output ``part`` as its grid shows it."""
        card = self.output_cards[part]
        model = card.grid.table_model
        row, col = model.cell_of(index)
        return f"{index_text(card.label, index)} = {model.data(model.index(row, col))}"

    def mark_output(self, part: int, index: Index) -> None:
        """Mark element ``index`` of output ``part`` as the one explained; clear the others."""
        for k, card in enumerate(self.output_cards):
            model = card.grid.table_model
            model.set_marks({model.cell_of(index): "active"} if k == part else {})

    def mark_sources(self, found: Provenance | None) -> None:
        """Light up the input elements ``found`` names (None: none of them)."""
        for card in self.input_cards:
            model = card.grid.table_model
            marks: dict[tuple[int, int], str] = {}
            tables = () if found is None else (("source", found.sources), ("used", found.used))
            for role, table in tables:
                for idx in table.get(card.name, []):
                    if card.part is not None:
                        if not idx or idx[0] != card.part:
                            continue
                        idx = idx[1:]
                    marks[model.cell_of(idx)] = role
            model.set_marks(marks)

    def set_hint(self, text: str) -> None:
        self.hint.setText(text)
