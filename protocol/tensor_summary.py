"""What the window shows of a tensor from a kernel's summary of it, without torch.

A small tensor's summary (``kernel.summary``) carries its values, and its statistics
as ``kernel.tensor_info.tensor_stats`` gave them in the kernel; here they become the
viewer's facts, statistics and planes, as numpy arrays. The helpers that turn numbers
into text live here too, so the kernel's texts and the window's are made by one code,
and ``summary_text``: the one line a summary reads as.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

#: Shown where a statistic does not exist (an empty tensor, no finite values).
MISSING = "—"

#: The numpy dtype a plane of each torch dtype shows in, as ``tensor_info.plane_array``
#: gives it: those numpy lacks are widened to float32 or complex64.
_DISPLAY_DTYPES = {
    **{name: np.dtype(name) for name in (
        "bool", "float16", "float32", "float64", "complex64", "complex128",
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")},
    "complex32": np.dtype(np.complex64), "bfloat16": np.dtype(np.float32),
    **{name: np.dtype(np.float32) for name in (
        "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
        "float8_e8m0fnu")},
}


def summary_facts(summary: Mapping) -> list[tuple[str, str]]:
    """``tensor_facts`` as a kernel's summary of a tensor tells them
    (``kernel.summary``): what it does not say shows as ``MISSING``, never a guess."""

    def told(key: str, text=str) -> str:
        value = summary.get(key)
        return MISSING if value is None and key != "grad_fn" else text(value)

    shape = tuple(summary.get("shape", ()))
    numel = 1
    for n in shape:
        numel *= n
    size = summary.get("element_size")
    return [
        ("shape", tuple_text(shape)),
        ("dtype", told("dtype")),
        ("device", told("device")),
        ("numel", f"{numel:,}"),
        ("bytes", bytes_text(numel * size) if size is not None else MISSING),
        ("strides", told("strides", lambda v: tuple_text(tuple(v)))),
        ("storage offset", told("storage_offset")),
        ("is_contiguous", told("is_contiguous")),
        ("requires_grad", told("requires_grad")),
        ("is_leaf", told("is_leaf")),
        ("grad_fn", told("grad_fn")),
    ]


def summary_stats(summary: Mapping) -> list[tuple[str, str]]:
    """``tensor_stats`` of the tensor a summary carries whole: the kernel's (``stats``);
    a real 0-d tensor's are worked out from its one value, which gives the same texts
    (the kernel leaves them out: a loop's samples of a 0-d tensor share their summary
    but for the value). Every statistic reads ``MISSING`` where neither is there."""
    if "stats" in summary:
        return [(str(label), str(text)) for label, text in summary["stats"]]
    dtype = str(summary.get("dtype", "")).removeprefix("torch.")
    value = summary.get("values")
    if summary.get("shape") == [] and not dtype.startswith("complex") \
            and isinstance(value, bool | int | float | str):
        return _one_value_stats(value, dtype)
    labels = ["min", "max", "mean", "std"]
    if dtype.startswith("complex"):
        labels = [f"{k} |z|" for k in labels]
    return [(k, MISSING) for k in [*labels, "NaN", "inf"]]


def _one_value_stats(value: bool | int | float | str, dtype: str) -> list[tuple[str, str]]:
    """``tensor_stats`` of a tensor of one real ``value`` (as a summary holds it: a
    non-finite float as "nan", "inf" or "-inf"): min, max and mean are the value (an
    integer's mean as float), its std needs two, NaN and inf count it when it is one."""
    if isinstance(value, str) or dtype.startswith(("float", "bfloat")):
        number = float(value)
        if number != number:  # NaN
            return [(k, MISSING) for k in ("min", "max", "mean", "std")] + [
                ("NaN", "1"), ("inf", "0")]
        if number in (float("inf"), float("-inf")):
            return [(k, MISSING) for k in ("min", "max", "mean", "std")] + [
                ("NaN", "0"), ("inf", "1")]
        text = number_text(number)
        return [("min", text), ("max", text), ("mean", text), ("std", MISSING),
                ("NaN", "0"), ("inf", "0")]
    exact = number_text(int(value))
    return [("min", exact), ("max", exact), ("mean", number_text(float(value))),
            ("std", MISSING), ("NaN", "0"), ("inf", "0")]


def summary_array(summary: Mapping) -> np.ndarray | None:
    """The values a summary carries whole, as a numpy array of its shape in the dtype its
    planes show in (``tensor_info.plane_array``'s); None when it carries none, or values
    of a kind the viewer does not show (sparse, quantized: not the tensor's own)."""
    if summary.get("type") != "Tensor" or "values" not in summary or "kind" in summary:
        return None
    dtype = _DISPLAY_DTYPES.get(str(summary.get("dtype", "")).removeprefix("torch."))
    if dtype is None:
        return None
    shape = tuple(summary.get("shape", ()))
    try:
        if dtype.kind in "biu":  # integers stay exact: never through float64
            return np.array(summary["values"], dtype=dtype).reshape(shape)
        numbers = np.array(_numbers(summary["values"]), dtype=np.float64)
        if dtype.kind == "c":  # each value is [real, imaginary]
            values = np.zeros(shape, dtype)
            if numbers.size:
                values.real, values.imag = numbers[..., 0], numbers[..., 1]
            return values
        return numbers.astype(dtype).reshape(shape)
    except (TypeError, ValueError, OverflowError, IndexError):
        return None


def _numbers(values: Any) -> Any:
    """Nested values with "nan", "inf" and "-inf" as floats."""
    if isinstance(values, list):
        return [_numbers(v) for v in values]
    return float(values) if isinstance(values, str) else values


def plane(values: Any, rows_dim: int, cols_dim: int,
          index: Mapping[int, int] | None = None) -> Any:
    """The 2-D slice of ``values`` (a numpy array, or a torch tensor: only indexing is
    used) spanned by ``rows_dim`` and ``cols_dim``, as a view.

    Parameters
    ----------
    values : numpy.ndarray or torch.Tensor
        An array of any number of dimensions.
    rows_dim, cols_dim : int
        The dimensions shown as rows and as columns; negative values count from
        the end. They must differ. Ignored for 0-D and 1-D arrays.
    index : mapping of int to int, optional
        The fixed index of every other dimension; a dimension left out is taken
        at 0.

    Returns
    -------
    numpy.ndarray or torch.Tensor
        ``(shape[rows_dim], shape[cols_dim])``. A 0-D array gives a 1 x 1 plane and a
        1-D array a single row, 1 x N.

    Raises
    ------
    ValueError
        When the two dimensions are the same.
    IndexError
        When a dimension or a fixed index is out of range.
    """
    if values.ndim == 0:
        return values.reshape(1, 1)
    if values.ndim == 1:
        return values[None]
    rows, cols = _dim(rows_dim, values.ndim), _dim(cols_dim, values.ndim)
    if rows == cols:
        raise ValueError(f"rows and columns must be different dimensions, both are {rows}")
    fixed = {_dim(d, values.ndim): i for d, i in (index or {}).items()}
    key = tuple(slice(None) if d in (rows, cols) else fixed.get(d, 0)
                for d in range(values.ndim))
    out = values[key]
    return out.T if rows > cols else out


def _dim(d: int, ndim: int) -> int:
    if not -ndim <= d < ndim:
        raise IndexError(f"dimension {d} is out of range for a {ndim}-D tensor")
    return d % ndim


def tuple_text(values: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ("," if len(values) == 1 else "") + ")"


def bytes_text(n: int) -> str:
    if n < 1024:
        return f"{n:,} B"
    for unit, size in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n >= size:
            return f"{n:,} B ({n / size:.1f} {unit})"
    return f"{n:,} B"  # pragma: no cover - the loop always returns


def number_text(v: float | int | bool) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    return f"{v:.6g}"


def summary_text(summary: dict[str, Any]) -> str:
    """One line for a summary: ``Tensor (2, 3) torch.float32 cpu``, ``int 6``, ``Linear``..."""
    kind = summary.get("type", "")
    if kind in ("Tensor", "NestedTensor"):
        shapes = [summary["shape"]] if "shape" in summary else summary.get("shapes", [])
        shape = ", ".join("(" + ", ".join(map(str, s)) + ")" for s in shapes)
        grad = "  requires_grad" if summary.get("requires_grad") else ""
        fn = f"  grad_fn={summary['grad_fn']}" if summary.get("grad_fn") else ""
        return (f"{kind} {shape} {summary.get('dtype', '')} {summary.get('device', '')}"
                f"{_kind_text(summary)}{grad}{fn}")
    if summary.get("module"):
        return f"{kind} ({summary.get('parameter_count', 0)} parameters)"
    if "value" in summary:
        return f"{kind} {summary['value']!r}"
    text = summary.get("repr", "")
    if re.match(rf"<?([\w.]+\.)?{re.escape(kind)}\b", text):
        return text  # python's repr names its type already: device(type='cpu'), torch.Size
    return f"{kind} {text}".strip()


def _kind_text(summary: dict[str, Any]) -> str:
    """What a sparse, quantized or meta tensor's line adds: its layout, its scheme..."""
    what = summary.get("kind")
    if what == "sparse":
        return f" {summary.get('layout', '')} nnz={summary.get('nnz')}"
    if what == "quantized":
        scale = "".join(f" {k}={summary[k]}" for k in ("scale", "zero_point", "axis")
                        if k in summary)
        return f" {summary.get('qscheme', '')}{scale}"
    if what == "nested" and summary.get("layout") != "strided":
        return f" {summary.get('layout', '')}"
    return ""
