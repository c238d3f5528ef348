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
from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QApplication, QGraphicsItem, QScrollArea, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from widgets.common.log_axis import LogAxis
from widgets.common.theme import current_palette, series_colour, series_pen, theme_notifier

#: Seconds between automatic fits of the views that follow their data.
FIT_INTERVAL = 0.5
#: Seconds between updates of every plot but the loss (it follows each frame).
SLOW_INTERVAL = 0.1
#: Widths below which the plots use two columns, then one.
TWO_COLUMNS, ONE_COLUMN = 900, 480
#: Below this height per row of plots, the page scrolls.
MIN_PLOT_HEIGHT = 200


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


# -- shared helpers --------------------------------------------------------------------------
def new_plot(title: str, x_label: str = "", y_label: str = "", log_y: bool = False,
             tip: str = "", history: bool = True) -> pg.PlotItem:
    """A plot item set up for live data: no per-frame fit and, for data that grows with
    the run's history (``history``), downsampled (peak mode) and clipped to the view."""
    plot = pg.PlotItem(axisItems={"left": LogAxis("left")} if log_y else None)
    plot.setTitle(title, size="9pt")
    if x_label:
        plot.setLabel("bottom", x_label)
    if y_label:
        plot.setLabel("left", y_label)
    if history:  # (not for histograms: pyqtgraph cannot clip step-mode curves)
        plot.setDownsampling(auto=True, mode="peak")
        plot.setClipToView(True)
    plot.hideButtons()
    # No grid: the axes draw it, across the whole plot, and blitting it every frame was
    # a third of the window's time while training (p99 timer lateness 60 -> 33 ms).
    for side in ("left", "bottom"):
        # Axes are redrawn from a pixmap unless their range changed: replaying their
        # tick labels on every frame costs more than the curves.
        plot.getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    # Tick labels change width with the range ("0.5", "0.25"). A left axis that followed
    # them re-laid its plot out, and every plot sharing its column: each relayout redraws
    # all their axes. Room for "-0.0005" is kept from the start, and the axis only grows.
    left = plot.getAxis("left")
    left.textWidth = QFontMetrics(QApplication.font()).horizontalAdvance("-0.0005")
    left.setStyle(autoReduceTextSpace=False)
    if log_y:
        plot.setLogMode(y=True)  # (this turns autorange on)
    plot.disableAutoRange()
    if tip:
        plot.setToolTip(tip)
    return plot


def set_title(plot: pg.PlotItem, title: str) -> None:
    """Change a plot's title, in the theme's text colour."""
    ink = QApplication.palette().color(QPalette.ColorRole.Text)
    plot.setTitle(title, size="9pt", color=ink)


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


def style_legend(legend: pg.LegendItem, widget: QWidget) -> None:
    """Legend text and background in the current theme's colours."""
    colours = QApplication.palette(widget)
    legend.setLabelTextColor(colours.color(QPalette.ColorRole.Text))
    legend.setBrush(colours.color(QPalette.ColorRole.Base))
    for _sample, label in legend.items:
        label.setText(label.text)  # the colour applies when the text is set


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
        if isinstance(item, LayerLines):
            r = item.data_rect
            if item.points and item.isVisible():
                xs += [r.left(), r.right()]
                ys += [r.top(), r.bottom()]
            continue
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

    A view follows its data until the user pans or zooms it; ``fit_all(force=True)``
    fits every view and makes it follow again. Otherwise each call checks at most one view
    (in turn, each about every ``FIT_INTERVAL`` seconds), so that the axes of several
    plots are not all redrawn in the same frame.
    """

    def __init__(self, interval: float = FIT_INTERVAL) -> None:
        self.interval = interval
        self._follow: dict[pg.ViewBox, bool] = {}
        self._plots: list[tuple[pg.ViewBox, pg.PlotItem, bool, bool, bool]] = []
        self._turn = 0
        self._due = 0.0
        #: The run's last step, where known: the step axis never grows past it.
        self.x_limit: float | None = None

    def add(self, plot: pg.PlotItem, items: bool = False, zero: bool = False,
            grow: bool = True) -> None:
        """Follow ``plot``: fitted to its curves' data, or to all its items (``items``,
        for images, bars and scatter plots); ``zero`` keeps 0 in the y range; ``grow``
        leaves room on the right for data still to come."""
        box = plot.getViewBox()
        self._follow[box] = True
        self._plots.append((box, plot, items, zero, grow))
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
        """Fit the following views: one, in turn, when due; every view with ``force``."""
        if force:
            for box, plot, items, zero, grow in self._plots:
                self._follow[box] = True
                if box.isVisible():
                    self._fit(box, plot, items, zero, grow, True)
            return
        self._fit_next()

    def follow_all(self) -> None:
        """Make every view follow its data again, fitted in turn from the next call on:
        a new run does not redraw every axis in one frame."""
        for box in self._follow:
            self._follow[box] = True
        self._due = 0.0

    def _fit_next(self) -> None:
        now = time.monotonic()
        if now < self._due or not self._plots:
            return
        self._due = now + self.interval / len(self._plots)
        for _ in range(len(self._plots)):
            self._turn = (self._turn + 1) % len(self._plots)
            box, plot, items, zero, grow = self._plots[self._turn]
            if self._follow[box] and box.isVisible():
                self._fit(box, plot, items, zero, grow, False)
                return

    def _fit(self, box: pg.ViewBox, plot: pg.PlotItem, items: bool, zero: bool, grow: bool,
             force: bool) -> None:
        """Fit ``box`` when its data left the view or fills too little of it.

        A new range redraws the axes, the dearest part of a frame, so views change range
        rarely: the step axis doubles (up to the run's last step, ``x_limit``), and a
        range that still holds the data and is at most twice as large as needed (five
        times, along a growing step axis) stays as it is.
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
        fits_x = v0 <= x0 and x1 <= v1 and (x1 - x0) >= (0.2 if grow else 0.5) * (v1 - v0)
        fits_y = w0 <= y0 and y1 <= w1 and (y1 - y0) >= 0.5 * (w1 - w0)
        if fits_x and fits_y and not force:
            return
        if grow and (force or x1 > v1):
            room = x1 + (x1 - x0)  # as much again to grow into
            limit = self.x_limit
            if limit is not None and limit > x0:
                # a sixteenth of the run at least: fewer redraws while a run is young
                x1 = max(x1, min(max(room, x0 + (limit - x0) / 16), limit))
            else:
                x1 = room
        # Only the range that needs it changes: each one redraws its axis.
        box.setRange(xRange=None if fits_x and not force else (x0, x1),
                     yRange=None if fits_y and not force else (y0, y1), padding=0.04)


class LayerLines(pg.GraphicsObject):
    """One line per layer, all drawn by this one item.

    A hundred ``PlotDataItem`` objects cost a hundred times their bookkeeping on every
    update; this item turns each layer's column into a path (``pyqtgraph.arrayToQPath``)
    and paints the paths with their pens. Values are given as shown: pass log10 values
    for a log axis.
    """

    def __init__(self) -> None:
        super().__init__()
        self._paths: list[QPainterPath] = []
        self._pens: list[QPen] = []
        self._rect = QRectF()
        self.points = 0
        """Points per line last shown."""

    @property
    def data_rect(self) -> QRectF:
        """The data's extent (empty without data)."""
        return self._rect

    def set_colours(self, colours: Sequence[QColor]) -> None:
        self._pens = [pg.mkPen(c, width=1) for c in colours]
        self.update()

    def set_data(self, x: np.ndarray, ys: np.ndarray) -> None:
        """``ys`` has shape (len(x), lines); NaN leaves a gap."""
        self.prepareGeometryChange()
        x = np.asarray(x, dtype=np.float64)
        ys = np.asarray(ys, dtype=np.float64)
        ys = ys.reshape(len(x), -1) if ys.size else np.empty((len(x), 0))
        self._paths = [pg.arrayToQPath(x, ys[:, i], connect="finite")
                       for i in range(ys.shape[1])] if len(x) else []
        self.points = len(x)
        finite = ys[np.isfinite(ys)]
        if len(x) and finite.size:
            self._rect = QRectF(float(x.min()), float(finite.min()),
                                float(x.max() - x.min()), float(finite.max() - finite.min()))
        else:
            self._rect = QRectF()
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._rect.adjusted(0, -1e-9, 0, 1e-9) if not self._rect.isNull() else QRectF()

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):  # noqa: N802
        if self._rect.isNull() and not self.points:
            return None, None
        r = self._rect
        return (r.left(), r.right()) if ax == 0 else (r.top(), r.bottom())

    def paint(self, painter: QPainter, *args) -> None:
        # no paths until the first data; a raise here, inside Qt's paint, would crash
        for path, pen in zip(self._paths, self._pens, strict=False):
            painter.setPen(pen)
            painter.drawPath(path)


class PlotGrid(QScrollArea):
    """Plots in as many columns as the width allows (up to ``max_columns``), each at least
    ``MIN_PLOT_HEIGHT`` tall: a small window scrolls rather than squashing them.

    Attributes
    ----------
    graphics : pyqtgraph.GraphicsLayoutWidget
        Holds the plots (export it to save them all in one picture).
    """

    def __init__(self, max_columns: int = 3, parent: QWidget | None = None):
        super().__init__(parent)
        self.graphics = pg.GraphicsLayoutWidget()
        self.setWidget(self.graphics)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.max_columns = max_columns
        self._plots: list[pg.PlotItem] = []
        self._columns = 0

    def set_plots(self, plots: Sequence[pg.PlotItem]) -> None:
        """Show ``plots``, in order, row by row."""
        if list(plots) == self._plots:
            return  # laying the same plots out again would redraw every axis
        self._plots = list(plots)
        self.relayout(force=True)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.relayout()

    def relayout(self, force: bool = False) -> None:
        # The scroll area's width, not its viewport's: a scroll bar coming and going must
        # not change the number of columns.
        width = self.width()
        columns = 3 if width >= TWO_COLUMNS else 2 if width >= ONE_COLUMN else 1
        columns = min(columns, self.max_columns)
        if columns == self._columns and not force:
            return
        self._columns = columns
        layout = self.graphics.ci
        for item in list(layout.items):
            layout.removeItem(item)
        for i, plot in enumerate(self._plots):
            layout.addItem(plot, row=i // columns, col=i % columns)
        self.graphics.setMinimumHeight(-(-len(self._plots) // columns) * MIN_PLOT_HEIGHT)


# -- the live plots ---------------------------------------------------------------------------
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
        self.graphics.setToolTip(_tr("Live plots of the run; drag to pan, wheel to zoom, "
                                     "right-click for options and export"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.grid)
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
            still = plot in (self.boundary_plot, self.std_bar_plot)
            self.fitter.add(plot, items=still, zero=plot is self.lr_plot, grow=not still)
        self.legend = self.loss_plot.addLegend(offset=(-8, 8))
        self.loss_curve = self.loss_plot.plot(name=_tr("train"))
        self.smooth_curve = self.loss_plot.plot()  # in the legend only when shown
        # (no symbols: thousands of markers cost more per frame than every curve together)
        self.val_curve = self.loss_plot.plot(name=_tr("validation"))
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
        self._info = None
        self._has_boundary = True
        self._seen: dict[str, object] = {}
        self._slow_due = 0.0
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        self._relayout()

    # -- runs --------------------------------------------------------------------------------
    def set_run(self, info) -> None:
        """Prepare for a run described by ``info`` (``RunInfo``); None clears the plots."""
        self._info = info
        names = list(info.layer_names) if info is not None else []
        for lines in (self.std_lines, self.grad_lines):
            lines.set_colours(layer_colours(len(names)))
            lines.set_data(np.empty(0), np.empty((0, len(names))))
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
        self._relayout()
        self.fitter.x_limit = float(info.steps) if info is not None else None
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
            self.loss_curve.setData(steps, loss)
            if self.smoothing > 1:
                window = max(1, self.smoothing // history.loss.stride)
                self.smooth_curve.setData(steps, smooth(loss, window))
            elif len(self.smooth_curve.xData if self.smooth_curve.xData is not None else ()):
                self.smooth_curve.setData([], [])
            self._legend_smoothing(self.smoothing > 1)
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
                curve.setData(series.steps, series.values)
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

    def _refresh_layers(self, history: History) -> None:
        self.std_lines.set_data(history.output_std.steps, log10(history.output_std.values))
        self.grad_lines.set_data(history.grad_norm.steps, log10(history.grad_norm.values))
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
        n = len(self._info.layer_names) if self._info is not None else 0
        for lines in (self.std_lines, self.grad_lines):
            lines.set_colours(layer_colours(n, palette))
        if self._info is not None:
            self._show_points(self._info)
        self._seen.pop("boundary", None)
