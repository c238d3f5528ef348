"""``ViewFitter``: views fitted to their data now and then, never per frame.

Autoranging every frame redraws the axes every frame, the dearest part of one; a
``ViewFitter`` fits one view at a time on a throttled schedule, only when its data left
it or fills too little of it, and stops for a view the user pans or zooms.
"""

from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg

from widgets.training.plot_data import log10

#: Seconds between automatic fits of the views that follow their data.
FIT_INTERVAL = 0.5


def data_bounds(plot: pg.PlotItem) -> tuple[float, float, float, float] | None:
    """(xmin, xmax, ymin, ymax) of every visible curve's whole data, in view coordinates.

    The curves' own bounds cannot be used: clipped to the view, they only know the part
    shown, so a view fitted to them would never grow with the data. An item drawn from
    data otherwise tells its extent (``data_rect``) and how many points it has
    (``points``): ``LayerLines``, a band's polygon (``widgets.training.bands``).
    """
    log_y = bool(plot.getAxis("left").logMode)
    xs: list[float] = []
    ys: list[float] = []
    for item in plot.items:
        if hasattr(item, "data_rect"):
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
