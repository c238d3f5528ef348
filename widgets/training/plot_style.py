"""Plot items made for live data, and styled in the current theme's colours.

``new_plot`` makes a plot that is fed with ``setData`` and never autoranges per frame
(``widgets.training.view_fitter.ViewFitter`` fits it instead); the ``style_*`` functions
and ``layer_colours`` follow the theme.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsItem, QWidget

from app.palette import Palette
from widgets.common.log_axis import LogAxis
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette


class SpacedAxis(pg.AxisItem):
    """A bottom axis whose labels keep ``MIN_LABEL_GAP`` pixels apart: pyqtgraph puts at
    least two intervals on any axis, so a narrow plot (three in a row on a small screen)
    ran its labels into one another ("20406080")."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803
        levels = super().tickSpacing(minVal, maxVal, size)
        span = abs(maxVal - minVal)
        if levels and span > 0 and size > 0:
            major, offset = levels[0]
            while major * size / span < MIN_LABEL_GAP:
                major *= 2
            levels = [(major, offset), *levels[1:]]
        return levels


#: The least distance between two labels of a step axis, in pixels.
MIN_LABEL_GAP = 40


class CategoryAxis(SpacedAxis):
    """A bottom axis naming categories (the bars of layers): where their names do not fit
    side by side, only every few is named, so that no two run into one another
    ("conv2fc1"); which ones depends on the axis's width, worked out as it is drawn."""

    def __init__(self, orientation: str = "bottom", **kwargs) -> None:
        super().__init__(orientation, **kwargs)
        self._categories: list[tuple[float, str]] = []

    def set_categories(self, ticks: Sequence[tuple[float, str]]) -> None:
        """Name the positions of ``ticks``, ``(position, name)`` in order."""
        self._categories = list(ticks)
        self.setTicks([self._categories] if self._categories else None)

    def generateDrawSpecs(self, p: QPainter):  # noqa: N802 - pyqtgraph override
        if self._categories:
            self._tickLevels = [self.shown_categories(QFontMetrics(
                self.style["tickFont"] or p.font()))]
        return super().generateDrawSpecs(p)

    def shown_categories(self, metrics: QFontMetrics) -> list[tuple[float, str]]:
        """The categories named at the axis's width now: every ``k``-th, ``k`` the least
        that leaves ``CATEGORY_GAP`` pixels between the widest names."""
        ticks = self._categories
        low, high = self.range
        width = self.geometry().width()
        if len(ticks) < 2 or high <= low or width <= 0:
            return ticks
        spacing = min(b[0] - a[0] for a, b in zip(ticks, ticks[1:], strict=False))
        pixels = abs(spacing) * width / (high - low)
        widest = max(metrics.horizontalAdvance(text) for _, text in ticks)
        every = max(1, math.ceil((widest + CATEGORY_GAP) / max(pixels, 1e-9)))
        return ticks[::every]


#: The least distance between two category names, in pixels.
CATEGORY_GAP = 8


def plot_texts(owner: QWidget, plot: pg.PlotItem, title: Callable[[], str],
               x_label: Callable[[], str] | None = None,
               y_label: Callable[[], str] | None = None) -> None:
    """Give ``plot`` its title and axis labels, now and on every language change of
    ``owner`` (the widget that shows it)."""
    def set_texts() -> None:
        plot.setTitle(title(), size="9pt")
        if x_label is not None:
            plot.setLabel("bottom", x_label())
        if y_label is not None:
            plot.setLabel("left", y_label())

    translated(owner, set_texts)


def new_plot(title: str, x_label: str = "", y_label: str = "", log_y: bool = False,
             tip: str = "", history: bool = True, categories: bool = False) -> pg.PlotItem:
    """A plot item set up for live data: no per-frame fit and, for data that grows with
    the run's history (``history``), downsampled (peak mode) and clipped to the view.
    ``categories``: its bottom axis names categories (a ``CategoryAxis``)."""
    axes = {"bottom": CategoryAxis("bottom") if categories else SpacedAxis("bottom")}
    if log_y:
        axes["left"] = LogAxis("left")
    plot = pg.PlotItem(axisItems=axes)
    plot.setTitle(title, size="9pt")
    # the title spans the axis's column too: a narrow plot is as wide as its title, not
    # its title plus its axis (three plots side by side on a small screen)
    plot.layout.removeItem(plot.titleLabel)
    plot.layout.addItem(plot.titleLabel, 0, 0, 1, 3)
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
