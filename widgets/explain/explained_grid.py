"""A tensor grid that can light cells up: the building block of the visual explanations.

``ExplainedTableModel`` extends ``TensorTableModel`` with marks (cells a provenance
lit up), a greyed region, a colour per cell (which source tensor it came from) and a
tint. Tensors of any rank are shown as one table: the last dimension runs across the
columns and every other dimension is stacked down the rows (row ``(i, j)`` of a
3-D tensor), so each element has exactly one cell.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QModelIndex, QObject, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QAbstractItemView, QFrame, QLabel, QTableView, QVBoxLayout, QWidget

from app.tensor_copy import TensorCopy
from widgets.common.retranslate import translated
from widgets.common.tensor_table_model import TensorTableModel, format_cell, full_precision

Index = tuple[int, ...]

#: What a mark means, and its colour: the order is the order of precedence.
MARK_COLOURS = {
    "active": QColor("#ff9800"),  # the output cell being explained
    "source": QColor("#ffd54f"),  # an input element it came from
    "used": QColor("#4fc3f7"),  # an index or mask entry that chose it
}
GREY_BACKGROUND = QColor("#e6e6e6")
GREY_TEXT = QColor("#9a9a9a")
#: Colours told apart at a glance, for "which source tensor" maps.
PALETTE = tuple(QColor(c) for c in ("#90caf9", "#a5d6a7", "#ffcc80", "#ce93d8", "#f48fb1",
                                    "#80cbc4", "#bcaaa4", "#e6ee9c"))
DIAGONAL_PEN = QColor("#d32f2f")
#: Widest and tallest a grid asks to be before it scrolls.
MAX_GRID_SIZE = QSize(320, 300)
_SAMPLE = 2000  # elements looked at to size the columns


def palette_colour(k: int) -> QColor:
    return PALETTE[k % len(PALETTE)]


def table_shape(shape: tuple[int, ...]) -> tuple[int, int]:
    """Rows and columns of the table that shows a tensor of ``shape``."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return math.prod(shape[:-1]), shape[-1]


def cell_of(shape: tuple[int, ...], index: Index) -> tuple[int, int]:
    """The table cell of element ``index`` of a tensor of ``shape``."""
    if len(shape) == 0:
        return 0, 0
    if len(shape) == 1:
        return 0, index[0]
    row = int(np.ravel_multi_index(index[:-1], shape[:-1])) if len(shape) > 2 else index[0]
    return row, index[-1]


def index_of(shape: tuple[int, ...], row: int, col: int) -> Index:
    """The element shown in table cell ``(row, col)`` (the inverse of ``cell_of``)."""
    if len(shape) == 0:
        return ()
    if len(shape) == 1:
        return (col,)
    lead = tuple(int(i) for i in np.unravel_index(row, shape[:-1])) if len(shape) > 2 else (row,)
    return lead + (col,)


def as_table(t: TensorCopy) -> np.ndarray:
    """The elements of ``t`` as the 2-D array its table shows (numpy, for display)."""
    rows, cols = table_shape(tuple(t.shape))
    return t.values.reshape(rows, cols)


def as_table_mask(mask: np.ndarray) -> np.ndarray:
    """A per-element array laid out like the tensor's table."""
    a = np.asarray(mask)
    return a.reshape(table_shape(a.shape))


class ExplainedTableModel(TensorTableModel):
    """A tensor's elements, with marked, greyed, coloured and tinted cells.

    Parameters
    ----------
    parent : QObject, optional
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._shape: tuple[int, ...] = (0, 0)
        self._name = ""
        self._marks: dict[tuple[int, int], str] = {}
        self._greyed: np.ndarray | None = None
        self._labels: np.ndarray | None = None
        self._tint: QColor | None = None

    # -- what is shown ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def marks(self) -> dict[tuple[int, int], str]:
        """Marked cells: ``(row, col)`` to ``"active"``, ``"source"`` or ``"used"``."""
        return dict(self._marks)

    @property
    def greyed(self) -> np.ndarray | None:
        return self._greyed

    @property
    def labels(self) -> np.ndarray | None:
        return self._labels

    def set_tensor(self, t: TensorCopy, name: str) -> None:
        """Show ``t`` (any rank), naming elements ``name[i, j]``; clears every decoration."""
        self._shape, self._name = tuple(t.shape), name
        self._marks, self._greyed, self._labels, self._tint = {}, None, None, None
        self.set_plane(as_table(t))

    def set_marks(self, marks: dict[tuple[int, int], str]) -> None:
        if marks != self._marks:
            self._marks = dict(marks)
            self._repaint_all()

    def set_greyed(self, greyed: np.ndarray | None) -> None:
        """Grey out the cells where ``greyed`` (laid out like the table) is True."""
        self._greyed = greyed
        self._repaint_all()

    def set_labels(self, labels: np.ndarray | None) -> None:
        """Colour each cell by ``labels`` (palette numbers; negative for none)."""
        self._labels = labels
        self._repaint_all()

    def set_tint(self, colour: QColor | None) -> None:
        """Colour every cell (below marks): the colour of a whole source tensor."""
        self._tint = colour
        self._repaint_all()

    def cell_of(self, index: Index) -> tuple[int, int]:
        return cell_of(self._shape, index)

    def index_of(self, row: int, col: int) -> Index:
        return index_of(self._shape, row, col)

    def _repaint_all(self) -> None:
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(self.rowCount() - 1, self.columnCount() - 1))

    # -- QAbstractTableModel ---------------------------------------------------------------
    def data(self, index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.BackgroundRole:
            mark = self._marks.get((row, col))
            if mark is not None:
                return MARK_COLOURS[mark]
            if self._greyed is not None and self._greyed[row, col]:
                return GREY_BACKGROUND
            if self._labels is not None and self._labels[row, col] >= 0:
                return palette_colour(int(self._labels[row, col]))
            return self._tint
        if role == Qt.ItemDataRole.ForegroundRole:
            if (row, col) in self._marks:
                return QColor("black")
            if self._greyed is not None and self._greyed[row, col]:
                return GREY_TEXT
            return None
        if role == Qt.ItemDataRole.FontRole and self._marks.get((row, col)) == "active":
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            idx = self.index_of(row, col)
            where = f"{self._name}[{', '.join(map(str, idx))}]" if idx else self._name
            return f"{where} = {full_precision(self.values[row, col])}"
        return super().data(index, role)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Vertical:
            if len(self._shape) < 2:
                return ""
            return ", ".join(map(str, self.index_of(section, 0)[:-1]))
        return "" if len(self._shape) == 0 else str(section)


class ExplainedGrid(QTableView):
    """A compact, read-only view of an ``ExplainedTableModel`` that reports hovered cells.

    It can also outline the diagonal, the cells ``(i, i + d)``, of each matrix.
    """

    hovered = Signal(object)
    """Emitted with the hovered element's index (a tuple), or None when the mouse leaves."""
    clicked_element = Signal(object)
    """Emitted with the clicked element's index (a tuple)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._model = ExplainedTableModel(self)
        self.setModel(self._model)
        self._diagonal: int | None = None
        self.setMouseTracking(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        row_height = self.fontMetrics().height() + 6
        self.verticalHeader().setDefaultSectionSize(row_height)
        self.verticalHeader().setMinimumSectionSize(row_height)
        self.horizontalHeader().setMinimumSectionSize(16)
        self.entered.connect(self._on_view_entered)
        self.clicked.connect(self._on_view_clicked)
        self.viewport().installEventFilter(self)

    @property
    def table_model(self) -> ExplainedTableModel:
        return self._model

    @property
    def diagonal(self) -> int | None:
        return self._diagonal

    def set_tensor(self, t: TensorCopy, name: str) -> None:
        """Show ``t``; columns are sized for its widest value (sampled) and the grid for it."""
        self._model.set_tensor(t, name)
        self._diagonal = None
        values = self._model.values.reshape(-1)[:_SAMPLE]
        text = max((format_cell(v) for v in values), key=len, default="0")
        bold = QFont(self.font())
        bold.setBold(True)  # the explained cell is bold: leave it room
        metrics = QFontMetrics(bold)
        width = max(metrics.horizontalAdvance(text), metrics.horizontalAdvance("000")) + 14
        self.horizontalHeader().setDefaultSectionSize(width)
        self.updateGeometry()

    def set_diagonal(self, offset: int | None) -> None:
        """Draw the diagonal ``j = i + offset`` of every matrix; None draws none."""
        self._diagonal = offset
        self.viewport().update()

    def cell_rect_center(self, index: Index) -> QPointF:
        """Where element ``index`` is drawn, in viewport coordinates (for tests and tours)."""
        row, col = self._model.cell_of(index)
        return self.visualRect(self._model.index(row, col)).center().toPointF()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        header_w = self.verticalHeader().sizeHint().width() if self._model.rowCount() else 0
        width = (header_w + self.horizontalHeader().defaultSectionSize()
                 * self._model.columnCount() + 2 * self.frameWidth() + 2)
        height = (self.horizontalHeader().sizeHint().height()
                  + self.verticalHeader().defaultSectionSize() * self._model.rowCount()
                  + 2 * self.frameWidth() + 2)
        scroll = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        if width > MAX_GRID_SIZE.width():
            height += scroll
        if height > MAX_GRID_SIZE.height():
            width += scroll
        return QSize(min(width, MAX_GRID_SIZE.width() + scroll),
                     min(height, MAX_GRID_SIZE.height() + scroll))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        # never squeezed below its (capped) size: the view around it scrolls instead
        return self.sizeHint()

    # -- events ------------------------------------------------------------------------
    def _on_view_entered(self, index: QModelIndex) -> None:
        self.hovered.emit(self._model.index_of(index.row(), index.column()))

    def _on_view_clicked(self, index: QModelIndex) -> None:
        self.clicked_element.emit(self._model.index_of(index.row(), index.column()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.viewport() and event.type() == QEvent.Type.Leave:
            self.hovered.emit(None)
        return super().eventFilter(watched, event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        shape = self._model.shape
        if self._diagonal is None or len(shape) < 2:
            return
        rows, cols = shape[-2], shape[-1]
        on = [i for i in range(rows) if 0 <= i + self._diagonal < cols]
        if not on:
            return
        painter = QPainter(self.viewport())
        painter.setPen(QPen(DIAGONAL_PEN, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for block in range(self._model.rowCount() // max(rows, 1)):
            for i in on:  # outlined rather than crossed out, so the values stay readable
                rect = self.visualRect(self._model.index(block * rows + i, i + self._diagonal))
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
        painter.end()


class TensorCard(QFrame):
    """A tensor's name, shape and strides above its grid.

    Parameters
    ----------
    parent : QWidget, optional
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.name = ""
        self.label = ""
        """What the tensor is called on screen: ``name``, or ``name[part]`` for a part."""
        self.part: int | None = None
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self.facts = QLabel()
        self.facts.setTextFormat(Qt.TextFormat.PlainText)
        self.facts.setStyleSheet("color: palette(placeholder-text);")
        translated(self, lambda: (
            self.facts.setToolTip(self.tr("shape: the size of each dimension; strides: how many "
                                          "elements to skip in memory to step along each one"))))
        self.grid = ExplainedGrid()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.facts)
        layout.addWidget(self.grid, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)

    def show_tensor(self, t: TensorCopy, name: str, role: str, part: int | None = None,
                    label: str | None = None) -> None:
        """Show ``t`` as ``label`` (default ``name``); ``role`` says what it is to the step."""
        self.name, self.part = name, part
        shown = self.label = label or name
        self.title.setText(f"{shown}  ·  {role}" if role and role != shown else shown)
        self.title.setToolTip(self.tr("{0}: {1} of the step").format(shown, role))
        self.facts.setText(self.tr("shape {0} · {2}\nstrides {1}").format(
            _tuple(t.shape), _tuple(t.strides), t.dtype))
        self.grid.set_tensor(t, shown)
        self.grid.setToolTip(self.tr("{0}'s elements; hover one for its index and value")
                             .format(shown))


def _tuple(values) -> str:
    values = tuple(values)
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"
