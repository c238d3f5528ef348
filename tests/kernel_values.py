"""What a test reads of a document the kernel ran: the window's copies of its values."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from app.recipe.kernel_results import KernelValue
from app.tensor_copy import TensorCopy


def kernel_value(document: Any, name: str) -> Any:
    """The kernel's value of ``name`` as the window holds it, made a torch tensor again
    (``as_torch``): the copy sent with the last step that binds it (``kernel.mirror``;
    small values only). Waits for the run first when the document can (``run_in_kernel``'s
    ``settle``)."""
    settle = getattr(document, "settle", None)
    if settle is not None:
        settle()
    result = document.run.result_for(name)
    assert result is not None and isinstance(result.value, KernelValue), (name, result)
    return as_torch(result.value.output)


def as_torch(value: Any) -> Any:
    """A window's ``TensorCopy`` as the torch tensor it copies (its dtype, strides and
    ``requires_grad``), for comparing with torch; lists and tuples item by item."""
    if isinstance(value, TensorCopy):
        t = torch.from_numpy(np.array(value.values))
        dtype = getattr(torch, value.dtype, None)
        if isinstance(dtype, torch.dtype) and t.dtype != dtype:
            t = t.to(dtype)
        if value.strides and value.strides != t.stride() and 0 not in value.strides:
            t = torch.empty_strided(t.shape, value.strides, dtype=t.dtype).copy_(t)
        if value.requires_grad and (t.is_floating_point() or t.is_complex()):
            t.requires_grad_(True)
        return t
    if isinstance(value, (list, tuple)):
        return type(value)(as_torch(v) for v in value)
    return value
