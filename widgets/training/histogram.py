"""A chosen layer's weights and gradients: their histogram now and their spread over time.

The kernel samples the chosen layer's weights and gradients (up to 4096 values each) now
and then (``kernel.watch_histogram``); ``HistogramPlots`` draws the latest sample as a
histogram, and beside it the layer's percentiles at every sampled step, which the kernel
computes for every layer (of up to 1024 values each, ``kernel.watch_quantiles``), as
nested bands (TensorBoard's "distributions", ``widgets.training.bands``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QCoreApplication, QSignalBlocker, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, series_colour, series_pen, theme_notifier
from widgets.training.bands import Bands
from widgets.training.plots import PlotGrid, ViewFitter, new_plot, plot_texts, style_plots

BINS = 50


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


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
        self.bands = Bands(self.time, colour)

    def apply_theme(self) -> None:
        base = QColor(series_colour(self.colour))
        self.hist.setPen(series_pen(self.colour, 1.0))
        self.hist.setBrush(QColor(base.red(), base.green(), base.blue(), 90))
        self.bands.apply_theme()

    def show(self, values: np.ndarray | None) -> None:
        finite = values[np.isfinite(values)] if values is not None else values
        if finite is not None and finite.size:
            counts, edges = np.histogram(finite, bins=BINS)
            self.hist.setData(edges, counts)

    def clear(self) -> None:
        self.hist.setData([], [])
        self.bands.clear()


class HistogramPlots(QWidget):
    """Histograms of one layer's weights and gradients, now and over time.

    Attributes
    ----------
    layer_combo : QComboBox
        The layer shown.
    weights, grads : _Track
        Their plots (``.now``, ``.time``) and bands (``.bands``).
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
        self._names: list[str] = []  # the loop's layers
        self._chosen: str | None = None  # a layer chosen that the kernel has not sampled
        self._shown: object = None  # the sample shown
        self._bands_shown: tuple = ()
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
        names = self._names = list(info.layer_names) if info is not None else []
        with QSignalBlocker(self.layer_combo):
            self.layer_combo.clear()
            self.layer_combo.addItems(names)
            if previous in names:
                self.layer_combo.setCurrentIndex(names.index(previous))
        if self._chosen not in names:
            self._chosen = None  # (the kernel samples its first layer instead)
        self.fitter.x_limit = float(info.steps) if info is not None and info.steps \
            else None  # the run's last step, when known
        self._clear_tracks()

    def show_layer(self, path: str) -> None:
        """The kernel sampled ``path`` (its first choice, or the user's): shown, unless
        the user has chosen another layer that the kernel has not sampled yet."""
        if self._chosen is not None and path != self._chosen:
            return  # (its next sample is of the layer chosen)
        self._chosen = None
        index = self.layer_combo.findText(path)
        if index >= 0 and index != self.layer_combo.currentIndex():
            with QSignalBlocker(self.layer_combo):
                self.layer_combo.setCurrentIndex(index)

    def _clear_tracks(self) -> None:
        self._shown, self._bands_shown = None, ()
        self.weights.clear()
        self.grads.clear()
        self.fitter.fit_all(force=True)

    def refresh(self, history: History | None, force: bool = False) -> None:
        """Show the chosen layer's latest sample, and its percentiles so far."""
        if history is None:
            return
        sample = history.weights
        if sample is not None and history.sample_layer == self.layer \
                and (force or sample is not self._shown):
            self._shown = sample
            self.weights.show(history.weights)
            self.grads.show(history.grads)
        index = self._names.index(self.layer) if self.layer in self._names else None
        kept = history.weight_q
        shown = (index, len(kept), kept.steps[-1] if len(kept) else None, kept.stride)
        if index is not None and index < kept.values.shape[1] \
                and (force or shown != self._bands_shown):
            self._bands_shown = shown
            self.weights.bands.set_data(kept.steps, kept.values[:, index, :])
            self.grads.bands.set_data(history.grad_q.steps, history.grad_q.values[:, index, :])
        self.fitter.fit_all(force=force)

    def fit(self) -> None:
        self.fitter.fit_all(force=True)

    def _on_view_layer(self, index: int) -> None:
        self._clear_tracks()
        self._chosen = self.layer_combo.itemText(index)
        self.layer_changed.emit(self.layer_combo.itemText(index))

    def _apply_theme(self, palette: Palette) -> None:
        plots = [p for t in (self.weights, self.grads) for p in (t.now, t.time)]
        style_plots(self.graphics, plots, self)
        self.weights.apply_theme()
        self.grads.apply_theme()
