"""The live plots of a training run: loss, learning rate, layer statistics, decision boundary.

Every plot and curve is made once (per run for the per-layer curves) and then fed with
``setData`` from the panel's display-rate timer through ``refresh(history)``; nothing is
rebuilt per frame. Cost does not grow with history: curves downsample (peak mode) and clip
to the view, and views never autorange per frame: ``ViewFitter`` fits them on a throttled
schedule until the user pans or zooms one, and again when asked.

The building blocks live beside this module: ``plot_style`` (``new_plot`` and the theme),
``plot_data`` (smoothing, log10, the boundary image), ``view_fitter``, ``layer_lines`` and
``plot_grid``. The views that share them import them from here.
"""

from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from app.training.peaks import peaks
from widgets.common.retranslate import translated
from widgets.common.scale import display_scale
from widgets.common.theme import current_palette, series_colour, series_pen, theme_notifier
from widgets.training.layer_lines import LayerKey, LayerLines
from widgets.training.plot_data import boundary_rgba, log10, smooth, upsample
from widgets.training.plot_grid import MIN_PLOT_HEIGHT, ONE_COLUMN, TWO_COLUMNS, PlotGrid
from widgets.training.plot_style import (
    layer_colours,
    new_plot,
    plot_texts,
    set_title,
    style_legend,
    style_plots,
)
from widgets.training.view_fitter import FIT_INTERVAL, ViewFitter, data_bounds

__all__ = [
    "FIT_INTERVAL", "MIN_PLOT_HEIGHT", "ONE_COLUMN", "SLOW_INTERVAL", "TWO_COLUMNS",
    "LayerLines", "LivePlots", "PlotGrid", "ViewFitter", "boundary_rgba", "data_bounds",
    "layer_colours", "log10", "new_plot", "plot_texts", "set_title", "smooth", "style_legend",
    "style_plots", "upsample",
]

#: Seconds between updates of every plot but the loss (it follows each frame).
SLOW_INTERVAL = 0.1
#: Most layers the bars name one by one (more: numbered, every few).
NAMED_LAYERS = 8


def _layer_ticks(names: list[str]) -> list[tuple[int, str]]:
    """The bars' labels: the path below the recipe's variable (``conv1`` of ``net.conv1``)
    for a few layers, numbers for many (the axis names as many as fit)."""
    if len(names) <= NAMED_LAYERS:
        return list(enumerate(short_names(names), start=1))
    return [(i, str(i)) for i in range(1, len(names) + 1)]


def short_names(names: list[str]) -> list[str]:
    """``names`` without the variable they all start with (``net.conv1``: ``conv1``),
    when that leaves each one different; else as they are."""
    parts = [name.split(".", 1) for name in names]
    if not parts or any(len(p) < 2 or p[0] != parts[0][0] for p in parts):
        return list(names)
    rest = [p[1] for p in parts]
    return rest if len(set(rest)) == len(rest) else list(names)


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


class LivePlots(QWidget):
    """Loss, learning rate, per-layer output std and gradient norm, and the decision boundary.

    Attributes
    ----------
    graphics : pyqtgraph.GraphicsLayoutWidget
        Holds every plot (export it to save them all in one picture).
    loss_curve, val_curve, smooth_curve, lr_curve : pyqtgraph.PlotDataItem
    std_lines, grad_lines : LayerLines
        One line per layer: output std and gradient norm over time (log10 values).
    std_bars : pyqtgraph.BarGraphItem
        The latest output std of each layer.
    boundary_image : pyqtgraph.ImageItem
    smoothing : int
        Steps the smoothed loss averages over (0: no smoothed curve).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.grid = PlotGrid()
        self.graphics = self.grid.graphics
        translated(self, lambda: (
            self.graphics.setToolTip(_tr("Live plots of the run; drag to pan, wheel to zoom, "
                                         "right-click for options and export"))))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.grid)
        self.fitter = ViewFitter()
        self.smoothing = 0
        self.loss_plot = new_plot("")
        self.lr_plot = new_plot("")
        self.std_bar_plot = new_plot("", log_y=True, categories=True)
        self.std_plot = new_plot("", log_y=True)
        self.grad_plot = new_plot("", log_y=True)
        self.boundary_plot = new_plot("")
        step = lambda: _tr("step")  # noqa: E731 - the x axis of most plots
        plot_texts(self, self.loss_plot, lambda: _tr("Loss"), step)
        plot_texts(self, self.lr_plot, lambda: _tr("Learning rate"), step)
        self._bar_step: int | None = None  # the step the bars are of (its last sample)
        plot_texts(self, self.std_bar_plot, self._bars_title, lambda: _tr("layer"))
        plot_texts(self, self.std_plot, lambda: _tr("Layer output std"), step)
        plot_texts(self, self.grad_plot, lambda: _tr("Layer gradient norm"), step)
        plot_texts(self, self.boundary_plot, lambda: _tr("Decision boundary"))
        self.boundary_plot.setAspectLocked(True)
        # in reading order: the loss, then each layer's output std and gradient norm over
        # time, so that two rows of a small window show the three that matter most
        self.plots = [self.loss_plot, self.std_plot, self.grad_plot, self.boundary_plot,
                      self.lr_plot, self.std_bar_plot]
        for plot in self.plots:
            still = plot in (self.boundary_plot, self.std_bar_plot)
            self.fitter.add(plot, items=still, zero=plot is self.lr_plot, grow=not still)
        self.legend = self.loss_plot.addLegend(offset=(-8, 8))
        self.loss_curve = self.loss_plot.plot(name=_tr("train"))
        self.smooth_curve = self.loss_plot.plot()  # in the legend only when shown
        # (no symbols: thousands of markers cost more per frame than every curve together)
        self.val_curve = self.loss_plot.plot(name=_tr("validation"))
        self.extra_curve = self.loss_plot.plot()  # a scalar the loop binds, when chosen
        translated(self, self._set_legend_texts, now=False)
        self.lr_curve = self.lr_plot.plot()
        self.std_bars = pg.BarGraphItem(x=[], height=[], width=0.8, pen=None, brushes=[])
        self.std_bar_plot.addItem(self.std_bars)
        self.boundary_image = pg.ImageItem(axisOrder="row-major")
        self.boundary_plot.addItem(self.boundary_image)
        self.points = pg.ScatterPlotItem(size=5)
        self.boundary_plot.addItem(self.points)
        self.std_lines, self.grad_lines = LayerLines(), LayerLines()
        self.std_plot.addItem(self.std_lines)
        self.grad_plot.addItem(self.grad_lines)
        # which line is which layer, under each plot of layer lines
        self.std_key, self.grad_key = LayerKey(NAMED_LAYERS), LayerKey(NAMED_LAYERS)
        for plot, key in ((self.std_plot, self.std_key), (self.grad_plot, self.grad_key)):
            plot.layout.addItem(key, 4, 0, 1, 3)

        self._info = None
        self._has_boundary = False
        self._seen: dict[str, object] = {}
        self._slow_due = 0.0
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        display_scale().changed.connect(self._on_view_scale)
        self._relayout()

    # -- runs --------------------------------------------------------------------------------
    def set_run(self, info, keep_boundary: bool = False) -> None:
        """Prepare for a run described by ``info`` (``RunInfo``); None clears the plots.
        With ``keep_boundary`` the boundary's plot stays while the run has none yet (a
        2-D classifier run again: its first boundary comes with its first batch, and
        laying the plots out without it, then with it again, made them jump)."""
        self._info = info
        if self._bar_step is not None:
            self._bar_step = None
            self.std_bar_plot.setTitle(self._bars_title(), size="9pt")
        names = list(info.layer_names) if info is not None else []
        for lines in (self.std_lines, self.grad_lines):
            lines.set_colours(layer_colours(len(names)))
            lines.set_data(np.empty(0), np.empty((0, len(names))))
        self.std_bars.setOpts(x=np.arange(1, len(names) + 1), height=np.zeros(len(names)),
                              brushes=layer_colours(len(names)))
        self.std_bar_plot.getAxis("bottom").set_categories(_layer_ticks(names))
        self._show_keys()
        for curve in (self.loss_curve, self.smooth_curve, self.val_curve, self.lr_curve):
            curve.setData([], [])
        self.show_extra(None)
        self.boundary_image.clear()
        self._legend_entry(self.val_curve, _tr("validation") if info is None
                           or getattr(info, "validation", True) else None)
        self._has_boundary = info is not None and info.extent is not None \
            or keep_boundary and self._has_boundary
        self._show_points(info)
        self._seen.clear()
        self._relayout()
        self.fitter.x_limit = float(info.steps) if info is not None and info.steps \
            else None
        self.fitter.follow_all()

    def _show_points(self, info) -> None:
        if info is None or info.points is None:
            self.points.setData([])
            return
        labels = np.asarray(info.labels).astype(np.int64).ravel()
        by_class = {int(k): pg.mkBrush(series_colour(int(k))) for k in np.unique(labels)}
        brushes = [by_class[int(k)] for k in labels]
        self.points.setData(pos=info.points[:, :2], brush=brushes,
                            pen=pg.mkPen(self.palette().color(QPalette.ColorRole.Base), width=0.6))

    def show_extra(self, name: str | None, steps: np.ndarray = (), values: np.ndarray = ()
                   ) -> None:
        """Plot ``values`` (a scalar the loop binds, such as ``val_loss``) beside the loss,
        named ``name`` in the legend; None takes it away."""
        self.extra_curve.setData(np.asarray(steps, dtype=np.float64),
                                 np.asarray(values, dtype=np.float64), connect="finite")
        self._legend_entry(self.extra_curve, name)

    def clear(self) -> None:
        self.set_run(None)

    # -- frames ------------------------------------------------------------------------------
    def refresh(self, history: History | None, force: bool = False) -> None:
        """Show what ``history`` holds now; cheap when nothing changed.

        The loss curve follows every frame; the rest (learning rate, validation loss, the
        per-layer curves and bars, the boundary) at most every ``SLOW_INTERVAL`` seconds:
        they change slowly, and each update costs as much as the loss curve's.
        """
        if history is None:
            return
        seen = self._seen
        if force or seen.get("loss") != (len(history.loss), history.loss.stride, history.step):
            seen["loss"] = (len(history.loss), history.loss.stride, history.step)
            steps, loss = history.loss.steps, history.loss.values
            self.loss_curve.setData(*peaks(history.loss))
            if self.smoothing > 1:
                window = max(1, self.smoothing // history.loss.stride)
                self.smooth_curve.setData(steps, smooth(loss, window))
            elif len(self.smooth_curve.xData if self.smooth_curve.xData is not None else ()):
                self.smooth_curve.setData([], [])
            self._legend_entry(self.smooth_curve,
                               _tr("train, smoothed") if self.smoothing > 1 else None)
        now = time.monotonic()
        if force or now >= self._slow_due:
            self._slow_due = now + SLOW_INTERVAL
            self._refresh_slow(history, force)
        self.fitter.fit_all(force=force)

    def _refresh_slow(self, history: History, force: bool) -> None:
        seen = self._seen
        for name, curve, series in (("val", self.val_curve, history.val_loss),
                                    ("lr", self.lr_curve, history.lr)):
            if force or seen.get(name) != (len(series), series.stride):
                seen[name] = (len(series), series.stride)
                curve.setData(*peaks(series))
        key = (len(history.output_std), history.output_std.stride)
        if (force or seen.get("layers") != key) and self._info is not None:
            seen["layers"] = key
            self._refresh_layers(history)
        if history.boundary is not None and seen.get("boundary") is not history.boundary:
            seen["boundary"] = history.boundary
            self.boundary_image.setImage(upsample(boundary_rgba(history.boundary,
                                                                self._class_colours())),
                                         autoLevels=False)
            if self._info is not None and self._info.extent is not None:
                x0, x1, y0, y1 = self._info.extent
                self.boundary_image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))

    def _bars_title(self) -> str:
        """The bars are the last sample's: live, a step sampled a moment ago; once the
        loop has ended, not always its last step (the watch samples layers a few times a
        second), so the title says which."""
        if self._bar_step is None:
            return _tr("Layer output std (now)")
        return _tr("Layer output std at step {0}").format(self._bar_step)

    def _refresh_layers(self, history: History) -> None:
        self.std_lines.set_data(history.output_std.steps, log10(history.output_std.values))
        self.grad_lines.set_data(history.grad_norm.steps, log10(history.grad_norm.values))
        last = history.output_std.last()
        steps = history.output_std.steps
        step = int(steps[-1]) if last is not None and len(steps) else None
        if step != self._bar_step:
            self._bar_step = step
            self.std_bar_plot.setTitle(self._bars_title(), size="9pt")
        if last is not None:
            logs = log10(np.asarray(last, dtype=np.float64))
            finite = logs[np.isfinite(logs)]
            base = float(np.floor(finite.min()) - 0.5) if finite.size else 0.0
            heights = np.where(np.isfinite(logs), logs - base, 0.0)
            self.std_bars.setOpts(x=np.arange(1, len(logs) + 1), y0=base, height=heights)

    def _legend_entry(self, curve: pg.PlotDataItem, label: str | None) -> None:
        """``curve`` in the legend as ``label`` (None: not in it); the legend shows only
        when it names two curves or more."""
        listed = [text.text for sample, text in self.legend.items if sample.item is curve]
        if listed and listed[0] != label:
            self.legend.removeItem(curve)
        if label is not None and (not listed or listed[0] != label):
            self.legend.addItem(curve, label)
        self._show_legend()

    def _set_legend_texts(self) -> None:
        """The legend's names of the lab's own curves, in the UI's language."""
        names = {self.loss_curve: _tr("train"), self.val_curve: _tr("validation"),
                 self.smooth_curve: _tr("train, smoothed")}
        for sample, text in self.legend.items:
            if sample.item in names:
                text.setText(names[sample.item])

    def _show_legend(self) -> None:
        """A legend of one curve says nothing, and hides the loss's first steps."""
        self.legend.setVisible(len(self.legend.items) > 1)

    def _class_colours(self) -> list[QColor]:
        return [series_colour(i) for i in range(len(current_palette().series))]

    def fit(self) -> None:
        """Fit every plot to its data and follow the data again."""
        self.fitter.fit_all(force=True)

    # -- layout and theme ------------------------------------------------------------------------
    def _on_view_scale(self, _scale: float) -> None:
        self._show_keys()

    def _relayout(self) -> None:
        self.boundary_plot.setVisible(self._has_boundary)
        self.grid.set_plots([p for p in self.plots
                             if p is not self.boundary_plot or self._has_boundary])

    def _apply_theme(self, palette: Palette) -> None:
        style_plots(self.graphics, self.plots, self)
        style_legend(self.legend, self)
        self.loss_curve.setPen(series_pen(0, 1.0))
        self.smooth_curve.setPen(series_pen(2, 2.0))
        self.val_curve.setPen(series_pen(1, 1.0))  # 1 px: wider pens are slow to draw
        self.lr_curve.setPen(series_pen(3, 1.0))
        self.extra_curve.setPen(series_pen(4, 1.0))
        n = len(self._info.layer_names) if self._info is not None else 0
        for lines in (self.std_lines, self.grad_lines):
            lines.set_colours(layer_colours(n, palette))
        if self._info is not None:
            self._show_points(self._info)
        self._show_keys()
        self._seen.pop("boundary", None)

    def _show_keys(self) -> None:
        """Name each layer's line in the keys, in the theme's (and the scale's) text."""
        names = list(self._info.layer_names) if self._info is not None else []
        ink = QApplication.palette(self).color(QPalette.ColorRole.Text)
        for key in (self.std_key, self.grad_key):
            key.set_layers(names, layer_colours(len(names)), ink)
