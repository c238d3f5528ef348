"""What the viewer says about a tensor: its facts, its statistics, and 2-D planes of it.

Qt-free and vectorised: every function here is a handful of torch calls, so a
4096 x 4096 tensor costs milliseconds, never a Python loop over its elements.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from protocol.tensor_summary import MISSING, bytes_text, number_text, tuple_text
from protocol.tensor_summary import plane as array_plane

if TYPE_CHECKING:
    import torch

#: The most elements whose std is taken in two passes (``_std``: a copy of them, 16 MiB
#: of float32 at most).
TWO_PASS_CELLS = 1 << 22


def tensor_facts(t: torch.Tensor) -> list[tuple[str, str]]:
    """The layout facts of ``t``, as ``(label, text)`` pairs in display order.

    Parameters
    ----------
    t : torch.Tensor
        Any tensor; nothing is read from its elements.

    Returns
    -------
    list of (str, str)
        shape, dtype, device, numel, bytes (``numel * element_size``), strides,
        storage offset, is_contiguous, requires_grad, is_leaf and grad_fn (the
        node's class name, or ``None``).
    """
    from kernel import tensor_kinds

    what = tensor_kinds.kind(t)
    extra = tensor_kinds.facts(t)
    strided = what in ("strided", "quantized", "meta")
    grad_fn = t.grad_fn
    return [
        ("shape", "nested " + ", ".join(tuple_text(tuple(s)) for s in extra["shapes"])
         if what == "nested" else tuple_text(tuple(t.shape))),
        ("dtype", str(t.dtype) + _quantization_text(extra)),
        ("device", str(t.device)),
        ("numel", f"{t.numel():,}"),
        ("bytes", bytes_text(t.numel() * t.element_size()) if what != "sparse"
         else MISSING),  # a sparse tensor's elements are mostly not stored
        ("strides", tuple_text(t.stride()) if strided else MISSING if what == "nested"
         else f"{MISSING} {extra['layout']}, nnz {extra['nnz']}"),  # sparse: none
        ("storage offset", str(t.storage_offset()) if strided else MISSING),
        ("is_contiguous", str(t.is_contiguous()) if strided else MISSING),
        ("requires_grad", str(t.requires_grad)),
        ("is_leaf", str(t.is_leaf)),
        ("grad_fn", type(grad_fn).__name__ if grad_fn is not None else "None"),
    ]


def _quantization_text(extra: dict) -> str:
    """`` (per_tensor_affine, scale 0.1, zero_point 0)`` for a quantized tensor; else ""."""
    if "qscheme" not in extra:
        return ""
    parts = [extra["qscheme"]] + [f"{k} {extra[k]}" for k in ("scale", "zero_point", "axis")
                                  if k in extra]
    return " (" + ", ".join(parts) + ")"


def tensor_stats(t: torch.Tensor) -> list[tuple[str, str]]:
    """Summary statistics of ``t``'s values, as ``(label, text)`` pairs.

    min, max, mean and std are taken over the **finite** elements only: NaN and
    ±inf are left out of all four and counted instead, under ``NaN`` and ``inf``.
    std is the sample standard deviation (``correction=1``). Integer and bool
    tensors are summarised on a float64 copy (min and max stay exact integers);
    complex tensors are summarised by magnitude, and their labels say ``|z|``.
    Where a statistic has no values to work on (an empty tensor, no finite
    element, std of fewer than two) it reads ``"—"``. Other kinds of tensor
    (``kernel.tensor_kinds.elements``): a quantized one is summarised dequantized, a sparse
    one with its zeros (every statistic ``"—"`` past ``DENSE_LIMIT`` elements), a
    nested one over all its components; a meta tensor has no values, so every statistic
    reads ``"—"``.

    Parameters
    ----------
    t : torch.Tensor
        The tensor to summarise; it is detached first and never modified.

    Returns
    -------
    list of (str, str)
        ``min``, ``max``, ``mean``, ``std``, ``NaN``, ``inf`` in that order.
    """
    import torch

    from kernel.tensor_kinds import elements

    labels = ["min", "max", "mean", "std"]
    if t.is_complex():
        labels = [f"{k} |z|" for k in labels]
    values = elements(t)
    if values is None:
        return [(k, MISSING) for k in labels] + [("NaN", MISSING), ("inf", MISSING)]
    t = values.abs() if values.is_complex() else values
    t = t.reshape(-1)
    if not t.is_floating_point():
        # Integers and bools have no NaN or inf: min and max are exact, the rest is float.
        exact = t.to(torch.int64) if t.dtype == torch.bool else t
        values = _summary(t.to(torch.float64), _extremes(exact))
        return list(zip(labels, values, strict=True)) + [("NaN", "0"), ("inf", "0")]
    if t.dtype in (torch.float16, torch.bfloat16) or t.element_size() < 2:
        t = t.float()  # half precision sums lose too much; float8 has no reductions
    extremes = _extremes(t)
    if extremes is None or all(math.isfinite(e.item()) for e in extremes):
        # aminmax propagates NaN and would return an inf, so every element is finite.
        values_t, n_nan, n_inf = t, 0, 0
    else:
        values_t, n_nan = _finite_values(t)
        n_inf = t.numel() - values_t.numel() - n_nan
        extremes = _extremes(values_t)
    values = _summary(values_t, extremes)
    return list(zip(labels, values, strict=True)) + [("NaN", f"{n_nan:,}"), ("inf", f"{n_inf:,}")]


def _extremes(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor] | None:
    """``(min, max)`` of ``t``, or None when it is empty."""
    import torch

    if t.numel() == 0:
        return None
    lo, hi = torch.aminmax(t)
    return lo, hi


def _finite_values(t: torch.Tensor) -> tuple[torch.Tensor, int]:
    """The finite elements of the 1-D float tensor ``t``, and how many of the rest are NaN."""
    import torch

    if t.device.type == "cpu":
        # numpy's isfinite and boolean indexing are several times faster than torch's on CPU.
        a = t.numpy()
        n_nan = int(np.count_nonzero(np.isnan(a)))
        return torch.from_numpy(a[np.isfinite(a)]), n_nan
    return t[torch.isfinite(t)], int(torch.count_nonzero(torch.isnan(t)))


def _summary(values: torch.Tensor, extremes: tuple[torch.Tensor, torch.Tensor] | None
             ) -> list[str]:
    """min and max (from ``extremes``), mean and std (of the 1-D ``values``), as text."""
    n = values.numel()
    if n == 0 or extremes is None:
        return [MISSING] * 4
    lo, hi = extremes
    std = number_text(_std(values)) if n > 1 else MISSING
    return [number_text(lo.item()), number_text(hi.item()), number_text(values.mean().item()),
            std]


def _std(values: torch.Tensor) -> float:
    """The sample std of the 1-D float ``values`` (``Tensor.std()``'s): up to
    ``TWO_PASS_CELLS`` elements, two passes, the mean's and the deviations' summed squares
    (torch's cascade sum: as exact as ``std()`` in float32, and on 10^6 float32 a
    quarter of its time, whose Welford loop does not vectorize); past it, ``std()``
    itself, which needs no copy of the tensor."""
    n = values.numel()
    if n > TWO_PASS_CELLS:
        return values.std().item()
    deviations = values - values.mean()
    return math.sqrt(deviations.square_().sum().item() / (n - 1))


def plane(t: torch.Tensor, rows_dim: int, cols_dim: int,
          index: Mapping[int, int] | None = None) -> torch.Tensor:
    """The 2-D slice of ``t`` spanned by ``rows_dim`` and ``cols_dim``, a detached view
    (``protocol.tensor_summary.plane``: the same cut of a numpy array, where its parameters,
    what it returns and raises are told)."""
    return array_plane(t.detach(), rows_dim, cols_dim, index)


def plane_array(p: torch.Tensor) -> np.ndarray:
    """A numpy array of the plane ``p`` for display: a view of it where numpy can, else a copy.

    The tensor is detached and brought to the CPU (only ``p`` itself travels).
    dtypes numpy lacks (bfloat16, float8, complex32...) are widened to float32
    or complex64.
    """
    import torch

    p = p.detach().cpu().resolve_conj().resolve_neg()
    try:
        return p.numpy()
    except (TypeError, RuntimeError):
        return p.to(torch.complex64 if p.is_complex() else torch.float32).numpy()
