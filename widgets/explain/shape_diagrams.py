"""Drawn diagrams of shapes and memory: boxes per dimension, and cells numbered in order.

The functions at the top are plain Python (no Qt): they work out what to draw, so the
diagrams themselves only paint. Used by the per-op extras in ``widgets.explain.op_extras``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.tensor_copy import TensorCopy

Shape = tuple[int, ...]


# -- what to draw (Qt-free) --------------------------------------------------------------------
def align_dims(before: Shape, after: Shape) -> list[tuple[int | None, int | None]]:
    """Pair the dimensions of two shapes that differ only by size-1 dimensions.

    Returns ``(before_dim, after_dim)`` pairs in order; ``None`` on one side marks a size-1
    dimension that appeared (unsqueeze) or disappeared (squeeze).
    """
    pairs: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < len(before) or j < len(after):
        if i < len(before) and j < len(after) and before[i] == after[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif i < len(before) and before[i] == 1:
            pairs.append((i, None))
            i += 1
        elif j < len(after) and after[j] == 1:
            pairs.append((None, j))
            j += 1
        else:  # not a squeeze or unsqueeze: pair what is left in order
            pairs.append((i if i < len(before) else None, j if j < len(after) else None))
            i, j = i + 1, j + 1
    return pairs


@dataclass(frozen=True)
class BroadcastCell:
    """One operand's dimension in a broadcast, right-aligned with the others.

    ``size`` is None where the operand has fewer dimensions (it counts as 1); ``state``
    is ``same``, ``stretched`` (size 1 or missing, repeated to the result's size),
    ``missing`` (absent and not stretched) or ``conflict`` (sizes that cannot broadcast).
    """

    size: int | None
    state: str


def broadcast_table(shapes: list[Shape]) -> tuple[list[list[BroadcastCell]], list[int | None]]:
    """Each operand's dims right-aligned against the result's, and the result's sizes.

    A result size is None in a column whose sizes cannot broadcast (two different sizes,
    neither of them 1).
    """
    ndim = max((len(s) for s in shapes), default=0)
    result: list[int | None] = []
    for col in range(ndim):
        sizes = {s[len(s) - ndim + col] for s in shapes if len(s) - ndim + col >= 0}
        big = sizes - {1}
        result.append(None if len(big) > 1 else (big.pop() if big else 1))
    rows: list[list[BroadcastCell]] = []
    for s in shapes:
        row = []
        for col in range(ndim):
            k = len(s) - ndim + col
            size = s[k] if k >= 0 else None
            out = result[col]
            if out is None and size not in (None, 1):
                state = "conflict"
            elif out not in (None, 1) and size in (None, 1):
                state = "stretched"
            elif size is None:
                state = "missing"
            else:
                state = "same"
            row.append(BroadcastCell(size, state))
        rows.append(row)
    return rows, result


# -- a diagram of rows of boxes ------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """One box of a ``BoxDiagram``: a dimension's size, drawn in column ``column``."""

    column: int
    text: str
    style: str = "plain"  # plain, one, stretched, missing, conflict, added, removed
    caption: str = ""


@dataclass(frozen=True)
class BoxRow:
    label: str
    boxes: tuple[Box, ...]
    note: str = ""


_FILL = {"plain": QColor("#ffffff"), "one": QColor("#ffe082"), "stretched": QColor("#ffe082"),
         "missing": QColor("#f5f5f5"), "conflict": QColor("#ef9a9a"),
         "added": QColor("#ffe082"), "removed": QColor("#ffe082")}
_BORDER = {"added": QColor("#2e7d32"), "removed": QColor("#c62828"),
           "conflict": QColor("#c62828")}
_BOX_W, _BOX_H, _GAP, _ROW_GAP = 52, 30, 10, 30


class BoxDiagram(QWidget):
    """Rows of labelled boxes in shared columns, optionally joined by lines.

    Parameters
    ----------
    parent : QWidget, optional
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[BoxRow] = []
        self.links: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_rows(self, rows: list[BoxRow],
                 links: list[tuple[tuple[int, int], tuple[int, int]]] | None = None) -> None:
        """Draw ``rows``; ``links`` join box (row, column) pairs with lines."""
        self.rows, self.links = list(rows), list(links or [])
        self.updateGeometry()
        self.update()

    def _label_width(self) -> int:
        metrics = self.fontMetrics()
        return max((metrics.horizontalAdvance(r.label) for r in self.rows), default=0) + 16

    def _columns(self) -> int:
        return max((b.column + 1 for r in self.rows for b in r.boxes), default=0)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        notes = max((self.fontMetrics().horizontalAdvance(r.note) for r in self.rows), default=0)
        width = self._label_width() + self._columns() * (_BOX_W + _GAP) + notes + 24
        return QSize(width, len(self.rows) * (_BOX_H + _ROW_GAP) + 8)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.sizeHint()

    def box_rect(self, row: int, column: int) -> QRectF:
        x = self._label_width() + column * (_BOX_W + _GAP)
        y = 4 + row * (_BOX_H + _ROW_GAP) + _ROW_GAP // 2
        return QRectF(x, y, _BOX_W, _BOX_H)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        text_colour = self.palette().text().color()
        painter.setPen(QPen(QColor("#9e9e9e"), 1.5))
        for (r0, c0), (r1, c1) in self.links:
            a, b = self.box_rect(r0, c0), self.box_rect(r1, c1)
            painter.drawLine(QPointF(a.center().x(), a.bottom()), QPointF(b.center().x(), b.top()))
        small = QFont(self.font())
        small.setPointSizeF(max(self.font().pointSizeF() * 0.8, 6))
        for r, row in enumerate(self.rows):
            rect = self.box_rect(r, 0)
            painter.setPen(text_colour)
            painter.drawText(QRectF(4, rect.top(), self._label_width() - 8, _BOX_H),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, row.label)
            for box in row.boxes:
                rect = self.box_rect(r, box.column)
                border = _BORDER.get(box.style, QColor("#616161"))
                pen = QPen(border, 2 if box.style in _BORDER else 1)
                if box.style in ("missing", "removed"):
                    pen.setStyle(Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.setBrush(_FILL.get(box.style, _FILL["plain"]))
                painter.drawRoundedRect(rect, 4, 4)
                painter.setPen(QColor("black"))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, box.text)
                if box.caption:
                    painter.setFont(small)
                    painter.setPen(border if box.style in _BORDER else text_colour)
                    painter.drawText(QRectF(rect.left() - _GAP, rect.top() - _ROW_GAP / 2 - 2,
                                            rect.width() + 2 * _GAP, _ROW_GAP / 2),
                                     Qt.AlignmentFlag.AlignCenter, box.caption)
                    painter.setFont(self.font())
            if row.note:
                right = max((self.box_rect(r, b.column).right() for b in row.boxes),
                            default=rect.left())
                painter.setPen(text_colour)
                painter.drawText(QRectF(right + 12, rect.top(), self.width() - right - 12,
                                        _BOX_H),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                                 row.note)
        painter.end()


# -- cells numbered in row-major order, with where each sits in memory ---------------------------
@dataclass(frozen=True)
class NumberedGrid:
    """A tensor's cells for ``StorageOrderDiagram``: row-major numbers and memory positions."""

    title: str
    numbers: list[list[int]]  # row-major position of each shown cell
    memory: list[list[int]]  # storage position of each shown cell
    truncated: bool = False


_CELL, _MAX_ROWS, _MAX_COLS = 32, 8, 12


def numbered_grid(title: str, t: TensorCopy, offset: int = 0) -> NumberedGrid:
    """Number ``t``'s elements in row-major order (0, 1, 2 ...) beside their memory
    positions (``offset``: where its first element sits in its storage)."""
    flat_cols = t.shape[-1] if t.dim() >= 1 else 1
    rows = t.numel() // max(flat_cols, 1) if t.numel() else 0
    numbers = np.arange(t.numel()).reshape(rows, flat_cols)
    memory = memory_positions(t.shape, t.strides, offset).reshape(rows, flat_cols)
    truncated = rows > _MAX_ROWS or flat_cols > _MAX_COLS
    return NumberedGrid(title, numbers[:_MAX_ROWS, :_MAX_COLS].tolist(),
                        memory[:_MAX_ROWS, :_MAX_COLS].tolist(), truncated)


def memory_positions(shape: tuple[int, ...], strides: tuple[int, ...],
                     offset: int = 0) -> np.ndarray:
    """Where each element of a tensor of ``shape`` and ``strides`` sits in its storage:
    offset + sum of index * stride."""
    pos = np.full((), offset, dtype=np.int64)
    for d, (size, stride) in enumerate(zip(shape, strides, strict=True)):
        along = [1] * len(shape)
        along[d] = size
        pos = pos + (np.arange(size, dtype=np.int64) * stride).reshape(along)
    return np.broadcast_to(pos, shape)


def is_contiguous(t: TensorCopy) -> bool:
    """Whether ``t``'s elements lie in memory in row-major order, as torch's
    ``is_contiguous`` says (a dimension of size 1 may have any stride)."""
    step = 1
    for size, stride in zip(reversed(t.shape), reversed(t.strides), strict=True):
        if size != 1 and stride != step:
            return False
        step *= size
    return True


class StorageOrderDiagram(QWidget):
    """Grids side by side; each cell shows its row-major number, and below it ``@`` its
    position in memory. Cells whose memory position breaks row-major order are tinted.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.grids: list[NumberedGrid] = []
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_grids(self, grids: list[NumberedGrid]) -> None:
        self.grids = list(grids)
        self.updateGeometry()
        self.update()

    def _grid_size(self, g: NumberedGrid) -> QSize:
        cols = len(g.numbers[0]) if g.numbers else 0
        width = max(cols * _CELL, self.fontMetrics().horizontalAdvance(g.title))
        return QSize(width, self.fontMetrics().height() + 6 + len(g.numbers) * _CELL
                     + (14 if g.truncated else 0))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        sizes = [self._grid_size(g) for g in self.grids]
        return QSize(sum(s.width() + 40 for s in sizes) + 8,
                     max((s.height() for s in sizes), default=0) + 8)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        text_colour = self.palette().text().color()
        small = QFont(self.font())
        small.setPointSizeF(max(self.font().pointSizeF() * 0.75, 6))
        bold = QFont(self.font())
        bold.setBold(True)
        line = self.fontMetrics().height() + 6
        x = 4
        for g in self.grids:
            size = self._grid_size(g)
            painter.setFont(self.font())
            painter.setPen(text_colour)
            painter.drawText(QRectF(x, 4, size.width() + 30, line),
                             Qt.AlignmentFlag.AlignLeft, g.title)
            start = g.memory[0][0] if g.memory and g.memory[0] else 0
            for r, (nums, mems) in enumerate(zip(g.numbers, g.memory, strict=True)):
                for c, (n, m) in enumerate(zip(nums, mems, strict=True)):
                    rect = QRectF(x + c * _CELL, 4 + line + r * _CELL, _CELL - 3, _CELL - 3)
                    in_order = m - start == n
                    painter.setPen(QPen(QColor("#757575"), 1))
                    painter.setBrush(QColor("#e3f2fd") if in_order else QColor("#ffcdd2"))
                    painter.drawRect(rect)
                    painter.setPen(QColor("black"))
                    painter.setFont(bold)
                    painter.drawText(rect.adjusted(0, 0, 0, -rect.height() * 0.35),
                                     Qt.AlignmentFlag.AlignCenter, str(n))
                    painter.setFont(small)
                    painter.setPen(QColor("#546e7a"))
                    painter.drawText(rect.adjusted(0, rect.height() * 0.55, 0, 0),
                                     Qt.AlignmentFlag.AlignCenter, f"@{m}")
            if g.truncated:
                painter.setFont(small)
                painter.setPen(text_colour)
                painter.drawText(QRectF(x, 4 + line + len(g.numbers) * _CELL, size.width(), 14),
                                 Qt.AlignmentFlag.AlignLeft, "…")
            x += size.width() + 40
        painter.end()
