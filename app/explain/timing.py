"""Time one recipe step on every device: what the window writes and shows.

Qt-free. The window writes a step's expression for a device (``on_device``, from the
statement's text) and shows the times (``format_seconds``); the kernel times it
(``kernel.explain.step_timing.time_text``), and its answer is a ``protocol.timing.Timing``.
"""

from __future__ import annotations

import ast
import textwrap

from app.catalog import CATALOG
from app.catalog.call_keys import call_key
from protocol.timing import DEFAULT_MIN_RUN_TIME, Timing

__all__ = ["DEFAULT_MIN_RUN_TIME", "UNTIMED_OPS", "Timing", "format_seconds", "on_device"]

#: Calls that are not worth timing, or that would write on every run.
UNTIMED_OPS = frozenset({"print", "torch.manual_seed"})


def on_device(statement: str, device: str) -> str:
    """The expression a step's ``statement`` computes, with every tensor-creating call
    inside it made on ``device``, as text for the kernel to time.

    ``torch.ones(5, 5)`` inside a step is timed as ``torch.ones(5, 5, device=...)``, so
    the op works on the device being measured instead of on the CPU. Raises
    ``SyntaxError`` or ``ValueError`` for a statement that computes no one expression.
    """
    body = ast.parse(textwrap.dedent(statement)).body
    if len(body) != 1 or not isinstance(body[0], ast.Assign | ast.Expr):
        raise ValueError(f"not one assignment or call: {statement!r}")
    return ast.unparse(_OnDevice(device).visit(body[0].value))


class _OnDevice(ast.NodeTransformer):
    def __init__(self, device: str):
        self.device = device

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        spec = CATALOG.get(call_key(node.func))
        if spec is not None and spec.creates and any(p.name == "device" for p in spec.params):
            node.keywords = [k for k in node.keywords if k.arg != "device"] + [
                ast.keyword("device", ast.Constant(self.device))]
        return node


def format_seconds(seconds: float) -> str:
    """``1.23 ms``, ``45.6 µs``, ``789 ns``: three significant digits and a unit."""
    if seconds != seconds:  # nan
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"
