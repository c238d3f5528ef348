"""A value's copy as it crosses the pipe, walked once for both sides.

The kernel writes a copy with ``kernel.mirror.encode``: ``{"plain": v}``, ``{"items": [...],
"tuple": bool}``, ``{"dtype": name}`` for a dtype, or a tensor's values (``"tensor"``, a
numpy array) with its ``dtype``, ``strides``, ``device`` and ``requires_grad``. The
window reads it as ``TensorCopy`` values (``app.tensor_copy.copy_of``), the kernel as
tensors again (``kernel.mirror.decode``); ``walk`` is the reading both share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def walk(data: Any, tensor: Callable[[dict], Any], dtype: Callable[[str], Any]) -> Any:
    """The value ``data`` holds, with ``tensor(data)`` for each tensor's copy and
    ``dtype(name)`` for a dtype's; lists and tuples walked, a plain value as it is;
    None for anything else."""
    if not isinstance(data, dict):
        return None
    if "plain" in data:
        return data["plain"]
    if "items" in data:
        items = [walk(item, tensor, dtype) for item in data["items"]]
        return tuple(items) if data.get("tuple") else items
    if "tensor" not in data:
        return dtype(str(data["dtype"])) if "dtype" in data else None
    return tensor(data)
