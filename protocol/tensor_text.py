"""A tensor written as text: Python that builds it again, or CSV.

Qt-free, and it never imports torch (a tensor comes as the argument): the kernel writes
its tensors (the ``text`` query of ``kernel.explain.kernel_queries``), and the window a
plane it shows (``app.exports``).

* ``tensor_literal(t)`` is Python that a recipe may hold and that builds an equal
  tensor: ``torch.tensor([[1.0, 2.0]], dtype=torch.float32)``. Every element is written
  with the fewest digits that read back to the same value of its dtype; NaN and
  infinities as ``float("nan")``, ``float("inf")``.
* ``tensor_csv(t)`` writes a 0-, 1- or 2-D tensor as rows of numbers that
  ``numpy.loadtxt(..., delimiter=",")`` reads back exactly; ``array_csv`` a NumPy array
  as ``tensor_csv`` writes a tensor of its dtype.
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np

#: Above this many elements a literal is refused: the recipe reader takes at most 500,000.
LITERAL_LIMIT = 100_000


# -- tensors -----------------------------------------------------------------------------------
def tensor_literal(t: Any) -> str:
    """Python for ``t``: ``torch.tensor(...)`` with its dtype, readable by ``app.recipe.reader``.

    Raises ``ValueError`` above ``LITERAL_LIMIT`` elements or for dtypes a recipe
    cannot name.
    """
    t = t.detach()
    if t.numel() > LITERAL_LIMIT:
        raise ValueError(f"{t.numel():,} elements are too many for a literal "
                         f"(at most {LITERAL_LIMIT:,})")
    dtype = str(t.dtype)
    if t.dtype.is_complex is False and dtype not in _ELEMENT_FORMATS:
        raise ValueError(f"a recipe cannot write tensors of {dtype}")
    if t.numel() == 0:
        sizes = ", ".join(str(s) for s in t.shape)
        return f"torch.zeros({sizes}, dtype={dtype})" if sizes else \
            f"torch.zeros((), dtype={dtype})"
    values = _as_numpy(t.cpu())
    fmt = _element_format(dtype)
    return f"torch.tensor({_nested(values, fmt)}, dtype={dtype})"


def tensor_csv(t: Any) -> str:
    """Comma-separated values of a tensor of at most two dimensions, one line per row.

    A 0-D tensor is one value, a 1-D tensor one row. Floats keep every digit their dtype
    holds; NaN and infinities are written ``nan``, ``inf``, ``-inf``.
    """
    t = t.detach().cpu()
    if t.ndim > 2:
        raise ValueError(f"CSV holds at most two dimensions, not {t.ndim}; "
                         "export one plane")
    return array_csv(_as_numpy(t), str(t.dtype))


def array_csv(values: np.ndarray, dtype: str | None = None) -> str:
    """CSV of a NumPy array of at most two dimensions, as ``tensor_csv`` writes a tensor
    of torch's dtype ``dtype`` (``"torch.float32"``; by default, the array's own)."""
    values = np.asarray(values)
    if values.ndim > 2:
        raise ValueError(f"CSV holds at most two dimensions, not {values.ndim}; "
                         "export one plane")
    rows = values.reshape(1, -1) if values.ndim < 2 else values
    fmt = _element_format(dtype or f"torch.{values.dtype.name}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([_csv_cell(v, fmt) for v in row])
    return out.getvalue()


def _as_numpy(t: Any) -> np.ndarray:
    if str(t.dtype) == "torch.bfloat16":
        return t.float().numpy()  # exact: every bfloat16 is a float32
    return t.numpy()


def _element_format(dtype: str):
    """How an element of torch's dtype ``dtype`` (``"torch.float32"``) is written."""
    if dtype.startswith("torch.complex"):
        part = _ELEMENT_FORMATS["torch.float32" if dtype == "torch.complex64"
                                else "torch.float64"]

        def complex_text(v: complex) -> str:
            re_, im = part(v.real), part(v.imag)
            if not (math.isfinite(v.real) and math.isfinite(v.imag)):
                raise ValueError("a literal cannot hold a complex NaN or infinity")
            sign = "-" if im.startswith("-") else "+"
            return f"({re_} {sign} {im.lstrip('-')}j)"
        return complex_text
    if dtype not in _ELEMENT_FORMATS:
        raise ValueError(f"a recipe cannot write tensors of {dtype}")
    return _ELEMENT_FORMATS[dtype]


def _float_text(kind):
    def text(v) -> str:
        f = float(v)
        if math.isnan(f):
            return 'float("nan")'
        if math.isinf(f):
            return 'float("inf")' if f > 0 else 'float("-inf")'
        s = str(kind(v))  # numpy's shortest text that reads back to the same value
        return s if any(c in s for c in ".en") else s + ".0"
    return text


#: How each dtype a literal can hold writes an element, by the dtype's name.
_ELEMENT_FORMATS = {
    "torch.float16": _float_text(np.float16),
    "torch.bfloat16": _float_text(np.float32),
    "torch.float32": _float_text(np.float32),
    "torch.float64": _float_text(np.float64),
    "torch.bool": lambda v: "True" if v else "False",
    **{f"torch.{d}": (lambda v: str(int(v))) for d in ("uint8", "int8", "int16", "int32",
                                                      "int64")},
}


def _nested(values: np.ndarray, fmt) -> str:
    if values.ndim == 0:
        return fmt(values.item() if values.dtype.kind == "c" else values[()])
    if values.ndim == 1:
        items = values.tolist() if values.dtype.kind == "c" else values
        return "[" + ", ".join(fmt(v) for v in items) + "]"
    return "[" + ", ".join(_nested(row, fmt) for row in values) + "]"


def _csv_cell(v, fmt) -> str:
    if isinstance(v, np.complexfloating):
        return str(complex(v))
    text = fmt(v)
    return {'float("nan")': "nan", 'float("inf")': "inf", 'float("-inf")': "-inf"}.get(text,
                                                                                      text)
