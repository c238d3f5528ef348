"""Tensors whose elements are not one strided block: sparse, meta, nested, quantized.

On these, ``tolist()``, ``numpy()``, ``shape`` or ``stride()`` raise (a nested tensor has
no single shape, a meta tensor no values, a sparse one no strides, a quantized one no
plain numbers). Every place that reads a tensor's values for the lab (the ``--json``
report, the kernel's per-statement summaries, the viewer's queries) asks here first: what
kind of tensor it is, the facts a plain tensor lacks, and a strided tensor holding its
values where one can be made, or why none can.

Torch is imported only inside the functions: they are given tensors, so it is loaded.
"""

from __future__ import annotations

from typing import Any

#: The largest sparse tensor, in elements, made dense to be shown or measured.
DENSE_LIMIT = 1 << 24


def kind(t: Any) -> str:
    """``"nested"``, ``"meta"``, ``"sparse"`` (any sparse layout), ``"quantized"``, or
    ``"strided"`` for a plain tensor whose elements can be read as they are."""
    import torch

    if t.is_nested:
        return "nested"
    if t.device.type == "meta":
        return "meta"
    if t.layout != torch.strided:
        return "sparse"
    if t.is_quantized:
        return "quantized"
    return "strided"


def facts(t: Any) -> dict[str, Any]:
    """JSON-ready facts a plain tensor does not need: ``{}`` for one.

    Returns
    -------
    dict
        ``kind`` and ``layout``; a nested tensor's ``shapes`` (one per component); a
        sparse one's ``nnz`` (the entries it stores); a quantized one's ``qscheme`` and
        ``scale`` and ``zero_point`` (per tensor) or ``scales``, ``zero_points`` and
        ``axis`` (per channel).
    """
    what = kind(t)
    if what == "strided":
        return {}
    out: dict[str, Any] = {"kind": what, "layout": str(t.layout).removeprefix("torch.")}
    if what == "nested":
        out["shapes"] = [list(c.shape) for c in t.detach().unbind()]
    elif what == "sparse":
        out["nnz"] = int(t._nnz())
    elif what == "quantized":
        out.update(quantization(t))
    return out


def quantization(t: Any) -> dict[str, Any]:
    """A quantized tensor's scheme and parameters (``value = (q - zero_point) * scale``)."""
    scheme = t.qscheme()
    out: dict[str, Any] = {"qscheme": str(scheme).removeprefix("torch.")}
    if "per_tensor" in out["qscheme"]:
        out["scale"], out["zero_point"] = float(t.q_scale()), int(t.q_zero_point())
    else:
        out["scales"] = t.q_per_channel_scales().tolist()
        out["zero_points"] = t.q_per_channel_zero_points().tolist()
        out["axis"] = int(t.q_per_channel_axis())
    return out


def dense(t: Any, limit: int = DENSE_LIMIT) -> Any:
    """A detached strided tensor with ``t``'s shape and values, or None (``no_values``
    says why): ``t`` itself for a plain one, a quantized one dequantized, a sparse one
    made dense while it has at most ``limit`` elements; never a meta or nested one."""
    what = kind(t)
    if what == "strided":
        return t.detach()
    if what == "quantized":
        return t.detach().dequantize()
    if what == "sparse" and t.numel() <= limit:
        return t.detach().to_dense()
    return None


def elements(t: Any, limit: int = DENSE_LIMIT) -> Any:
    """Every element of ``t`` in one strided tensor, for statistics: ``dense(t)``, or a
    nested tensor's components flattened and joined; None for a meta tensor (or a sparse
    or nested one of more than ``limit`` elements)."""
    if kind(t) != "nested":
        return dense(t, limit)
    if t.numel() > limit:
        return None
    import torch

    parts = [c.reshape(-1) for c in t.detach().unbind()]
    return torch.cat(parts) if parts else None


def no_values(t: Any, limit: int = DENSE_LIMIT) -> str:
    """Why ``dense(t, limit)`` is None, in a sentence; ``""`` when it is not."""
    what = kind(t)
    if what == "meta":
        return "a meta tensor has a shape and a dtype but no values"
    if what == "nested":
        return "a nested tensor has no single shape: its components differ"
    if what == "sparse" and t.numel() > limit:
        return f"a sparse tensor of {t.numel():,} elements is too large to make dense"
    return ""


def coo(t: Any) -> dict[str, list]:
    """A sparse tensor's stored entries: ``indices`` (one list per dimension) and
    ``values``, in coordinate form whatever its layout (CSR, CSC, blocks)."""
    import torch

    c = t.detach()
    c = (c if c.layout == torch.sparse_coo else c.to_sparse_coo()).coalesce()
    return {"indices": c.indices().tolist(), "values": c.values().tolist()}
