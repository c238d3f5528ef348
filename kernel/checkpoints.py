"""Re-runs from the first changed statement: the namespace after each statement, kept.

Runs in the kernel only. After each top-level statement of a window run that ended
without an error, ``Checkpoints`` keeps a shallow copy of the namespace, the random
generators' states, the working folder, and a fingerprint of every value in it. An edit
runs again from the first statement whose text (or place) changed, starting from the
checkpoint just before it, **only while nothing since has changed a value the checkpoint
holds**: the fingerprint says so (``Tensor._version`` for tensors, their ``.grad``,
modules' parameters and buffers, and the contents of lists, dicts and plain objects).
A value whose changes cannot be told (a numpy array, a C object) makes its checkpoint
unusable, and then the run starts from the beginning, as it does after Run Again.

A docstring is the lesson: changing it changes ``__doc__`` and nothing else.
"""

from __future__ import annotations

import os
import random
import sys
import time
import types
from dataclasses import dataclass
from typing import Any

from kernel.summary import loaded_torch
from protocol.sealed import BUILTINS
from protocol.source import Statement

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Most values one fingerprint looks at; past it, the namespace's changes cannot be told.
MAX_NODES = 20_000
#: A namespace whose fingerprint looks at more values than this keeps a checkpoint only
#: once the statements since the last one took ``SPACING`` times what that one cost: a
#: checkpoint after every statement, of 5,000 binding names of their own, made a run
#: quadratic. Checkpoints then cost at most a ``1 / SPACING`` share of the run, and an
#: edit at most ``SPACING`` checkpoints' time in statements run again.
FREE_NODES = 200
SPACING = 4.0
#: How deep a fingerprint goes into lists, dicts and objects.
MAX_DEPTH = 6
_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, range, slice,
              type(Ellipsis), frozenset)
_UNCHANGING = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
               types.MethodType, type, staticmethod, classmethod, property)


class Untold(Exception):
    """A value whose changes a fingerprint cannot tell."""


@dataclass
class Checkpoint:
    """The state right after one statement: enough to run the next ones again."""

    key: tuple
    namespace: dict[str, Any]
    fingerprint: tuple
    random_states: dict[str, Any]
    cwd: str
    flags: int


class Checkpoints:
    """The last window run's checkpoints: for each statement that ended without an error,
    its key, and its ``Checkpoint`` or None (one every few statements, past
    ``NODES_PER_STATEMENT`` values in the namespace)."""

    def __init__(self) -> None:
        self.path: str | None = None
        self.keys: list[tuple] = []
        self.marks: list[Checkpoint | None] = []
        self._cost = (0, 0.0, 0.0)  # the last checkpoint's values, seconds, and end

    def clear(self, path: str | None = None) -> None:
        self.path, self.keys, self.marks, self._cost = path, [], [], (0, 0.0, 0.0)

    def keep(self, statement: Statement, namespace: dict[str, Any], flags: int) -> None:
        """After ``statement`` ended well: its checkpoint (none once one could not be)."""
        if len(self.keys) != statement.index or _cuda_in_use():
            return  # an earlier statement left none (later ones cannot be resumed either),
            # or CUDA is in use, which ``resume_point`` never trusts
        mark = None
        nodes, cost, end = self._cost
        start = time.perf_counter()
        if nodes <= FREE_NODES or start - end >= SPACING * cost:
            try:
                fingerprint, nodes = _fingerprint_and_cost(namespace)
                mark = Checkpoint(statement_key(statement), dict(namespace), fingerprint,
                                  random_states(), os.getcwd(), flags)
            except Exception:  # noqa: BLE001 - Untold, or an odd value: no checkpoint,
                return  # no harm
            now = time.perf_counter()
            self._cost = (nodes, now - start, now)
        self.keys.append(statement_key(statement))
        self.marks.append(mark)

    def resume_point(self, path: str, new: list[Statement]) -> int:
        """How many leading statements of ``new`` need not run again (0: all of them)."""
        if path != self.path or _cuda_in_use():
            return 0
        same = 0
        for key, statement in zip(self.keys, new, strict=False):
            if key != statement_key(statement):
                break
            same += 1
        same = min(same, len(new) - 1) if new else 0  # the last one always runs again
        for start in range(same, 0, -1):
            mark = self.marks[start - 1]
            if mark is None:
                continue  # none kept there: the one before it
            try:
                if namespace_fingerprint(mark.namespace) == mark.fingerprint:
                    return start
            except Exception:  # noqa: BLE001, S112 - cannot be told now: an earlier one
                continue
        return 0

    def restore(self, start: int, namespace: dict[str, Any]) -> int:
        """Put the namespace as statement ``start - 1`` left it; its compiler flags."""
        mark = self.marks[start - 1]
        assert mark is not None  # (``resume_point`` gives only a statement with one)
        kept = {k: namespace[k] for k in ("__file__", "__builtins__", "__doc__", "__cached__")
                if k in namespace}
        namespace.clear()
        namespace.update(mark.namespace)
        namespace.update(kept)
        set_random_states(mark.random_states)
        os.chdir(mark.cwd)
        del self.marks[start:], self.keys[start:]
        self._cost = (0, 0.0, 0.0)
        return mark.flags


def statement_key(statement: Statement) -> tuple:
    """What must not change for a checkpoint after ``statement`` to stay usable."""
    if statement.index == 0 and statement.kind == "Expr" \
            and statement.text.lstrip()[:1] in "\"'rRuUbBfF":
        return ("docstring",)  # the lesson text: only __doc__, which is set anew
    return statement.line, statement.text


class _Walk:
    """One fingerprint's walk: the nodes it may still visit, and torch (looked up once)."""

    def __init__(self) -> None:
        self.left = MAX_NODES
        self.torch = loaded_torch()
        self.plain = () if self.torch is None else (
            self.torch.dtype, self.torch.device, self.torch.Size)


def namespace_fingerprint(namespace: dict[str, Any]) -> tuple:
    return _fingerprint_and_cost(namespace)[0]


def _fingerprint_and_cost(namespace: dict[str, Any]) -> tuple[tuple, int]:
    """The namespace's fingerprint, and how many values it looked at."""
    budget = _Walk()
    fingerprint = tuple((name, id(value), _fingerprint(value, 0, budget))
                        for name, value in namespace.items() if not name.startswith("__"))
    return fingerprint, MAX_NODES - budget.left


def _fingerprint(value: Any, depth: int, budget: _Walk) -> Any:
    budget.left -= 1
    if budget.left < 0 or depth > MAX_DEPTH:
        raise Untold
    if isinstance(value, _IMMUTABLE) or isinstance(value, _UNCHANGING):
        return None
    torch = budget.torch
    if torch is not None:
        if isinstance(value, torch.Tensor):
            grad = value.grad if value.is_leaf else None
            return ("t", value._version, value.requires_grad, id(grad),
                    grad._version if grad is not None else -1)
        if isinstance(value, torch.nn.Module):
            parts = [(n, id(t), _fingerprint(t, depth + 1, budget))
                     for n, t in (*value.named_parameters(), *value.named_buffers())]
            parts += [(n, m.training) for n, m in value.named_modules()]
            return ("m", tuple(parts), _object(value, depth, budget, skip=_MODULE_INNARDS))
        if isinstance(value, budget.plain):
            return None
        if isinstance(value, torch.Generator):
            return ("g", bytes(value.get_state().numpy()))
    if isinstance(value, tuple):
        return tuple((id(v), _fingerprint(v, depth + 1, budget)) for v in value)
    if isinstance(value, list | set):
        items = sorted(value, key=id) if isinstance(value, set) else value
        return (type(value).__name__, tuple((id(v), _fingerprint(v, depth + 1, budget))
                                            for v in items))
    if isinstance(value, dict):
        return ("d", tuple((_key(k), id(v), _fingerprint(v, depth + 1, budget))
                           for k, v in value.items()))
    return _object(value, depth, budget)


_MODULE_INNARDS = frozenset({"_parameters", "_buffers", "_modules", "training"})


def _object(value: Any, depth: int, budget: _Walk, skip: frozenset = frozenset()) -> Any:
    """A plain object (an optimizer, a dataset...) by its attributes; else untold."""
    attributes = getattr(value, "__dict__", None)
    if not isinstance(attributes, dict) or hasattr(type(value), "__slots__") and not attributes:
        raise Untold
    return ("o", type(value).__qualname__, tuple(
        (k, id(v), _fingerprint(v, depth + 1, budget))
        for k, v in attributes.items() if k not in skip and not k.startswith("_hook")))


def _key(k: Any) -> Any:
    return k if isinstance(k, str | int | float | bool | type(None)) else ("id", id(k))


def random_states() -> dict[str, Any]:
    states: dict[str, Any] = {"random": random.getstate()}
    torch = loaded_torch()
    if torch is not None:
        states["torch"] = torch.get_rng_state()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        states["numpy"] = numpy.random.get_state()
    return states


def set_random_states(states: dict[str, Any]) -> None:
    random.setstate(states["random"])
    torch = loaded_torch()
    if torch is not None and "torch" in states:
        torch.set_rng_state(states["torch"])
    numpy = sys.modules.get("numpy")
    if numpy is not None and "numpy" in states:
        numpy.random.set_state(states["numpy"])


def _cuda_in_use() -> bool:
    torch = loaded_torch()
    return torch is not None and torch.cuda.is_initialized()
