"""``ActivationView``: one sample of a layer's last output, as the kernel sends it
(query ``activation``, ``kernel.activations``).

The kernel chooses the form (``form``) and sends the values to draw; nothing here
computes on them but placing them:

- ``tiles``: a (C, H, W) sample (a 4-D output): one tile per channel, in a grid, drawn
  as one image (a mosaic with a transparent line between tiles) under one colour map,
  with one colour bar whose levels are the sample's finite min and max;
- ``heatmap``: an (H, W) sample (a 3-D output, as a sequence's (T, F)), same colours;
- ``bars``: a vector (a 2-D output, as a linear layer's (N, features)): a bar per value;
- ``histogram``: anything else (the kernel's counts over its bins).

A slider picks the sample of the batch; the view says which, and emits ``sample_chosen``.
Everything is made once; a new answer sets the image, bars and levels.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from app.palette import Palette
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, theme_notifier
from widgets.model.tree import shape_text

#: The transparent line between two tiles, in pixels of the tiles.
GAP = 1


class ActivationView(QWidget):
    """A layer's output for one sample: tiles, a heatmap, bars or a histogram.

    Attributes
    ----------
    title : QLabel
        The layer's name and its output's shape.
    note : QLabel
        Why there is nothing to draw, or what is left out (non-finite values).
    slider : QSlider
        The sample shown.
    image : pyqtgraph.ImageItem
        The tiles (one mosaic) or the heatmap.
    color_bar : pyqtgraph.ColorBarItem
        The colour scale of all the tiles.
    bars : pyqtgraph.BarGraphItem
        The bars or the histogram.

    Signals
    -------
    sample_chosen(int)
        The user moved the slider to this sample (0-based).
    """

    sample_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.data: dict | None = None
        self.layer = ""
        self._tiles: list[tuple[int, int]] = []  # each tile's top-left (row, column)
        self._tile_shape = (0, 0)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self._on_view_slider)
        self.sample_label = QLabel()
        self.readout = QLabel(" ")
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self.graphics = pg.GraphicsLayoutWidget()
        self._image_plot: pg.PlotItem = self.graphics.addPlot(row=0, col=0)
        self._image_plot.invertY(True)
        self._image_plot.setAspectLocked(True)
        self._image_plot.hideAxis("left")
        self._image_plot.hideAxis("bottom")
        self._image_plot.setMenuEnabled(False)
        self._image_plot.hideButtons()
        self._image_plot.getViewBox().setDefaultPadding(0.0)
        self.image = pg.ImageItem(axisOrder="row-major")
        self._image_plot.addItem(self.image)
        self.color_bar = pg.ColorBarItem(colorMap=current_palette().colormap, width=14,
                                         interactive=False)
        self.color_bar.setImageItem(self.image, insert_in=self._image_plot)
        self.color_bar.axis.setWidth(None)  # as wide as its labels ("-4e+06")
        self._bar_plot: pg.PlotItem = self.graphics.addPlot(row=1, col=0)
        self._bar_plot.setMenuEnabled(False)
        self._bar_plot.hideButtons()
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8)
        self._bar_plot.addItem(self.bars)
        self._bar_plot.hide()

        row = QHBoxLayout()
        row.addWidget(self.slider, 1)
        row.addWidget(self.sample_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.note)
        layout.addWidget(self.readout)
        layout.addWidget(self.graphics, 1)
        layout.addLayout(row)
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        self.graphics.scene().sigMouseMoved.connect(self._on_view_mouse_moved)
        translated(self, self._set_texts)

    # -- what is shown -------------------------------------------------------------------
    def tile_count(self) -> int:
        """How many channel tiles are drawn (0 unless the form is ``tiles``)."""
        return len(self._tiles)

    def tile_shape(self) -> tuple[int, int]:
        """Each tile's (rows, columns) of pixels."""
        return self._tile_shape

    def tile_corner(self, channel: int) -> tuple[int, int]:
        """``channel``'s tile's top-left (row, column) in the image."""
        return self._tiles[channel]

    def tile(self, channel: int) -> np.ndarray:
        """The values drawn in ``channel``'s tile."""
        top, left = self._tiles[channel]
        rows, cols = self._tile_shape
        return self.image.image[top:top + rows, left:left + cols]

    def levels(self) -> tuple[float, float]:
        """The value range the colours span."""
        low, high = self.color_bar.levels()
        return float(low), float(high)

    def form(self) -> str:
        """What is drawn: ``tiles``, ``heatmap``, ``bars``, ``histogram`` or "" (nothing)."""
        return (self.data or {}).get("form", "")

    # -- the kernel's answer ---------------------------------------------------------------
    def show_layer(self, layer: str) -> None:
        """A new layer is picked: nothing shown until its answer comes."""
        self.layer, self.data = layer, None
        self._clear()
        self._set_texts()

    def show_answer(self, data: dict) -> None:
        """Draw the kernel's answer for the layer shown (an answer with ``same`` alone is
        the one already drawn)."""
        if data.get("same"):
            return
        self.data = data
        kept = int(data.get("kept", 0))
        with QSignalBlocker(self.slider):
            self.slider.setRange(0, max(kept - 1, 0))
            self.slider.setValue(int(data.get("sample", 0)))
        form = data.get("form", "")
        if form in ("tiles", "heatmap"):
            self._show_image(data["values"], form == "tiles", data.get("min"), data.get("max"))
        elif form in ("bars", "histogram"):
            self._show_bars(data)
        else:
            self._clear()
        self._set_texts()

    def _show_image(self, values: np.ndarray, tiled: bool, low, high) -> None:
        self._bar_plot.hide()
        self._image_plot.show()
        if tiled:
            mosaic, self._tiles = _mosaic(values)
            self._tile_shape = tuple(values.shape[1:])
        else:
            mosaic, self._tiles, self._tile_shape = values, [], tuple(values.shape)
        finite = low is not None
        low, high = (low, high) if finite else (0.0, 1.0)
        if low == high:  # a constant sample still gets a colour
            pad = abs(low) * 0.5 or 0.5
            low, high = low - pad, high + pad
        new_shape = self.image.image is None or self.image.image.shape != mosaic.shape
        # non-finite values are left transparent (pyqtgraph draws NaN so)
        self.image.setImage(np.where(np.isfinite(mosaic), mosaic, np.nan)
                            if not np.isfinite(mosaic).all() else mosaic, autoLevels=False)
        self.color_bar.setLevels((low, high))
        self.image.show()
        if new_shape:
            self._image_plot.getViewBox().autoRange(padding=0.0)

    def _show_bars(self, data: dict) -> None:
        self._image_plot.hide()
        self._bar_plot.show()
        self._tiles, self._tile_shape = [], (0, 0)
        values = np.nan_to_num(np.asarray(data["values"], dtype=np.float64), nan=0.0,
                               posinf=0.0, neginf=0.0)
        if data["form"] == "histogram":
            edges = np.asarray(data["edges"], dtype=np.float64)
            self.bars.setOpts(x0=edges[:-1], x1=edges[1:], x=None, width=None, height=values)
        else:
            self.bars.setOpts(x=np.arange(len(values)), x0=None, x1=None, width=0.8,
                              height=values)
        self._bar_plot.autoRange()

    def _clear(self) -> None:
        self._tiles, self._tile_shape = [], (0, 0)
        self.image.clear()
        self.bars.setOpts(x=[], height=[], x0=None, x1=None, width=0.8)

    # -- texts and theme -----------------------------------------------------------------
    def _set_texts(self) -> None:
        data = self.data or {}
        shape = data.get("shape")
        if shape is not None:
            self.title.setText(self.tr("{0}: output {1}").format(self.layer,
                                                                 shape_text(tuple(shape))))
        else:
            self.title.setText(self.layer)
        self.note.setText(self._note(data))
        self.note.setVisible(bool(self.note.text()))
        kept, batch = int(data.get("kept", 0)), int(data.get("batch", 0))
        sample = int(data.get("sample", 0))
        self.sample_label.setText(self.tr("sample {0} of {1}").format(sample + 1, kept)
                                  if kept else "")
        self.slider.setEnabled(kept > 1)
        self.slider.setToolTip(self.tr("The sample of the batch shown (the first {0} of "
                                       "its {1} are kept)").format(kept, batch)
                               if kept < batch else
                               self.tr("The sample of the batch shown"))
        self.sample_label.setToolTip(self.slider.toolTip())
        self.title.setToolTip(self.tr("The layer picked in the tree, and the shape of its "
                                      "last call's output (its first tensor)"))
        self.readout.setToolTip(self.tr("The hovered cell: its channel, index and value"))
        self.graphics.setToolTip(self._graphics_tip())
        self._bar_plot.setLabel("bottom", self.tr("value") if self.form() == "histogram"
                                else self.tr("feature"))
        self._bar_plot.setLabel("left", self.tr("count") if self.form() == "histogram"
                                else self.tr("output"))

    def _note(self, data: dict) -> str:
        missing = data.get("missing")
        if not self.layer:
            return self.tr("Pick a layer in the tree to see its output for one sample.")
        if self.data is None:
            return ""
        if missing == "error":
            return self.tr("Its output could not be read: {0}").format(data.get("error", ""))
        if missing == "not called":
            return self.tr("Not called yet: its output shows once the recipe calls it.")
        if missing == "not watched":
            return self.tr("Its last output was not kept before it was picked (too large, "
                           "or inside a training loop): it shows from its next call.")
        if missing == "large":
            return self.tr("One sample of its output is too large to keep.")
        if missing == "not a tensor":
            return self.tr("Its output is not a tensor ({0}).").format(data.get("type", ""))
        if missing == "no samples":
            return self.tr("Its last call had an empty batch: no sample to show.")
        notes = []
        if data.get("nonfinite"):
            notes.append(self.tr("{0} values are NaN or infinite (left blank)").format(
                data["nonfinite"]))
        if data.get("step", 1) > 1:
            notes.append(self.tr("every {0}th row and column shown").format(data["step"]))
        return "; ".join(notes)

    def _graphics_tip(self) -> str:
        form = self.form()
        if form == "tiles":
            return self.tr("One tile per channel of the sample's output, all on the colour "
                           "bar's scale (its min to its max)")
        if form == "heatmap":
            return self.tr("The sample's output as a heatmap: rows are its first dimension, "
                           "columns its second")
        if form == "bars":
            return self.tr("The sample's output: a bar per feature")
        if form == "histogram":
            return self.tr("How the sample's output values spread: counts per bin")
        return self.tr("The picked layer's output for one sample of its last batch")

    def _apply_theme(self, palette: Palette) -> None:
        colours = QApplication.palette(self)
        ink = colours.color(QPalette.ColorRole.Text)
        self.graphics.setBackground(colours.color(QPalette.ColorRole.Base))
        self.color_bar.setColorMap(pg.colormap.get(palette.colormap))
        self.bars.setOpts(brush=pg.mkBrush(palette.series_colour(0)))
        for axis in (self.color_bar.axis, self._bar_plot.getAxis("left"),
                     self._bar_plot.getAxis("bottom")):
            axis.setPen(ink)
            axis.setTextPen(ink)

    def hovered(self, x: float, y: float) -> str:
        """What the readout says of the image's point (``x``, ``y``): the channel, the
        cell and its value ("" off the tiles)."""
        image = self.image.image
        row, col = int(np.floor(y)), int(np.floor(x))
        if image is None or not (0 <= row < image.shape[0] and 0 <= col < image.shape[1]):
            return ""
        step = int((self.data or {}).get("step", 1))
        value = float(image[row, col])
        if not self._tiles:
            return self.tr("[{0}, {1}] = {2:.4g}").format(row * step, col * step, value)
        rows, cols = self._tile_shape
        for channel, (top, left) in enumerate(self._tiles):
            if top <= row < top + rows and left <= col < left + cols:
                return self.tr("channel {0} [{1}, {2}] = {3:.4g}").format(
                    channel, (row - top) * step, (col - left) * step, value)
        return ""

    def _on_view_mouse_moved(self, pos) -> None:
        inside = self._image_plot.isVisible() and \
            self._image_plot.getViewBox().sceneBoundingRect().contains(pos)
        point = self.image.mapFromScene(pos)
        self.readout.setText((self.hovered(point.x(), point.y()) if inside else "") or " ")

    def _on_view_slider(self, value: int) -> None:
        self.sample_chosen.emit(value)


def _mosaic(values: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """(C, H, W) tiles in a grid about as wide as tall, ``GAP`` transparent pixels
    between them: the image, and each tile's top-left corner."""
    channels, rows, cols = values.shape
    across = max(1, math.ceil(math.sqrt(channels * rows / max(cols, 1))))
    down = math.ceil(channels / across) if channels else 0
    image = np.full((down * (rows + GAP) - GAP if down else 0,
                     across * (cols + GAP) - GAP), np.nan, dtype=np.float32)
    corners = []
    for c in range(channels):
        top, left = (c // across) * (rows + GAP), (c % across) * (cols + GAP)
        image[top:top + rows, left:left + cols] = values[c]
        corners.append((top, left))
    return image, corners

