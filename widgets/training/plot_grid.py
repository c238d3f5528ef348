"""``PlotGrid``: plots in as many columns as the width allows, scrolling when short; a
page too short for two rows puts three plots in its first row, and fits its rows in by
making the plots compact (no x axis title, a lower title row) before it scrolls."""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget

from widgets.common.scale import display_scale

#: Widths below which the plots use two columns, then one.
TWO_COLUMNS, ONE_COLUMN = 900, 480
#: Below this height per row of plots, the plots are compact (a small screen: 1366x768).
MIN_PLOT_HEIGHT = 200
#: Below this height per row of compact plots, the page scrolls.
MIN_COMPACT_HEIGHT = 130
#: The title row's height of a plot, and of a compact plot, in pixels.
TITLE_HEIGHT, COMPACT_TITLE_HEIGHT = 30, 20
#: The narrowest a plot gets when a short page puts three in its one row.
MIN_PLOT_WIDTH = 150


class PlotGrid(QScrollArea):
    """Plots in as many columns as the width allows (up to ``max_columns``), each at least
    ``MIN_PLOT_HEIGHT`` tall, or ``MIN_COMPACT_HEIGHT`` compact (both times the display
    scale: presenter mode's larger text): a small window scrolls rather than squashing
    them further.

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
        self.compact = False
        """Whether the plots are compact now (no x axis titles, low title rows)."""
        # presenter mode's larger text needs taller rows, or the ticks run together
        display_scale().changed.connect(self._on_view_scale)  # (a method: it goes with us)

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
        width, height = self.width(), self.height()
        scale = max(1.0, display_scale().value)
        tall, short = MIN_PLOT_HEIGHT * scale, round(MIN_COMPACT_HEIGHT * scale)
        columns = min(3 if width >= TWO_COLUMNS else 2 if width >= ONE_COLUMN else 1,
                      self.max_columns)
        widest = max(columns, min(self.max_columns, width // MIN_PLOT_WIDTH))
        # a short page (a small screen, presenter mode) takes more columns, for fewer
        # rows: the least that lets every row be MIN_PLOT_HEIGHT, else the most that fit
        columns = next((c for c in range(columns, widest + 1)
                        if height >= -(-len(self._plots) // c) * tall), widest)
        rows = -(-len(self._plots) // columns)
        self._set_compact(rows > 0 and height < rows * tall, force)
        if columns == self._columns and not force:
            return
        self._columns = columns
        layout = self.graphics.ci
        for item in list(layout.items):
            layout.removeItem(item)
        for i, plot in enumerate(self._plots):
            layout.addItem(plot, row=i // columns, col=i % columns)
        self.graphics.setMinimumHeight(rows * short)

    def _on_view_scale(self, _value: float) -> None:
        self.relayout(force=True)

    def refresh_compact(self) -> None:
        """Hide the x axis titles again where the plots are compact (after new titles,
        which show them)."""
        self._set_compact(self.compact, force=True)

    def _set_compact(self, compact: bool, force: bool = False) -> None:
        """Compact plots give their rows' height to the data: the x axis's title ("step",
        the same under every plot) and part of the title row go."""
        if compact == self.compact and not force:
            return
        self.compact = compact
        for plot in self._plots:
            axis = plot.getAxis("bottom")
            if axis.labelText:
                axis.showLabel(not compact)
            if plot.titleLabel.isVisible():
                plot.layout.setRowFixedHeight(0, COMPACT_TITLE_HEIGHT if compact
                                              else TITLE_HEIGHT)
