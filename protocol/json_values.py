"""Values as JSON can hold them: NaN as "nan", complex numbers as pairs, tuples as lists.

Both sides use it, and it imports no torch: the kernel's report of a recipe's tensors is
``kernel.tensor_json``'s, which hands its tensors to ``plain`` as ``other``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


def plain(value: Any, other: Callable[[Any], Any] = str) -> Any:
    """``value`` with NaN and infinities as the strings "nan", "inf", "-inf", a complex
    number as ``[real, imag]`` and a tuple (``torch.Size`` too) as a list; a value JSON
    cannot hold (inside a list too) as ``other`` makes it (its ``str``)."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, complex):
        return [plain(value.real), plain(value.imag)]
    if isinstance(value, (list, tuple)):
        return [plain(v, other) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return other(value)
