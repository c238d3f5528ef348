"""The Training tab's Distributions page: every layer's weights and gradients over the
steps, as nested percentile bands (TensorBoard's "distributions").

The kernel computes the percentiles at each sampled step, for every layer at once
(``kernel.watch_quantiles``); the page draws a row per layer, its weights on the left and
its gradients on the right, from the loop's ``History`` (``weight_q``, ``grad_q``). A
learning rate too large shows as weights whose bands blow apart; a dead ReLU layer as
gradients whose bands collapse onto zero.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.palette import Palette
from app.training.history import History
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, theme_notifier
from widgets.training.bands import Bands
from widgets.training.plots import PlotGrid, ViewFitter, new_plot, style_plots

#: Layers drawn at most (two plots each); the Histogram page shows any one of the rest.
MAX_LAYERS = 12


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


#: Samples of a run during which every view is fitted at each one.
YOUNG_SAMPLES = 8


class DistributionPlots(QWidget):
    """Per layer, the bands of its weights and of its gradients over the steps.

    Attributes
    ----------
    layers : list of str
        The paths of the layers drawn, in the loop's order.
    bands : list of (Bands, Bands)
        Each drawn layer's weights and gradients.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.grid = PlotGrid(max_columns=2)
        self.graphics = self.grid.graphics
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.grid, 1)
        self.layers: list[str] = []
        self.bands: list[tuple[Bands, Bands]] = []
        self._pool: list[tuple[pg.PlotItem, Bands]] = []  # made once, kept for later runs
        self._total = 0
        self._names: list[str] = []  # the loop's layers
        self._indices: list[int] = []  # those drawn, by their index in it
        self.fitter = ViewFitter()
        self._shown: tuple = ()
        translated(self, self._set_texts)
        theme_notifier().changed.connect(self._apply_theme)

    def set_run(self, info) -> None:
        """Draw the layers of the loop ``info`` describes (None: no loop), once their
        first percentiles come: the layers with a weight."""
        self._names = list(info.layer_names) if info is not None else []
        # the plots are kept, emptied and hidden until this run's first percentiles: a
        # run of the same layers lays out nothing again (``_lay_out``)
        for weights, grads in self.bands:
            weights.clear()
            grads.clear()
        self._shown = ()
        self.grid.hide()
        self.fitter.x_limit = float(info.steps) if info is not None and info.steps \
            else None  # the run's last step, when known
        self.fitter.follow_all()

    def _lay_out(self, indices: list[int]) -> None:
        """A row of plots for each layer in ``indices`` (of the loop's), up to MAX_LAYERS;
        the rows laid out already, when they are those layers' (10 plots laid out, titled
        and styled took 22 ms: a frame and more, at every run's first percentiles)."""
        layers = [self._names[i] for i in indices[:MAX_LAYERS]]
        self.grid.setVisible(bool(layers))
        if layers == self.layers and len(indices) == self._total:
            self._indices = indices
            return
        self._indices = indices
        self._total = len(indices)
        self.layers = layers
        while len(self._pool) < 2 * len(self.layers):
            plot = new_plot("")
            # the values as they are on the ticks: a scale in the axis's title ("value
            # (x0.001)") ran, turned on its side, past a short row into the next
            plot.getAxis("left").enableAutoSIPrefix(False)
            self._pool.append((plot, Bands(plot, len(self._pool) % 2)))
            self.fitter.add(plot)
        used = self._pool[:2 * len(self.layers)]
        for _, bands in used:
            bands.clear()
        self.bands = [(used[i][1], used[i + 1][1]) for i in range(0, len(used), 2)]
        self._shown = ()
        self.grid.set_plots([plot for plot, _ in used])
        self._set_texts()
        self._apply_theme(current_palette())

    def refresh(self, history: History | None, force: bool = False) -> None:
        """Draw the percentiles kept so far (when they changed)."""
        if history is None or not self._names:
            return
        weights, grads = history.weight_q, history.grad_q
        shown = (len(weights), weights.steps[-1] if len(weights) else None, weights.stride)
        if shown == self._shown and not force:
            self.fitter.fit_all()
            return
        self._shown = shown
        values = weights.values
        have = [i for i in range(values.shape[1]) if not np.isnan(values[:, i, :]).all()]
        first = have != self._indices or self.grid.isHidden()  # the run's first layers
        if first:
            self._lay_out(have)
            self._shown = shown
        for i, (w, g) in zip(self._indices, self.bands, strict=False):
            w.set_data(weights.steps, values[:, i, :])
            g.set_data(grads.steps, grads.values[:, i, :])
        # every view fitted at once while the run is young (its first few samples move
        # every range; later, one view in turn): they showed the last run's ranges, or
        # their first point's, meanwhile
        self.fitter.fit_all(force=force or first or len(weights) <= YOUNG_SAMPLES)

    def fit(self) -> None:
        self.fitter.fit_all(force=True)

    def _set_texts(self) -> None:
        self.graphics.setToolTip(_tr(
            "Each layer's weights (left) and gradients (right) over the steps: the line is "
            "the median; the bands hold the middle 38%, 68% and 86% of the values, and all "
            "of them"))
        for i, path in enumerate(self.layers):
            for j, title in enumerate((_tr("{0}: weights"), _tr("{0}: gradients"))):
                plot = self._pool[2 * i + j][0]
                plot.setTitle(title.format(path), size="9pt")
                plot.setLabel("bottom", _tr("step"))
        self.grid.refresh_compact()  # (a title set shows the x axis's again)
        hidden = self._total > len(self.layers)
        self.note.setVisible(hidden)
        if hidden:
            self.note.setText(_tr("The first {0} of {1} layers; the Histogram page shows "
                                  "any one of them.").format(len(self.layers), self._total))

    def _apply_theme(self, _palette: Palette) -> None:
        style_plots(self.graphics, [plot for plot, _ in self._pool], self)
        for _, bands in self._pool:
            bands.apply_theme()
