"""Where a recipe's tensors sit in memory, as the kernel's ``storage`` query answers it
(``kernel.explain.storage.storage_map``) and the Memory tab shows it."""

from __future__ import annotations

from dataclasses import dataclass


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
    numpy : bool
        A NumPy array rather than a tensor (offset and strides still in elements).
    """

    name: str
    storage_ptr: int
    data_ptr: int
    offset: int
    strides: tuple[int, ...]
    shape: tuple[int, ...]
    base: str | None
    numpy: bool = False

    @property
    def is_view(self) -> bool:
        return self.base is not None


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
