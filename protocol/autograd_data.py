"""The autograd graph as plain data, to cross the kernel's pipe.

A recipe that runs in the kernel leaves its tensors, and their ``grad_fn`` chains, there.
The kernel builds the graph (``kernel.explain.autograd_graph``) and sends it as JSON (query
``autograd``); the window reads it back into the same records (``protocol.autograd_nodes``).
``Filled`` texts keep their template and values, so the window still translates them. A
tensor's grad facts cross too: written by ``kernel.explain.autograd_facts.facts_data``,
read by ``app.explain.autograd_remote.facts_from``.
"""

from __future__ import annotations

from typing import Any

from protocol.autograd_nodes import AutogradGraph, GraphEdge, GraphNode, SavedValue
from protocol.i18n import Filled


def text_data(value: Any) -> Any:
    """A ``Filled`` text (and the ``Filled`` values inside it) as plain data."""
    if isinstance(value, Filled):
        return {"filled": value.template, "args": [text_data(a) for a in value.args],
                "kwargs": {k: text_data(v) for k, v in value.kwargs.items()}}
    return value


def text_from(data: Any) -> Any:
    if isinstance(data, dict) and "filled" in data:
        return Filled(str(data["filled"]), *(text_from(a) for a in data.get("args", ())),
                      **{k: text_from(v) for k, v in (data.get("kwargs") or {}).items()})
    return data


def _shape(value: Any) -> tuple[int, ...] | None:
    return None if value is None else tuple(int(s) for s in value)


def graph_data(graph: AutogradGraph) -> dict:
    nodes = [{"id": n.id, "label": text_data(n.label), "kind": n.kind, "names": list(n.names),
              "shape": None if n.shape is None else list(n.shape), "note": text_data(n.note),
              "saved": [{"name": s.name, "text": text_data(s.text),
                         "shape": None if s.shape is None else list(s.shape),
                         "tensor_name": s.tensor_name} for s in n.saved]}
             for n in graph.nodes.values()]
    edges = [[e.source, e.target, e.kind, e.count] for e in graph.edges]
    return {"nodes": nodes, "edges": edges, "root": graph.root,
            "leaf_names": dict(graph.leaf_names), "truncated": graph.truncated}


def graph_from(data: dict) -> AutogradGraph:
    graph = AutogradGraph(root=data.get("root"), leaf_names=dict(data.get("leaf_names", {})),
                          truncated=bool(data.get("truncated")))
    for n in data.get("nodes", ()):
        saved = tuple(SavedValue(s["name"], text_from(s["text"]), _shape(s.get("shape")),
                                 s.get("tensor_name")) for s in n.get("saved", ()))
        graph.nodes[n["id"]] = GraphNode(n["id"], text_from(n["label"]), n["kind"],
                                         tuple(n.get("names", ())), _shape(n.get("shape")),
                                         saved, text_from(n.get("note", "")))
    graph.edges = [GraphEdge(s, t, k, int(c)) for s, t, k, c in data.get("edges", ())]
    return graph
