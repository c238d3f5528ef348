"""The run comparison: every loop that trained, its loss overlaid, and what differed in the
recipe that made it (``app.training.compare``): ``lr=0.3`` against ``lr=0.03``, or the line
of another initialisation.

Each run is a ``Loop`` the document keeps (``LiveTraining.kept``); this page shows them
and lets the user hide or delete them. The loss curves are log-scaled: runs that differ
by orders of magnitude (an exploding one beside one that converges) stay readable.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.training.compare import differences
from app.training.live import Loop
from widgets.common.retranslate import translated
from widgets.common.theme import series_colour, series_pen, theme_notifier
from widgets.training.plot_data import log10
from widgets.training.plot_style import new_plot, plot_texts, style_plots


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


class RunComparison(QWidget):
    """Runs listed (shown or hidden), their losses overlaid, their differences tabled."""

    delete_requested = Signal(object)
    """Emitted with the ``Loop`` the user deleted from the comparison."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.runs = QListWidget()
        translated(self, lambda: (
            self.runs.setToolTip(_tr("Every run kept: tick the ones to overlay"))))
        self.runs.itemChanged.connect(lambda _item: self._draw())
        self.delete_button = QPushButton()
        translated(self, lambda: self.delete_button.setText(_tr("Delete")))
        translated(self, lambda: (
            self.delete_button.setToolTip(_tr("Take the selected run out of the comparison"))))
        self.delete_button.clicked.connect(self._on_view_delete)
        self.graphics = pg.GraphicsLayoutWidget()
        translated(self, lambda: (
            self.graphics.setToolTip(_tr("Each run's loss (log scale); right-click to export"))))
        self.loss_plot = new_plot("", log_y=True)
        plot_texts(self, self.loss_plot, lambda: _tr("Loss of each run"), lambda: _tr("step"))
        self.graphics.addItem(self.loss_plot)  # (no legend: the list names the colours)
        self.table = QTableWidget()
        translated(self, lambda: (
            self.table.setToolTip(_tr("What differed in the recipes that made the runs: the "
                                      "knobs by name, other lines by their text"))))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.runs, 1)
        row = QHBoxLayout()
        row.addWidget(self.delete_button)
        row.addStretch(1)
        column.addLayout(row)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.graphics)
        right.addWidget(self.table)
        right.setSizes([300, 160])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([220, 700])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self._loops: list[Loop] = []
        self._curves: list[pg.PlotDataItem] = []
        self._apply_theme()
        theme_notifier().changed.connect(self._apply_theme)
        self._hidden: set[int] = set()  # numbers of the runs unticked

    def _apply_theme(self, _palette: object = None) -> None:
        style_plots(self.graphics, [self.loss_plot], self)

    def set_runs(self, loops: list[Loop]) -> None:
        """Show ``loops`` (oldest first)."""
        self._loops = list(loops)
        self.runs.blockSignals(True)
        self.runs.clear()
        for loop in self._loops:
            item = QListWidgetItem(self._title(loop))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked if loop.number in self._hidden
                               else Qt.CheckState.Checked)
            item.setForeground(series_colour(loop.number - 1))
            item.setToolTip(_tr("The loop at line {0} of the recipe run {1}").format(
                loop.line, loop.number))
            self.runs.addItem(item)
        self.runs.blockSignals(False)
        self.delete_button.setEnabled(bool(self._loops))
        self._draw()

    def _title(self, loop: Loop) -> str:
        loss = loop.last_loss
        text = _tr("Run {0}: {1} steps").format(loop.number, loop.steps)
        if loss is not None:
            text += _tr(", loss {0}").format(f"{loss:.4g}")
        elif loop.steps:
            text += _tr(", loss NaN")
        return text

    def shown(self) -> list[Loop]:
        """The runs ticked."""
        return [loop for i, loop in enumerate(self._loops)
                if self.runs.item(i).checkState() == Qt.CheckState.Checked]

    def _draw(self) -> None:
        self._hidden = {loop.number for i, loop in enumerate(self._loops)
                        if self.runs.item(i).checkState() != Qt.CheckState.Checked}
        for curve in self._curves:
            self.loss_plot.removeItem(curve)
        self._curves = []
        shown = self.shown()
        for loop in shown:
            if loop.history is None:
                continue
            curve = self.loss_plot.plot(loop.history.loss.steps,
                                        log10(np.asarray(loop.history.loss.values)),
                                        pen=series_pen(loop.number - 1, 1.5),
                                        connect="finite")
            self._curves.append(curve)
        self.loss_plot.enableAutoRange()
        self._table(shown)

    def _table(self, shown: list[Loop]) -> None:
        rows = differences([loop.source for loop in shown])
        self.table.clear()
        self.table.setColumnCount(len(shown))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels([_tr("Run {0}").format(loop.number)
                                              for loop in shown])
        self.table.setVerticalHeaderLabels([r.label for r in rows])
        for r, row in enumerate(rows):
            for c, value in enumerate(row.values):
                item = QTableWidgetItem(value or "—")
                item.setToolTip(value or _tr("not in this run's recipe"))
                self.table.setItem(r, c, item)

    def _on_view_delete(self) -> None:
        row = self.runs.currentRow()
        if 0 <= row < len(self._loops):
            self.delete_requested.emit(self._loops[row])
