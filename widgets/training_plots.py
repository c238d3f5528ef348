"""The live plots of a training run: loss, learning rate, layer statistics, decision boundary.

Every plot and curve is made once (per run for the per-layer curves) and then fed with
``setData`` from the panel's display-rate timer through ``refresh(history)``; nothing is
rebuilt per frame. Cost does not grow with history: curves downsample (peak mode) and clip
to the view, and views never autorange per frame: ``ViewFitter`` fits them on a throttled
schedule until the user pans or zooms one, and again when asked.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsItem, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from widgets.theme import current_palette, series_colour, series_pen, theme_notifier

#: Seconds between automatic fits of the views that follow their data.
FIT_INTERVAL = 0.5
#: Seconds between updates of the per-layer curves (one curve per layer adds up).
LAYER_INTERVAL = 0.1
#: Widths below which the plots use two columns, then one.
TWO_COLUMNS, ONE_COLUMN = 900, 480


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


# -- shared helpers --------------------------------------------------------------------------
def new_plot(title: str, x_label: str = "", y_label: str = "", log_y: bool = False,
             tip: str = "") -> pg.PlotItem:
    """A plot item set up for live data: downsampled, clipped to view, no per-frame fit."""
    plot = pg.PlotItem()
    plot.setTitle(title, size="9pt")
    if x_label:
        plot.setLabel("bottom", x_label)
    if y_label:
        plot.setLabel("left", y_label)
    plot.setDownsampling(auto=True, mode="peak")
    plot.setClipToView(True)
    plot.hideButtons()
    plot.showGrid(x=True, y=True, alpha=0.15)
    for side in ("left", "bottom"):
        # Axes (and the grid they draw) are redrawn from a pixmap unless their range
        # changed: replaying their tick labels on every frame costs more than the curves.
        plot.getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    if log_y:
        plot.setLogMode(y=True)  # (this turns autorange on)
    plot.disableAutoRange()
    if tip:
        plot.setToolTip(tip)
    return plot


def style_plots(graphics: pg.GraphicsLayoutWidget, plots: Sequence[pg.PlotItem],
                widget: QWidget) -> None:
    """Background and axes in the current theme's colours."""
    colours = QApplication.palette(widget)
    ink = colours.color(QPalette.ColorRole.Text)
    graphics.setBackground(colours.color(QPalette.ColorRole.Base))
    for plot in plots:
        for side in ("left", "bottom"):
            axis = plot.getAxis(side)
            axis.setPen(ink)
            axis.setTextPen(ink)
        plot.titleLabel.setText(plot.titleLabel.text, color=ink, size="9pt")


def layer_colours(n: int, palette: Palette | None = None) -> list[QColor]:
    """One colour per layer along the theme's colour map, first layer dark, last light."""
    palette = palette or current_palette()
    cmap = pg.colormap.get(palette.colormap)
    return list(cmap.map(np.linspace(0.0, 0.85, max(n, 1))[:n], mode="qcolor"))


def smooth(values: np.ndarray, window: int) -> np.ndarray:
    """Trailing moving average over ``window`` points (NaN and inf are left out)."""
    if window <= 1 or len(values) == 0:
        return values
    finite = np.isfinite(values)
    clean = np.where(finite, values, 0.0)
    sums = np.cumsum(np.concatenate(([0.0], clean)))
    counts = np.cumsum(np.concatenate(([0], finite.astype(np.int64))))
    hi = np.arange(1, len(values) + 1)
    lo = np.maximum(hi - window, 0)
    n = counts[hi] - counts[lo]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, (sums[hi] - sums[lo]) / np.maximum(n, 1), np.nan)


def log10(values: np.ndarray) -> np.ndarray:
    """log10 with zeros, negatives and infinities as NaN (a gap, not a warning)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log10(values)
    out[~np.isfinite(out)] = np.nan
    return out


def upsample(image: np.ndarray, factor: int = 4) -> np.ndarray:
    """``image`` (rows, cols, channels) enlarged ``factor`` times by bilinear interpolation."""
    out = image.astype(np.float32)
    for axis in (0, 1):
        n = out.shape[axis]
        at = np.linspace(0, n - 1, n * factor)
        lo = np.floor(at).astype(np.int64)
        hi = np.minimum(lo + 1, n - 1)
        w = (at - lo).reshape((-1, 1, 1) if axis == 0 else (1, -1, 1))
        out = np.take(out, lo, axis) * (1 - w) + np.take(out, hi, axis) * w
    return out.round().astype(np.uint8)


def boundary_rgba(boundary: np.ndarray, colours: Sequence[QColor]) -> np.ndarray:
    """The decision boundary as an RGBA image, as in TensorFlow Playground.

    ``boundary`` has shape (rows, cols, outputs): class probabilities, sigmoid outputs or raw
    outputs. Each pixel takes the classes' colours weighted by probability, more opaque the
    more confident the model is.
    """
    p = np.nan_to_num(np.asarray(boundary, dtype=np.float64), nan=0.0, posinf=1.0, neginf=0.0)
    if p.shape[-1] == 1:
        q = np.clip(p[..., 0], 0.0, 1.0)
        p = np.stack([1.0 - q, q], axis=-1)
    else:
        p = np.clip(p, 0.0, None)
        total = p.sum(-1, keepdims=True)
        p = np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / p.shape[-1])
    k = p.shape[-1]
    rgb = np.array([[c.red(), c.green(), c.blue()] for c in
                    (colours[i % len(colours)] for i in range(k))], dtype=np.float64)
    mix = p @ rgb
    confidence = (p.max(-1) - 1.0 / k) / (1.0 - 1.0 / k)
    alpha = 30.0 + 170.0 * np.clip(confidence, 0.0, 1.0)
    return np.concatenate([mix, alpha[..., None]], axis=-1).astype(np.uint8)


def data_bounds(plot: pg.PlotItem) -> tuple[float, float, float, float] | None:
    """(xmin, xmax, ymin, ymax) of every visible curve's whole data, in view coordinates.

    The curves' own bounds cannot be used: clipped to the view, they only know the part
    shown, so a view fitted to them would never grow with the data.
    """
    log_y = bool(plot.getAxis("left").logMode)
    xs: list[float] = []
    ys: list[float] = []
    for item in plot.items:
        if isinstance(item, pg.PlotDataItem):
            x, y = item.getOriginalDataset()
        elif isinstance(item, pg.PlotCurveItem):
            x, y = item.getData()
        else:
            continue
        if not item.isVisible() or x is None or y is None or len(x) == 0:
            continue
        y = np.asarray(y, dtype=np.float64)
        y = log10(y) if log_y else y
        finite = np.isfinite(y)
        if finite.any():
            xs += [float(np.nanmin(x)), float(np.nanmax(x))]
            ys += [float(y[finite].min()), float(y[finite].max())]
    if not xs:
        return None
    return min(xs), max(xs), min(ys), max(ys)


class ViewFitter:
    """Fits views to their data now and then, never per frame.

    A view follows its data (refitted every ``FIT_INTERVAL`` seconds) until the user pans or
    zooms it; ``fit_all(force=True)`` makes every view follow again.
    """

    def __init__(self) -> None:
        self._follow: dict[pg.ViewBox, bool] = {}
        self._plots: dict[pg.ViewBox, tuple[pg.PlotItem, bool, bool]] = {}
        self._due = 0.0

    def add(self, plot: pg.PlotItem, items: bool = False, zero: bool = False) -> None:
        """Follow ``plot``: fitted to its curves' data, or to all its items (``items``,
        for images, bars and scatter plots); ``zero`` keeps 0 in the y range."""
        box = plot.getViewBox()
        self._follow[box] = True
        self._plots[box] = (plot, items, zero)
        box.sigRangeChangedManually.connect(lambda *_: self._follow.__setitem__(box, False))
        box.sigStateChanged.connect(self._on_view_state)

    def _on_view_state(self, box: pg.ViewBox) -> None:
        # pyqtgraph's menu (View All, log axes...) turns per-frame autorange on: follow
        # the data on our schedule instead.
        if any(box.state["autoRange"]):
            box.disableAutoRange()
            self._follow[box] = True
            self._due = 0.0

    def following(self, plot: pg.PlotItem) -> bool:
        return self._follow[plot.getViewBox()]

    def fit_all(self, force: bool = False) -> None:
        """Fit the following views (every view, and follow again, with ``force``)."""
        now = time.monotonic()
        if not force and now < self._due:
            return
        self._due = now + FIT_INTERVAL
        for box, (plot, items, zero) in self._plots.items():
            if force:
                self._follow[box] = True
            if self._follow[box] and box.isVisible():
                self._fit(box, plot, items, zero, force)

    @staticmethod
    def _fit(box: pg.ViewBox, plot: pg.PlotItem, items: bool, zero: bool,
             force: bool) -> None:
        """Fit ``box`` when its data left the view or fills too little of it.

        A new range redraws the axes, the dearest part of a frame, so views change range
        rarely: the step axis grows with a quarter to spare, and a range that still holds
        the data and is at most twice as large as needed stays as it is.
        """
        if items:
            xs, ys = box.childrenBounds()
            if xs is None or ys is None:
                return
            (x0, x1), (y0, y1) = xs, ys
        else:
            bounds = data_bounds(plot)
            if bounds is None:
                return
            x0, x1, y0, y1 = bounds
        if zero:
            y0, y1 = min(y0, 0.0), max(y1, 0.0)
        if x1 <= x0:
            x0, x1 = x0 - 0.5, x1 + 0.5
        if y1 <= y0:
            pad = abs(y0) * 0.1 or 0.5
            y0, y1 = y0 - pad, y1 + pad
        (v0, v1), (w0, w1) = box.viewRange()
        fits_x = v0 <= x0 and x1 <= v1 and (x1 - x0) >= 0.5 * (v1 - v0)
        fits_y = w0 <= y0 and y1 <= w1 and (y1 - y0) >= 0.5 * (w1 - w0)
        if fits_x and fits_y and not force:
            return
        if not items and not force and x1 > v1:
            x1 += 0.25 * (x1 - x0)  # room to grow into
        box.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0.04)


# -- the live plots ---------------------------------------------------------------------------
class LivePlots(QWidget):
    """Loss, learning rate, per-layer output std and gradient norm, and the decision boundary.

    Attributes
    ----------
    graphics : pyqtgraph.GraphicsLayoutWidget
        Holds every plot (export it to save them all in one picture).
    loss_curve, val_curve, smooth_curve, lr_curve : pyqtgraph.PlotDataItem
    std_curves, grad_curves : list of pyqtgraph.PlotDataItem
        One per layer, made when a run starts.
    std_bars : pyqtgraph.BarGraphItem
        The latest output std of each layer.
    boundary_image : pyqtgraph.ImageItem
    smoothing : int
        Steps the smoothed loss averages over (0: no smoothed curve).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setToolTip(_tr("Live plots of the run; drag to pan, wheel to zoom, "
                                     "right-click for options and export"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.graphics)
        self.fitter = ViewFitter()
        self.smoothing = 0
        self.loss_plot = new_plot(_tr("Loss"), _tr("step"))
        self.lr_plot = new_plot(_tr("Learning rate"), _tr("step"))
        self.std_bar_plot = new_plot(_tr("Layer output std (now)"), _tr("layer"), log_y=True)
        self.std_plot = new_plot(_tr("Layer output std over time"), _tr("step"), log_y=True)
        self.grad_plot = new_plot(_tr("Gradient norm per layer"), _tr("step"), log_y=True)
        self.boundary_plot = new_plot(_tr("Decision boundary"))
        self.boundary_plot.setAspectLocked(True)
        self.plots = [self.loss_plot, self.boundary_plot, self.std_bar_plot, self.lr_plot,
                      self.grad_plot, self.std_plot]
        for plot in self.plots:
            self.fitter.add(plot, items=plot in (self.boundary_plot, self.std_bar_plot),
                            zero=plot is self.lr_plot)
        self.legend = self.loss_plot.addLegend(offset=(-8, 8))
        self.loss_curve = self.loss_plot.plot(name=_tr("train"))
        self.smooth_curve = self.loss_plot.plot()  # in the legend only when shown
        self.val_curve = self.loss_plot.plot(name=_tr("validation"), symbol="o", symbolSize=4)
        self.lr_curve = self.lr_plot.plot()
        self.std_bars = pg.BarGraphItem(x=[], height=[], width=0.8, pen=None, brushes=[])
        self.std_bar_plot.addItem(self.std_bars)
        self.boundary_image = pg.ImageItem(axisOrder="row-major")
        self.boundary_plot.addItem(self.boundary_image)
        self.points = pg.ScatterPlotItem(size=5)
        self.boundary_plot.addItem(self.points)
        self.std_curves: list[pg.PlotDataItem] = []
        self.grad_curves: list[pg.PlotDataItem] = []
        self._info = None
        self._has_boundary = True
        self._columns = 0
        self._seen: dict[str, object] = {}
        self._layer_due = 0.0
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        self._relayout(force=True)

    # -- runs --------------------------------------------------------------------------------
    def set_run(self, info) -> None:
        """Prepare for a run described by ``info`` (``RunInfo``); None clears the plots."""
        self._info = info
        names = list(info.layer_names) if info is not None else []
        if len(names) != len(self.std_curves) and names:
            self._layer_curves(len(names))
        for curve in (*self.std_curves, *self.grad_curves):
            curve.setData([], [])
        self.std_bars.setOpts(x=np.arange(1, len(names) + 1), height=np.zeros(len(names)),
                              brushes=layer_colours(len(names)))
        every = max(1, len(names) // 8)
        self.std_bar_plot.getAxis("bottom").setTicks(
            [[(i, str(i)) for i in range(1, len(names) + 1, every)]] if names else None)
        for curve in (self.loss_curve, self.smooth_curve, self.val_curve, self.lr_curve):
            curve.setData([], [])
        self.boundary_image.clear()
        self._has_boundary = info is None or info.extent is not None
        self._show_points(info)
        self._seen.clear()
        self._relayout(force=True)
        self.fitter.fit_all(force=True)

    def _layer_curves(self, n: int) -> None:
        """Make (or drop) per-layer curves so that there are ``n`` of each: runs of the
        same model reuse them, as creating a hundred curves takes a while."""
        for curves, plot in ((self.std_curves, self.std_plot), (self.grad_curves, self.grad_plot)):
            while len(curves) > n:
                plot.removeItem(curves.pop())
            while len(curves) < n:
                curves.append(plot.plot())
            for curve, colour in zip(curves, layer_colours(n)):
                curve.setPen(pg.mkPen(colour, width=1))

    def _show_points(self, info) -> None:
        if info is None or info.points is None:
            self.points.setData([])
            return
        labels = np.asarray(info.labels).astype(np.int64).ravel()
        by_class = {int(k): pg.mkBrush(series_colour(int(k))) for k in np.unique(labels)}
        brushes = [by_class[int(k)] for k in labels]
        self.points.setData(pos=info.points[:, :2], brush=brushes,
                            pen=pg.mkPen(self.palette().color(QPalette.ColorRole.Base), width=0.6))

    def clear(self) -> None:
        self.set_run(None)

    # -- frames ------------------------------------------------------------------------------
    def refresh(self, history: History | None, force: bool = False) -> None:
        """Show what ``history`` holds now; cheap when nothing changed."""
        if history is None:
            return
        seen = self._seen
        if force or seen.get("loss") != (len(history.loss), history.loss.stride, history.step):
            seen["loss"] = (len(history.loss), history.loss.stride, history.step)
            steps, loss = history.loss.steps, history.loss.values
            self.loss_curve.setData(steps, loss)
            if self.smoothing > 1:
                window = max(1, self.smoothing // history.loss.stride)
                self.smooth_curve.setData(steps, smooth(loss, window))
            elif len(self.smooth_curve.xData if self.smooth_curve.xData is not None else ()):
                self.smooth_curve.setData([], [])
            self._legend_smoothing(self.smoothing > 1)
            self.val_curve.setData(history.val_loss.steps, history.val_loss.values)
            self.lr_curve.setData(history.lr.steps, history.lr.values)
        now = time.monotonic()
        key = (len(history.output_std), history.output_std.stride)
        if (force or now >= self._layer_due) and seen.get("layers") != key and self.std_curves:
            self._layer_due = now + LAYER_INTERVAL
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
        self.fitter.fit_all(force=force)

    def _refresh_layers(self, history: History) -> None:
        steps = history.output_std.steps
        stds, norms = history.output_std.values, history.grad_norm.values
        width = min(len(self.std_curves), stds.shape[1] if stds.ndim == 2 else 0)
        for i in range(width):
            self.std_curves[i].setData(steps, stds[:, i])
            self.grad_curves[i].setData(history.grad_norm.steps, norms[:, i])
        last = history.output_std.last()
        if last is not None:
            logs = log10(np.asarray(last, dtype=np.float64))
            finite = logs[np.isfinite(logs)]
            base = float(np.floor(finite.min()) - 0.5) if finite.size else 0.0
            heights = np.where(np.isfinite(logs), logs - base, 0.0)
            self.std_bars.setOpts(x=np.arange(1, len(logs) + 1), y0=base, height=heights)

    def _legend_smoothing(self, on: bool) -> None:
        listed = any(sample.item is self.smooth_curve for sample, _label in self.legend.items)
        if on and not listed:
            self.legend.addItem(self.smooth_curve, _tr("train, smoothed"))
        elif listed and not on:
            self.legend.removeItem(self.smooth_curve)

    def _class_colours(self) -> list[QColor]:
        return [series_colour(i) for i in range(len(current_palette().series))]

    def fit(self) -> None:
        """Fit every plot to its data and follow the data again."""
        self.fitter.fit_all(force=True)

    # -- layout and theme ------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._relayout()

    def _relayout(self, force: bool = False) -> None:
        width = self.width()
        columns = 3 if width >= TWO_COLUMNS else 2 if width >= ONE_COLUMN else 1
        if columns == self._columns and not force:
            return
        self._columns = columns
        layout = self.graphics.ci
        for plot in self.plots:
            if plot in layout.items:
                layout.removeItem(plot)
        shown = [p for p in self.plots if p is not self.boundary_plot or self._has_boundary]
        self.boundary_plot.setVisible(self._has_boundary)
        for i, plot in enumerate(shown):
            layout.addItem(plot, row=i // columns, col=i % columns)

    def _apply_theme(self, palette: Palette) -> None:
        style_plots(self.graphics, self.plots, self)
        colours = QApplication.palette(self)
        self.legend.setLabelTextColor(colours.color(QPalette.ColorRole.Text))
        self.legend.setBrush(colours.color(QPalette.ColorRole.Base))
        self.loss_curve.setPen(series_pen(0, 1.0))
        self.smooth_curve.setPen(series_pen(2, 2.0))
        self.val_curve.setPen(series_pen(1, 1.5))
        self.val_curve.setSymbolBrush(series_colour(1))
        self.val_curve.setSymbolPen(None)
        self.lr_curve.setPen(series_pen(3, 1.5))
        for curves in (self.std_curves, self.grad_curves):
            for curve, colour in zip(curves, layer_colours(len(curves), palette)):
                curve.setPen(pg.mkPen(colour, width=1))
        if self._info is not None:
            self._show_points(self._info)
        self._seen.pop("boundary", None)
