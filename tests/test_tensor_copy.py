"""The window's copies of kernel tensors (app.tensor_copy) hold what torch holds."""

import numpy as np
import torch

from app.tensor_copy import TensorCopy, copy_of
from kernel.mirror import encode


def test_a_transposed_tensor_keeps_its_values_dtype_and_strides():
    t = torch.arange(6, dtype=torch.int32).reshape(2, 3).t()
    c = copy_of(encode(t))
    assert isinstance(c, TensorCopy)
    assert np.array_equal(c.values, t.numpy())
    assert c.shape == tuple(t.shape) and c.strides == t.stride() and c.dtype == "int32"


def test_bfloat16_and_requires_grad_come_back_exactly():
    t = torch.tensor([1.5, -0.0078125, 3e38], dtype=torch.bfloat16).requires_grad_()
    c = copy_of(encode(t))
    assert c.dtype == "bfloat16" and c.requires_grad and c.is_floating_point
    assert np.array_equal(c.values, t.detach().float().numpy())


def test_lists_tuples_plain_values_and_dtypes():
    parts = torch.arange(4.0).chunk(2)
    back = copy_of(encode(parts))
    assert isinstance(back, tuple) and [p.values.tolist() for p in back] == [[0, 1], [2, 3]]
    assert copy_of(encode([1, "a", None])) == [1, "a", None]
    assert copy_of(encode(torch.float64)) == "torch.float64"
    assert copy_of(None) is None and copy_of({"nonsense": 1}) is None
