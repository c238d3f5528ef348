"""Values as JSON can hold them: tensors with shape, dtype and nested values; NaN as "nan"."""

from __future__ import annotations

import math
from typing import Any

import torch

#: A sparse tensor with at most this many elements is reported dense, like any other;
#: past it, by its stored entries (``coo``).
REPORT_DENSE = 1 << 16


def tensor_report(t: torch.Tensor) -> dict[str, Any]:
    """Shape, dtype, device and nested values of one tensor.

    A tensor of another kind (``app.tensor_kinds``) says so (``kind``, ``layout`` and
    its own facts) and gives what values it can: a quantized one's dequantized, a sparse
    one's dense while small (else ``coo``: its stored indices and values), each of a
    nested one's ``components``; a meta one has none, and ``no_values`` says why. Its
    ``shape`` is None where it has none (nested).
    """
    from app import tensor_kinds

    extra = tensor_kinds.facts(t)
    what = extra.get("kind", "strided")
    out = {"shape": None if what == "nested" else list(t.shape), "dtype": str(t.dtype),
           "device": str(t.device), **extra}
    if what == "nested":
        out["components"] = [tensor_report(c) for c in t.detach().unbind()]
        return out
    data = tensor_kinds.dense(t, REPORT_DENSE)
    if data is None and what == "sparse":
        out["coo"] = {k: plain(v) for k, v in tensor_kinds.coo(t).items()}
    elif data is None:
        out["no_values"] = tensor_kinds.no_values(t, REPORT_DENSE)
    else:
        out["values"] = plain((data if data.device.type == "cpu" else data.cpu()).tolist())
    return out


def plain(value: Any) -> Any:
    """``value`` with NaN and infinities as the strings "nan", "inf", "-inf"."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, complex):
        return [plain(value.real), plain(value.imag)]
    if isinstance(value, (list, tuple, torch.Size)):
        return [plain(v) for v in value]
    if isinstance(value, torch.Tensor):
        return tensor_report(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)
