"""An ``nn.Module`` as plain data, to cross the kernel's pipe.

The kernel walks a module the recipe made (``kernel.modules``) and sends its tree as
JSON (query ``module``); the window reads it back into these records. Each node is one
module, in ``print(net)`` order: its class, its own parameters and buffers (not its
children's), its children, and the tensor shapes of its last call (``None`` until it is
called). The tree's totals follow torchinfo's: a parameter shared by two modules is
counted once; trainable means ``requires_grad``.

``tensor-lab run --json`` writes each tree in the shorter form the issue gives it
(``headless``): shapes by name, children by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most modules one tree describes; past them, a node's children are left out and
#: the tree says so (``ModuleTree.truncated``).
MAX_MODULES = 5000
#: The most tensor shapes kept of one call's inputs or of its output.
MAX_CALL_SHAPES = 64

Shape = tuple[int, ...]


@dataclass(frozen=True)
class TensorRow:
    """A parameter or a buffer of one module, by its local name (``weight``)."""

    name: str
    shape: Shape | None  # None: a lazy module's parameter, not made yet
    dtype: str
    requires_grad: bool
    numel: int


@dataclass(frozen=True)
class CallShapes:
    """The tensor shapes of a module's last call: its positional inputs and its output,
    tuples and lists flattened in order (anything else left out)."""

    inputs: tuple[Shape, ...]
    outputs: tuple[Shape, ...]


@dataclass
class ModuleNode:
    """One module of the tree: ``name`` is its local name in its parent ("" at the root)."""

    name: str
    type: str
    parameters: list[TensorRow] = field(default_factory=list)
    buffers: list[TensorRow] = field(default_factory=list)
    children: list[ModuleNode] = field(default_factory=list)
    last_call: CallShapes | None = None
    #: Elements of its parameters and its submodules', each parameter once, as
    #: ``sum(p.numel() for p in m.parameters())`` counts them; and of the trainable ones.
    count: int = 0
    trainable: int = 0


@dataclass
class ModuleTree:
    """A module's tree and its totals (elements, shared parameters counted once)."""

    root: ModuleNode
    trainable: int = 0
    frozen: int = 0
    buffers: int = 0
    modules: int = 1
    truncated: bool = False

    @property
    def parameters(self) -> int:
        return self.trainable + self.frozen


def _shape(value: Any) -> Shape | None:
    return None if value is None else tuple(int(s) for s in value)


def _list(shape: Shape | None) -> list[int] | None:
    return None if shape is None else list(shape)


def _rows_data(rows: list[TensorRow]) -> list[list]:
    return [[r.name, _list(r.shape), r.dtype, r.requires_grad, r.numel] for r in rows]


def _rows_from(data: list) -> list[TensorRow]:
    return [TensorRow(str(n), _shape(s), str(d), bool(g), int(c)) for n, s, d, g, c in data]


def call_data(call: CallShapes | None) -> dict | None:
    if call is None:
        return None
    return {"in": [[int(d) for d in s] for s in call.inputs],
            "out": [[int(d) for d in s] for s in call.outputs]}


def _call_from(data: dict | None) -> CallShapes | None:
    if data is None:
        return None
    return CallShapes(tuple(tuple(s) for s in data["in"]), tuple(tuple(s) for s in data["out"]))


def node_data(node: ModuleNode) -> dict:
    return {"name": node.name, "type": node.type, "parameters": _rows_data(node.parameters),
            "buffers": _rows_data(node.buffers), "last_call": call_data(node.last_call),
            "children": [node_data(c) for c in node.children], "count": node.count,
            "trainable": node.trainable}


def node_from(data: dict) -> ModuleNode:
    return ModuleNode(str(data["name"]), str(data["type"]), _rows_from(data["parameters"]),
                      _rows_from(data["buffers"]),
                      [node_from(c) for c in data.get("children", ())],
                      _call_from(data.get("last_call")), int(data.get("count", 0)),
                      int(data.get("trainable", 0)))


def tree_data(tree: ModuleTree) -> dict:
    return {"root": node_data(tree.root), "trainable": tree.trainable, "frozen": tree.frozen,
            "buffers": tree.buffers, "modules": tree.modules, "truncated": tree.truncated}


def tree_from(data: dict) -> ModuleTree:
    return ModuleTree(node_from(data["root"]), int(data["trainable"]), int(data["frozen"]),
                      int(data["buffers"]), int(data["modules"]), bool(data["truncated"]))


def headless(node: ModuleNode) -> dict:
    """A node as ``tensor-lab run --json`` writes it: ``{"type", "parameters": {name:
    shape}, "buffers": {name: shape}, "children": {name: {...}}, "last_call": {"in":
    [shapes], "out": [shapes]} or None}``."""
    return {"type": node.type,
            "parameters": {r.name: _list(r.shape) for r in node.parameters},
            "buffers": {r.name: _list(r.shape) for r in node.buffers},
            "children": {c.name: headless(c) for c in node.children},
            "last_call": call_data(node.last_call)}
