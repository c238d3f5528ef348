"""The autograd graph and a tensor's grad facts as plain data, to cross the kernel's pipe.

A recipe that runs in the kernel leaves its tensors, and their ``grad_fn`` chains, there.
The kernel builds the graph and the facts with the same functions the window uses
(``app.explain.autograd_graph``) and sends them as JSON (``app.kernel.queries``, query
``autograd``); the window reads them back into the same records. ``Filled`` texts keep
their template and values, so the window still translates them; ``.grad`` travels as a
small copy (``app.kernel.mirror``; the window holds it as a ``TensorCopy``), or as its
summary when it is large.
"""

from __future__ import annotations

from typing import Any

from app.explain.autograd_facts import GradFacts
from app.explain.autograd_nodes import AutogradGraph, GraphEdge, GraphNode, SavedValue
from app.i18n import Filled
from app.kernel import mirror
from app.tensor_copy import copy_of


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


def facts_data(facts: GradFacts) -> dict:
    rows = facts.rows()  # the .grad row is worked out here, where the tensor is
    return {"name": facts.name, "is_leaf": facts.is_leaf, "requires_grad": facts.requires_grad,
            "retains_grad": facts.retains_grad, "grad_fn": facts.grad_fn,
            "grad": None if facts.grad is None else mirror.encode(facts.grad),
            "grad_row": rows[-1][1], "why_no_grad": text_data(facts.why_no_grad),
            "cut": facts.cut}


class RemoteFacts(GradFacts):
    """``GradFacts`` read back from the kernel: ``.grad`` is a copy, or None when it was
    too large to send (``grad_row`` still says what it is)."""

    grad_row: str = ""

    def rows(self) -> list[tuple[str, str]]:
        return [("is_leaf", str(self.is_leaf)), ("requires_grad", str(self.requires_grad)),
                ("grad_fn", self.grad_fn or "None"), ("retains_grad", str(self.retains_grad)),
                (".grad", self.grad_row)]


def facts_from(data: dict) -> RemoteFacts:
    facts = RemoteFacts(data["name"], bool(data["is_leaf"]), bool(data["requires_grad"]),
                        bool(data["retains_grad"]), data.get("grad_fn"),
                        copy_of(data.get("grad")), text_from(data.get("why_no_grad", "")),
                        data.get("cut", ""))
    object.__setattr__(facts, "grad_row", data.get("grad_row", ""))
    return facts
