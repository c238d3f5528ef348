"""Which recipe tensors share memory: views versus copies.

NumPy arrays count too (``a.numpy()`` and ``torch.from_numpy(a)`` share memory with a
tensor): an array is placed in the memory of the tensor whose storage holds its first
byte, else in the memory of the array it is a view of.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from protocol.storage import StorageEntry

if TYPE_CHECKING:
    import torch


def storage_map(namespace: dict[str, Any]) -> list[StorageEntry]:
    """One entry per named tensor or NumPy array, in recipe order, each naming its base
    if it is a view."""
    import torch

    spans = [(value.untyped_storage().data_ptr(), value.untyped_storage().nbytes())
             for value in namespace.values() if _strided_cpu(value)]
    first_on: dict[tuple[str, int], str] = {}
    entries: list[StorageEntry] = []
    for name, value in namespace.items():
        if isinstance(value, torch.Tensor) and not value.is_sparse:
            storage = value.untyped_storage()
            if storage.nbytes() == 0:
                key = (str(value.device), -id(value))  # empty tensors share nothing
            else:
                key = (str(value.device), storage.data_ptr())
            data, size, numpy = value.data_ptr(), value.element_size(), False
            offset, strides = value.storage_offset(), tuple(value.stride())
        elif _is_array(value) and value.dtype.itemsize:
            data, size, numpy = value.__array_interface__["data"][0], value.dtype.itemsize, True
            key = ("cpu", _array_memory(value, data, spans))
            offset = (data - key[1]) // size if value.nbytes else 0
            strides = tuple(s // size for s in value.strides)
        else:
            continue
        base = first_on.setdefault(key, name)
        entries.append(StorageEntry(name, key[1], data, offset, strides, tuple(value.shape),
                                    None if base == name else base, numpy))
    return entries


def _strided_cpu(value: Any) -> bool:
    import torch

    return isinstance(value, torch.Tensor) and value.layout == torch.strided \
        and value.device.type == "cpu" and value.untyped_storage().nbytes() > 0


def _is_array(value: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _array_memory(array: Any, data: int, spans: list[tuple[int, int]]) -> int:
    """Where the memory an array reads begins: a tensor storage holding its first byte,
    or else the first byte of the array its views come from."""
    if not array.nbytes:
        return -id(array)  # empty arrays share nothing
    for start, nbytes in spans:
        if start <= data < start + nbytes:
            return start
    root = array
    while _is_array(root.base):
        root = root.base
    return root.__array_interface__["data"][0] if root.nbytes else -id(array)


def as_tensor(value: Any) -> torch.Tensor | None:
    """A tensor, or a NumPy array as a tensor over the same memory; None for others."""
    import torch

    if isinstance(value, torch.Tensor):
        return value
    if _is_array(value):
        try:
            return torch.from_numpy(value)
        except (TypeError, ValueError, RuntimeError):  # object dtype, negative strides...
            return None
    return None


def memory_positions(t: torch.Tensor) -> torch.Tensor:
    """Where each element of ``t`` sits in its storage: offset + sum of index * stride."""
    import torch

    pos = torch.full((), t.storage_offset(), dtype=torch.int64)
    for d, (size, stride) in enumerate(zip(t.shape, t.stride(), strict=True)):
        shape = [1] * t.dim()
        shape[d] = size
        pos = pos + (torch.arange(size, dtype=torch.int64) * stride).reshape(shape)
    return pos.expand(t.shape) if t.dim() else pos


def covered(base: torch.Tensor, view: torch.Tensor) -> torch.Tensor:
    """Which elements of ``base`` ``view`` reads (the same memory, whether their storages
    start at the same byte or not): a bool tensor of base's shape."""
    import torch

    return torch.isin(_addresses(base), _addresses(view).reshape(-1))


def _addresses(t: torch.Tensor) -> torch.Tensor:
    """The byte address of each element of ``t``."""
    return t.untyped_storage().data_ptr() + memory_positions(t) * t.element_size()


def shared_with(namespace: dict[str, Any], name: str) -> list[str]:
    """Other tensors of the recipe that share memory with ``name``."""
    entries = {e.name: e for e in storage_map(namespace)}
    me = entries.get(name)
    if me is None:
        return []
    return [e.name for e in entries.values()
            if e.storage_ptr == me.storage_ptr and e.name != name]
