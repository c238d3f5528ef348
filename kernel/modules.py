"""The recipe's ``nn.Module`` objects as the window's Module view and ``run --json`` show
them: the tree of submodules, each one's own parameters and buffers, and the shapes of
its last call.

The last calls are recorded by the training watch's forward hook (``kernel.watch``),
torch's global one: it calls ``record`` for every module call while it is registered.
That is every call of a statement outside a training loop; inside one, a live run hooks
only the steps it samples (the hook sends every module call down torch's slow path), so
a module's last call there is the last sampled step's. Only shapes are kept here, never
the tensors (the Activations' copies of some outputs are ``kernel.activations``'), keyed
by the module's ``id`` beside a weak reference to it: a module the recipe drops takes
its entry with it, and one with an odd ``__eq__``/``__hash__`` is no matter.
"""

from __future__ import annotations

import weakref
from typing import Any

from kernel.activations import keep, recording, watched
from kernel.summary import loaded_torch
from protocol.module_data import (
    MAX_CALL_SHAPES,
    MAX_MODULES,
    CallShapes,
    ModuleNode,
    ModuleTree,
    TensorRow,
    headless,
)
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: id(module): (a weak reference to it, its last call's input shapes, output shapes)
_calls: dict[int, tuple[weakref.ref, tuple, tuple]] = {}


def record(module: Any, inputs: tuple, output: Any) -> None:
    """A forward hook's call: keep the shapes of ``module``'s inputs and output."""
    try:
        key = id(module)
        entry = _calls.get(key)
        ref = entry[0] if entry is not None and entry[0]() is module else _ref(module, key)
        tensor = loaded_torch().Tensor
        ins: list = []
        outs: list = []
        _shapes(inputs, tensor, ins, 0)
        _shapes(output, tensor, outs, 0)
        _calls[key] = (ref, tuple(ins), tuple(outs))
        if key in watched or recording.everything:  # its output too (the Activations)
            keep(module, key, output)
    except Exception:  # noqa: BLE001 - an odd module or tensor: its call is not kept
        pass


def _ref(module: Any, key: int) -> weakref.ref:
    def forget(dead: weakref.ref) -> None:
        entry = _calls.get(key)
        if entry is not None and entry[0] is dead:
            _calls.pop(key, None)
    return weakref.ref(module, forget)


def _shapes(value: Any, tensor: type, out: list, depth: int) -> None:
    """Append the shapes of the tensors in ``value``: itself, or those of a tuple or a
    list, depth first, in order."""
    if isinstance(value, tensor):
        if len(out) < MAX_CALL_SHAPES:
            out.append(tuple(value.shape))
    elif isinstance(value, tuple | list) and depth < 4:
        for item in value[:MAX_CALL_SHAPES]:
            _shapes(item, tensor, out, depth + 1)


def last_call(module: Any) -> CallShapes | None:
    """The shapes of ``module``'s last recorded call, or None."""
    entry = _calls.get(id(module))
    if entry is None or entry[0]() is not module:
        return None
    return CallShapes(entry[1], entry[2])


def describe(module: Any) -> ModuleTree:
    """``module``'s tree: one walk of its children, each module's own parameters and
    buffers (``_own``), and its last call; totals with each parameter counted once."""
    tree = ModuleTree(ModuleNode("", ""))
    seen: set[int] = set()  # parameters and buffers counted
    tree.root = _node(module, "", tree, seen, set(), {})
    return tree


def _node(module: Any, name: str, tree: ModuleTree, seen: set[int], above: set[int],
          held: dict[int, TensorRow]) -> ModuleNode:
    """``module``'s node; ``held`` gets its parameters and its submodules', by id (its
    parent's counts take them from there, each once)."""
    node = ModuleNode(name, type(module).__name__, last_call=last_call(module))
    mine: dict[int, TensorRow] = {}
    for local, p in _own(module, "_parameters"):
        row = _row(local, p)
        node.parameters.append(row)
        mine[id(p)] = row
        if id(p) not in seen:
            seen.add(id(p))
            if row.requires_grad:
                tree.trainable += row.numel
            else:
                tree.frozen += row.numel
    for local, b in _own(module, "_buffers"):
        row = _row(local, b)
        node.buffers.append(row)
        if id(b) not in seen:
            seen.add(id(b))
            tree.buffers += row.numel
    above = above | {id(module)}
    for local, child in _own(module, "_modules"):
        if id(child) in above:
            continue  # a module inside itself: print(net) would recurse forever too
        if tree.modules >= MAX_MODULES:
            tree.truncated = True
            break
        tree.modules += 1
        node.children.append(_node(child, local, tree, seen, above, mine))
    node.count = sum(row.numel for row in mine.values())
    node.trainable = sum(row.numel for row in mine.values() if row.requires_grad)
    held.update(mine)
    return node


def _own(module: Any, kind: str) -> list[tuple[str, Any]]:
    """What ``named_parameters(recurse=False)``, ``named_buffers(recurse=False)`` or
    ``named_children()`` give, from the module's own dicts: the same, in order, each
    object once, but read without torch's helpers, which a recipe's patched builtins
    break, and without hashing its objects (a module's ``__hash__`` may be None)."""
    items = vars(module).get(kind) or {}
    out, ids = [], set()
    for local, value in list(items.items()):
        if value is not None and id(value) not in ids:
            ids.add(id(value))
            out.append((local, value))
    return out


def _row(name: str, t: Any) -> TensorRow:
    try:
        shape, numel = tuple(int(d) for d in t.shape), t.numel()
    except (ValueError, RuntimeError):  # a lazy module's parameter: not made yet
        shape, numel = None, 0
    return TensorRow(name, shape, str(t.dtype), bool(t.requires_grad), int(numel))


def modules_report(namespace: dict[str, Any]) -> dict[str, dict]:
    """``run --json``'s ``"modules"``: each top-level name bound to a module, described
    (``protocol.module_data.headless``)."""
    torch = loaded_torch()
    if torch is None:
        return {}
    out = {}
    for name, value in list(namespace.items()):
        if name.startswith("__") or not isinstance(value, torch.nn.Module):
            continue
        try:
            out[name] = headless(describe(value).root)
        except Exception as e:  # noqa: BLE001 - a recipe's module the walk cannot read
            out[name] = {"type": type(value).__name__, "error": f"{type(e).__name__}: {e}"}
    return out
