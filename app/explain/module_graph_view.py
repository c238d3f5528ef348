"""The Model graph as the window draws it: a module's recorded forward call
(``protocol.module_graph_data``) with some containers collapsed, and where each node goes.

Qt-free. A collapsed container is one node in place of everything called inside it,
its edges those that cross its border (its input and output shapes). The nodes are laid
out left to right by the autograd graph's layering (``layered_grid``): each call one
layer right of the deepest call it took a tensor from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.explain.autograd_layout import layered_grid
from protocol.module_graph_data import ModuleGraph


@dataclass(frozen=True)
class ShownNode:
    """A node drawn: one call, or a collapsed container (``kind`` "container", ``label``
    its path)."""

    id: str
    kind: str
    label: str
    type: str
    scope: str
    error: str = ""


@dataclass(frozen=True)
class ShownEdge:
    source: str
    target: str
    shape: tuple[int, ...]
    error: str = ""  # the call it goes into raised: why (the shapes it could not take)


@dataclass
class ShownGraph:
    """What is drawn: nodes, edges, the place ``(layer, row)`` of each node, and the
    nodes inside each expanded container's box (its own and its sub-containers')."""

    nodes: dict[str, ShownNode] = field(default_factory=dict)
    edges: list[ShownEdge] = field(default_factory=list)
    places: dict[str, tuple[float, float]] = field(default_factory=dict)
    boxes: dict[str, list[str]] = field(default_factory=dict)


def ancestors(scope: str, containers: dict[str, str]) -> list[str]:
    """The containers ``scope`` is in, outermost first, itself last ("" is none)."""
    if not scope:
        return []
    parts = scope.split(".")
    return [p for p in (".".join(parts[:i]) for i in range(1, len(parts) + 1))
            if p in containers]


def shown_graph(graph: ModuleGraph, collapsed: set[str]) -> ShownGraph:
    """``graph`` with the containers in ``collapsed`` drawn as one node each, placed."""
    out = ShownGraph()
    home: dict[int, str] = {}  # node index: the id it is drawn as
    errors: dict[str, str] = {}
    for i, node in enumerate(graph.nodes):
        chain = ancestors(node.scope, graph.containers)
        shut = next((c for c in chain if c in collapsed), None)
        if shut is None:
            home[i] = f"n{i}"
            out.nodes[home[i]] = ShownNode(home[i], node.kind, node.label, node.type,
                                           node.scope, node.error)
            for c in chain:
                out.boxes.setdefault(c, []).append(home[i])
            continue
        home[i] = f"c:{shut}"
        if home[i] not in out.nodes:
            outer = chain[:chain.index(shut)]
            out.nodes[home[i]] = ShownNode(home[i], "container", shut,
                                           graph.containers[shut], outer[-1] if outer else "")
            for c in outer:
                out.boxes.setdefault(c, []).append(home[i])
        if node.error:
            errors.setdefault(home[i], node.error)
    for node_id, error in errors.items():
        n = out.nodes[node_id]
        out.nodes[node_id] = ShownNode(n.id, n.kind, n.label, n.type, n.scope, error)
    seen = set()
    for e in graph.edges:
        source, target = home.get(e.source), home.get(e.target)
        if source is None or target is None or source == target:
            continue
        key = (source, target, e.shape)
        if key not in seen:
            seen.add(key)
            out.edges.append(ShownEdge(source, target, e.shape,
                                       graph.nodes[e.target].error))
    grid = layered_grid(list(out.nodes), [(e.source, e.target) for e in out.edges])
    out.places = {n: (layer, row) for n, (row, layer) in grid.items()}
    return out
