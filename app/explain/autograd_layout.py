"""Where each node of a backward graph goes, and what each node is, in words.

Qt-free. ``layered_layout`` places the nodes in layers with networkx (``layered_grid``,
any DAG's: the Model graph's too); ``node_explanation`` is the sentence a view shows for
a clicked node (an English ``protocol.i18n.Filled`` text under the ``Lesson`` context).
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from protocol.autograd_nodes import AutogradGraph, GraphNode
from protocol.i18n import QT_TRANSLATE_NOOP, Filled


def layered_layout(graph: AutogradGraph) -> dict[str, tuple[float, float]]:
    """Grid positions ``(column, layer)`` for every node: layer 0 holds the root
    (``layered_grid`` of its nodes and edges)."""
    return layered_grid(list(graph.nodes), [(e.source, e.target) for e in graph.edges])


def layered_grid(nodes: list[Hashable], edges: list[tuple[Hashable, Hashable]]
                 ) -> dict[Hashable, tuple[float, float]]:
    """Grid positions ``(column, layer)`` for the nodes of a directed acyclic graph:
    layer 0 holds those no edge points at, and every edge goes down.

    networkx does the work: ``topological_generations`` puts every node one layer below
    the deepest node pointing at it (the longest-path layering of Sugiyama's method),
    and ``multipartite_layout`` spaces each layer evenly, centred. Within a layer, nodes
    keep their order in ``nodes`` (``build_graph``'s depth-first order); for a tree
    (most backward graphs, as long as no tensor is used twice) that order has no edge
    crossings. Columns come back centred on 0, one unit apart, so a view multiplies by
    its own node spacing.
    """
    if not nodes:
        return {}
    import networkx as nx  # here, not at the top: it costs a second of start-up

    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    order = {node_id: i for i, node_id in enumerate(nodes)}
    layers = {i: sorted(layer, key=order.__getitem__)
              for i, layer in enumerate(nx.topological_generations(g))}
    pos = nx.multipartite_layout(g, subset_key=layers, align="horizontal")
    # multipartite_layout rescales the whole grid into [-1, 1]; undo the one scale factor
    # so a view can choose pixel spacing
    layer_of = {node_id: i for i, layer in layers.items() for node_id in layer}
    first = layers[0][0]
    unit = 0.0
    if len(layers) > 1:
        unit = abs(pos[layers[1][0]][1] - pos[first][1])
    else:
        unit = abs(pos[layers[0][-1]][0] - pos[first][0]) / max(len(layers[0]) - 1, 1)
    unit = unit or 1.0
    return {n: (round(float(pos[n][0]) / unit, 6), float(layer_of[n])) for n in nodes}


def node_explanation(node: GraphNode) -> str:
    """What a node of the drawing is, in a sentence or two (a ``Filled`` text, to translate)."""
    if node.kind == "grad_fn":
        op = re.sub(r"Backward\d*$", "", node.label) or node.label
        if node.names:
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "{label} is the backward of {op}: given the gradient of its output, "
                "it computes the gradients of its inputs and passes them along its edges. "
                "It is {names}.grad_fn."),
                label=node.label, op=op, names=", ".join(node.names))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{label} is the backward of {op}: given the gradient of its output, it "
            "computes the gradients of its inputs and passes them along its edges."),
            label=node.label, op=op)
    if node.kind == "accumulate":
        if not node.names:  # a leaf the recipe has no name for (a module's parameter)
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "AccumulateGrad is where backward ends for its leaf tensor: it ADDS "
                "the gradient arriving here into its leaf tensor.grad, so a second backward "
                "adds again."))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "AccumulateGrad is where backward ends for {leaf}: it ADDS the gradient "
            "arriving here into {leaf}.grad, so a second backward adds again."),
            leaf=node.names[0])
    if node.kind == "leaf":
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "A leaf: a tensor created with requires_grad=True rather than computed. "
            "Leaves are where gradients are stored."))
    if node.kind == "saved":
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "A tensor {label} saved during the forward pass because the backward "
            "needs its values. backward() frees it unless retain_graph=True."),
            label=node.label)
    if node.kind == "cut":
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "The tensor above was made from {label}, but detach() or torch.no_grad() "
            "cut the graph there: backward stops above, and no gradient reaches {label} or "
            "anything it was computed from."), label=node.label)
    return Filled(QT_TRANSLATE_NOOP(
        "Lesson", "The tensor whose graph is drawn; its grad_fn is where backward starts."))
