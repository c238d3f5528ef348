"""Extras that follow values: tril/triu's diagonal slider, clamp's histogram, cat/stack's
source colours."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QPalette, QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QWidget

from app.explain.step_view import StepView
from app.recipe.document import Document
from app.tensor_copy import TensorCopy
from widgets.common.retranslate import translated
from widgets.common.undo import push_edit
from widgets.explain.explained_grid import palette_colour
from widgets.explain.extra_base import Decoration, OpExtra


class DiagonalExtra(OpExtra):
    """tril and triu: the diagonal outlined on the output, moved with a slider."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        self._sv: StepView | None = None
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setTickInterval(1)
        self.slider.setPageStep(1)
        translated(self, lambda: (
            self.slider.setToolTip(self.tr("The diagonal parameter: 0 is the main diagonal, "
                                           "positive moves it up and right, negative down and "
                                           "left. Changes the step."))))
        self.value_label = QLabel()
        self.value_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("diagonal = -99"))
        translated(self, lambda: self.value_label.setToolTip(self.slider.toolTip()))
        row = QHBoxLayout()
        row.addWidget(self.value_label)
        row.addWidget(self.slider, 1)
        self.box.addLayout(row)
        self.box.addWidget(self.caption)
        self.slider.valueChanged.connect(self._on_view_slider_changed)

    def title(self) -> str:
        return self.tr("Diagonal")

    def show_step(self, sv: StepView) -> Decoration:
        self._sv = sv
        assert sv.spec is not None
        t = sv.receiver()
        literal, d = sv.literal("diagonal", 0)
        if not literal:  # what the kernel worked out (``i - 1`` in a loop's iteration)
            d = sv.part("diagonal")
        usable = isinstance(d, int) and not isinstance(d, bool) and t is not None \
            and t.dim() >= 2
        with QSignalBlocker(self.slider):
            if usable:
                rows, cols = t.shape[-2], t.shape[-1]
                self.slider.setRange(min(-rows, d), max(cols, d))
                self.slider.setValue(d)
            # it edits the literal of a step of the recipe (not one inside a loop)
            self.slider.setEnabled(usable and literal and sv.inner is None)
        self.value_label.setText(self.tr("diagonal = {0}").format(d if usable else "?"))
        keep = self.tr("on and below") if sv.op == "tril" else self.tr("on and above")
        self.caption.setText(self.tr(
            "{0} keeps the elements {1} the diagonal outlined in red (j {2} i + diagonal) "
            "and sets the grey ones to 0.").format(sv.op, keep, "≤" if sv.op == "tril" else "≥"))
        out = sv.output
        if not usable or not isinstance(out, TensorCopy) or out.dim() < 2:
            return Decoration()
        ones = np.ones(out.shape, dtype=bool)  # tril and triu of the last two dims
        kept = np.tril(ones, d) if sv.op == "tril" else np.triu(ones, d)
        return Decoration(greyed=~kept, diagonal=d)

    def _on_view_slider_changed(self, value: int) -> None:
        sv = self._sv
        steps = self._document.recipe.steps
        if sv is None or sv.spec is None or sv.index >= len(steps) \
                or steps[sv.index] != sv.step:
            return
        new = sv.with_literal("diagonal", value)
        if new is None:
            return
        index = sv.index
        push_edit(self._stack, self._document.recipe, lambda r: r.replace_step(index, new),
                  self.tr("Change diagonal of {0}").format(sv.step.label),
                  merge_key=("diagonal-slider", id(self), index))


class ClampHistogramExtra(OpExtra):
    """clamp: histograms of the values before and after, with the min and max lines."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        ink = self.palette().color(QPalette.ColorRole.Text)
        self.plot = pg.PlotWidget()
        self.plot.setBackground(self.palette().color(QPalette.ColorRole.Base))
        self.plot.setFixedHeight(200)
        self.plot.setMinimumWidth(260)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        translated(self, lambda: (
            self.plot.setToolTip(self.tr("How many values fall in each range, before clamp (blue) "
                                         "and after (orange)"))))
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setPen(ink)
            axis.setTextPen(ink)
        legend = self.plot.addLegend(offset=(-10, 10), labelTextColor=ink)
        legend.setBrush(self.palette().color(QPalette.ColorRole.Base))
        self.before = self.plot.plot([0, 1], [0], stepMode="center", fillLevel=0,
                                     pen=pg.mkPen("#1e88e5", width=2),
                                     brush=(30, 136, 229, 60), name=self.tr("before"))
        self.after = self.plot.plot([0, 1], [0], stepMode="center", fillLevel=0,
                                    pen=pg.mkPen("#fb8c00", width=2),
                                    brush=(251, 140, 0, 60), name=self.tr("after"))
        translated(self, lambda: _name_curves(legend, {self.before: self.tr("before"),
                                                       self.after: self.tr("after")}),
                   now=False)
        self.lines: dict[str, pg.InfiniteLine] = {}
        for key in ("min", "max"):
            line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#d32f2f", width=2,
                                                          style=Qt.PenStyle.DashLine),
                                   label=key, labelOpts={"position": 0.9, "color": "#d32f2f"})
            self.plot.addItem(line)
            self.lines[key] = line
        self.box.addWidget(self.plot, 1)
        self.box.addWidget(self.caption)

    def title(self) -> str:
        return self.tr("Values before and after")

    def show_step(self, sv: StepView) -> Decoration:
        t, out = sv.receiver(), sv.output
        bounds = {k: sv.part(k) for k in ("min", "max")}
        before = _finite(t)
        after = _finite(out)
        marks = [float(v) for v in bounds.values() if isinstance(v, (int, float))]
        everything = np.concatenate([before, after, np.asarray(marks, dtype=np.float64)])
        if everything.size == 0:
            everything = np.zeros(1)
        edges = np.histogram_bin_edges(everything, bins=int(np.clip(before.size // 2, 5, 30)))
        self.before.setData(edges, np.histogram(before, edges)[0])
        self.after.setData(edges, np.histogram(after, edges)[0])
        words = []
        for key, line in self.lines.items():
            value = bounds[key]
            line.setVisible(isinstance(value, (int, float)) and not isinstance(value, bool))
            if line.isVisible():
                line.setPos(float(value))
                beyond = int((before < value).sum() if key == "min" else (before > value).sum())
                words.append(self.tr("{0} values {1} {2} became {2}").format(
                    beyond, self.tr("below") if key == "min" else self.tr("above"), value))
        self.caption.setText("; ".join(words) + "." if words else self.tr(
            "Give clamp a min or a max (a number) to see where values are cut."))
        return Decoration()


def _finite(t: Any) -> np.ndarray:
    if not isinstance(t, TensorCopy) or t.is_complex:
        return np.zeros(0)
    a = t.values.astype(np.float64).reshape(-1)
    return a[np.isfinite(a)]


class SourceColourExtra(OpExtra):
    """cat and stack: every output cell coloured by the tensor it came from."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        translated(self, lambda: (
            self.legend.setToolTip(self.tr("The colour of each source tensor"))))
        self.box.addWidget(self.legend)
        self.box.addWidget(self.caption)
        self.labels: np.ndarray | None = None
        """The source number of each output element (its shape), or None."""

    def title(self) -> str:
        return self.tr("Where each element came from")

    def show_step(self, sv: StepView) -> Decoration:
        self.labels = None
        sources = sv.part("tensors")
        if sv.spec is None or not isinstance(sources, (list, tuple)):
            self.legend.setText("")
            return Decoration()
        names = sv.item_texts("tensors")
        if names is None:  # torch.cat(pair): the pair's parts
            names = [f"{sv.operand_text('tensors')}[{k}]" for k in range(len(sources))]
        swatches = " &nbsp; ".join(
            f'<span style="background-color:{palette_colour(k).name()}">&nbsp;&nbsp;&nbsp;&nbsp;'
            f"</span>&nbsp;{html.escape(n)}" for k, n in enumerate(names))
        self.legend.setText(swatches)
        self.caption.setText(self.tr("{0} lays the tensors side by side along dim {1}: each "
                                     "output cell has the colour of the tensor it came from.")
                             .format(sv.op, sv.operand_text("dim", 0)))
        if not isinstance(sv.output, TensorCopy) or sv.labels is None:
            return Decoration()
        # the kernel ran the op on tensors of labels: every output element's source at once
        self.labels = np.asarray(sv.labels, dtype=np.int64)
        return Decoration(labels=self.labels, tints=dict(zip(names, range(len(names)),
                                                             strict=True)))


def _name_curves(legend: pg.LegendItem, names: dict) -> None:
    """The legend's names of ``names``' curves (a language change)."""
    for sample, label in legend.items:
        if sample.item in names:
            label.setText(names[sample.item])
