"""Per-op extras of the "Op explained" view, chosen by op name from one table, ``EXTRAS``.

Provenance (which input cells an output cell came from) is one general mechanism in
``widgets.explain.op_view``; an extra adds what only some ops need: a diagram, a slider, a
histogram, or a decoration of the output grid (greyed cells, a diagonal, a colour per
source tensor). Each extra is made once per view and then only updated.
"""

from __future__ import annotations

from app.explain.step_view import StepView
from widgets.explain.extra_base import Decoration, OpExtra
from widgets.explain.extras_shape import (
    BROADCAST_OPS,
    BroadcastExtra,
    ShapeChangeExtra,
    StorageOrderExtra,
)
from widgets.explain.extras_values import ClampHistogramExtra, DiagonalExtra, SourceColourExtra

__all__ = ["EXTRAS", "BroadcastExtra", "ClampHistogramExtra", "Decoration", "DiagonalExtra",
           "OpExtra", "ShapeChangeExtra", "SourceColourExtra", "StepView",
           "StorageOrderExtra"]

#: The extra shown for each op, by op name or operator. One entry per op; no if-chains.
EXTRAS: dict[str, type[OpExtra]] = {
    "view": StorageOrderExtra,
    "reshape": StorageOrderExtra,
    "squeeze": ShapeChangeExtra,
    "unsqueeze": ShapeChangeExtra,
    "tril": DiagonalExtra,
    "triu": DiagonalExtra,
    "clamp": ClampHistogramExtra,
    "cat": SourceColourExtra,
    "stack": SourceColourExtra,
    **dict.fromkeys(BROADCAST_OPS, BroadcastExtra),
}
