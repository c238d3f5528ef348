"""``LayerLines``: one line per layer, all drawn by one graphics item."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen


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
