"""``PlotGrid``: plots in as many columns as the width allows, scrolling when short; a
page too short for two rows puts three plots in its first row."""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget

#: Widths below which the plots use two columns, then one.
TWO_COLUMNS, ONE_COLUMN = 900, 480
#: Below this height per row of plots, the page scrolls.
MIN_PLOT_HEIGHT = 200
#: The narrowest a plot gets when a short page puts three in its one row.
MIN_PLOT_WIDTH = 150


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
        width, height = self.width(), self.height()
        columns = 3 if width >= TWO_COLUMNS else 2 if width >= ONE_COLUMN else 1
        if height < 2 * MIN_PLOT_HEIGHT and width >= 3 * MIN_PLOT_WIDTH:
            columns = 3  # a short page (a small screen): the first three plots in one row
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
