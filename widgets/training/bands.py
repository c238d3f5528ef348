"""``Bands``: percentiles over the steps, drawn as nested bands around their median line
(TensorBoard's "distributions"): min–max, 7–93%, 16–84%, 31–69%
(``protocol.limits.LAYER_PERCENTILES``, computed by the kernel)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor

from protocol.limits import LAYER_PERCENTILES
from widgets.common.theme import series_colour, series_pen

#: The median's column in a row of percentiles.
MEDIAN = len(LAYER_PERCENTILES) // 2


class Bands:
    """A median line and the bands of symmetric percentile pairs, in one plot."""

    def __init__(self, plot: pg.PlotItem, colour: int) -> None:
        self.colour = colour
        self.median = plot.plot()
        self.bounds: list[tuple[pg.PlotCurveItem, pg.PlotCurveItem]] = []
        self.fills: list[pg.FillBetweenItem] = []
        for _ in range(MEDIAN):
            lo, hi = pg.PlotCurveItem(), pg.PlotCurveItem()
            fill = pg.FillBetweenItem(lo, hi)
            for item in (lo, hi, fill):
                plot.addItem(item)
            self.bounds.append((lo, hi))
            self.fills.append(fill)
        self.apply_theme()

    def apply_theme(self) -> None:
        base = QColor(series_colour(self.colour))
        self.median.setPen(series_pen(self.colour, 1.5))
        for i, ((lo, hi), fill) in enumerate(zip(self.bounds, self.fills, strict=True)):
            for curve in (lo, hi):
                curve.setPen(None)
            fill.setBrush(QColor(base.red(), base.green(), base.blue(), 40 + 30 * i))

    def set_data(self, steps: np.ndarray, rows: np.ndarray) -> None:
        """``rows``: shape (len(steps), len(LAYER_PERCENTILES)); the steps without any
        (NaN: no gradient yet, another layer's step) are left out."""
        kept = ~np.isnan(rows).all(axis=1) if len(rows) else np.zeros(0, dtype=bool)
        steps, rows = steps[kept], rows[kept]
        self.median.setData(steps, rows[:, MEDIAN] if len(rows) else rows)
        for i, (lo, hi) in enumerate(self.bounds):
            lo.setData(steps, rows[:, i] if len(rows) else [])
            hi.setData(steps, rows[:, -1 - i] if len(rows) else [])

    @property
    def points(self) -> int:
        """The steps drawn."""
        x, _ = self.median.getData()
        return 0 if x is None else len(x)

    def clear(self) -> None:
        self.set_data(np.zeros(0), np.zeros((0, len(LAYER_PERCENTILES))))
