"""``PlaneDims``: which two dimensions of a tensor the viewer shows, and where the rest sit.

Its texts keep the ``ViewerPanel`` translation context, where they were first written.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from widgets.common.retranslate import translated

_INDEX_BOXES_PER_LINE = 4


class PlaneDims(QWidget):
    """A rows and a columns dimension picker, and an index spin box for every other dimension.

    Picking, for one axis, the dimension the other axis shows swaps the two. Shown only for
    tensors of three or more dimensions.
    """

    changed = Signal()
    """Emitted when the user picks another dimension or index (``plane`` has the new ones)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._rows_dim, self._cols_dim = 0, 1
        self._fixed: dict[int, int] = {}
        self._built_ndim = -1  # ndim the controls were built for
        self._shape: tuple[int, ...] | None = None  # the tensor shown; None ignores picks
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.rows_box, self.cols_box = QComboBox(), QComboBox()
        translated(self, lambda: self.rows_box.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "The dimension shown down the rows")))
        translated(self, lambda: self.cols_box.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "The dimension shown across the columns")))
        self.rows_box.currentIndexChanged.connect(self._on_view_rows_dim_changed)
        self.cols_box.currentIndexChanged.connect(self._on_view_cols_dim_changed)
        pick = QHBoxLayout()
        rows_label, cols_label = QLabel(), QLabel()
        translated(self, lambda: (
            rows_label.setText(QCoreApplication.translate("ViewerPanel", "Rows:")),
            rows_label.setToolTip(self.rows_box.toolTip()),
            cols_label.setText(QCoreApplication.translate("ViewerPanel", "Columns:")),
            cols_label.setToolTip(self.cols_box.toolTip())))
        for label, combo in ((rows_label, self.rows_box), (cols_label, self.cols_box)):
            pick.addWidget(label)
            pick.addWidget(combo)
        pick.addStretch(1)
        layout.addLayout(pick)
        self._index_grid = QGridLayout()
        self._index_grid.setContentsMargins(0, 0, 0, 0)
        self._index_grid.setColumnStretch(_INDEX_BOXES_PER_LINE, 1)
        layout.addLayout(self._index_grid)
        self._index_boxes: list[QSpinBox] = []
        self._index_cells: list[QWidget] = []
        self.hide()

    @property
    def plane(self) -> tuple[int, int, dict[int, int]]:
        """The rows dimension, the columns dimension and the other dimensions' indices."""
        return self._rows_dim, self._cols_dim, dict(self._fixed)

    def index_box(self, dim: int) -> QSpinBox:
        """The spin box fixing the index of dimension ``dim`` (hidden for the shown two)."""
        return self._index_boxes[dim]

    def set_shape(self, shape: tuple[int, ...]) -> None:
        """Fit the controls to a tensor of ``shape``: rebuilt when ndim changes, else only
        re-ranged, so a tensor of the same rank keeps the plane picked."""
        self._shape = shape
        ndim = len(shape)
        if ndim != self._built_ndim:
            self._rows_dim, self._cols_dim = max(ndim - 2, 0), max(ndim - 1, 1)
            self._fixed = {}
            self._rebuild_index_boxes(ndim)
        self._fixed = {d: min(self._fixed.get(d, 0), max(shape[d] - 1, 0))
                       for d in range(ndim) if d not in (self._rows_dim, self._cols_dim)}
        for combo in (self.rows_box, self.cols_box):
            with QSignalBlocker(combo):
                for d in range(ndim):
                    combo.setItemText(d, QCoreApplication.translate(
                        "ViewerPanel", "dim {d} (size {n})").format(d=d, n=shape[d]))
        with QSignalBlocker(self.rows_box), QSignalBlocker(self.cols_box):
            self.rows_box.setCurrentIndex(self._rows_dim)
            self.cols_box.setCurrentIndex(self._cols_dim)
        for d, spin in enumerate(self._index_boxes):
            with QSignalBlocker(spin):
                spin.setRange(0, max(shape[d] - 1, 0))
                spin.setValue(self._fixed.get(d, 0))
        self.setVisible(ndim >= 3)

    def clear_shape(self) -> None:
        """No tensor is shown: picks change nothing until the next ``set_shape``."""
        self._shape = None

    def _rebuild_index_boxes(self, ndim: int) -> None:
        """Make one combo entry and one index spin box per dimension; only when ndim changes."""
        for cell in self._index_cells:
            self._index_grid.removeWidget(cell)
            cell.deleteLater()
        self._index_boxes, self._index_cells = [], []
        with QSignalBlocker(self.rows_box), QSignalBlocker(self.cols_box):
            self.rows_box.clear()
            self.cols_box.clear()
            for d in range(ndim):
                self.rows_box.addItem("", d)
                self.cols_box.addItem("", d)
        for d in range(ndim):
            cell = QWidget(self)
            row = QHBoxLayout(cell)
            row.setContentsMargins(0, 0, 8, 0)
            label = QLabel()
            spin = QSpinBox()
            translated(cell, lambda label=label, spin=spin, d=d: _set_index_texts(label, spin, d))
            spin.valueChanged.connect(self._on_view_index_changed)
            row.addWidget(label)
            row.addWidget(spin)
            self._index_cells.append(cell)
            self._index_boxes.append(spin)
        self._layout_index_boxes()
        self._built_ndim = ndim

    def _layout_index_boxes(self) -> None:
        """Show the index boxes of the dimensions not on screen, a few to a line."""
        shown = (self._rows_dim, self._cols_dim)
        slot = 0
        for d, cell in enumerate(self._index_cells):
            self._index_grid.removeWidget(cell)
            cell.setVisible(d not in shown)
            if d not in shown:
                self._index_grid.addWidget(cell, slot // _INDEX_BOXES_PER_LINE,
                                           slot % _INDEX_BOXES_PER_LINE)
                slot += 1

    # -- user actions ----------------------------------------------------------------
    def _on_view_rows_dim_changed(self, combo_index: int) -> None:
        self._pick_dims(rows=combo_index)

    def _on_view_cols_dim_changed(self, combo_index: int) -> None:
        self._pick_dims(cols=combo_index)

    def _on_view_index_changed(self, value: int) -> None:
        self._fixed = {d: spin.value() for d, spin in enumerate(self._index_boxes)
                       if d in self._fixed}
        self.changed.emit()

    def _pick_dims(self, rows: int | None = None, cols: int | None = None) -> None:
        """Show ``rows`` x ``cols``; picking the dimension the other axis shows swaps the two."""
        if self._shape is None or (rows is not None and rows < 0) or (cols is not None
                                                                       and cols < 0):
            return
        old_rows, old_cols = self._rows_dim, self._cols_dim
        new_rows = old_rows if rows is None else rows
        new_cols = old_cols if cols is None else cols
        if new_rows == new_cols:
            new_rows, new_cols = (new_rows, old_rows) if rows is not None else (old_cols,
                                                                                new_cols)
        self._rows_dim, self._cols_dim = new_rows, new_cols
        self._fixed = {d: self._index_boxes[d].value() for d in range(len(self._shape))
                       if d not in (new_rows, new_cols)}
        with QSignalBlocker(self.rows_box), QSignalBlocker(self.cols_box):
            self.rows_box.setCurrentIndex(new_rows)
            self.cols_box.setCurrentIndex(new_cols)
        self._layout_index_boxes()
        self.changed.emit()


def _set_index_texts(label: QLabel, spin: QSpinBox, d: int) -> None:
    label.setText(QCoreApplication.translate("ViewerPanel", "dim {d}:").format(d=d))
    spin.setToolTip(QCoreApplication.translate(
        "ViewerPanel", "The index of dimension {d} that the plane is taken at").format(d=d))
    label.setToolTip(spin.toolTip())
