"""Time one recipe step on every device: what the window writes and shows.

Qt-free. The window writes a step's expression for a device (``on_device``) and shows
the times (``format_seconds``); the kernel times it (``app.explain.step_timing``, whose
``Timing`` and ``time_text`` are named here too).
"""

from __future__ import annotations

from app.catalog import CATALOG
from app.explain.step_timing import DEFAULT_MIN_RUN_TIME, Timing, TimingError, time_text
from app.expr import Attr, BinOp, Call, Const, Expr, Seq, Slice, Subscript, UnaryOp

__all__ = ["DEFAULT_MIN_RUN_TIME", "UNTIMED_OPS", "Timing", "TimingError", "format_seconds",
           "on_device", "time_text"]

#: Calls that are not worth timing, or that would write on every run.
UNTIMED_OPS = frozenset({"print", "torch.manual_seed"})


def on_device(expr: Expr, device: str) -> Expr:
    """``expr`` with every tensor-creating call inside it made on ``device``.

    ``torch.ones(5, 5)`` inside a step is timed as ``torch.ones(5, 5, device=...)``, so
    the op works on the device being measured instead of on the CPU.
    """
    if isinstance(expr, Call):
        args = tuple(on_device(a, device) for a in expr.args)
        kwargs = tuple((k, on_device(v, device)) for k, v in expr.kwargs)
        spec = CATALOG.get(expr.op)
        if spec is not None and spec.creates and any(p.name == "device" for p in spec.params):
            kwargs = tuple((k, v) for k, v in kwargs if k != "device") + (
                ("device", Const(device)),)
        return Call(expr.op, args, kwargs)
    if isinstance(expr, Seq):
        return Seq(tuple(on_device(e, device) for e in expr.items), expr.kind)
    if isinstance(expr, BinOp):
        return BinOp(expr.op, on_device(expr.left, device), on_device(expr.right, device))
    if isinstance(expr, UnaryOp):
        return UnaryOp(expr.op, on_device(expr.operand, device))
    if isinstance(expr, Subscript):
        return Subscript(on_device(expr.value, device), on_device(expr.index, device))
    if isinstance(expr, Slice):
        return expr
    if isinstance(expr, Attr):
        return Attr(on_device(expr.value, device), expr.name)
    return expr


def format_seconds(seconds: float) -> str:
    """``1.23 ms``, ``45.6 µs``, ``789 ns``: three significant digits and a unit."""
    if seconds != seconds:  # nan
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"
