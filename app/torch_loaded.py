"""What can be told of torch without importing it.

No torch value exists before torch is imported, so where it is not, a value is no tensor
and no dtype. The window never imports torch: code that runs on both sides asks here, not
with ``isinstance``.
"""

from __future__ import annotations

import sys
from typing import Any


def loaded_torch() -> Any:
    """torch, where this process has imported it all (never imported here); else None."""
    torch = sys.modules.get("torch")
    return torch if hasattr(torch, "Tensor") and hasattr(torch, "dtype") else None


def is_tensor(value: Any) -> bool:
    """``isinstance(value, torch.Tensor)``, without importing torch."""
    torch = loaded_torch()
    return torch is not None and isinstance(value, torch.Tensor)


def is_dtype(value: Any) -> bool:
    """``isinstance(value, torch.dtype)``, without importing torch."""
    torch = loaded_torch()
    return torch is not None and isinstance(value, torch.dtype)
