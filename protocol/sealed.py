"""What the kernel's own machinery uses, out of the recipe's reach.

A recipe may patch what it likes: ``builtins.len = None``, ``json.dumps = None``. Under
python that breaks only the recipe; in the kernel it must not break the pipe, the output
capture or the summaries that report the recipe. So the kernel's modules look builtins up
in ``BUILTINS``, a copy taken when the kernel starts (``__builtins__ = BUILTINS`` at the
top of a module: its functions then read their builtins there), and encode JSON with
``dumps``/``loads`` below, bound to ``_json``'s C functions, which read no module
attribute a recipe could replace.
"""

from __future__ import annotations

import builtins
from json import JSONDecoder
from json.encoder import c_make_encoder, encode_basestring_ascii
from json.scanner import c_make_scanner
from typing import Any

#: The builtins as they were when the kernel started.
BUILTINS: dict[str, Any] = dict(vars(builtins))
__builtins__ = BUILTINS  # noqa: A001 - this module's own lookups too


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# json.dumps's defaults: ensure_ascii, ", " and ": ", NaN allowed (no circular check: a
# message is made of fresh containers)
_encode = c_make_encoder(None, _not_json, encode_basestring_ascii, None, ": ", ", ",
                         False, False, True)
_scan = c_make_scanner(JSONDecoder())


def dumps(value: Any) -> str:
    """``json.dumps(value)``, as python's C encoder makes it."""
    return "".join(_encode(value, 0))


def loads(text: str, scan: Any = _scan) -> Any:
    """``json.loads(text)`` of a compact JSON text (as ``dumps`` writes); ``ValueError``
    when it is not one. ``scan``: a scanner of one's own (``c_make_scanner``), for an
    ``object_hook``."""
    try:
        value, end = scan(text, 0)
    except StopIteration as e:
        raise ValueError(f"not JSON at {e.value}") from None
    if end != len(text):
        raise ValueError(f"extra data at {end}")
    return value
