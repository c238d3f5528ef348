"""The Model tab's Attention page: the attention weights of the recipe's attention calls,
one heatmap per head, for one sample of the batch.

The kernel keeps each call site's weights as the call computed them
(``kernel.attention``: an ``nn.MultiheadAttention``'s, or an
``F.scaled_dot_product_attention``'s, from its own q and k); the page asks for the calls
(query ``attention``), then for the chosen call's and sample's weights: rows are query
positions, columns key positions, one colour scale from 0 to 1 for every head. Nothing
here computes on the weights but the checks a person reads off them.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.palette import Palette
from app.recipe.document import Document
from app.recipe.kernel_results import kernel_run_id
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, theme_notifier
from widgets.common.when_shown import WhenShown

#: Heads drawn side by side in a row, at most.
COLUMNS = 4


class AttentionView(FollowsDocument, QWidget):
    """Per head, a call's attention weights for one sample.

    Attributes
    ----------
    calls : list of dict
        The calls the kernel kept (``label``, ``key``, ``heads``, ``queries``, ``keys``,
        ``samples``, ``kept``).
    weights : numpy.ndarray or None
        The weights shown: heads by query positions by key positions.
    images : list of pyqtgraph.ImageItem
        One per head shown.
    """

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self.call_box = QComboBox()
        self.call_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.call_box.activated.connect(lambda _i: self._ask_weights())
        self.sample_box = QSpinBox()
        self.sample_box.valueChanged.connect(lambda _v: self._ask_weights())
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self._labels = (QLabel(), QLabel())
        top = QHBoxLayout()
        top.addWidget(self._labels[0])
        top.addWidget(self.call_box)
        top.addWidget(self._labels[1])
        top.addWidget(self.sample_box)
        top.addStretch(1)
        self.graphics = pg.GraphicsLayoutWidget()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.graphics, 1)
        self.calls: list[dict] = []
        self.weights: np.ndarray | None = None
        self.images: list[pg.ImageItem] = []
        self._plots: list[pg.PlotItem] = []
        self._bar: pg.ColorBarItem | None = None
        self._asked = 0
        self._run: int | None = None
        #: The calls are asked for once it is on screen, after each run
        self._when_shown = WhenShown(self, self.refresh)
        translated(self, self._set_texts)
        self._apply_theme(current_palette())
        theme_notifier().changed.connect(self._apply_theme)
        self._set_model_connected(True)
        self._when_shown()

    def _model_links(self):
        return ((self._document.evaluated, self._on_model_evaluated),)

    def _on_model_evaluated(self, _run: object) -> None:
        self._when_shown()

    # -- public ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the kernel which attention calls the run made."""
        self._run = kernel_run_id(self._document.run)
        if self._run is None:
            self._show_calls([])
            return
        asked = self._next()
        self._document.ask("attention", {"run": self._run}, while_alive(
            self, lambda data, error: self._on_calls(asked, data, error)))

    @property
    def call(self) -> dict | None:
        """The call chosen, or None."""
        index = self.call_box.currentIndex()
        return self.calls[index] if 0 <= index < len(self.calls) else None

    # -- model to view -----------------------------------------------------------------
    def _next(self) -> int:
        self._asked += 1
        return self._asked

    def _on_calls(self, asked: int, data: dict, error: str) -> None:
        if asked == self._asked:
            self._show_calls([] if error else list(data.get("calls", ())))

    def _show_calls(self, calls: list[dict]) -> None:
        chosen = self.call["label"] if self.call is not None else None
        self.calls = calls
        self.call_box.blockSignals(True)
        self.call_box.clear()
        self.call_box.addItems([c["label"] for c in calls])
        labels = [c["label"] for c in calls]
        self.call_box.setCurrentIndex(labels.index(chosen) if chosen in labels else 0)
        self.call_box.blockSignals(False)
        self.call_box.setEnabled(bool(calls))
        self._set_texts()
        self._ask_weights()

    def _ask_weights(self) -> None:
        call = self.call
        if call is None:
            self._show_weights(None)
            return
        self.sample_box.blockSignals(True)
        self.sample_box.setRange(0, max(0, call["kept"] - 1))
        self.sample_box.blockSignals(False)
        asked = self._next()
        self._document.ask("attention", {"run": self._run, "call": call["key"],
                                         "sample": self.sample_box.value()},
                           while_alive(self, lambda data, error: self._on_weights(
                               asked, data, error)))

    def _on_weights(self, asked: int, data: dict, error: str) -> None:
        if asked == self._asked:
            self._show_weights(None if error else np.asarray(data["weights"], np.float32))

    def _show_weights(self, weights: np.ndarray | None) -> None:
        self.weights = weights
        heads = 0 if weights is None else weights.shape[0]
        if heads != len(self.images):
            self._lay_out(heads)
        for i, image in enumerate(self.images):
            image.setImage(weights[i], levels=(0.0, 1.0))
            self._plots[i].setRange(xRange=(0, weights.shape[2]), yRange=(0, weights.shape[1]),
                                    padding=0)
        self._set_texts()

    def _lay_out(self, heads: int) -> None:
        self.graphics.clear()
        self.images, self._plots, self._bar = [], [], None
        for head in range(heads):
            plot = self.graphics.addPlot(row=head // COLUMNS, col=head % COLUMNS)
            plot.invertY(True)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setAspectLocked(True)
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            self.images.append(image)
            self._plots.append(plot)
        if heads:
            self._bar = pg.ColorBarItem(values=(0.0, 1.0), width=14, interactive=False,
                                        colorMap=current_palette().colormap)
            self._bar.setImageItem(self.images)
            self.graphics.addItem(self._bar, row=0, col=min(heads, COLUMNS),
                                  rowspan=-(-heads // COLUMNS))
        self._apply_theme(current_palette())

    def _set_texts(self) -> None:
        self._labels[0].setText(self.tr("Call:"))
        self._labels[1].setText(self.tr("Sample:"))
        self.call_box.setToolTip(self.tr("The attention call whose weights are shown: an "
                                         "nn.MultiheadAttention module, or a call of "
                                         "F.scaled_dot_product_attention and its line"))
        self.sample_box.setToolTip(self.tr("Which sample of the call's batch"))
        self.graphics.setToolTip(self.tr(
            "One heatmap per head: row i is query position i, column j key position j; "
            "each row sums to 1 (softmax, before dropout)"))
        for head, plot in enumerate(self._plots):
            plot.setTitle(self.tr("head {0}").format(head), size="9pt")
            plot.setLabel("left", self.tr("query position"))
            plot.setLabel("bottom", self.tr("key position"))
        call = self.call
        if call is None:
            self.note.setText(self.tr(
                "No attention call yet: an nn.MultiheadAttention module or "
                "F.scaled_dot_product_attention called by the recipe shows here once it "
                "has run."))
        else:
            self.note.setText(self.tr(
                "{0}: {1} heads, {2} queries by {3} keys; sample {4} of the {5} kept "
                "(the call's batch: {6}).").format(
                    call["label"], call["heads"], call["queries"], call["keys"],
                    self.sample_box.value(), call["kept"], call["samples"]))

    def _apply_theme(self, palette: Palette) -> None:
        colours = QApplication.palette(self)
        ink = colours.color(QPalette.ColorRole.Text)
        self.graphics.setBackground(colours.color(QPalette.ColorRole.Base))
        axes = [plot.getAxis(side) for plot in self._plots for side in ("left", "bottom")]
        if self._bar is not None:
            self._bar.setColorMap(pg.colormap.get(palette.colormap))
            axes.append(self._bar.axis)
        for axis in axes:
            axis.setPen(ink)
            axis.setTextPen(ink)
