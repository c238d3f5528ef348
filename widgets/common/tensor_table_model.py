"""A virtualised table over one 2-D plane of a tensor.

The model keeps a numpy array of the plane (a view of the tensor's memory
wherever numpy can share it) and formats a cell only when a view asks for it,
so a 4096 x 4096 tensor opens at once and memory grows with the visible cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtWidgets import QHeaderView, QStyle, QWidget

_Index = QModelIndex | QPersistentModelIndex
# Roles and flags as plain values, made once: data() runs for every visible cell and role.
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_VERTICAL = Qt.Orientation.Vertical
_HORIZONTAL = Qt.Orientation.Horizontal


@dataclass(frozen=True)
class PlaneAddress:
    """Where a plane sits in its tensor, to name a cell by its full index.

    Parameters
    ----------
    name : str
        The tensor's variable name, as in ``x[2, 3]``.
    ndim : int
        The tensor's number of dimensions (0 and 1 are shown as one row).
    rows_dim, cols_dim : int
        The dimensions the plane's rows and columns run along.
    fixed : dict of int to int
        The index of every other dimension.
    """

    name: str = "x"
    ndim: int = 2
    rows_dim: int = 0
    cols_dim: int = 1
    fixed: dict[int, int] = field(default_factory=dict)
    #: Every how many rows and columns of the tensor the plane holds one (a big plane
    #: comes from the kernel as an even sample).
    step: tuple[int, int] = (1, 1)

    def index(self, row: int, col: int) -> tuple[int, ...]:
        """The full index in the tensor of the plane's cell ``(row, col)``."""
        row, col = row * self.step[0], col * self.step[1]
        if self.ndim == 0:
            return ()
        if self.ndim == 1:
            return (col,)
        return tuple(row if d == self.rows_dim else col if d == self.cols_dim
                     else self.fixed.get(d, 0) for d in range(self.ndim))

    def label(self, row: int, col: int) -> str:
        """``x[1, 2, 3]`` for a cell; just ``x`` for a 0-D tensor."""
        idx = self.index(row, col)
        return f"{self.name}[{', '.join(map(str, idx))}]" if idx else self.name


class TensorTableModel(QAbstractTableModel):
    """Rows and columns of a 2-D numpy array, formatted cell by cell on demand.

    Parameters
    ----------
    parent : QObject, optional
        The usual Qt parent.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._values: np.ndarray = np.zeros((0, 0))
        self._address = PlaneAddress()

    # -- the plane ---------------------------------------------------------------
    @property
    def values(self) -> np.ndarray:
        """The 2-D array shown; a view of the tensor, never per-cell Python objects."""
        return self._values

    @property
    def address(self) -> PlaneAddress:
        return self._address

    def set_plane(self, values: np.ndarray, address: PlaneAddress | None = None) -> None:
        """Show ``values`` (2-D); ``address`` names cells in tooltips."""
        if values.ndim != 2:
            raise ValueError(f"a table shows a 2-D plane, not {values.ndim}-D")
        self.beginResetModel()
        self._values = values
        self._address = address or PlaneAddress()
        self.endResetModel()

    def clear(self) -> None:
        if self._values.size or self._values.shape != (0, 0):  # already clear: no reset
            self.set_plane(np.zeros((0, 0)))

    # -- QAbstractTableModel -------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._values.shape[0]

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._values.shape[1]

    def data(self, index: _Index, role: int = _DISPLAY) -> object:
        if role == _DISPLAY:
            if not index.isValid():
                return None
            return format_cell(self._values[index.row(), index.column()])
        if role == _ALIGNMENT:
            return _RIGHT
        if role == _TOOLTIP and index.isValid():
            row, col = index.row(), index.column()
            value = full_precision(self._values[row, col])
            return f"{self._address.label(row, col)} = {value}"
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _DISPLAY) -> object:
        if role == _DISPLAY:
            # 0-D and 1-D tensors are shown as one row with no index of its own
            if orientation == _VERTICAL and self._address.ndim < 2:
                return ""
            if orientation == _HORIZONTAL and self._address.ndim == 0:
                return ""
            return str(section * self._address.step[orientation == _HORIZONTAL])
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return _CELL_FLAGS if index.isValid() else _NO_FLAGS


def format_cell(v: np.generic) -> str:
    """Short text for one element: ints as they are, floats to 4 significant digits."""
    if isinstance(v, np.bool_):
        return "True" if v else "False"
    if isinstance(v, np.integer):
        return str(int(v))
    if isinstance(v, np.complexfloating):
        return f"{v.real:.4g}{v.imag:+.4g}j"
    return f"{float(v):.4g}"


def full_precision(v: np.generic) -> str:
    """The element written with every digit its dtype holds (numpy's shortest round trip)."""
    if isinstance(v, np.bool_):
        return "True" if v else "False"
    if isinstance(v, np.integer):
        return str(int(v))
    return str(v)


class IndexHeader(QHeaderView):
    """A header of element indices, sized from the widest index instead of every section.

    QHeaderView sizes itself by asking the model for up to 200 sections' texts, many
    times over while a table opens; indices are digits, so their widest is known.
    """

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None):
        super().__init__(orientation, parent)
        self.setSectionsClickable(False)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        model = self.model()
        count = self.count()
        if model is None or count == 0:
            return super().sizeHint()
        widest = max(len(str(model.headerData(i, self.orientation()) or ""))
                     for i in {0, count - 1})
        metrics = self.fontMetrics()
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
        width = metrics.horizontalAdvance("8" * max(widest, 1)) + 4 * margin
        height = metrics.height() + 2 * margin + 2
        return QSize(width, height)
