"""One forward call of an ``nn.Module`` as a dataflow graph, as plain data.

The kernel records it while the recipe's own forward call runs (``kernel.module_graph``)
and sends it as JSON (query ``module_graph``); the window draws it left to right
(``widgets.model.graph``). Nodes are calls, in the order they ran: the module's inputs
(``input``), each leaf module called (``module``: its path, ``conv1``, and class), each
torch function or tensor method called between them (``function``: ``relu``,
``view``, ``+``), and its output (``output``). An edge is a tensor one call made and a
later one took, with its shape. ``scope`` is the path of the container whose ``forward``
made the call ("" for the module itself; ``features`` for a call inside
``self.features``), from which the window draws containers as boxes.

A forward that raised has the call that raised marked (``error``, the exception's text):
the edges into it carry the shapes it could not take.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most calls one graph records; past them, the forward runs on unrecorded and the
#: graph says so (``ModuleGraph.truncated``).
MAX_GRAPH_NODES = 500

Shape = tuple[int, ...]

#: The kinds of node.
NODE_KINDS = ("input", "module", "function", "output")


@dataclass(frozen=True)
class FlowNode:
    """One call: ``label`` is a module's path (``features.0``) or a function's short name
    (``relu``, ``+``), or the input's parameter name; ``type`` its class, or the function's
    full name (``torch.nn.functional.relu``)."""

    kind: str
    label: str
    type: str
    scope: str = ""
    error: str = ""  # this call raised: the exception, in words


@dataclass(frozen=True)
class FlowEdge:
    """A tensor made by node ``source`` and taken by node ``target`` (indices)."""

    source: int
    target: int
    shape: Shape


@dataclass
class ModuleGraph:
    """The recorded call: its nodes in call order, its edges, and the containers whose
    ``forward`` ran (path: class), outermost first."""

    type: str
    nodes: list[FlowNode] = field(default_factory=list)
    edges: list[FlowEdge] = field(default_factory=list)
    containers: dict[str, str] = field(default_factory=dict)
    truncated: bool = False
    error: str = ""  # the forward raised: why (its failing call, if torch's, is marked)


def shape_text(shape: Shape) -> str:
    """A shape as python prints a tuple of ints: ``(1, 6, 28, 28)``, ``(5,)``, ``()``."""
    return str(tuple(shape))


def graph_data(graph: ModuleGraph) -> dict:
    return {"type": graph.type,
            "nodes": [[n.kind, n.label, n.type, n.scope, n.error] for n in graph.nodes],
            "edges": [[e.source, e.target, [int(d) for d in e.shape]] for e in graph.edges],
            "containers": [[p, t] for p, t in graph.containers.items()],
            "truncated": graph.truncated, "error": graph.error}


def graph_from(data: dict) -> ModuleGraph:
    return ModuleGraph(
        str(data["type"]),
        [FlowNode(str(k), str(label), str(t), str(s), str(e))
         for k, label, t, s, e in data["nodes"]],
        [FlowEdge(int(a), int(b), tuple(int(d) for d in s)) for a, b, s in data["edges"]],
        {str(p): str(t) for p, t in data["containers"]},
        bool(data["truncated"]), str(data["error"]))
