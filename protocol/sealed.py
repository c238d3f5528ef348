"""What the kernel's own machinery uses, out of the recipe's reach.

A recipe may patch what it likes: ``builtins.len = None``, ``json.dumps = None``. Under
python that breaks only the recipe; in the kernel it must not break the pipe, the output
capture or the summaries that report the recipe. So the kernel's modules look builtins up
in ``BUILTINS``, a copy taken when the kernel starts (``__builtins__ = BUILTINS`` at the
top of a module: its functions then read their builtins there), and the messages' JSON is
encoded and read by ``protocol.codec`` with ``_json``'s C functions, bound when it is
imported (as the kernel starts), which read no module attribute a recipe could replace.
(Not here: the window imports this module before its first paint, and json with it
cost 2 ms; it imports the codec with its kernel, after.)
"""

from __future__ import annotations

import builtins
from typing import Any

#: The builtins as they were when the kernel started.
BUILTINS: dict[str, Any] = dict(vars(builtins))
__builtins__ = BUILTINS  # noqa: A001 - this module's own lookups too
