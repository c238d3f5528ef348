"""A heatmap of one 2-D plane of a tensor, with a colour bar.

The plot, image and colour bar are made once; a new plane only calls
``setImage`` and sets the levels. A big plane comes from the kernel twice: an even
sample of its cells first, then its image at about the same resolution, each pixel the
mean of a block of cells, with the colour levels of the whole plane (the kernel's
``heatmap`` query, ``kernel.explain.heatmap``): the window never pools a plane.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from app.palette import Palette
from widgets.common.retranslate import translated
from widgets.common.tensor_table_model import full_precision
from widgets.common.theme import current_palette, theme_notifier


class _IndexAxis(pg.AxisItem):
    """An axis of element indices: ticks at whole numbers only."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list:
        levels = [(s, o) for s, o in super().tickSpacing(minVal, maxVal, size) if s >= 1]
        return levels or [(1.0, 0.0)]


class HeatmapView(QWidget):
    """Shows a 2-D array as colours: row 0 at the top, as in the grid.

    NaN and ±inf cells are left transparent; the colour levels span the finite
    values only. bool and integer planes are shown as numbers, complex ones by
    magnitude. Cell ``(r, c)`` is centred on ``(c, r)``, so axis ticks are indices.
    Hovering a cell shows its index and value above the plot.

    Parameters
    ----------
    parent : QWidget, optional
        The usual Qt parent.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._values: np.ndarray = np.zeros((0, 0))
        self._step = (1, 1)
        self._pooled = False  # each pixel is the mean of a block of ``_step`` cells
        self._axis_labels: tuple[str, str] | None = None
        self._pending = False
        # Composition rather than subclassing: GraphicsLayoutWidget sets instance
        # attributes (``clear`` among them) that would shadow this class's methods.
        self._graphics = pg.GraphicsLayoutWidget()
        self._readout = QLabel(" ")
        self._readout.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: self._readout.setToolTip(
            self.tr("The hovered cell's index in the plane and its value")))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self._readout)
        layout.addWidget(self._graphics, 1)

        axes = {side: _IndexAxis(side) for side in ("left", "bottom")}
        self._plot: pg.PlotItem = self._graphics.addPlot(row=0, col=0, axisItems=axes)
        self._plot.invertY(True)
        self._plot.setMenuEnabled(False)
        self._plot.hideButtons()
        self._plot.getViewBox().setDefaultPadding(0.0)
        self._image = pg.ImageItem(axisOrder="row-major")
        self._plot.addItem(self._image)
        self._bar = pg.ColorBarItem(colorMap=current_palette().colormap, width=14,
                                    interactive=False)
        self._bar.setImageItem(self._image, insert_in=self._plot)
        # pyqtgraph fixes the bar's axis at 45 px and hides labels wider than that
        # ("-4e+06"): size it to its widest label instead.
        self._bar.axis.setWidth(None)
        self._axes = (*axes.values(), self._bar.axis)
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        self._graphics.scene().sigMouseMoved.connect(self._on_view_mouse_moved)

    def _apply_theme(self, palette: Palette) -> None:
        """Background, axes and colour map in the theme's colours (at start and on change)."""
        colours = QApplication.palette(self)  # the new palette, even before this widget's
        ink = colours.color(QPalette.ColorRole.Text)
        self._graphics.setBackground(colours.color(QPalette.ColorRole.Base))
        self._bar.setColorMap(pg.colormap.get(palette.colormap))
        for axis in self._axes:
            axis.setPen(ink)
            axis.setTextPen(ink)

    # -- accessors ---------------------------------------------------------------------
    @property
    def image_item(self) -> pg.ImageItem:
        return self._image

    @property
    def color_bar(self) -> pg.ColorBarItem:
        return self._bar

    @property
    def values(self) -> np.ndarray:
        """The plane shown, as given."""
        return self._values

    def levels(self) -> tuple[float, float]:
        """The value range the colours span."""
        lo, hi = self._bar.levels()
        return float(lo), float(hi)

    def set_axis_labels(self, rows: str, cols: str) -> None:
        """Name the dimensions the plot's axes run along."""
        if (rows, cols) == self._axis_labels:
            return  # a new label redraws the axis: skip it when nothing changed
        self._axis_labels = (rows, cols)
        self._plot.setLabel("left", rows)
        self._plot.setLabel("bottom", cols)

    # -- the plane ---------------------------------------------------------------------
    def set_plane(self, values: np.ndarray, step: tuple[int, int] = (1, 1)) -> None:
        """Show the 2-D array ``values``: every ``step`` rows and columns of the plane (an
        even sample of a big one), drawn where they are in it."""
        shape_changed = values.shape != self._values.shape or step != self._step
        self._values, self._step, self._pooled = values, step, False
        self._pending = False
        self._readout.setText(" ")
        if values.size == 0:
            self._image.hide()
            self._image.clear()  # lets go of the last plane's memory
            return
        self._show_image(*heatmap_image(values))
        if shape_changed:
            self._plot.getViewBox().autoRange(padding=0.0)

    def expect_image(self) -> None:
        """The plane shown is a sample: its image of block means is on its way."""
        self._pending = True

    def set_image(self, image: np.ndarray, levels: tuple[float, float],
                  block: tuple[int, int]) -> None:
        """Show the kernel's ``image`` of the plane, each pixel the mean of ``block``
        (rows, columns) of its cells (NaN: a block with a NaN or an inf in it), with the
        colour levels of the whole plane."""
        shape_changed = image.shape != self._values.shape or block != self._step
        self._values, self._step, self._pooled = image, tuple(block), True
        self._pending = False
        self._readout.setText(" ")
        self._show_image(image, tuple(levels))
        if shape_changed:
            self._plot.getViewBox().autoRange(padding=0.0)

    def image_failed(self, message: str) -> None:
        """The kernel could not make the plane's image: the sample stays, and says why."""
        self._pending = False
        self._readout.setText(self.tr("The full image could not be drawn: {message}")
                              .format(message=message))

    def pending(self) -> bool:
        """Whether a big plane's image of block means, and its levels, are still to come."""
        return self._pending

    def pooled(self) -> bool:
        """Whether the image shown is the kernel's block means (not the plane's cells)."""
        return self._pooled

    def _show_image(self, image: np.ndarray, levels: tuple[float, float]) -> None:
        self._image.setImage(image, autoLevels=False)
        (rows, cols), (step_r, step_c) = self._values.shape, self._step
        if self._pooled:  # pixel (r, c) spans its block: rows r*step_r to (r+1)*step_r - 1
            self._image.setRect(QRectF(-0.5, -0.5, cols * step_c, rows * step_r))
        else:  # cell (r, c) of the sample is centred on cell (r*step_r, c*step_c)
            self._image.setRect(QRectF(-0.5 * step_c, -0.5 * step_r, cols * step_c,
                                       rows * step_r))
        self._image.show()
        if tuple(levels) != self.levels():  # new levels redraw the colour bar's axis
            self._bar.setLevels(levels)

    def clear_plane(self) -> None:
        self.set_plane(np.zeros((0, 0)))

    def _on_view_mouse_moved(self, pos: QPointF) -> None:
        rows, cols = self._values.shape
        point = self._plot.getViewBox().mapSceneToView(pos)
        step_r, step_c = self._step
        # a pooled pixel starts half a cell before its block; a sampled one half a step
        half_r, half_c = (0.5, 0.5) if self._pooled else (0.5 * step_r, 0.5 * step_c)
        row = int(np.floor((point.y() + half_r) / step_r))
        col = int(np.floor((point.x() + half_c) / step_c))
        inside = self._plot.getViewBox().sceneBoundingRect().contains(pos)
        if inside and 0 <= row < rows and 0 <= col < cols:
            value = full_precision(self._values[row, col])
            if self._pooled:
                self._readout.setText(self.tr(
                    "mean of [{row}:{row_end}, {col}:{col_end}] = {value}").format(
                    row=row * step_r, row_end=(row + 1) * step_r, col=col * step_c,
                    col_end=(col + 1) * step_c, value=value))
            else:
                self._readout.setText(self.tr("[{row}, {col}] = {value}").format(
                    row=row * step_r, col=col * step_c, value=value))
        else:
            self._readout.setText(" ")


def heatmap_image(values: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """A float image of ``values`` with non-finite cells as NaN, and its colour levels.

    The levels are the finite minimum and maximum, widened around a constant
    plane so it still gets a colour, and ``(0, 1)`` when nothing is finite.
    """
    if values.dtype == np.bool_:
        image = values.astype(np.float32)
    elif np.iscomplexobj(values):
        image = np.abs(values)
    elif values.dtype in (np.float32, np.float64):
        image = values  # no copy unless there is a NaN or an inf to rewrite
    else:
        image = values.astype(np.float64 if values.dtype.itemsize > 4 else np.float32)
    finite = np.isfinite(image)
    if finite.all():
        lo, hi = float(image.min()), float(image.max())  # (nanmin/nanmax: twice as slow)
    elif not finite.any():
        return np.where(finite, image, np.nan), (0.0, 1.0)
    else:
        image = np.where(finite, image, np.nan)
        lo, hi = float(np.nanmin(image)), float(np.nanmax(image))
    if lo == hi:
        pad = abs(lo) * 0.5 or 0.5
        lo, hi = lo - pad, hi + pad
    return image, (lo, hi)
