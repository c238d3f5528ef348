"""The autograd explorer: the selected tensor's backward graph, its facts, backward and friends.

Every action is a recipe step (``out.backward()``, ``y.retain_grad()``,
``x.grad.zero_()``) pushed on the undo stack; the panel redraws from the document's
next run. The Qt-free parts live in ``app.explain.autograd_graph`` and
``app.explain.autograd_steps``.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import torch
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.explain.autograd_graph import (
    AutogradGraph,
    GraphNode,
    build_graph,
    grad_facts,
    node_explanation,
)
from app.explain.autograd_steps import (
    FunctionError,
    add_backward,
    add_zero_grads,
    default_gradient,
    explain_error,
    gradient_explanation,
    has_retain_grad,
    hessian_matrix,
    is_autograd_step,
    jacobian_matrix,
    leaves_with_grad,
    needs_gradient,
    set_retain_grad,
)
from app.expr import Ref, references
from app.recipe.document import Document
from app.recipe.evaluator import RecipeRun
from app.recipe.writer import write_step
from widgets.autograd.graph_view import KIND_COLOURS, GraphView, node_label, saved_value_text
from widgets.common.doc_links import listen
from widgets.common.i18n_text import lesson_text
from widgets.common.tensor_table_model import PlaneAddress, TensorTableModel
from widgets.common.theme import current_palette
from widgets.common.undo import push_edit

_FACT_KEYS = ("tensor", "is_leaf", "requires_grad", "grad_fn", "retains_grad", ".grad")
_LEAVES_LISTED = 10  # the status line names this many leaves, then counts the rest
_ONES = "ones"  # the gradient combo's data for torch.ones_like(out)


class AutogradPanel(QWidget):
    """Draws the selected tensor's backward graph; inspect nodes, run backward, zero grads.

    Parameters
    ----------
    document : Document
        The open document. The panel follows its ``evaluated`` and ``selection_changed``
        signals; it changes the recipe only through ``undo_stack``.
    undo_stack : QUndoStack, optional
        Where recipe edits go (``widgets.common.undo.push_edit``); None applies them directly.
    parent : QWidget, optional
        The usual Qt parent.
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self._name: str | None = None  # the tensor whose graph is drawn
        self._graph = AutogradGraph()
        self._inspected: str | None = None  # the recipe name whose facts are shown
        self._node: str | None = None  # the clicked node's id
        self._refits = True  # fit the next drawing in the view
        self._build()
        self._set_model_connected(True)
        self._refresh()

    # -- public accessors (tests, screenshots) --------------------------------------------------
    @property
    def graph_view(self) -> GraphView:
        return self._view

    @property
    def graph(self) -> AutogradGraph:
        return self._graph

    @property
    def tensor_name(self) -> str | None:
        """The recipe name of the tensor whose graph is drawn."""
        return self._name

    @property
    def inspected_name(self) -> str | None:
        """The recipe name of the tensor whose facts are shown."""
        return self._inspected

    def facts(self) -> dict[str, str]:
        """The facts shown, ``{"is_leaf": "True", ..., ".grad": "...", "why": "..."}``."""
        out = {k: label.text() for k, label in self._fact_labels.items()}
        out["why"] = self._why.text() if not self._why.isHidden() else ""
        return out

    def heading_text(self) -> str:
        return self._heading.text()

    def error_text(self) -> str:
        """The autograd error shown (torch's message, cause and fix), or empty."""
        return self._error.text() if not self._error.isHidden() else ""

    def status_text(self) -> str:
        return self._status.text()

    def inspect(self, node_id: str) -> None:
        """Show node ``node_id``'s facts, as clicking it does, and scroll it into view."""
        self._on_view_node_clicked(node_id)
        item = self._view.node_items().get(node_id)
        if item is not None:
            self._view.ensureVisible(item)

    # -- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        self._status = QLabel()
        self._status.setWordWrap(True)
        self._status.setToolTip(self.tr("Whose backward graph is drawn"))
        self._saved_box = QCheckBox(self.tr("Saved tensors"))
        self._saved_box.setToolTip(self.tr("Also draw the tensors each backward function saved "
                                           "during the forward pass (orange, dashed edges)"))
        fit = QPushButton(self.tr("Fit"))
        fit.setToolTip(self.tr("Zoom to show the whole graph"))
        top = QHBoxLayout()
        top.addWidget(self._status, 1)
        top.addWidget(self._saved_box)
        top.addWidget(fit)

        legend = QHBoxLayout()
        legend_tip = self.tr("Node colours. Arrows point the way backward() walks: from the "
                             "result down to the leaves, whose .grad it fills.")
        for kind, text in (("tensor", self.tr("tensor")), ("grad_fn", self.tr("grad_fn")),
                           ("accumulate", self.tr("AccumulateGrad")), ("leaf", self.tr("leaf")),
                           ("saved", self.tr("saved")), ("cut", self.tr("cut off"))):
            swatch = QLabel()
            swatch.setFixedSize(14, 14)
            border = ("dashed " + current_palette().error if kind == "cut"
                      else "solid " + current_palette().muted)
            swatch.setStyleSheet(f"background: {KIND_COLOURS[kind]}; border: 1px {border};")
            swatch.setToolTip(legend_tip)
            label = QLabel(text)
            label.setToolTip(legend_tip)
            legend.addWidget(swatch)
            legend.addWidget(label)
            legend.addSpacing(8)
        legend.addStretch(1)

        self._view = GraphView()
        self._tabs = QTabWidget()
        # scrolled: with an error shown below, the pages may get less height than their
        # rows need, and squeezed rows draw over each other
        self._tabs.addTab(_scrolled(self._build_inspect()), self.tr("Inspect"))
        self._tabs.addTab(_scrolled(self._build_backward()), self.tr("Backward"))
        self._tabs.addTab(_scrolled(self._build_jacobian()), self.tr("Jacobian"))
        self._tabs.setTabToolTip(0, self.tr("The clicked node or tensor: is_leaf, "
                                            "requires_grad, grad_fn and .grad"))
        self._tabs.setTabToolTip(1, self.tr("Run backward, or zero the gradients"))
        self._tabs.setTabToolTip(2, self.tr("Jacobian and Hessian of this tensor with respect "
                                            "to another"))
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._view)
        splitter.addWidget(self._tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([600, 400])  # the graph gets the room, whatever the texts ask for

        self._error = QLabel()
        self._error.setWordWrap(True)
        self._error.setTextFormat(Qt.TextFormat.RichText)
        self._error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._error.setToolTip(self.tr("An autograd step failed: torch's message, the usual "
                                       "cause and the fix"))
        self._error.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(legend)
        layout.addWidget(splitter, 1)
        layout.addWidget(self._error)

        self._saved_box.toggled.connect(self._on_view_saved_toggled)
        fit.clicked.connect(self._view.fit)
        self._view.node_clicked.connect(self._on_view_node_clicked)

    def _build_inspect(self) -> QWidget:
        page = QWidget()
        self._heading = QLabel()
        self._heading.setWordWrap(True)
        self._heading.setTextFormat(Qt.TextFormat.RichText)
        self._heading.setToolTip(self.tr("What the clicked node is"))
        form = QFormLayout()
        tips = {
            "tensor": self.tr("The recipe tensor these facts are about"),
            "is_leaf": self.tr("A leaf was created, not computed from tensors that require "
                               "grad. Only leaves get .grad by default."),
            "requires_grad": self.tr("Whether autograd records operations on this tensor"),
            "grad_fn": self.tr("The backward function that made this tensor; None for leaves "
                               "and for tensors autograd does not track"),
            "retains_grad": self.tr("Whether this non-leaf keeps its .grad (retain_grad())"),
            ".grad": self.tr("The gradient backward stored here; backward adds to it"),
        }
        self._fact_labels: dict[str, QLabel] = {}
        for key in _FACT_KEYS:
            value = QLabel("—")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setToolTip(tips[key])
            name = QLabel(key)
            name.setToolTip(tips[key])
            form.addRow(name, value)
            self._fact_labels[key] = value
        self._why = QLabel()
        self._why.setWordWrap(True)
        self._why.setTextFormat(Qt.TextFormat.PlainText)
        self._why.setToolTip(self.tr("Why .grad is None"))
        self._retain_box = QCheckBox(self.tr("retain_grad()"))
        self._retain_box.setToolTip(self.tr("Keep .grad for this non-leaf tensor: adds (or "
                                            "removes) the step name.retain_grad() just after "
                                            "it"))
        self._retain_box.toggled.connect(self._on_view_retain_grad_toggled)
        self._grad_model = TensorTableModel(self)
        self._grad_table = _small_table(self._grad_model)
        self._grad_table.setToolTip(self.tr("The values of .grad"))
        self._saved_text = QLabel()
        self._saved_text.setWordWrap(True)
        self._saved_text.setTextFormat(Qt.TextFormat.PlainText)
        self._saved_text.setToolTip(self.tr("What this backward function saved during the "
                                            "forward pass"))
        layout = QVBoxLayout(page)
        layout.addWidget(self._heading)
        layout.addLayout(form)
        layout.addWidget(self._why)
        layout.addWidget(self._retain_box)
        layout.addWidget(self._grad_table)
        layout.addWidget(self._saved_text)
        layout.addStretch(0)
        return page

    def _build_backward(self) -> QWidget:
        page = QWidget()
        self._gradient_box = QComboBox()
        self._gradient_box.setToolTip(self.tr("The gradient argument: how much each element of "
                                              "the tensor counts"))
        self._gradient_why = QLabel()
        self._gradient_why.setWordWrap(True)
        self._gradient_why.setToolTip(self.tr("Why a tensor with several elements needs a "
                                              "gradient argument"))
        self._retain_graph_box = QCheckBox(self.tr("retain_graph=True"))
        self._retain_graph_box.setToolTip(self.tr(
            "Keep the graph's saved tensors so backward can run through it again; without "
            "it a second backward fails"))
        self._backward_button = QPushButton(self.tr("Backward"))
        self._backward_button.setToolTip(self.tr("Add the step name.backward(...) to the "
                                                 "recipe: gradients are ADDED to each leaf's "
                                                 ".grad"))
        self._zero_button = QPushButton(self.tr("Zero grads"))
        self._zero_button.setToolTip(self.tr("Add x.grad.zero_() for every leaf that has a "
                                             "gradient, so the next backward starts from 0"))
        self._backward_preview = QLabel()
        self._backward_preview.setWordWrap(True)
        self._backward_preview.setToolTip(self.tr("The step Backward adds"))
        form = QFormLayout()
        self._gradient_label = QLabel(self.tr("gradient"))
        self._gradient_label.setToolTip(self._gradient_box.toolTip())
        form.addRow(self._gradient_label, self._gradient_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self._backward_button)
        buttons.addWidget(self._zero_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self._gradient_why)
        layout.addWidget(self._retain_graph_box)
        layout.addLayout(buttons)
        layout.addWidget(self._backward_preview)
        layout.addStretch(1)
        self._backward_button.clicked.connect(self._on_view_backward)
        self._zero_button.clicked.connect(self._on_view_zero_grads)
        self._gradient_box.currentIndexChanged.connect(self._on_view_backward_options)
        self._retain_graph_box.toggled.connect(self._on_view_backward_options)
        return page

    def _build_jacobian(self) -> QWidget:
        page = QWidget()
        self._input_box = QComboBox()
        self._input_box.setToolTip(self.tr("The input tensor X: the drawn tensor is "
                                           "recomputed from it by the recipe's steps"))
        self._jacobian_button = QPushButton(self.tr("Jacobian"))
        self._jacobian_button.setToolTip(self.tr(
            "torch.autograd.functional.jacobian: d(element i of the tensor) / d(element j of "
            "X), both flattened"))
        self._hessian_button = QPushButton(self.tr("Hessian"))
        self._hessian_button.setToolTip(self.tr(
            "torch.autograd.functional.hessian: second derivatives of a one-element tensor "
            "with respect to every pair of elements of X"))
        self._matrix_caption = QLabel()
        self._matrix_caption.setWordWrap(True)
        self._matrix_caption.setToolTip(self.tr("What the matrix holds"))
        self._matrix_model = TensorTableModel(self)
        self._matrix_table = _small_table(self._matrix_model)
        self._matrix_table.setToolTip(self.tr("The matrix; hover a cell for its full value"))
        form = QFormLayout()
        x_label = QLabel(self.tr("with respect to"))
        x_label.setToolTip(self._input_box.toolTip())
        form.addRow(x_label, self._input_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self._jacobian_button)
        buttons.addWidget(self._hessian_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self._matrix_caption)
        layout.addWidget(self._matrix_table)
        layout.addStretch(1)
        self._jacobian_button.clicked.connect(self._on_view_jacobian)
        self._hessian_button.clicked.connect(self._on_view_hessian)
        return page

    # -- wiring -------------------------------------------------------------------------------
    def _set_model_connected(self, connect: bool) -> None:
        """Connect to (or disconnect from) the document: the one place the panel listens."""
        doc = self._document
        links = ((doc.evaluated, self._on_model_evaluated),
                 (doc.selection_changed, self._on_model_selection_changed))
        listen(self, links, connect)

    def _on_model_evaluated(self, run: object) -> None:
        self._refresh()

    def _on_model_selection_changed(self, index: int | None) -> None:
        self._inspected = None
        self._refresh()

    # -- view events --------------------------------------------------------------------------
    def _on_view_node_clicked(self, node_id: str) -> None:
        node = self._graph.nodes.get(node_id)
        if node is None:
            return
        self._node = node_id
        self._inspected = node.names[0] if node.names else None
        with QSignalBlocker(self._view):
            self._view.select(node_id)
        self._show_node(node)
        self._tabs.setCurrentIndex(0)

    def _on_view_saved_toggled(self, on: bool) -> None:
        self._refits = True
        self._refresh()

    def _on_view_retain_grad_toggled(self, on: bool) -> None:
        name = self._inspected
        if name is None:
            return
        text = (self.tr("Retain grad of {0}") if on else self.tr("Stop retaining grad of {0}"))
        push_edit(self._stack, self._document.recipe,
                  lambda r: set_retain_grad(r, name, on), text.format(name))

    def _on_view_backward(self) -> None:
        name = self._name
        if name is None:
            return
        gradient, retain = self._backward_args()
        push_edit(self._stack, self._document.recipe,
                  lambda r: add_backward(r, name, gradient, retain),
                  self.tr("Backward from {0}").format(name))

    def _on_view_zero_grads(self) -> None:
        names = leaves_with_grad(self._document.run, nonzero=True)
        if names:
            push_edit(self._stack, self._document.recipe,
                      lambda r: add_zero_grads(r, names), self.tr("Zero gradients"))

    def _on_view_backward_options(self, *_: object) -> None:
        self._update_backward_preview()

    def _on_view_jacobian(self) -> None:
        self._show_matrix("jacobian")

    def _on_view_hessian(self) -> None:
        self._show_matrix("hessian")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale:
            self._refresh()

    # -- rendering ----------------------------------------------------------------------------
    def _refresh(self) -> None:
        if not self.isVisible():
            # Behind another tab: draw when shown. The graph's layout (networkx) is the
            # costly part, and nobody would see it; this keeps it out of start-up.
            self._stale = True
            return
        self._stale = False
        doc = self._document
        run = doc.run
        previous = self._name
        self._name = self._target_name()
        value = run.namespace.get(self._name) if self._name else None
        if isinstance(value, torch.Tensor):
            self._graph = build_graph(value, run, self._name, saved=self._saved_box.isChecked())
            self._status.setText(self._status_line(value))
        else:
            self._graph = AutogradGraph()
            self._status.setText(self.tr("Select a step that makes a tensor to see its backward "
                                         "graph."))
        # a new run of the same tensor keeps the user's zoom and scroll
        self._view.set_graph(self._graph, fit=self._name != previous or self._refits)
        self._refits = False
        node = self._graph.node_for_name(self._inspected) if self._inspected else None
        if node is None and self._graph.root is not None:
            node = self._graph.nodes[self._graph.root]
        if node is not None:
            self._node = node.id
            self._inspected = node.names[0] if node.names else None
            self._view.select(node.id)
            self._show_node(node)
        else:
            self._node, self._inspected = None, None
            self._show_node(None)
        self._update_backward(value)
        self._update_inputs(value)
        self._show_error(run)

    def _target_name(self) -> str | None:
        doc = self._document
        if doc.selected is None or doc.selected >= len(doc.recipe.steps):
            return None
        step = doc.recipe.steps[doc.selected]
        if step.name:
            return step.name
        reads = references(step.expr)  # out.backward() shows out's graph
        return reads[0] if reads else None

    def _status_line(self, value: torch.Tensor) -> str:
        name = self._name
        if not value.requires_grad:
            return self.tr("{0} does not require grad: autograd records no graph for it.")\
                .format(name)
        nodes = len(self._graph.nodes)
        named = self._graph.leaf_tensor_names()
        leaves = ", ".join(named[:_LEAVES_LISTED]) or self.tr("none named")
        if len(named) > _LEAVES_LISTED:
            leaves += " " + self.tr("and {0} more").format(len(named) - _LEAVES_LISTED)
        text = self.tr("Backward graph of {0}: {1} nodes; leaves: {2}.").format(
            name, nodes, leaves)
        if self._graph.truncated:
            text += " " + self.tr("(Only the first {0} nodes are drawn.)").format(nodes)
        return text

    def _show_node(self, node: GraphNode | None) -> None:
        run = self._document.run
        name = self._inspected
        value = run.namespace.get(name) if name else None
        if node is None:
            self._heading.setText("")
        else:
            self._heading.setText(f"<b>{html.escape(node_label(node))}</b><br>"
                                  f"{html.escape(lesson_text(node_explanation(node)))}")
        saved = [f"{v.name}: {saved_value_text(v)}"
                 + (f" = {v.tensor_name}" if v.tensor_name else "")
                 for v in (node.saved if node is not None else ())]
        self._saved_text.setText(self.tr("Saved for backward: {0}").format("; ".join(saved))
                                 if saved else "")
        self._saved_text.setVisible(bool(saved))
        with QSignalBlocker(self._retain_box):
            if isinstance(value, torch.Tensor) and name is not None:
                facts = grad_facts(value, name, run)
                self._fact_labels["tensor"].setText(name)
                for key, text in facts.rows():
                    self._fact_labels[key].setText(text)
                self._why.setText(lesson_text(facts.why_no_grad))
                self._why.setVisible(bool(facts.why_no_grad))
                can_retain = not facts.is_leaf and facts.requires_grad
                self._retain_box.setEnabled(can_retain)
                self._retain_box.setChecked(has_retain_grad(self._document.recipe, name))
                self._show_grad(name, facts.grad)
            else:
                for label in self._fact_labels.values():
                    label.setText("—")
                self._why.setText(self.tr("This node is an intermediate result with no name "
                                          "in the recipe.") if node is not None else "")
                self._why.setVisible(node is not None)
                self._retain_box.setEnabled(False)
                self._retain_box.setChecked(False)
                self._show_grad(None, None)

    def _show_grad(self, name: str | None, grad: torch.Tensor | None) -> None:
        if grad is None or name is None:
            self._grad_model.clear()
            self._grad_table.hide()
            return
        self._grad_model.set_plane(_matrix(grad), PlaneAddress(f"{name}.grad", min(grad.ndim, 2)))
        _fit_rows(self._grad_table)
        self._grad_table.show()

    def _update_backward(self, value: Any) -> None:
        tracked = isinstance(value, torch.Tensor) and value.requires_grad
        self._backward_button.setEnabled(tracked)
        self._retain_graph_box.setEnabled(tracked)
        self._zero_button.setEnabled(bool(leaves_with_grad(self._document.run, nonzero=True)))
        needs = tracked and needs_gradient(value)
        with QSignalBlocker(self._gradient_box):
            self._gradient_box.clear()
            if needs and self._name is not None:
                self._gradient_box.addItem(f"torch.ones_like({self._name})", _ONES)
                for other, t in self._document.run.namespace.items():
                    if other != self._name and isinstance(t, torch.Tensor) \
                            and t.shape == value.shape and t.is_floating_point():
                        self._gradient_box.addItem(other, other)
        for w in (self._gradient_box, self._gradient_label, self._gradient_why):
            w.setVisible(needs)
        self._gradient_why.setText(lesson_text(gradient_explanation(self._name, value))
                                   if needs and self._name else "")
        self._update_backward_preview()

    def _backward_args(self) -> tuple[Any, bool]:
        gradient = None
        if not self._gradient_box.isHidden() and self._name is not None:
            data = self._gradient_box.currentData()
            gradient = default_gradient(self._name) if data in (None, _ONES) else Ref(data)
        return gradient, self._retain_graph_box.isChecked()

    def _update_backward_preview(self) -> None:
        if self._name is None or not self._backward_button.isEnabled():
            self._backward_preview.setText(self.tr("Select a tensor that requires grad."))
            return
        from app.explain.autograd_steps import backward_step

        gradient, retain = self._backward_args()
        self._backward_preview.setText(self.tr("Adds the step: {0}").format(
            write_step(backward_step(self._name, gradient, retain))))

    def _update_inputs(self, value: Any) -> None:
        run, recipe = self._document.run, self._document.recipe
        names: list[str] = []
        if isinstance(value, torch.Tensor) and self._name is not None:
            try:
                end = recipe.index_of(self._name)
            except KeyError:
                end = 0
            for step in recipe.steps[:end]:
                t = run.namespace.get(step.name) if step.name else None
                if isinstance(t, torch.Tensor) and t.is_floating_point() \
                        and step.name not in names and step.name != self._name:
                    names.append(step.name)  # type: ignore[arg-type]
        names.sort(key=lambda n: not (run.namespace[n].is_leaf
                                      and run.namespace[n].requires_grad))
        current = self._input_box.currentText()
        with QSignalBlocker(self._input_box):
            self._input_box.clear()
            self._input_box.addItems(names)
            if current in names:
                self._input_box.setCurrentText(current)
        for w in (self._jacobian_button, self._hessian_button):
            w.setEnabled(bool(names))
        self._matrix_caption.setText("" if names else self.tr(
            "Select a tensor computed from another floating point tensor."))
        self._matrix_model.clear()

    def _show_matrix(self, which: str) -> None:
        doc, output, x = self._document, self._name, self._input_box.currentText()
        if output is None or not x:
            return
        try:
            if which == "jacobian":
                matrix = jacobian_matrix(doc.recipe, doc.run, x, output)
                caption = self.tr("Jacobian: row i, column j is d {0}[i] / d {1}[j], both "
                                  "flattened in row-major order ({2} × {3}).")
                label = "J"
            else:
                matrix = hessian_matrix(doc.recipe, doc.run, x, output)
                caption = self.tr("Hessian: row i, column j is d² {0} / d {1}[i] d {1}[j], "
                                  "{1} flattened in row-major order ({2} × {3}).")
                label = "H"
        except (FunctionError, RuntimeError, TypeError, ValueError) as e:
            self._matrix_model.clear()
            why = lesson_text(e.args[0]) if isinstance(e, FunctionError) and e.args else str(e)
            self._matrix_caption.setText(self.tr("Cannot compute it: {0}").format(why))
            return
        self._matrix_caption.setText(caption.format(output, x, matrix.shape[0], matrix.shape[1]))
        self._matrix_model.set_plane(_matrix(matrix), PlaneAddress(label, 2))
        _fit_rows(self._matrix_table, 12)

    def _show_error(self, run: RecipeRun) -> None:
        failed = [r for r in run.results if r.status == "error" and is_autograd_step(r.step)]
        if not failed:
            self._error.hide()
            self._error.clear()
            return
        r = failed[-1]
        where = self.tr("line {0}").format(r.step.line) if r.step.line else \
            self.tr("step {0}").format(run.results.index(r) + 1)
        parts = [f"<b>{html.escape(where)}: {html.escape(write_step(r.step))}</b>",
                 f"{html.escape(r.error_type)}: {html.escape(r.error)}"]
        lesson = explain_error(r.error_type, r.error)
        if lesson is not None:
            parts.append(self.tr("<b>Why:</b> {0}").format(html.escape(lesson_text(lesson.cause))))
            parts.append(self.tr("<b>Fix:</b> {0}").format(html.escape(lesson_text(lesson.fix))))
        self._error.setText(f"<span style='color:{current_palette().error}'>" + "<br>".join(parts)
                            + "</span>")
        self._error.show()


def _matrix(t: torch.Tensor) -> np.ndarray:
    """A 2-D numpy copy of ``t`` for a table: scalars are 1 x 1, vectors one row."""
    data = t.detach().cpu()
    if data.ndim == 0:
        data = data.reshape(1, 1)
    elif data.ndim == 1:
        data = data.reshape(1, -1)
    elif data.ndim > 2:
        data = data.reshape(-1, data.shape[-1])
    return data.numpy().copy()


def _small_table(model: TensorTableModel) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.horizontalHeader().setDefaultSectionSize(64)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    return table


def _fit_rows(table: QTableView, most: int = 6) -> None:
    """Make ``table`` as tall as its rows, up to ``most`` of them (then it scrolls)."""
    rows = min(table.model().rowCount(), most)
    height = (table.horizontalHeader().sizeHint().height()
              + rows * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth()
              + table.horizontalScrollBar().sizeHint().height())  # room for one, if needed
    table.setMaximumHeight(height + 2)
    if table.model().columnCount() <= 40:
        table.resizeColumnsToContents()


def _scrolled(page: QWidget) -> QScrollArea:
    """``page`` in a frameless scroll area that only scrolls up and down (texts wrap)."""
    area = QScrollArea()
    area.setWidget(page)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area


if __name__ == "__main__":  # a quick look: python -m widgets.autograd.panel
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.reader import read_recipe

    app = QApplication(sys.argv)
    doc = Document(read_recipe("import torch\nx = torch.ones(2, 2, requires_grad=True)\n"
                               "y = x + 2\nz = (y * y * 3).mean()\nz.backward()\n"))
    doc.select_name("z")
    panel = AutogradPanel(doc, QUndoStack())
    panel.resize(1000, 600)
    panel.show()
    sys.exit(app.exec())
