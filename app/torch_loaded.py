"""What can be told of torch without importing it.

No torch value exists before torch is imported, so where it is not, a value is no tensor
and no dtype. The window never imports torch: code that runs on both sides asks here, not
with ``isinstance``.
"""

from __future__ import annotations

from typing import Any

from app.kernel.summary import loaded_torch


def is_tensor(value: Any) -> bool:
    """``isinstance(value, torch.Tensor)``, without importing torch."""
    torch = loaded_torch()
    return torch is not None and isinstance(value, torch.Tensor)


def is_dtype(value: Any) -> bool:
    """``isinstance(value, torch.dtype)``, without importing torch."""
    torch = loaded_torch()
    return torch is not None and isinstance(value, torch.dtype)
