"""A tensor's backward graph, built from torch's autograd objects.

Qt-free. ``build_graph`` walks ``grad_fn`` and ``next_functions`` from a tensor of a
recipe run into ``GraphNode``/``GraphEdge`` records (``protocol.autograd_nodes``),
naming leaf tensors (and the tensors each ``grad_fn`` produced) with the recipe's own
names (the window lays them out: ``app.explain.autograd_layout``). ``grad_facts``
(``kernel.explain.autograd_facts``) says whether a tensor is a leaf, whether it requires
grad, and why its ``.grad`` is ``None`` when it is. This module is where the two are
imported from.

This module inspects torch's autograd objects (``_saved_*`` attributes and
``AccumulateGrad.variable``); recipes themselves can never reach those.

The texts meant for people (explanations, notes, subtitles) are English
``protocol.i18n.Filled`` texts marked under the ``Lesson`` context; the views translate them
with ``widgets.common.i18n_text.lesson_text``. Names, shapes and code stay plain ``str``.
"""

from __future__ import annotations

from typing import Any

import torch

from kernel.explain.autograd_facts import (
    GradFacts,
    backward_runs,
    cut_of,
    grad_facts,
    grad_text,
    reaches,
    read_grad,
)
from kernel.explain.autograd_source import SourceRun
from protocol.autograd_nodes import (
    EDGE_KINDS,
    FREED,
    NODE_KINDS,
    AutogradGraph,
    GraphEdge,
    GraphNode,
    SavedValue,
    shape_text,
)
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

__all__ = [
    "EDGE_KINDS", "FREED", "MAX_NODES", "NODE_KINDS", "AutogradGraph", "GradFacts", "GraphEdge",
    "GraphNode", "SavedValue", "backward_runs", "build_graph", "cut_of", "grad_facts",
    "grad_text", "reaches", "read_grad", "saved_values", "shape_text",
]

# ``FREED`` in words, to translate
_FREED_TEXT = Filled(QT_TRANSLATE_NOOP("Lesson", "freed"))

# Most nodes a graph is built with; the rest is left out and ``truncated`` says so.
MAX_NODES = 1000


# -- building ---------------------------------------------------------------------------------
def build_graph(tensor: Any, run: SourceRun | None = None, name: str | None = None, *,
                saved: bool = False, max_nodes: int = MAX_NODES) -> AutogradGraph:
    """The backward graph of ``tensor``, with the recipe's names on its tensors.

    Parameters
    ----------
    tensor : torch.Tensor
        The tensor to start from (any other value gives an empty graph).
    run : SourceRun, optional
        The run ``tensor`` comes from: its namespace names the leaves (matched by
        identity, never by value), and its steps tell where ``detach()`` or
        ``torch.no_grad()`` cut the graph.
    name : str, optional
        The recipe name of ``tensor``.
    saved : bool
        Add a node for every tensor a ``grad_fn`` saved for backward.
    max_nodes : int
        Stop adding nodes after this many.
    """
    graph = AutogradGraph()
    if not isinstance(tensor, torch.Tensor):
        return graph
    namer = _Namer(run)
    names = tuple(dict.fromkeys(([name] if name else []) + namer.tensor_names(tensor)))
    label = names[0] if names else Filled(QT_TRANSLATE_NOOP("Lesson", "tensor"))
    builder = _Builder(graph, namer, saved, max_nodes)
    if tensor.grad_fn is None:
        kind, note = ("leaf", "") if tensor.requires_grad else ("tensor", "requires_grad=False")
        graph.root = builder.add(GraphNode("", label, kind, names, tuple(tensor.shape),
                                           note=note))
        if names:  # a leaf, or a tensor without grad, may have been cut from a graph
            builder.add_cut(graph.root, names[0])
    else:
        graph.root = builder.add(GraphNode("", label, "tensor", names, tuple(tensor.shape)))
        first = builder.walk(tensor.grad_fn)
        if first is not None:
            builder.edge(graph.root, first, "next")
    builder.finish()
    return graph


class _Namer:
    """Recipe names of tensors and of the ``grad_fn`` that produced them, by identity."""

    def __init__(self, run: SourceRun | None):
        self.run = run
        self._by_tensor: dict[int, list[str]] = {}
        self._by_function: dict[int, list[str]] = {}
        self._alive: list[Any] = []  # keeps ids valid while the names are used
        for n, value in (run.namespace.items() if run is not None else ()):
            if isinstance(value, torch.Tensor):
                self._alive.append(value)
                self._by_tensor.setdefault(id(value), []).append(n)
                if value.grad_fn is not None:
                    self._alive.append(value.grad_fn)
                    self._by_function.setdefault(id(value.grad_fn), []).append(n)

    def tensor_names(self, t: Any) -> list[str]:
        return list(self._by_tensor.get(id(t), ()))

    def saved_tensor_names(self, t: torch.Tensor) -> list[str]:
        """Names of ``t``, or of the recipe tensor it unpacks from.

        A function's saved output comes back as a new tensor object over the same memory,
        so same memory, shape, strides and dtype name it too.
        """
        names = self.tensor_names(t)
        if names or self.run is None or t.layout != torch.strided:
            return names
        key = (t.data_ptr(), tuple(t.shape), t.stride(), t.dtype)
        for n, value in self.run.namespace.items():
            if isinstance(value, torch.Tensor) and value.layout == torch.strided \
                    and (value.data_ptr(), tuple(value.shape), value.stride(),
                         value.dtype) == key:
                return [n]
        return []

    def function_names(self, fn: Any) -> list[str]:
        return list(self._by_function.get(id(fn), ()))


class _Builder:
    def __init__(self, graph: AutogradGraph, namer: _Namer, saved: bool, max_nodes: int):
        self.graph, self.namer, self.saved, self.max_nodes = graph, namer, saved, max_nodes
        self.ids: dict[int, str] = {}
        self.keep: list[Any] = []  # functions seen, alive while their ids are keys
        self.edge_counts: dict[tuple[str, str, str], int] = {}

    def add(self, node: GraphNode) -> str:
        node_id = f"n{len(self.graph.nodes)}"
        self.graph.nodes[node_id] = GraphNode(node_id, node.label, node.kind, node.names,
                                              node.shape, node.saved, node.note)
        return node_id

    def full(self) -> bool:
        if len(self.graph.nodes) >= self.max_nodes:
            self.graph.truncated = True
            return True
        return False

    def edge(self, source: str, target: str, kind: str) -> None:
        key = (source, target, kind)
        self.edge_counts[key] = self.edge_counts.get(key, 0) + 1

    def finish(self) -> None:
        self.graph.edges = [GraphEdge(s, t, k, n) for (s, t, k), n in self.edge_counts.items()]

    def function(self, fn: Any) -> str | None:
        """The node of autograd function ``fn``, added (with its leaf) on first sight."""
        if id(fn) in self.ids:
            return self.ids[id(fn)]
        if self.full():
            return None
        self.keep.append(fn)
        label = type(fn).__name__
        variable = getattr(fn, "variable", None) if label == "AccumulateGrad" else None
        if isinstance(variable, torch.Tensor):
            leaf_names = tuple(self.namer.tensor_names(variable))
            node_id = self.add(GraphNode("", label, "accumulate", leaf_names))
            self.ids[id(fn)] = node_id
            if leaf_names:
                self.graph.leaf_names[node_id] = leaf_names[0]
            if not self.full():
                leaf = self.add(GraphNode("", leaf_names[0] if leaf_names else
                                          Filled(QT_TRANSLATE_NOOP("Lesson", "leaf")), "leaf",
                                          leaf_names, tuple(variable.shape)))
                self.edge(node_id, leaf, "variable")
                if leaf_names:
                    self.add_cut(leaf, leaf_names[0])
            return node_id
        values = saved_values(fn, self.namer)
        node_id = self.add(GraphNode("", label, "grad_fn",
                                     tuple(self.namer.function_names(fn)), saved=values))
        self.ids[id(fn)] = node_id
        if self.saved:
            for v in values:
                if (v.is_tensor or v.freed) and not self.full():
                    note = _FREED_TEXT if v.freed else \
                        f"= {v.tensor_name}" if v.tensor_name else ""
                    s = self.add(GraphNode("", v.name, "saved", (), v.shape, note=note))
                    self.edge(node_id, s, "saved")
        return node_id

    def walk(self, fn: Any) -> str | None:
        """Add ``fn`` and everything below it, depth first, so node order follows branches."""
        top = self.function(fn)
        if top is None:
            return None
        frames = [(top, iter(_next_functions(fn)))]
        while frames:
            source, children = frames[-1]
            child = next(children, None)
            if child is None:
                frames.pop()
                continue
            known = id(child) in self.ids
            child_id = self.function(child)
            if child_id is None:
                continue
            self.edge(source, child_id, "next")
            if not known:
                frames.append((child_id, iter(_next_functions(child))))
        return top

    def add_cut(self, node_id: str, name: str) -> None:
        """Show the tensors ``name`` was cut from, when detach or no_grad made it."""
        cut = cut_of(name, self.namer.run) if self.namer.run is not None else None
        if cut is None:
            return
        how, sources = cut
        node = self.graph.nodes[node_id]
        self.graph.nodes[node_id] = GraphNode(node.id, node.label, node.kind, node.names,
                                              node.shape, node.saved,
                                              _join(node.note, Filled(QT_TRANSLATE_NOOP(
                                                  "Lesson", "cut by {0}"), how)))
        for source in sources:
            if self.full():
                return
            value = self.namer.run.namespace.get(source) if self.namer.run else None
            shape = tuple(value.shape) if isinstance(value, torch.Tensor) else None
            s = self.add(GraphNode("", source, "cut", (source,), shape,
                                   note=Filled(QT_TRANSLATE_NOOP("Lesson",
                                                                 "not in this graph"))))
            self.edge(node_id, s, "cut")


def _next_functions(fn: Any) -> list[Any]:
    return [f for f, _ in getattr(fn, "next_functions", ()) if f is not None]


def _join(a: str, b: str) -> str:
    return Filled(QT_TRANSLATE_NOOP("Lesson", "{0} · {1}"), a, b) if a else b


def saved_values(fn: Any, namer: _Namer | None = None) -> tuple[SavedValue, ...]:
    """What autograd function ``fn`` saved for backward, read from its ``_saved_*`` attributes."""
    out: list[SavedValue] = []
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        short = attr.removeprefix("_saved_")
        try:
            value = getattr(fn, attr)
        except RuntimeError:  # released by a backward without retain_graph=True
            out.append(SavedValue(short, _FREED_TEXT))
            continue
        if isinstance(value, torch.Tensor):
            names = namer.saved_tensor_names(value) if namer is not None else []
            out.append(SavedValue(short, Filled(QT_TRANSLATE_NOOP("Lesson", "tensor {0}"),
                                                shape_text(tuple(value.shape))),
                                  tuple(value.shape), names[0] if names else None))
        else:
            out.append(SavedValue(short, _short_repr(value)))
    return tuple(out)


def _short_repr(value: Any, limit: int = 60) -> str:
    text = repr(tuple(value)) if isinstance(value, torch.Size) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
