"""``Bands``: percentiles over the steps, drawn as nested bands around their median line
(TensorBoard's "distributions"): min–max, 7–93%, 16–84%, 31–69%
(``protocol.limits.LAYER_PERCENTILES``, computed by the kernel)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from protocol.limits import LAYER_PERCENTILES
from widgets.common.theme import series_colour, series_pen

#: The median's column in a row of percentiles.
MEDIAN = len(LAYER_PERCENTILES) // 2


class BandFill(QGraphicsPathItem):
    """One band's polygon; its ``data_rect`` and ``points`` fit its view to it
    (``widgets.training.view_fitter.data_bounds``), as a curve's data does."""

    def __init__(self) -> None:
        super().__init__()
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.points = 0
        self.data_rect = QRectF()

    def set_polygon(self, x: np.ndarray, y: np.ndarray) -> None:
        """The closed polygon through (``x``, ``y``); none for fewer than 3 points."""
        self.points = len(x)
        if len(x) < 3:
            self.data_rect = QRectF()
            self.setPath(QPainterPath())
            return
        path = pg.arrayToQPath(x, y, connect="all")
        path.closeSubpath()
        self.data_rect = path.boundingRect()
        self.setPath(path)


class Bands:
    """A median line and the bands of symmetric percentile pairs, in one plot.

    Each band is one filled polygon (its lower edge out, its upper edge back), a
    ``QGraphicsPathItem`` whose path ``pg.arrayToQPath`` makes from the arrays in C: two
    ``PlotCurveItem``s and a ``FillBetweenItem`` a band, as pyqtgraph has them, cost the
    Distributions page 10 ms a frame for LeNet's five layers, each new point a
    ``setData`` of 8 curves a plot and their fills' paths made twice.

    Attributes
    ----------
    median : pg.PlotDataItem
        The median's line.
    fills : list of BandFill
        The bands, the outermost (min–max) first.
    """

    def __init__(self, plot: pg.PlotItem, colour: int) -> None:
        self.colour = colour
        self.fills: list[BandFill] = []
        for _ in range(MEDIAN):
            fill = BandFill()
            plot.addItem(fill)
            self.fills.append(fill)
        self.median = plot.plot()  # (over the bands)
        self._rows = np.zeros((0, len(LAYER_PERCENTILES)))  # the percentiles drawn
        self.apply_theme()

    def apply_theme(self) -> None:
        base = QColor(series_colour(self.colour))
        self.median.setPen(series_pen(self.colour, 1.5))
        for i, fill in enumerate(self.fills):
            fill.setBrush(QColor(base.red(), base.green(), base.blue(), 40 + 30 * i))

    def set_data(self, steps: np.ndarray, rows: np.ndarray) -> None:
        """``rows``: shape (len(steps), len(LAYER_PERCENTILES)); the steps without any
        (NaN: no gradient yet, another layer's step) are left out."""
        kept = ~np.isnan(rows).all(axis=1) if len(rows) else np.zeros(0, dtype=bool)
        steps = np.asarray(steps, dtype=np.float64)[kept]
        rows = np.asarray(rows, dtype=np.float64)[kept]
        self._rows = rows
        self.median.setData(steps, rows[:, MEDIAN] if len(rows) else rows)
        there_and_back = np.concatenate([steps, steps[::-1]])
        for i, fill in enumerate(self.fills):
            fill.set_polygon(there_and_back, np.concatenate([rows[:, i], rows[::-1, -1 - i]]))

    def edges(self, band: int) -> tuple[np.ndarray, np.ndarray]:
        """The lower and upper edge of band ``band`` (0: min–max), at the steps drawn."""
        return self._rows[:, band], self._rows[:, -1 - band]

    @property
    def points(self) -> int:
        """The steps drawn."""
        x, _ = self.median.getData()
        return 0 if x is None else len(x)

    def clear(self) -> None:
        self.set_data(np.zeros(0), np.zeros((0, len(LAYER_PERCENTILES))))
