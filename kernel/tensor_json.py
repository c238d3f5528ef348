"""A recipe's values as JSON can hold them, tensors included: the ``--json`` report's.

The kernel's side of ``protocol.json_values``: a tensor becomes its shape, dtype, device and
nested values (``tensor_report``); everything else is as ``protocol.json_values.plain`` says.
"""

from __future__ import annotations

from typing import Any

import torch

from kernel import tensor_kinds
from protocol import json_values

#: A sparse tensor with at most this many elements is reported dense, like any other;
#: past it, by its stored entries (``coo``).
REPORT_DENSE = 1 << 16


def tensor_report(t: torch.Tensor) -> dict[str, Any]:
    """Shape, dtype, device and nested values of one tensor.

    A tensor of another kind (``kernel.tensor_kinds``) says so (``kind``, ``layout``
    and its own facts) and gives what values it can: a quantized one's dequantized, a
    sparse one's dense while small (else ``coo``: its stored indices and values), each of
    a nested one's ``components``; a meta one has none, and ``no_values`` says why. Its
    ``shape`` is None where it has none (nested).
    """
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
    """``protocol.json_values.plain``, with each tensor (in a list or tuple too) reported."""
    return json_values.plain(value, _tensor_or_text)


def _tensor_or_text(value: Any) -> Any:
    return tensor_report(value) if isinstance(value, torch.Tensor) else str(value)
