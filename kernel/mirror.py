"""Small copies of a form step's values, sent with its report, for Op explained.

A form step (``y = torch.tril(x, diagonal=-1)``) runs in the kernel like any other
statement. To show it element by element, the window needs the values it read, as they
were before it ran, and the value it made: the kernel copies them (``snapshot`` before
the statement, ``encode`` after) when they are small, and they travel as plain data,
numpy arrays as raw frames (``protocol``); the window holds them as
``app.tensor_copy.TensorCopy``. ``decode`` makes torch tensors of them again, in the
kernel, when the window sends a copy back with a question (Op explained's, of a step's
values as they were before it ran: ``kernel.explain.provenance_query``), with the strides
they had. Anything larger than ``MIRROR_CELLS`` cells, or of a kind plain data cannot
hold, is left out: the views ask the kernel about it instead.
"""

from __future__ import annotations

import weakref
from typing import Any

from kernel.summary import loaded_torch
from protocol.copies import walk
from protocol.limits import MIRROR_CELLS
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most items of a list or tuple copied (``torch.chunk``'s parts).
MAX_ITEMS = 64
_PLAIN = (bool, int, float, str, type(None))


def encode(value: Any, cells: int = MIRROR_CELLS) -> dict | None:
    """``value`` as plain data (a tensor's values copied now), or None when it has more
    than ``cells`` cells or is of another kind."""
    if isinstance(value, _PLAIN):
        if isinstance(value, str) and len(value) > 200:
            return None
        return {"plain": value}
    if isinstance(value, list | tuple):
        if len(value) > MAX_ITEMS:
            return None
        items = [encode(v, cells) for v in value]
        if any(item is None for item in items):
            return None
        return {"items": items, "tuple": isinstance(value, tuple)}
    torch = loaded_torch()
    if torch is None:
        return None
    if isinstance(value, torch.dtype):
        return {"dtype": str(value).removeprefix("torch.")}
    if isinstance(value, torch.Tensor):
        return _tensor(torch, value, cells)
    return None


def _tensor(torch: Any, t: Any, cells: int) -> dict | None:
    from kernel.tensor_kinds import kind

    if kind(t) != "strided" or t.numel() > cells:  # sparse, meta, nested, quantized
        return None
    dtype = str(t.dtype).removeprefix("torch.")
    try:
        d = t.detach().cpu().resolve_conj().resolve_neg()
        if d.dtype == torch.bfloat16:  # numpy has none: float32 holds every bfloat16
            d = d.float()
        array = d.numpy().copy()  # copied now: a later in-place op must not change it
    except (RuntimeError, TypeError, NotImplementedError):
        return None
    return {"tensor": array, "dtype": dtype, "requires_grad": bool(t.requires_grad),
            "device": str(t.device), "strides": list(t.stride())}


def snapshot(namespace: dict[str, Any], names: list[str],
             large: dict[str, Any] | None = None) -> dict[str, dict]:
    """The values of ``names`` that can be copied, copied now (before a statement runs);
    the tensors too large for that are stamped into ``large`` (``stamp``)."""
    out = {}
    for name in names:
        if name in namespace:
            data = encode(namespace[name])
            if data is not None:
                out[name] = data
            elif large is not None and stamp(namespace[name]) is not None:
                large[name] = stamp(namespace[name])
    return out


def stamp(value: Any) -> tuple | None:
    """A weak reference to a tensor and its ``_version`` now: ``stamped`` tells later
    whether it still holds the values it held then (None: not a tensor)."""
    torch = loaded_torch()
    if torch is None or not isinstance(value, torch.Tensor):
        return None
    try:
        return weakref.ref(value), value._version
    except TypeError:
        return None


def stamped(mark: tuple) -> Any:
    """The tensor ``mark`` stamped, if it is alive and unchanged since; else None."""
    ref, version = mark
    value = ref()
    return value if value is not None and value._version == version else None


def decode(data: dict | None) -> Any:
    """(In the kernel.) The value ``encode`` made ``data`` of; ``None`` for none.

    A tensor comes back on the CPU, with its dtype and ``requires_grad``, but with no
    history: its graph stays in the kernel.
    """
    return walk(data, _tensor_of, _dtype_of)


def _dtype_of(name: str) -> Any:
    import torch

    dtype = getattr(torch, name, None)
    return dtype if isinstance(dtype, torch.dtype) else None


def _tensor_of(data: dict) -> Any:
    import torch

    dtype = _dtype_of(str(data.get("dtype", "")))
    t = torch.from_numpy(data["tensor"])
    if dtype is not None and t.dtype != dtype:
        t = t.to(dtype)
    t = _strided(torch, t, data.get("strides"))
    if data.get("requires_grad") and (t.is_floating_point() or t.is_complex()):
        t.requires_grad_(True)
    return t


def _strided(torch: Any, t: Any, strides: list[int] | None) -> Any:
    """The copy ``t`` laid out with the strides the tensor has in the kernel (a
    transpose's, a slice's: its values alone come back contiguous); as it is when they
    overlap (an expanded tensor) or would need far more memory than its elements."""
    if not strides or tuple(strides) == t.stride() or 0 in strides or len(strides) != t.ndim:
        return t
    span = 1 + sum((n - 1) * abs(s) for n, s in zip(t.shape, strides, strict=True))
    if span > 4 * max(1, t.numel()):
        return t
    try:
        return torch.empty_strided(t.shape, tuple(strides), dtype=t.dtype).copy_(t)
    except RuntimeError:
        return t
