"""One module call recorded as a graph (``protocol.module_graph_data``): what the Model
graph's hooks (``kernel.module_graph``) do with each module call and torch call they see
while a traced call runs.

A leaf module's call is one node, its edges from the makers of the tensors it was given;
a container's call opens a scope for the calls inside it; a torch function or tensor
method that makes a tensor is a node in the scope it was called in. Tensors are known by
``id`` beside a weak reference (a freed tensor's ``id`` may come again).
"""

from __future__ import annotations

import weakref
from typing import Any

from protocol.module_graph_data import MAX_GRAPH_NODES, FlowEdge, FlowNode, ModuleGraph
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Short labels of the operators python spells with a symbol.
SYMBOLS = {"add": "+", "__add__": "+", "__radd__": "+", "sub": "-", "__sub__": "-",
           "__rsub__": "-", "mul": "*", "__mul__": "*", "__rmul__": "*", "div": "/",
           "__truediv__": "/", "__rtruediv__": "/", "matmul": "@", "__matmul__": "@",
           "__rmatmul__": "@", "__getitem__": "[]", "add_": "+=", "__iadd__": "+=",
           "mul_": "*=", "__imul__": "*=", "neg": "-", "__neg__": "-", "pow": "**",
           "__pow__": "**"}



def tensors_in(value: Any, tensor: type, out: list, depth: int = 0) -> list:
    """The tensors in ``value``: itself, or those of a tuple, a list or a dict's values,
    depth first, in order."""
    if isinstance(value, tensor):
        out.append(value)
    elif depth < 4 and isinstance(value, tuple | list):
        for item in value[:64]:
            tensors_in(item, tensor, out, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for item in list(value.values())[:64]:
            tensors_in(item, tensor, out, depth + 1)
    return out


def _error_text(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 600 else text[:600] + "…"


class Trace:
    """One top-level call being recorded."""

    def __init__(self, root: Any, args: tuple, tensor: type) -> None:
        self.root, self.tensor = root, tensor
        self.graph = ModuleGraph(type(root).__name__)
        self.paths = module_paths(root)
        self.made: dict[int, tuple[weakref.ref, int]] = {}  # id(tensor): (ref, node)
        self.frames: list[tuple[str, int]] = []  # ("leaf", node) / ("scope", 0) per call
        self.scopes: list[str] = [""]
        self.inside_leaf = 0
        self.failed = False  # a node carries the error already
        names = _parameter_names(root)
        for i, value in enumerate(args):
            found = tensors_in(value, tensor, [])
            name = names[i] if i < len(names) else f"input {i}"
            for j, t in enumerate(found):
                label = name if len(found) == 1 and isinstance(value, tensor) else f"{name}[{j}]"
                self._made(t, self._node(FlowNode("input", label, "Tensor")))

    def _node(self, node: FlowNode) -> int | None:
        nodes = self.graph.nodes
        if len(nodes) >= MAX_GRAPH_NODES and node.kind != "output":
            self.graph.truncated = True
            return None
        nodes.append(node)
        return len(nodes) - 1

    def _made(self, t: Any, node: int | None) -> None:
        if node is None:
            return
        try:
            self.made[id(t)] = (weakref.ref(t), node)
        except TypeError:
            pass

    def _into(self, node: int | None, inputs: list) -> None:
        """Edges from the makers of ``inputs`` into ``node``, one per tensor and maker."""
        if node is None:
            return
        seen = set()
        for t in inputs:
            entry = self.made.get(id(t))
            if entry is None or entry[0]() is not t:
                continue  # a parameter, a constant: made outside the call
            key = (entry[1], tuple(t.shape))
            if key not in seen:
                seen.add(key)
                self.graph.edges.append(FlowEdge(entry[1], node, tuple(int(d) for d in t.shape)))

    # -- what the hooks and the mode see -----------------------------------------------
    def enter(self, module: Any, args: tuple) -> None:
        if self.inside_leaf:
            self.inside_leaf += 1
            self.frames.append(("inner", 0))
            return
        path = self.paths.get(id(module)) or type(module).__name__
        if next(iter(vars(module).get("_modules") or ()), None) is None:  # a leaf
            node = self._node(FlowNode("module", path, type(module).__name__,
                                       self.scopes[-1]))
            self._into(node, tensors_in(args, self.tensor, []))
            self.inside_leaf = 1
            self.frames.append(("leaf", -1 if node is None else node))
        else:
            self.graph.containers.setdefault(path, type(module).__name__)
            self.scopes.append(path)
            self.frames.append(("scope", 0))

    def leave(self, output: Any, error: BaseException | None) -> None:
        if not self.frames:
            return
        kind, node = self.frames.pop()
        if kind == "inner":
            self.inside_leaf -= 1
            return
        if kind == "scope":
            self.scopes.pop()
            return
        self.inside_leaf = 0
        if node < 0:
            return
        if error is not None:
            self._fail(node, error)
            return
        for t in tensors_in(output, self.tensor, []):
            self._made(t, node)

    def _fail(self, node: int, error: BaseException) -> None:
        if not self.failed:
            self.failed = True
            n = self.graph.nodes[node]
            self.graph.nodes[node] = FlowNode(n.kind, n.label, n.type, n.scope,
                                              _error_text(error))

    def call(self, func: Any, args: tuple, kwargs: dict, output: Any,
             error: BaseException | None) -> None:
        """A torch function or tensor method the forward called (in a container's scope)."""
        outputs = tensors_in(output, self.tensor, []) if error is None else []
        if error is None and not outputs:
            return  # x.shape, x.size(), x.dim(): no tensor made
        name = _function_name(func)
        node = self._node(FlowNode("function", SYMBOLS.get(name.rpartition(".")[2],
                                                           name.rpartition(".")[2]),
                                   name, self.scopes[-1]))
        self._into(node, tensors_in((args, kwargs), self.tensor, []))
        if node is None:
            return
        if error is not None:
            self._fail(node, error)
        for t in outputs:
            self._made(t, node)

    def finish(self, output: Any, error: BaseException | None) -> ModuleGraph:
        graph = self.graph
        if error is not None:
            graph.error = _error_text(error)
            return graph
        node = self._node(FlowNode("output", "output", type(output).__name__))
        self._into(node, tensors_in(output, self.tensor, []))
        return graph


def _function_name(func: Any) -> str:
    from torch.overrides import resolve_name

    try:
        name = resolve_name(func)
    except Exception:  # noqa: BLE001 - an odd callable
        name = None
    if not name:
        name = getattr(func, "__qualname__", None) or getattr(func, "__name__", "call")
    return name.removesuffix(".__get__")


def _parameter_names(module: Any) -> list[str]:
    import inspect

    try:
        return [p.name for p in inspect.signature(module.forward).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def module_paths(root: Any) -> dict[int, str]:
    """Each submodule's path from ``root``, read from the modules' own dicts (no torch
    helper a recipe's patched builtins could break); the first path of a shared one."""
    paths: dict[int, str] = {id(root): ""}
    todo = [(root, "")]
    while todo and len(paths) < 20_000:
        module, path = todo.pop()
        children = list((vars(module).get("_modules") or {}).items())
        for name, child in reversed(children):
            if child is not None and id(child) not in paths:
                paths[id(child)] = f"{path}.{name}" if path else name
                todo.append((child, paths[id(child)]))
    return paths
