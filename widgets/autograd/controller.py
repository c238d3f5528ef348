"""The autograd explorer's controller: it follows the document and drives the view.

Every action is a recipe step (``out.backward()``, ``y.retain_grad()``,
``x.grad.zero_()``) pushed on the undo stack; the view redraws from the document's next
run. The Qt-free parts live in ``kernel.explain.autograd_graph`` and
``app.explain.autograd_steps``. Texts keep the ``AutogradPanel`` translation context.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QUndoStack

from app.explain.autograd_layout import node_explanation
from app.explain.autograd_steps import (
    add_backward,
    add_zero_grads,
    backward_step,
    default_gradient,
    explain_error,
    gradient_explanation,
    has_retain_grad,
    is_autograd_step,
    set_retain_grad,
)
from app.recipe.document import Document
from app.recipe.model import write_step
from app.recipe.results import RecipeRun
from protocol.autograd_nodes import AutogradGraph, GraphNode
from widgets.autograd.derivatives import Derivatives, derivative_inputs
from widgets.autograd.graph_view import node_label, saved_value_text
from widgets.autograd.remote import RemoteAnswer, RemoteAutograd, kernel_target
from widgets.autograd.view import AutogradView
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import lesson_text
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette
from widgets.common.undo import push_edit

_LEAVES_LISTED = 10  # the status line names this many leaves, then counts the rest
_ONES = "ones"  # the gradient choice for torch.ones_like(out)


class AutogradController(FollowsDocument, QObject):
    """Shows the selected tensor's backward graph in ``view`` and turns clicks into steps.

    Parameters
    ----------
    document : Document
        The open document. The controller follows its ``evaluated`` and
        ``selection_changed`` signals; it changes the recipe only through ``undo_stack``.
    undo_stack : QUndoStack or None
        Where recipe edits go (``widgets.common.undo.push_edit``); None applies them directly.
    view : AutogradView
        The view it drives; also its Qt parent.
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None, view: AutogradView):
        super().__init__(view)
        self._document, self._stack, self._view = document, undo_stack, view
        self._name: str | None = None  # the tensor whose graph is drawn
        self._graph = AutogradGraph()
        self._inspected: str | None = None  # the recipe name whose facts are shown
        self._node: str | None = None  # the clicked node's id
        self._refits = True  # fit the next drawing in the view
        self._stale = False  # the document changed while the view was hidden
        self._tracked = False  # the drawn tensor requires grad
        self._needs_gradient = False  # its backward needs a gradient argument
        self._leaves: list[str] = []  # leaves whose .grad holds something (Zero gradients)
        # a tensor a kernel run made: its graph and facts are asked for
        self._remote = RemoteAutograd(document, self._on_remote_answer)
        self._remote_mode = False
        self._derivatives = Derivatives(document, view.jacobian_page)
        self._drawn_before: str | None = None  # the tensor drawn before the one asked for
        view.node_clicked.connect(self._on_view_node_clicked)
        view.saved_toggled.connect(self._on_view_saved_toggled)
        view.retain_grad_toggled.connect(self._on_view_retain_grad_toggled)
        view.backward_clicked.connect(self._on_view_backward)
        view.zero_grads_clicked.connect(self._on_view_zero_grads)
        view.backward_options_changed.connect(self._on_view_backward_options)
        view.jacobian_clicked.connect(self._on_view_jacobian)
        view.hessian_clicked.connect(self._on_view_hessian)
        view.shown.connect(self._on_view_shown)
        self._set_model_connected(True)
        self._refresh()
        translated(view, self._refresh, now=False)  # its texts, in the new language

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

    def inspect(self, node_id: str) -> None:
        """Show node ``node_id``'s facts, as clicking it does, and scroll it into view."""
        self._on_view_node_clicked(node_id)
        self._view.scroll_to_node(node_id)

    # -- wiring -------------------------------------------------------------------------------
    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed))

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
        self._view.select_node(node_id)
        self._show_node(node)
        self._view.show_inspect_page()

    def _on_view_saved_toggled(self, on: bool) -> None:
        self._refits = True
        self._refresh()

    def _on_view_retain_grad_toggled(self, on: bool) -> None:
        name = self._inspected
        if name is None:
            return
        text = (QCoreApplication.translate("AutogradPanel", "Retain grad of {0}") if on
                else QCoreApplication.translate("AutogradPanel", "Stop retaining grad of {0}"))
        push_edit(self._stack, self._document.recipe,
                  lambda r: set_retain_grad(r, name, on), text.format(name))

    def _on_view_backward(self) -> None:
        name = self._name
        if name is None:
            return
        gradient, retain = self._backward_args()
        push_edit(self._stack, self._document.recipe,
                  lambda r: add_backward(r, name, gradient, retain),
                  QCoreApplication.translate("AutogradPanel", "Backward from {0}").format(name))

    def _on_view_zero_grads(self) -> None:
        names = list(self._leaves)
        if names:
            push_edit(self._stack, self._document.recipe,
                      lambda r: add_zero_grads(r, names),
                      QCoreApplication.translate("AutogradPanel", "Zero gradients"))

    def _on_view_backward_options(self, *_: object) -> None:
        self._update_backward_preview()

    def _on_view_jacobian(self) -> None:
        self._derivatives.show("jacobian", self._name)

    def _on_view_hessian(self) -> None:
        self._derivatives.show("hessian", self._name)

    def _on_view_shown(self) -> None:
        if self._stale:
            self._refresh()

    # -- rendering ----------------------------------------------------------------------------
    def _refresh(self) -> None:
        if not self._view.isVisible():
            # Behind another tab: draw when shown. The graph's layout (networkx) is the
            # costly part, and nobody would see it; this keeps it out of start-up.
            self._stale = True
            return
        self._stale = False
        previous = self._name
        self._name = self._target_name()
        target = kernel_target(self._document, self._name)
        self._remote_mode = target is not None
        if target is not None:  # the kernel reads the graph and sends it
            self._name, self._drawn_before = target[1], previous
            self._remote.ask(target[0], target[1], self._inspected, self._view.saved_shown())
            return
        self._remote.forget()  # no tensor selected, or its run is on its way
        self._draw(AutogradGraph(), previous, None)
        self._set_backward(False, 0, [], [])
        self._view.jacobian_page.set_inputs(derivative_inputs(self._document, None))
        self._show_error(self._document.run)

    def _on_remote_answer(self, answer: RemoteAnswer, facts_only: bool) -> None:
        if not self._remote_mode or answer.name != self._name:
            return
        if facts_only:
            self._show_node(self._graph.nodes.get(self._node) if self._node else None)
            return
        self._draw(answer.graph, self._drawn_before,
                   None if answer.error else answer.requires_grad)
        if answer.error:
            self._view.set_status(QCoreApplication.translate(
                "AutogradPanel", "The kernel could not say: {0}").format(answer.error))
        self._drawn_before = self._name
        gradients = [(n, n) for n in answer.gradients]
        self._set_backward(answer.requires_grad, answer.numel, gradients,
                           answer.leaves_with_grad)
        self._view.jacobian_page.set_inputs(derivative_inputs(self._document, self._name))
        self._show_error(self._document.run)

    def _draw(self, graph: AutogradGraph, previous: str | None,
              requires_grad: bool | None) -> None:
        """Draw ``graph`` (of ``self._name``, which requires grad or not; None: no tensor)
        and show the inspected node's facts."""
        self._graph = graph
        if requires_grad is None:
            self._view.set_status(QCoreApplication.translate(
                "AutogradPanel", "Select a step that makes a tensor to see its backward graph."))
        else:
            self._view.set_status(self._status_line(requires_grad))
        # a new run of the same tensor keeps the user's zoom and scroll
        self._view.set_graph(self._graph, fit=self._name != previous or self._refits)
        self._refits = False
        node = self._graph.node_for_name(self._inspected) if self._inspected else None
        if node is None and self._graph.root is not None:
            node = self._graph.nodes[self._graph.root]
        if node is not None:
            self._node = node.id
            self._inspected = node.names[0] if node.names else None
            self._view.select_node(node.id)
            self._show_node(node)
        else:
            self._node, self._inspected = None, None
            self._show_node(None)

    def _target_name(self) -> str | None:
        doc = self._document
        if doc.selected is None or doc.selected >= len(doc.recipe.steps):
            return None
        step = doc.recipe.steps[doc.selected]
        if step.name:
            return step.name
        if step.is_code:  # the first tensor it bound (``widgets.autograd.remote``)
            return None
        reads = step.reads  # out.backward() shows out's graph
        return reads[0] if reads else None

    def _status_line(self, requires_grad: bool) -> str:
        name = self._name
        if not requires_grad:
            return QCoreApplication.translate(
                "AutogradPanel", "{0} does not require grad: autograd records no graph for it."
            ).format(name)
        nodes = len(self._graph.nodes)
        named = self._graph.leaf_tensor_names()
        leaves = ", ".join(named[:_LEAVES_LISTED]) or QCoreApplication.translate("AutogradPanel",
                                                                                  "none named")
        if len(named) > _LEAVES_LISTED:
            leaves += " " + QCoreApplication.translate("AutogradPanel", "and {0} more").format(
                len(named) - _LEAVES_LISTED)
        text = QCoreApplication.translate(
            "AutogradPanel", "Backward graph of {0}: {1} nodes; leaves: {2}.").format(
            name, nodes, leaves)
        if self._graph.truncated:
            text += " " + QCoreApplication.translate(
                "AutogradPanel", "(Only the first {0} nodes are drawn.)").format(nodes)
        return text

    def _show_node(self, node: GraphNode | None) -> None:
        name = self._inspected
        page = self._view.inspect_page
        heading = "" if node is None else (f"<b>{html.escape(node_label(node))}</b><br>"
                                           f"{html.escape(lesson_text(node_explanation(node)))}")
        saved = [f"{v.name}: {saved_value_text(v)}"
                 + (f" = {v.tensor_name}" if v.tensor_name else "")
                 for v in (node.saved if node is not None else ())]
        page.show_heading(heading, saved)
        # the kernel's facts (asked for, for another node's tensor)
        facts = self._remote.facts_for(name, self._view.saved_shown()) \
            if self._remote_mode and node is not None else None
        if facts is not None and name is not None:
            page.show_facts(name, facts.rows(),
                            lesson_text(facts.why_no_grad) if facts.why_no_grad else "",
                            can_retain=not facts.is_leaf and facts.requires_grad,
                            retained=has_retain_grad(self._document.recipe, name))
            page.show_grad(name, facts.grad)
        else:
            page.clear_facts(QCoreApplication.translate(
                "AutogradPanel", "This node is an intermediate result with no name in the "
                "recipe.") if node is not None else "")
            page.show_grad(None, None)

    def _set_backward(self, tracked: bool, numel: int, gradients: list[tuple[str, str]],
                      leaves: list[str]) -> None:
        """The Backward page for a tensor that requires grad (``tracked``) or not, with
        ``numel`` elements; ``gradients``: other tensors of its shape."""
        self._tracked, self._leaves = tracked, leaves
        page = self._view.backward_page
        page.set_actions(tracked, bool(leaves))
        needs = tracked and numel != 1
        self._needs_gradient = needs
        choices: list[tuple[str, str]] = []
        if needs and self._name is not None:
            choices = [(f"torch.ones_like({self._name})", _ONES), *gradients]
        page.set_gradients(needs, choices,
                           lesson_text(gradient_explanation(self._name, numel))
                           if needs and self._name else "")
        self._update_backward_preview()

    def _backward_args(self) -> tuple[Any, bool]:
        page = self._view.backward_page
        gradient = None
        if self._needs_gradient and self._name is not None:
            data = page.gradient_choice()
            gradient = default_gradient(self._name) if data in (None, _ONES) else data
        return gradient, page.retains_graph()

    def _update_backward_preview(self) -> None:
        page = self._view.backward_page
        if self._name is None or not self._tracked:
            page.set_preview(QCoreApplication.translate("AutogradPanel",
                                                        "Select a tensor that requires grad."))
            return
        gradient, retain = self._backward_args()
        page.set_preview(QCoreApplication.translate("AutogradPanel", "Adds the step: {0}").format(
            write_step(backward_step(self._name, gradient, retain))))

    def _show_error(self, run: RecipeRun) -> None:
        failed = [r for r in run.results if r.status == "error" and is_autograd_step(r.step)]
        if not failed:
            self._view.set_error("")
            return
        r = failed[-1]
        where = (QCoreApplication.translate("AutogradPanel", "line {0}").format(r.step.line)
                 if r.step.line else QCoreApplication.translate("AutogradPanel", "step {0}")
                 .format(run.results.index(r) + 1))
        parts = [f"<b>{html.escape(where)}: {html.escape(write_step(r.step))}</b>",
                 f"{html.escape(r.error_type)}: {html.escape(r.error)}"]
        lesson = explain_error(r.error_type, r.error)
        if lesson is not None:
            parts.append(QCoreApplication.translate("AutogradPanel", "<b>Why:</b> {0}").format(
                html.escape(lesson_text(lesson.cause))))
            parts.append(QCoreApplication.translate("AutogradPanel", "<b>Fix:</b> {0}").format(
                html.escape(lesson_text(lesson.fix))))
        self._view.set_error(f"<span style='color:{current_palette().error}'>"
                             + "<br>".join(parts) + "</span>")
