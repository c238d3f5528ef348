"""An expression tree's value, for the tests of the reader and the forms: what python
makes of its text (``app.recipe.writer.write_expr``), with torch's modules bound as
recipes spell them. (The window no longer evaluates trees: Op explained asks the kernel.)"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 - as recipes spell it

from app.recipe.writer import write_expr


def value_of(expr: Any, namespace: dict[str, Any]) -> Any:
    """The value of ``expr`` with the names it reads taken from ``namespace``."""
    return eval(write_expr(expr), {"torch": torch, "F": F, "nn": torch.nn}, dict(namespace))
