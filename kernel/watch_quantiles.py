"""Each sampled layer's weights and gradients as a few percentiles (live runs).

The window draws them per layer as nested bands over the steps (TensorBoard's
"distributions"). For each layer with a floating-point ``weight``, at most
``QUANTILE_VALUES`` evenly spaced elements of it and of its gradient are read (the same
ones each time), their non-finite values left out; every percentile of every layer comes
back with one ``tolist()``, a single wait for the device.
"""

from __future__ import annotations

import math
from typing import Any

from kernel.summary import loaded_torch
from protocol.limits import LAYER_PERCENTILES, QUANTILE_VALUES
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

Quantiles = list[float | None] | None


def layer_quantiles(modules: list[Any]) -> list[tuple[Quantiles, Quantiles]]:
    """For each module: the percentiles of its weights and of their gradients (None for
    a module without a floating-point weight, or a weight without a gradient; None for a
    percentile when every value read is NaN or infinite)."""
    torch = loaded_torch()
    tensors: list[Any] = []
    places: list[tuple[int | None, int | None]] = []
    for module in modules:
        weight = _weight(module, torch)
        if weight is None:
            places.append((None, None))
            continue
        grad = weight.grad
        places.append((len(tensors), len(tensors) + 1 if grad is not None else None))
        tensors.append(weight)
        if grad is not None:
            tensors.append(grad)
    if not tensors:
        return [(None, None)] * len(modules)
    try:
        rows = _percentiles(tensors, torch)
    except (RuntimeError, TypeError, ValueError, NotImplementedError):
        return [(None, None)] * len(modules)
    return [(rows[w] if w is not None else None, rows[g] if g is not None else None)
            for w, g in places]


def _percentiles(tensors: list[Any], torch: Any) -> list[list[float | None]]:
    """``LAYER_PERCENTILES`` of each tensor's sample, in as few calls as it takes: the
    samples of each device padded with NaN into one matrix, one ``nanquantile`` over its
    rows (six calls a layer were a millisecond of a small MLP's sampled step), and every
    device's answers read with one ``tolist()``."""
    by_device: dict[Any, list[int]] = {}
    for i, tensor in enumerate(tensors):
        by_device.setdefault(tensor.device, []).append(i)
    order: list[int] = []
    parts = []
    with torch.no_grad():
        for device, indices in by_device.items():
            q = torch.tensor([p / 100 for p in LAYER_PERCENTILES], dtype=torch.float64,
                             device=device)
            samples = torch.nn.utils.rnn.pad_sequence(
                [_sample(tensors[i], torch) for i in indices], batch_first=True,
                padding_value=math.nan)
            parts.append(torch.nanquantile(samples, q, dim=1).T.cpu())
            order.extend(indices)
        values = torch.cat(parts).tolist()
    rows: list[list[float | None]] = [[]] * len(tensors)
    for i, row in zip(order, values, strict=True):
        rows[i] = [v if math.isfinite(v) else None for v in row]
    return rows


def _sample(tensor: Any, torch: Any) -> Any:
    """At most ``QUANTILE_VALUES`` evenly spaced elements, float64, NaN where not finite."""
    flat = tensor.detach().reshape(-1)
    stride = max(1, -(-flat.numel() // QUANTILE_VALUES))
    values = flat[::stride].to(torch.float64)
    return values.nan_to_num(nan=math.nan, posinf=math.nan, neginf=math.nan)


def _weight(module: Any, torch: Any) -> Any:
    weight = getattr(module, "weight", None)
    return weight if isinstance(weight, torch.Tensor) and weight.is_floating_point() \
        and not weight.is_sparse and weight.numel() else None
