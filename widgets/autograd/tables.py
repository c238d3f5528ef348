"""The small tables of the autograd explorer's pages, and the scroll area each page sits in."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QScrollArea, QTableView, QWidget

from app.tensor_copy import TensorCopy
from widgets.common.tensor_table_model import TensorTableModel


def matrix_of(t: TensorCopy | np.ndarray) -> np.ndarray:
    """A 2-D numpy copy of the kernel's tensor ``t`` (its copy, or its values) for a
    table: scalars are 1 x 1, vectors one row, more dimensions stacked down the rows."""
    data = np.asarray(t.values if isinstance(t, TensorCopy) else t)
    if data.ndim == 0:
        data = data.reshape(1, 1)
    elif data.ndim == 1:
        data = data.reshape(1, -1)
    elif data.ndim > 2:
        data = data.reshape(-1, data.shape[-1])
    return data.copy()


def small_table(model: TensorTableModel) -> QTableView:
    """A table of ``model`` with narrow columns, scrolled by the pixel."""
    table = QTableView()
    table.setModel(model)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.horizontalHeader().setDefaultSectionSize(64)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    return table


def fit_rows(table: QTableView, most: int = 6) -> None:
    """Make ``table`` as tall as its rows, up to ``most`` of them (then it scrolls)."""
    rows = min(table.model().rowCount(), most)
    height = (table.horizontalHeader().sizeHint().height()
              + rows * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth()
              + table.horizontalScrollBar().sizeHint().height())  # room for one, if needed
    table.setMaximumHeight(height + 2)
    if table.model().columnCount() <= 40:
        table.resizeColumnsToContents()


def scrolled(page: QWidget) -> QScrollArea:
    """``page`` in a frameless scroll area that only scrolls up and down (texts wrap)."""
    area = QScrollArea()
    area.setWidget(page)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area
