"""Which names each top-level statement bound or changed, without a pass in Python over
every name after every statement.

Runs in the kernel. A statement's report names what it bound (another object under a
name, or a new name) and the tensors it changed in place (``Tensor._version`` moved), in
the namespace's order: what ``summary.changed(summary.user_names(...), ...)`` says, for
the cost of a few list copies and compares at C speed in the common cases (a new name
after the others, or nothing rebound). A recipe of 5,000 statements, each binding a name
of its own, had two Python passes over the whole namespace after each statement: its
run was quadratic (minutes).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from kernel.summary import loaded_torch
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

_version = attrgetter("_version")


class NamespaceWatch:
    """The namespace as the last ``changed`` left it: its names, their objects' ids, and
    the versions of the tensors among them.

    Parameters
    ----------
    namespace : dict
        The ``__main__`` module's namespace the statements run in.
    """

    def __init__(self, namespace: dict[str, Any]):
        self.namespace = namespace
        self._keys: list[str] = []
        self._ids: list[int] = []
        self._tensors: list[str] = []  # the names that hold a tensor
        self._versions: list[int] = []  # and those tensors' versions, in that order
        self.changed()

    def changed(self) -> list[str]:
        """The names (no dunders) bound or changed in place since the last call, in the
        namespace's order; the namespace as it is now is the next call's start."""
        namespace = self.namespace
        keys, ids = list(namespace), list(map(id, namespace.values()))
        old_keys, old_ids = self._keys, self._ids
        n = len(old_keys)
        removed: set[str] = set()
        if len(keys) >= n and keys[:n] == old_keys and ids[:n] == old_ids:
            bound = keys[n:]  # nothing rebound or removed: only names added after the rest
        else:
            before = dict(zip(old_keys, old_ids, strict=True))
            bound = [k for k, i in zip(keys, ids, strict=True) if before.get(k) != i]
            removed = before.keys() - set(keys)
        rebound = set(bound) | removed
        versions = self._tensor_versions()
        moved = set() if versions == self._versions else {
            k for k, v, w in zip(self._tensors, versions, self._versions, strict=True)
            if v != w and k not in rebound}
        self._keys, self._ids = keys, ids
        self._track(bound, rebound, versions)
        if moved:
            bound = [k for k in keys if k in moved or k in rebound]
        return [k for k in bound if not k.startswith("__")]

    def _tensor_versions(self) -> list[int]:
        """The versions of the tensors under the names that held one (-1: none now)."""
        try:
            return list(map(_version, map(self.namespace.__getitem__, self._tensors)))
        except (KeyError, AttributeError):  # a name deleted, or rebound to no tensor
            return [getattr(self.namespace.get(k), "_version", -1) for k in self._tensors]

    def _track(self, bound: list[str], rebound: set[str], versions: list[int]) -> None:
        """The tensors to look at next time: those kept (not rebound nor removed), with
        their ``versions`` now, and those just bound."""
        torch = loaded_torch()
        if torch is None:
            self._tensors, self._versions = [], []
            return
        namespace, tensor = self.namespace, torch.Tensor
        names = self._tensors
        if not rebound.isdisjoint(names):
            kept = [(k, v) for k, v in zip(names, versions, strict=True) if k not in rebound]
            names, versions = [k for k, _ in kept], [v for _, v in kept]
        added = [k for k in bound if isinstance(namespace[k], tensor)]
        names.extend(added)  # (in place: a copy of every name, each statement, adds up)
        versions.extend(namespace[k]._version for k in added)
        self._tensors, self._versions = names, versions
