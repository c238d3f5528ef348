"""Values as JSON can hold them: tensors with shape, dtype and nested values; NaN as "nan"."""

from __future__ import annotations

import math
from typing import Any

import torch


def tensor_report(t: torch.Tensor) -> dict[str, Any]:
    """Shape, dtype, device and nested values of one tensor."""
    data = t.detach()
    if data.device.type != "cpu":
        data = data.cpu()
    return {"shape": list(t.shape), "dtype": str(t.dtype), "device": str(t.device),
            "values": plain(data.tolist())}


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
