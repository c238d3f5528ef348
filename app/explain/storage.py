"""Which recipe tensors share memory: views versus copies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch


@dataclass(frozen=True)
class StorageEntry:
    """Where one named tensor sits in memory.

    Parameters
    ----------
    name : str
        The step that made it.
    storage_ptr : int
        Address of the storage it reads (equal for tensors sharing memory).
    data_ptr : int
        Address of its first element: storage address + offset * element size.
    offset : int
        Storage offset, in elements.
    strides : tuple of int
        Elements to skip per step along each dimension.
    shape : tuple of int
    base : str or None
        The earliest tensor of the recipe on the same storage, when this is not it.
    """

    name: str
    storage_ptr: int
    data_ptr: int
    offset: int
    strides: tuple[int, ...]
    shape: tuple[int, ...]
    base: str | None

    @property
    def is_view(self) -> bool:
        return self.base is not None


def storage_map(namespace: dict[str, Any]) -> list[StorageEntry]:
    """One entry per named tensor, in recipe order, each naming its base if it is a view."""
    first_on: dict[tuple[str, int], str] = {}
    entries: list[StorageEntry] = []
    for name, value in namespace.items():
        if not isinstance(value, torch.Tensor) or value.is_sparse:
            continue
        storage = value.untyped_storage()
        if storage.nbytes() == 0:
            key = (str(value.device), -id(value))  # empty tensors share nothing
        else:
            key = (str(value.device), storage.data_ptr())
        base = first_on.setdefault(key, name)
        entries.append(StorageEntry(
            name, key[1], value.data_ptr(), value.storage_offset(), tuple(value.stride()),
            tuple(value.shape), None if base == name else base))
    return entries


def memory_positions(t: torch.Tensor) -> torch.Tensor:
    """Where each element of ``t`` sits in its storage: offset + sum of index * stride."""
    pos = torch.full((), t.storage_offset(), dtype=torch.int64)
    for d, (size, stride) in enumerate(zip(t.shape, t.stride(), strict=True)):
        shape = [1] * t.dim()
        shape[d] = size
        pos = pos + (torch.arange(size, dtype=torch.int64) * stride).reshape(shape)
    return pos.expand(t.shape) if t.dim() else pos


def covered(base: torch.Tensor, view: torch.Tensor) -> torch.Tensor:
    """Which elements of ``base`` (same storage) ``view`` reads: a bool tensor of base's shape."""
    return torch.isin(memory_positions(base), memory_positions(view).reshape(-1))


def partner(entries: list[StorageEntry], name: str) -> tuple[str, str] | None:
    """``(base, view)`` for tensor ``name`` and the tensor it is shown beside: its base
    when it is a view, else its first view; None when no other tensor shares its memory."""
    me = next((e for e in entries if e.name == name), None)
    if me is None:
        return None
    others = [e.name for e in entries if e.storage_ptr == me.storage_ptr and e.name != name]
    if not others:
        return None
    return (me.base, name) if me.is_view else (name, others[0])


def shared_with(namespace: dict[str, Any], name: str) -> list[str]:
    """Other tensors of the recipe that share memory with ``name``."""
    entries = {e.name: e for e in storage_map(namespace)}
    me = entries.get(name)
    if me is None:
        return []
    return [e.name for e in entries.values()
            if e.storage_ptr == me.storage_ptr and e.name != name]
