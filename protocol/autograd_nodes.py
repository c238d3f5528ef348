"""A backward graph as plain data: its nodes, edges and the values functions saved.

Qt-free. ``kernel.explain.autograd_graph.build_graph`` fills these records with what
torch's autograd objects hold; ``app.explain.autograd_layout`` places and explains them. Texts meant
for people are ``protocol.i18n.Filled`` texts marked under the ``Lesson`` context.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.i18n import QT_TRANSLATE_NOOP, Filled

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
