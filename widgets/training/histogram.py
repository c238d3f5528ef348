"""A chosen layer's weights and gradients: their histogram now and their spread over time.

The kernel samples the chosen layer's weights and gradients (up to 4096 values each) a
few times a second (``kernel.watch_histogram``); ``HistogramPlots`` draws the
latest sample as a histogram and keeps, per sample, a few percentiles (TensorBoard's
"distributions"), drawn as nested bands.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QSignalBlocker, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, series_colour, series_pen, theme_notifier
from widgets.training.plots import PlotGrid, ViewFitter, new_plot, plot_texts, style_plots

#: Percentiles kept per sample; symmetric pairs become bands around the median.
PERCENTILES = (0, 7, 16, 31, 50, 69, 84, 93, 100)
BINS = 50
#: Seconds between samples kept for the bands over time.
SAMPLE_INTERVAL = 0.1


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


class Distribution:
    """Percentiles of successive samples, in arrays that stay bounded (thinned when full)."""

    def __init__(self, capacity: int = 2048):
        self.capacity = capacity
        self._steps = np.empty(capacity, dtype=np.int64)
        self._bands = np.empty((capacity, len(PERCENTILES)), dtype=np.float64)
        self._n = 0

    def __len__(self) -> int:
        return self._n

    @property
    def steps(self) -> np.ndarray:
        return self._steps[: self._n]

    @property
    def bands(self) -> np.ndarray:
        """Shape (len, len(PERCENTILES))."""
        return self._bands[: self._n]

    def add(self, step: int, values: np.ndarray) -> None:
        finite = values[np.isfinite(values)]
        if finite.size == 0:
            return
        if self._n == self.capacity:  # keep every other sample, in new arrays
            keep = slice(0, self._n, 2)
            self._steps = np.concatenate([self._steps[keep], np.empty_like(self._steps[keep])])
            self._bands = np.concatenate([self._bands[keep], np.empty_like(self._bands[keep])])
            self._n = len(range(0, self.capacity, 2))
        self._steps[self._n] = step
        self._bands[self._n] = np.percentile(finite, PERCENTILES)
        self._n += 1

    def clear(self) -> None:
        self._n = 0


class _Track:
    """The plots of one quantity (weights or gradients): histogram now, bands over time."""

    def __init__(self, owner: QWidget, title_now: Callable[[], str],
                 title_time: Callable[[], str], colour: int):
        self.colour = colour
        self.now = new_plot("", history=False)
        self.time = new_plot("")
        plot_texts(owner, self.now, title_now, lambda: _tr("value"), lambda: _tr("count"))
        plot_texts(owner, self.time, title_time, lambda: _tr("step"), lambda: _tr("value"))
        self.hist = self.now.plot(stepMode="center", fillLevel=0)
        self.distribution = Distribution()
        self.median = self.time.plot()
        self.bounds: list[tuple[pg.PlotCurveItem, pg.PlotCurveItem]] = []
        self.fills: list[pg.FillBetweenItem] = []
        for _ in range(len(PERCENTILES) // 2):
            lo, hi = pg.PlotCurveItem(), pg.PlotCurveItem()
            fill = pg.FillBetweenItem(lo, hi)
            for item in (lo, hi, fill):
                self.time.addItem(item)
            self.bounds.append((lo, hi))
            self.fills.append(fill)

    def apply_theme(self) -> None:
        base = QColor(series_colour(self.colour))
        self.hist.setPen(series_pen(self.colour, 1.0))
        self.hist.setBrush(QColor(base.red(), base.green(), base.blue(), 90))
        self.median.setPen(series_pen(self.colour, 1.5))
        for i, ((lo, hi), fill) in enumerate(zip(self.bounds, self.fills, strict=True)):
            for curve in (lo, hi):
                curve.setPen(None)
            fill.setBrush(QColor(base.red(), base.green(), base.blue(), 40 + 30 * i))

    def show(self, values: np.ndarray) -> None:
        finite = values[np.isfinite(values)]
        if finite.size:
            counts, edges = np.histogram(finite, bins=BINS)
            self.hist.setData(edges, counts)
        steps, bands = self.distribution.steps, self.distribution.bands
        self.median.setData(steps, bands[:, len(PERCENTILES) // 2])
        for i, (lo, hi) in enumerate(self.bounds):
            lo.setData(steps, bands[:, i])
            hi.setData(steps, bands[:, -1 - i])

    def clear(self) -> None:
        self.distribution.clear()
        self.hist.setData([], [])
        self.median.setData([], [])
        for lo, hi in self.bounds:
            lo.setData([], [])
            hi.setData([], [])


class HistogramPlots(QWidget):
    """Histograms of one layer's weights and gradients, now and over time.

    Attributes
    ----------
    layer_combo : QComboBox
        The layer shown.
    weights, grads : _Track
        Their plots (``.now``, ``.time``) and the kept ``.distribution``.
    """

    layer_changed = Signal(str)
    """Emitted with the path of the layer chosen (``net.conv1``)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.layer_combo = QComboBox()
        translated(self, lambda: (
            self.layer_combo.setToolTip(_tr("The layer whose weights and gradients are sampled "
                                            "and shown"))))
        self.layer_combo.activated.connect(self._on_view_layer)
        self.layer_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        label = QLabel()
        translated(self, lambda label=label: label.setText(_tr("Layer:")))
        label.setBuddy(self.layer_combo)
        self.grid = PlotGrid(max_columns=2)
        self.graphics = self.grid.graphics
        translated(self, lambda: (
            self.graphics.setToolTip(_tr("Left: the latest sample of the layer's weights and "
                                         "gradients. Right: their spread over time (bands: "
                                         "min–max, 7–93%, 16–84%, 31–69%; line: median)"))))
        self.weights = _Track(self, lambda: _tr("Weights (now)"),
                              lambda: _tr("Weights over time"), 0)
        self.grads = _Track(self, lambda: _tr("Gradients (now)"),
                            lambda: _tr("Gradients over time"), 1)
        self.fitter = ViewFitter(interval=0.25)  # histograms move with every sample
        for track in (self.weights, self.grads):
            self.fitter.add(track.now, grow=False)
            self.fitter.add(track.time)
        self.grid.set_plots([self.weights.now, self.weights.time, self.grads.now,
                             self.grads.time])
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(self.layer_combo)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.grid, 1)
        self._sample: object = None
        self._stale = False
        self._shown: object = None
        self._collect_due = 0.0
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)

    @property
    def layer(self) -> str | None:
        """The path of the layer shown, or None."""
        return self.layer_combo.currentText() or None

    def set_run(self, info) -> None:
        """Offer the layers of the loop ``info`` describes (None: no loop); the one chosen
        before stays chosen where the loop has it."""
        previous = self.layer_combo.currentText()
        names = list(info.layer_names) if info is not None else []
        with QSignalBlocker(self.layer_combo):
            self.layer_combo.clear()
            self.layer_combo.addItems(names)
            if previous in names:
                self.layer_combo.setCurrentIndex(names.index(previous))
        self._clear_tracks()

    def show_layer(self, path: str) -> None:
        """The kernel sampled ``path`` (its first choice, or the user's)."""
        index = self.layer_combo.findText(path)
        if index >= 0 and index != self.layer_combo.currentIndex():
            with QSignalBlocker(self.layer_combo):
                self.layer_combo.setCurrentIndex(index)

    def _clear_tracks(self) -> None:
        self._sample = self._shown = None
        self.weights.clear()
        self.grads.clear()
        self.fitter.fit_all(force=True)

    def collect(self, history: History | None) -> None:
        """Keep the percentiles of a new sample (every frame, shown or not; a few a second)."""
        if history is None or history.weights is None or history.weights is self._sample:
            return
        if self._stale:  # the sample held was taken from the layer shown before
            self._sample, self._stale = history.weights, False
            return
        now = time.monotonic()
        if now < self._collect_due:
            return
        self._collect_due = now + SAMPLE_INTERVAL
        self._sample = history.weights
        self.weights.distribution.add(history.sample_step, history.weights)
        self.grads.distribution.add(history.sample_step, history.grads)

    def refresh(self, history: History | None, force: bool = False) -> None:
        """Show the latest sample and the bands kept so far."""
        self.collect(history)
        if history is None or self._sample is None:
            return
        if force or self._shown is not self._sample:
            self._shown = self._sample
            self.weights.show(history.weights)
            self.grads.show(history.grads)
        self.fitter.fit_all(force=force)

    def fit(self) -> None:
        self.fitter.fit_all(force=True)

    def _on_view_layer(self, index: int) -> None:
        self._clear_tracks()
        self._stale = True
        self.layer_changed.emit(self.layer_combo.itemText(index))

    def _apply_theme(self, palette: Palette) -> None:
        plots = [p for t in (self.weights, self.grads) for p in (t.now, t.time)]
        style_plots(self.graphics, plots, self)
        self.weights.apply_theme()
        self.grads.apply_theme()
