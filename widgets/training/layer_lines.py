"""``LayerLines``: one line per layer, all drawn by one graphics item; ``LayerKey``: which
line is which layer."""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QApplication, QGraphicsTextItem, QSizePolicy


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


class LayerKey(pg.GraphicsWidget):
    """Which line is which layer: each layer's name after a bar in its colour,
    wrapped to the plot's width (placed under a layer plot, in its layout, so that it
    covers no data and goes with the plot when it is exported).

    With more layers than ``shown``, only the first, the middle and the last are named,
    with "…" between them: the colours run dark to light in between, and a longer key
    would take the plot's height.
    """

    def __init__(self, shown: int = 8) -> None:
        super().__init__()
        self.shown = shown
        self.text = QGraphicsTextItem(self)
        self.text.setPos(0, 0)
        self.names: list[str] = []
        """The names the key shows, in its order ("…" for layers it skips)."""
        self.colours: list[QColor] = []
        """The colour of each name's line."""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_layers(self, names: Sequence[str], colours: Sequence[QColor],
                   ink: QColor) -> None:
        """Name ``names`` (one per line, in the lines' order), each after its colour."""
        picked = _evenly(len(names), len(names) if len(names) <= self.shown else 3)
        self.names, self.colours = [], []
        parts = []
        for i, j in zip(picked, [*picked[1:], None], strict=False):
            self.names.append(names[i])
            self.colours.append(QColor(colours[i]))
            parts.append(f'<span style="white-space:nowrap"><b style="color:'
                         f'{QColor(colours[i]).name()}">▬</b>&nbsp;{html.escape(names[i])}'
                         f'</span>')
            if j is not None and j > i + 1:
                parts.append("…")
        self.text.setDefaultTextColor(ink)
        self.text.setFont(QApplication.font())  # the display scale's: readable from afar
        self.text.setHtml("&nbsp; ".join(parts))
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """As tall as the names take at the width the plot gives (none: no height)."""
        width = self.size().width()
        self.text.setTextWidth(max(width, 1.0))
        height = self.text.document().size().height() if self.names else 0.0
        if abs(self.maximumHeight() - height) > 0.5:
            self.setMinimumHeight(height)
            self.setMaximumHeight(height)
            self.updateGeometry()


def _evenly(n: int, most: int) -> list[int]:
    """Up to ``most`` indices of ``range(n)``, evenly spaced, the first and last included."""
    if n <= most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})
