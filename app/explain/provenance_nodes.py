"""Provenance's forward pass: a step's expression as a tree of nodes, each evaluated once.

Qt-free. ``forward`` splits an expression into nodes (each call, operator, subscript or
attribute) and evaluates them bottom up; each node keeps a *template*, its expression
with every operand replaced by ``Ref("_p<i>")``, so that ``app.explain.provenance_rules``
can evaluate it again with operands of its choosing (``local_namespace``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.explain.probe import value_of
from app.expr import Attr, BinOp, Call, Const, Expr, Ref, Seq, Slice, Subscript, UnaryOp

if TYPE_CHECKING:
    import torch


@dataclass
class OpNode:
    """One node of an expression: its value, and how to evaluate it again."""

    expr: Expr
    template: Expr  # expr with each operand replaced by Ref("_p<i>")
    operands: list[OpNode]
    value: Any


def forward(expr: Expr, namespace: dict[str, Any]) -> OpNode:
    """``expr`` split into nodes and evaluated, operands first, in ``namespace``."""
    if isinstance(expr, Ref):
        return OpNode(expr, expr, [], namespace[expr.name])
    if isinstance(expr, Const):
        return OpNode(expr, expr, [], expr.value)
    template, parts = _split(expr)
    operands = [forward(p, namespace) for p in parts]
    value = value_of(template, local_namespace(operands))
    return OpNode(expr, template, operands, value)


def _split(expr: Expr) -> tuple[Expr, list[Expr]]:
    """``expr`` with its operands (sub-expressions that are nodes themselves) taken out."""
    parts: list[Expr] = []

    def sub(e: Expr) -> Expr:
        if isinstance(e, Const):
            return e
        if isinstance(e, Seq):
            return Seq(tuple(sub(i) for i in e.items), e.kind)
        if isinstance(e, Slice):
            return Slice(*(None if p is None else sub(p) for p in (e.lower, e.upper, e.step)))
        parts.append(e)
        return Ref(f"_p{len(parts) - 1}")

    if isinstance(expr, Call):
        template: Expr = Call(expr.op, tuple(sub(a) for a in expr.args),
                              tuple((k, sub(v)) for k, v in expr.kwargs))
    elif isinstance(expr, BinOp):
        template = BinOp(expr.op, sub(expr.left), sub(expr.right))
    elif isinstance(expr, UnaryOp):
        template = UnaryOp(expr.op, sub(expr.operand))
    elif isinstance(expr, Subscript):
        template = Subscript(sub(expr.value), sub(expr.index))
    elif isinstance(expr, Attr):
        template = Attr(sub(expr.value), expr.name)
    elif isinstance(expr, Seq):
        template = Seq(tuple(sub(i) for i in expr.items), expr.kind)
    elif isinstance(expr, Slice):
        template = Slice(*(None if p is None else sub(p)
                           for p in (expr.lower, expr.upper, expr.step)))
    else:
        template = expr
    return template, parts


def local_namespace(operands: list[OpNode], **replace: Any) -> dict[str, Any]:
    """The namespace a template is evaluated in: fresh copies, so in-place ops harm nothing."""
    ns = {f"_p{i}": copy_value(node.value) for i, node in enumerate(operands)}
    ns.update(replace)
    return ns


def copy_value(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(copy_value(v) for v in value)
    return value


def tensors_in(value: Any) -> list[torch.Tensor]:
    """The tensors a value holds: itself, or the items of a flat tuple or list."""
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []


def no_elements(value: Any) -> list[torch.Tensor]:
    """A mask with nothing wanted for each tensor ``value`` holds."""
    import torch

    return [torch.zeros(t.shape, dtype=torch.bool) for t in tensors_in(value)]

