"""A tensor's backward graph as plain data, its layout, and what autograd says about a tensor.

Qt-free. ``build_graph`` walks ``grad_fn`` and ``next_functions`` from a tensor of a
recipe run into ``GraphNode``/``GraphEdge`` records, naming leaf tensors (and the
tensors each ``grad_fn`` produced) with the recipe's own names. ``layered_layout``
places the nodes in layers with networkx. ``grad_facts`` says whether a tensor is a
leaf, whether it requires grad, and why its ``.grad`` is ``None`` when it is.

This module inspects torch's autograd objects (``_saved_*`` attributes and
``AccumulateGrad.variable``); recipes themselves can never reach those.

The texts meant for people (explanations, notes, subtitles) are English
``app.i18n.Filled`` texts marked under the ``Lesson`` context; the views translate them
with ``widgets.common.i18n_text.lesson_text``. Names, shapes and code stay plain ``str``.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any

import torch

from app.expr import Attr, Call, Ref, references, walk
from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.recipe.evaluator import RecipeRun, StepResult

# Node kinds, in the order a legend lists them.
# ``tensor``: the tensor whose graph is drawn (or one cut off from it); ``grad_fn``: a
# backward function; ``accumulate``: an ``AccumulateGrad`` node; ``leaf``: a leaf tensor
# that requires grad; ``saved``: a tensor a ``grad_fn`` saved for backward; ``cut``: a
# tensor the graph was cut from by ``detach()`` or ``torch.no_grad()``.
NODE_KINDS = ("tensor", "grad_fn", "accumulate", "leaf", "saved", "cut")

# Edge kinds: ``next`` (a ``next_functions`` entry, or the tensor to its ``grad_fn``),
# ``variable`` (an ``AccumulateGrad`` to its leaf), ``saved`` and ``cut``.
EDGE_KINDS = ("next", "variable", "saved", "cut")

# What a saved value reads once backward released it.
FREED = "freed"
_FREED_TEXT = Filled(QT_TRANSLATE_NOOP("Lesson", "freed"))

# Most nodes a graph is built with; the rest is left out and ``truncated`` says so.
MAX_NODES = 1000


@dataclass(frozen=True)
class SavedValue:
    """One value a ``grad_fn`` saved for backward (its ``_saved_<name>`` attribute).

    Parameters
    ----------
    name : str
        ``self``, ``other``, ``mat2``, ``self_sym_sizes`` ...
    text : str
        The value in words: ``tensor [2, 2]``, ``(2, 3)``, ``2.0``, or ``freed`` once a
        backward without ``retain_graph=True`` released it.
    shape : tuple of int or None
        The shape, for a tensor.
    tensor_name : str or None
        The recipe's name for a saved tensor, when it is one of the recipe's tensors.
    """

    name: str
    text: str
    shape: tuple[int, ...] | None = None
    tensor_name: str | None = None

    @property
    def is_tensor(self) -> bool:
        return self.shape is not None

    @property
    def freed(self) -> bool:
        """Released by a backward without ``retain_graph=True`` (only tensors are)."""
        return self.text == FREED


@dataclass(frozen=True)
class GraphNode:
    """One node of a backward graph.

    Parameters
    ----------
    id : str
        Unique within its graph; ``n0`` is the root, then depth-first order.
    label : str
        ``AddBackward0``, ``AccumulateGrad``, or a tensor's recipe name.
    kind : str
        One of ``NODE_KINDS``.
    names : tuple of str
        Recipe names of the tensor this node stands for: the leaf, the drawn tensor, or the
        tensors a ``grad_fn`` produced.
    shape : tuple of int or None
        The tensor's shape, for tensor-like nodes.
    saved : tuple of SavedValue
        What a ``grad_fn`` saved for backward.
    note : str
        A short second line: ``cut by detach()``, ``requires_grad=False`` ...
    """

    id: str
    label: str
    kind: str
    names: tuple[str, ...] = ()
    shape: tuple[int, ...] | None = None
    saved: tuple[SavedValue, ...] = ()
    note: str = ""

    @property
    def subtitle_parts(self) -> tuple[str, ...]:
        """The pieces of ``subtitle``; the ones in words are ``Filled`` texts to translate."""
        parts: list[str] = []
        if self.kind == "grad_fn" and self.names:
            parts.append(", ".join(f"{n}.grad_fn" for n in self.names[:2]))
        if self.kind == "accumulate" and self.names:
            parts.append(Filled(QT_TRANSLATE_NOOP("Lesson", "into {0}.grad"), self.names[0]))
        if self.shape is not None:
            parts.append(shape_text(self.shape))
        if self.note:
            parts.append(self.note)
        return tuple(parts)

    @property
    def subtitle(self) -> str:
        """The second line a drawing shows under the label (English)."""
        return " · ".join(self.subtitle_parts)


@dataclass(frozen=True)
class GraphEdge:
    """An edge, pointing the way backward walks: from the output towards the leaves.

    ``count`` is above 1 when a function uses the same input more than once (``x * x``).
    """

    source: str
    target: str
    kind: str = "next"
    count: int = 1


@dataclass
class AutogradGraph:
    """A tensor's backward graph.

    Parameters
    ----------
    nodes : dict of str to GraphNode
        In depth-first order from the root.
    edges : list of GraphEdge
    root : str or None
        The drawn tensor's node; None for an empty graph.
    leaf_names : dict of str to str
        Each ``AccumulateGrad`` node's id mapped to the recipe name of its leaf tensor.
    truncated : bool
        More than ``MAX_NODES`` nodes: the rest were left out.
    """

    nodes: dict[str, GraphNode] = field(default_factory=dict)
    edges: list[GraphEdge] = field(default_factory=list)
    root: str | None = None
    leaf_names: dict[str, str] = field(default_factory=dict)
    truncated: bool = False

    def of_kind(self, kind: str) -> list[GraphNode]:
        return [n for n in self.nodes.values() if n.kind == kind]

    def node_for_name(self, name: str) -> GraphNode | None:
        """The node standing for recipe tensor ``name``: its leaf, tensor or grad_fn node."""
        for kind in ("tensor", "leaf", "grad_fn", "cut"):
            for node in self.nodes.values():
                if node.kind == kind and name in node.names:
                    return node
        return None

    def leaf_tensor_names(self) -> list[str]:
        """Recipe names of the leaves the graph reaches, in drawing order."""
        return [name for node in self.of_kind("leaf") for name in node.names[:1]]

    def children(self, node_id: str) -> list[str]:
        return [e.target for e in self.edges if e.source == node_id]


def shape_text(shape: tuple[int, ...]) -> str:
    """``[2, 3]``; ``scalar`` (a ``Filled`` text, to translate) for a 0-D shape."""
    if not shape:
        return Filled(QT_TRANSLATE_NOOP("Lesson", "scalar"))
    return "[" + ", ".join(str(s) for s in shape) + "]"


# -- building ---------------------------------------------------------------------------------
def build_graph(tensor: Any, run: RecipeRun | None = None, name: str | None = None, *,
                saved: bool = False, max_nodes: int = MAX_NODES) -> AutogradGraph:
    """The backward graph of ``tensor``, with the recipe's names on its tensors.

    Parameters
    ----------
    tensor : torch.Tensor
        The tensor to start from (any other value gives an empty graph).
    run : RecipeRun, optional
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

    def __init__(self, run: RecipeRun | None):
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


# -- layout -----------------------------------------------------------------------------------
def layered_layout(graph: AutogradGraph) -> dict[str, tuple[float, float]]:
    """Grid positions ``(column, layer)`` for every node: layer 0 holds the root.

    networkx does the work: ``topological_generations`` puts every node one layer below
    the deepest node pointing at it (the longest-path layering of Sugiyama's method),
    and ``multipartite_layout`` spaces each layer evenly, centred. Within a layer, nodes
    keep the depth-first order of ``build_graph``; for a tree (most backward graphs, as
    long as no tensor is used twice) that order has no edge crossings. Columns come back
    centred on 0, one unit apart, so a view multiplies by its own node spacing.
    """
    if not graph.nodes:
        return {}
    import networkx as nx  # here, not at the top: it costs a second of start-up

    g = nx.DiGraph()
    g.add_nodes_from(graph.nodes)
    g.add_edges_from((e.source, e.target) for e in graph.edges)
    order = {node_id: i for i, node_id in enumerate(graph.nodes)}
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
    return {n: (round(float(pos[n][0]) / unit, 6), float(layer_of[n])) for n in graph.nodes}


# -- facts ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GradFacts:
    """What autograd knows about one tensor of a recipe.

    Parameters
    ----------
    name : str
    is_leaf, requires_grad, retains_grad : bool
    grad_fn : str or None
        The class name of its backward function, ``AddBackward0``.
    grad : torch.Tensor or None
        ``.grad``, read only where torch fills it in (leaves, and tensors that retain grad).
    why_no_grad : str
        When ``grad`` is None, why, in words a student can act on (a ``Filled`` text, to
        translate); else empty.
    cut : str
        ``detach()``, ``torch.no_grad()``, ``.data`` or ``detach_()`` when that made this
        tensor from one that requires grad; else empty.
    """

    name: str
    is_leaf: bool
    requires_grad: bool
    retains_grad: bool
    grad_fn: str | None
    grad: torch.Tensor | None
    why_no_grad: str
    cut: str = ""

    def rows(self) -> list[tuple[str, str]]:
        """``(label, text)`` pairs for display."""
        grad = "None" if self.grad is None else grad_text(self.grad)
        return [("is_leaf", str(self.is_leaf)), ("requires_grad", str(self.requires_grad)),
                ("grad_fn", self.grad_fn or "None"), ("retains_grad", str(self.retains_grad)),
                (".grad", grad)]


def grad_text(t: torch.Tensor, most: int = 8) -> str:
    """``tensor([2.])`` as ``print`` shows it, on one line, for up to ``most`` elements;
    else the shape."""
    if t.numel() > most:
        return f"tensor {shape_text(tuple(t.shape))}"
    return re.sub(r"\[ +", "[", " ".join(repr(t.detach()).split()))


def read_grad(t: torch.Tensor) -> torch.Tensor | None:
    """``t.grad`` without torch's warning about non-leaves (whose ``.grad`` stays None)."""
    if not (t.is_leaf or t.retains_grad):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return t.grad


def grad_facts(t: torch.Tensor, name: str, run: RecipeRun | None = None) -> GradFacts:
    """``is_leaf``, ``requires_grad``, ``grad_fn``, ``.grad`` and why ``.grad`` is None.

    Parameters
    ----------
    t : torch.Tensor
    name : str
        Its recipe name, used in the explanations.
    run : RecipeRun, optional
        The run it comes from, to tell whether backward ran and where the graph was cut.
    """
    grad = read_grad(t)
    cut = cut_of(name, run) if run is not None else None
    fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    why = "" if grad is not None else _why_no_grad(t, name, run, cut)
    return GradFacts(name, t.is_leaf, t.requires_grad, t.retains_grad, fn, grad, why,
                     cut[0] if cut else "")


def _why_no_grad(t: torch.Tensor, name: str, run: RecipeRun | None,
                 cut: tuple[str, list[str]] | None) -> str:
    if not t.requires_grad:
        if cut is not None:
            how, sources = cut
            src = ", ".join(sources)
            if how == "torch.no_grad()":
                return Filled(QT_TRANSLATE_NOOP(
                    "Lesson", "{name} was computed inside `with torch.no_grad():` from {src}, "
                    "so autograd did not record it: the graph is cut here. {name} does not "
                    "require grad and no gradient reaches it."), name=name, src=src)
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "{name} comes from {src} through {how}: it holds the same values but "
                "is cut off from the graph, so it does not require grad and no gradient flows "
                "through it. To make it a new leaf, call {name}.requires_grad_()."),
                name=name, src=src, how=how)
        if not t.is_floating_point() and not t.is_complex():
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "{name} holds {dtype} values; only floating point tensors can "
                "require grad, so autograd ignores it."),
                name=name, dtype=str(t.dtype).removeprefix("torch."))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{name} does not require grad: autograd treats it as a constant and it "
            "is not part of any graph. Create it with requires_grad=True, or call "
            "{name}.requires_grad_(), to get a gradient."), name=name)
    if not t.is_leaf and not t.retains_grad:
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{name} is not a leaf (it was computed by {fn}). During backward its "
            "gradient is passed on to the leaves and then thrown away. Call "
            "{name}.retain_grad() before backward to keep it."),
            name=name, fn=type(t.grad_fn).__name__)
    ran = backward_runs(run) if run is not None else []
    if not ran:
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "backward() has not run yet: .grad is filled in by a step such as "
            "out.backward(), and {name} is waiting for one."), name=name)
    reaching = [src for src, value in ran if isinstance(value, torch.Tensor)
                and reaches(value, t)]
    if not reaching:
        sources = ", ".join(dict.fromkeys(src for src, _ in ran))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "backward ran from {sources}, but that graph does not reach {name}, so "
            "{name} got no gradient. Call backward on a result computed from {name}."),
            sources=sources, name=name)
    return Filled(QT_TRANSLATE_NOOP("Lesson", "{name}.grad is None."), name=name)


def backward_runs(run: RecipeRun) -> list[tuple[str, Any]]:
    """``(name, tensor)`` for every ``name.backward(...)`` step that ran without error."""
    out = []
    for r in run.results:
        e = r.step.expr
        if r.ok and isinstance(e, Call) and e.op == "Tensor.backward" and e.args \
                and isinstance(e.args[0], Ref) and e.args[0].name in run.namespace:
            out.append((e.args[0].name, run.namespace[e.args[0].name]))
    return out


def reaches(output: torch.Tensor, target: torch.Tensor, limit: int = 100_000) -> bool:
    """Whether backward from ``output`` would reach ``target`` (a leaf, or its grad_fn)."""
    if output is target:
        return True
    want = target.grad_fn
    seen: set[int] = set()
    stack = [output.grad_fn] if output.grad_fn is not None else []
    while stack and len(seen) < limit:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        if fn is want or getattr(fn, "variable", None) is target:
            return True
        stack.extend(f for f, _ in fn.next_functions if f is not None)
    return False


def cut_of(name: str, run: RecipeRun | None) -> tuple[str, list[str]] | None:
    """How ``name`` was cut from a graph, and the tensors it was cut from, or None.

    ``detach()``, ``.data`` and ``torch.no_grad()`` in the step that made it, or a later
    ``name.detach_()``, count when what they read requires grad.
    """
    if run is None:
        return None
    result = run.result_for(name)
    if result is None or not result.ok:
        return None
    for r in run.results:
        e = r.step.expr
        if r.ok and isinstance(e, Call) and e.op == "Tensor.detach_" and e.args == (Ref(name),):
            return "detach_()", _graded(_reads(result), run) or [name]
    for node in walk(result.step.expr):
        if isinstance(node, Call) and node.op in _DETACH and node.args:
            sources = _graded(references(node.args[0]), run)
            if sources:
                return "detach()", sources
        if isinstance(node, Attr) and node.name == "data":
            sources = _graded(references(node.value), run)
            if sources:
                return ".data", sources
    if result.step.block == "no_grad":
        sources = _graded(_reads(result), run)
        if sources:
            return "torch.no_grad()", sources
    return None


_DETACH = ("Tensor.detach", "torch.detach", "Tensor.detach_")


def _reads(result: StepResult) -> list[str]:
    return references(result.step.expr)


def _graded(names: list[str], run: RecipeRun) -> list[str]:
    """Those of ``names`` that are tensors requiring grad."""
    return [n for n in names
            if isinstance(run.namespace.get(n), torch.Tensor) and run.namespace[n].requires_grad]


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
