"""A tensor's values as the window holds them: a NumPy copy and torch's facts, no torch.

The kernel sends small copies of values as plain data (``kernel.mirror.encode``: a
tensor's values as a NumPy array, its dtype's name, ``requires_grad``, device, strides).
``copy_of`` makes a ``TensorCopy`` of such a copy, and lists, tuples and plain values of
the rest, without importing torch: the window shows values, it never computes on
tensors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from protocol.copies import walk


@dataclass(frozen=True, eq=False)
class TensorCopy:
    """A tensor copied out of the kernel.

    Parameters
    ----------
    values : numpy.ndarray
        Its elements, C-contiguous, in the tensor's shape (a ``bfloat16`` tensor's as
        float32, which holds each of them exactly).
    dtype : str
        torch's name of its dtype, without ``torch.`` (``"float32"``, ``"int64"``).
    requires_grad : bool
    device : str
        Where it lives in the kernel (``"cpu"``, ``"cuda:0"``).
    strides : tuple of int
        Its strides in the kernel, in elements (a transpose's are not row-major).
    """

    values: np.ndarray
    dtype: str
    requires_grad: bool = False
    device: str = "cpu"
    strides: tuple[int, ...] = ()

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.values.shape)

    @property
    def ndim(self) -> int:
        return self.values.ndim

    def numel(self) -> int:
        return int(self.values.size)

    def dim(self) -> int:
        return self.values.ndim

    @property
    def is_floating_point(self) -> bool:
        return self.dtype.startswith(("float", "bfloat", "half", "double"))

    @property
    def is_complex(self) -> bool:
        return self.dtype.startswith("complex")


def copy_of(data: Any) -> Any:
    """The value a kernel copy ``data`` holds: a ``TensorCopy``, a list or tuple of such
    values, a plain value, a dtype's name as ``"torch.float64"``; None for none."""
    return walk(data, _tensor_copy, lambda name: f"torch.{name}")


def _tensor_copy(data: dict) -> TensorCopy:
    values = np.ascontiguousarray(data["tensor"])
    strides = tuple(int(s) for s in data.get("strides") or ())
    if len(strides) != values.ndim:
        strides = _row_major(values.shape)
    return TensorCopy(values, str(data.get("dtype", values.dtype.name)),
                      bool(data.get("requires_grad")), str(data.get("device", "cpu")), strides)


def _row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))
