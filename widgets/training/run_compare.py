"""Run comparison: every run kept until deleted, overlaid, with its settings side by side.

Each run is a ``RunRecord`` (``app.training.runs``): the settings it started with, its
``History`` (which outlives the training process) and how it ended. ``RunComparison``
overlays the visible runs' loss and their per-layer output std and gradient norm (at the
first or the latest sample: the initialisation demonstration), lists the runs, and
tabulates their settings and results, the rows that differ in bold.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.palette import Palette
from app.training.runs import CONTEXT as RUNS_CONTEXT
from app.training.runs import RunRecord
from app.training.settings import TrainingSettings, _Section
from widgets.common.i18n_text import translate_core
from widgets.common.theme import current_palette, series_colour, series_pen, theme_notifier
from widgets.training.plots import PlotGrid, ViewFitter, new_plot, set_title, style_plots

#: Seconds between updates of the results in the table while a run trains.
TABLE_INTERVAL = 0.5


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def _name(record: RunRecord) -> str:
    """The run's name ("Run 3") in the UI language."""
    return translate_core(RUNS_CONTEXT, record.name)


def flat_settings(settings: TrainingSettings) -> dict[str, Any]:
    """Dotted field name -> value, in the dataclasses' order."""
    out: dict[str, Any] = {}

    def walk(section: Any, prefix: str) -> None:
        for f in dataclasses.fields(section):
            value = getattr(section, f.name)
            if isinstance(value, _Section):
                walk(value, prefix + f.name + ".")
            else:
                out[prefix + f.name] = value
    walk(settings, "")
    return out


def field_labels() -> dict[str, str]:
    """Dotted field name -> its label, from the settings metadata."""
    out: dict[str, str] = {}

    def walk(kind: type, prefix: str) -> None:
        for f in dataclasses.fields(kind):
            default = (f.default_factory() if f.default is dataclasses.MISSING  # type: ignore[misc]
                       else f.default)
            if isinstance(default, _Section):
                walk(type(default), prefix + f.name + ".")
            else:
                out[prefix + f.name] = QCoreApplication.translate(
                    "TrainingSettings", f.metadata.get("label", f.name))
    walk(TrainingSettings, "")
    return out


def value_text(name: str, value: Any) -> str:
    """A setting's value as the table shows it (choices by their label)."""
    from app.training import settings as s

    choices = {"init": s.INITS, "model.activation": s.ACTIVATIONS, "data.kind": s.DATA,
               "loss": s.LOSSES, "optimizer.name": s.OPTIMIZERS, "schedule.kind": s.SCHEDULES,
               "clip.mode": s.CLIPS}.get(name)
    if choices and value in choices:
        return QCoreApplication.translate("TrainingSettings", choices[value])
    if isinstance(value, bool):
        return _tr("yes") if value else _tr("no")
    return f"{value:g}" if isinstance(value, float) else str(value)


def run_labels(runs: list[RunRecord]) -> dict[int, str]:
    """A legend name per run: its number and the settings that set it apart."""
    flats = [flat_settings(r.settings) for r in runs]
    differing = [k for k in (flats[0] if flats else {})
                 if len({repr(f[k]) for f in flats}) > 1]
    labels = field_labels()
    out = {}
    for record, flat in zip(runs, flats, strict=True):
        parts = [f"{labels[k]} {value_text(k, flat[k])}" for k in differing[:2]]
        out[record.number] = _name(record) + (": " + ", ".join(parts) if parts else "")
    return out


class RunComparison(QWidget):
    """Runs overlaid in three plots, listed with show/hide boxes, and tabulated.

    Attributes
    ----------
    runs : list of RunRecord
        Every run kept, oldest first.
    loss_plot, std_plot, grad_plot : pyqtgraph.PlotItem
        Loss against step; output std and gradient norm against layer.
    runs_list : QTreeWidget
        One checkable row per run (checked: shown).
    table : QTableWidget
        Settings and results, one column per run.
    """

    run_deleted = Signal(object)
    """Emitted with the ``RunRecord`` the user deleted."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.runs: list[RunRecord] = []
        self._curves: dict[int, tuple[pg.PlotDataItem, ...]] = {}
        self._seen: dict[int, object] = {}
        self._stale = False  # runs changed while the page was hidden
        self._table_due = 0.0
        self.grid = PlotGrid()
        self.graphics = self.grid.graphics
        self.graphics.setToolTip(_tr("Every visible run overlaid, one colour per run"))
        # no legend: the runs list below names each colour
        self.loss_plot = new_plot(_tr("Loss (dashed: validation)"), _tr("step"))
        self.std_plot = new_plot(_tr("Layer output std"), _tr("layer"), log_y=True)
        self.grad_plot = new_plot(_tr("Gradient norm per layer"), _tr("layer"), log_y=True)
        self.fitter = ViewFitter()
        for plot in (self.loss_plot, self.std_plot, self.grad_plot):
            self.fitter.add(plot, grow=False)  # runs compared have mostly finished
        self.grid.set_plots([self.loss_plot, self.std_plot, self.grad_plot])

        self.runs_list = QTreeWidget()
        self.runs_list.setHeaderLabels([_tr("Run"), _tr("State"), _tr("Steps")])
        self.runs_list.setRootIsDecorated(False)
        self.runs_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.runs_list.setToolTip(_tr("Every run kept; untick a run to hide it from the plots"))
        self.runs_list.itemChanged.connect(self._on_view_item_changed)
        self.delete_button = QPushButton(_tr("Delete"))
        self.delete_button.setToolTip(_tr("Forget the selected runs and their metrics"))
        self.delete_button.clicked.connect(self._on_view_delete)
        self.when_combo = QComboBox()
        self.when_combo.addItem(_tr("Layers at the first step"), "first")
        self.when_combo.addItem(_tr("Layers at the latest step"), "last")
        self.when_combo.setToolTip(_tr("Which sample of the per-layer statistics to overlay: "
                                       "the first step shows the initialisation"))
        self.when_combo.currentIndexChanged.connect(lambda _i: self.refresh(force=True))
        self.only_diff = QCheckBox(_tr("Only differences"))
        self.only_diff.setToolTip(_tr("Show only the settings that differ between runs"))
        self.only_diff.toggled.connect(lambda _on: self._fill_table())
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip(_tr("Each run's settings and results side by side; rows that "
                                  "differ are bold"))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)

        buttons = QHBoxLayout()
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.runs_list, 1)
        left_layout.addLayout(buttons)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        options = QHBoxLayout()
        options.addWidget(self.when_combo)
        options.addWidget(self.only_diff)
        options.addStretch(1)
        right_layout.addLayout(options)
        right_layout.addWidget(self.table, 1)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(left)
        bottom.addWidget(right)
        bottom.setSizes([320, 640])
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.grid)
        split.addWidget(bottom)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(split)
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)

    # -- runs ------------------------------------------------------------------------------------
    def add_run(self, record: RunRecord) -> None:
        self.runs.append(record)
        self._runs_changed()

    def remove_run(self, record: RunRecord) -> None:
        if record in self.runs:
            self.runs.remove(record)
            self._runs_changed()

    def update_run(self, record: RunRecord) -> None:
        """The run's state or info changed: update its row and the table."""
        if self._stale or not self.isVisible():
            self._stale = True
            return
        item = self._item(record)
        if item is not None:
            item.setText(1, record.state)
            item.setText(2, str(record.history.step))
        self._fill_results()
        self._refresh_run(record, force=True)
        self.fitter.fit_all(force=True)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self._runs_changed()

    def _runs_changed(self) -> None:
        # A hidden page is brought up to date when shown: with many runs kept, rebuilding
        # their curves and table at every start took longer than a frame.
        self._stale = not self.isVisible()
        if self._stale:
            return
        plots = (self.loss_plot, self.loss_plot, self.std_plot, self.grad_plot)
        for curves in self._curves.values():
            for plot, curve in zip(plots, curves, strict=True):
                plot.removeItem(curve)
        self._curves.clear()
        self._seen.clear()
        labels = run_labels(self.runs)
        for record in self.runs:
            i = record.number - 1
            loss = self.loss_plot.plot(pen=series_pen(i, 1.0))
            val = self.loss_plot.plot(pen=series_pen(i, 1.0, Qt.PenStyle.DashLine))
            std = self.std_plot.plot(pen=series_pen(i, 1.5), symbol="o", symbolSize=4,
                                     symbolBrush=series_colour(i), symbolPen=None)
            grad = self.grad_plot.plot(pen=series_pen(i, 1.5), symbol="o", symbolSize=4,
                                       symbolBrush=series_colour(i), symbolPen=None)
            self._curves[record.number] = (loss, val, std, grad)
            for curve in (loss, val, std, grad):
                curve.setVisible(record.visible)
        with QSignalBlocker(self.runs_list):
            self.runs_list.clear()
            for record in self.runs:
                item = QTreeWidgetItem([labels[record.number], record.state,
                                        str(record.history.step)])
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked if record.visible
                                   else Qt.CheckState.Unchecked)
                item.setIcon(0, _swatch(series_colour(record.number - 1)))
                item.setData(0, Qt.ItemDataRole.UserRole, record.number)
                item.setToolTip(0, labels[record.number])
                self.runs_list.addTopLevelItem(item)
            self.runs_list.resizeColumnToContents(0)
        self._fill_table()
        self.refresh(force=True)
        self.fitter.fit_all(force=True)

    def _item(self, record: RunRecord) -> QTreeWidgetItem | None:
        for i in range(self.runs_list.topLevelItemCount()):
            item = self.runs_list.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == record.number:
                return item
        return None

    # -- frames ----------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        """Update the curves of runs whose history changed (the training one, usually)."""
        first = self.when_combo.currentData() == "first"
        if force:
            when = _tr("first step") if first else _tr("latest step")
            set_title(self.std_plot, _tr("Layer output std ({0})").format(when))
            set_title(self.grad_plot, _tr("Gradient norm per layer ({0})").format(when))
        for record in self.runs:
            self._refresh_run(record, force)
        now = time.monotonic()
        if now >= self._table_due and any(r.state == "running" for r in self.runs):
            self._table_due = now + TABLE_INTERVAL
            self._fill_results()
            for record in self.runs:
                item = self._item(record)
                if item is not None:
                    item.setText(2, str(record.history.step))
        self.fitter.fit_all(force=force)

    def _refresh_run(self, record: RunRecord, force: bool) -> None:
        first = self.when_combo.currentData() == "first"
        curves = self._curves.get(record.number)
        h = record.history
        key = (h.step, len(h.loss), len(h.output_std), first)
        if curves is None or (not force and self._seen.get(record.number) == key):
            return
        self._seen[record.number] = key
        loss, val, std, grad = curves
        loss.setData(h.loss.steps, h.loss.values)
        val.setData(h.val_loss.steps, h.val_loss.values)
        if len(h.output_std):
            row = 0 if first else -1
            stds, norms = h.output_std.values[row], h.grad_norm.values[row]
            std.setData(np.arange(1, len(stds) + 1), stds)
            grad.setData(np.arange(1, len(norms) + 1), norms)
        else:
            std.setData([], [])
            grad.setData([], [])

    def fit(self) -> None:
        self.fitter.fit_all(force=True)

    # -- the table -------------------------------------------------------------------------------
    def _result_rows(self, record: RunRecord) -> list[str]:
        h = record.history
        loss, val = h.loss.last(), h.val_loss.last()
        return [record.state, str(h.step),
                "" if loss is None else f"{float(loss):.5g}",
                "" if val is None else f"{float(val):.5g}",
                record.info.device if record.info is not None else "",
                "; ".join(record.notes)]

    def _fill_table(self) -> None:
        labels = field_labels()
        flats = [flat_settings(r.settings) for r in self.runs]
        names = list(labels)
        differs = {k: len({repr(f[k]) for f in flats}) > 1 for k in names}
        if self.only_diff.isChecked():
            names = [k for k in names if differs[k]]
        results = [_tr("State"), _tr("Steps trained"), _tr("Latest loss"),
                   _tr("Latest validation loss"), _tr("Device used"), _tr("Live changes")]
        self.table.clear()
        self.table.setColumnCount(len(self.runs))
        self.table.setRowCount(len(results) + len(names))
        self.table.setHorizontalHeaderLabels([_name(r) for r in self.runs])
        self.table.setVerticalHeaderLabels(results + [f"{labels[k]} ({k})" for k in names])
        bold = QFont(self.table.font())
        bold.setBold(True)
        for col, (record, flat) in enumerate(zip(self.runs, flats, strict=True)):
            header = self.table.horizontalHeaderItem(col)
            header.setForeground(QBrush(series_colour(record.number - 1)))
            for row, name in enumerate(names, start=len(results)):
                item = QTableWidgetItem(value_text(name, flat[name]))
                if differs[name]:
                    item.setFont(bold)
                self.table.setItem(row, col, item)
        self._fill_results()
        self.table.resizeColumnsToContents()

    def _fill_results(self) -> None:
        for col, record in enumerate(self.runs[: self.table.columnCount()]):
            for row, text in enumerate(self._result_rows(record)):
                item = self.table.item(row, col)
                if item is None:
                    self.table.setItem(row, col, QTableWidgetItem(text))
                elif item.text() != text:
                    item.setText(text)

    # -- view events -----------------------------------------------------------------------------
    def _on_view_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        number = item.data(0, Qt.ItemDataRole.UserRole)
        for record in self.runs:
            if record.number == number:
                record.visible = item.checkState(0) == Qt.CheckState.Checked
                for curve in self._curves.get(number, ()):
                    curve.setVisible(record.visible)

    def _on_view_delete(self) -> None:
        numbers = {item.data(0, Qt.ItemDataRole.UserRole)
                   for item in self.runs_list.selectedItems()}
        for record in [r for r in self.runs if r.number in numbers]:
            self.remove_run(record)
            self.run_deleted.emit(record)

    def _apply_theme(self, palette: Palette) -> None:
        style_plots(self.graphics, [self.loss_plot, self.std_plot, self.grad_plot], self)
        if self.runs:
            self._runs_changed()


def _swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(colour)
    return QIcon(pixmap)
