"""Write one new statement's text: a step a form made, which had no text yet (the
recipe's text is otherwise edited where it is: ``app.recipe.step_edits``,
``app.recipe.form_edits``, ``app.recipe.statement_edits``)."""

from __future__ import annotations

import json
import math

from app.expr import (
    Attr,
    BinOp,
    Call,
    Code,
    Const,
    DType,
    Expr,
    Seq,
    Slice,
    Subscript,
    UnaryOp,
)
from app.recipe.model import Step

#: Lines longer than this wrap nested list literals one row per line.
LINE_LENGTH = 100

_PREC = {"==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5, "|": 6, "^": 7, "&": 8,
         "+": 10, "-": 10, "*": 11, "/": 11, "//": 11, "%": 11, "@": 11, "**": 13}
_UNARY, _PRIMARY = 12, 15


def write_step(step: Step, indent: str = "") -> str:
    """One statement, ``name = expr`` or a bare call; a code step is its own text."""
    if isinstance(step.expr, Code):
        return step.expr.text
    head = f"{step.name} = " if step.name else ""
    text = head + write_expr(step.expr)
    if len(indent + text) > LINE_LENGTH:
        text = head + write_expr(step.expr, wrap_at=len(indent))
    return text


def write_expr(expr: Expr, wrap_at: int | None = None) -> str:
    """Python text for ``expr``; with ``wrap_at``, nested lists put one row per line."""
    return _Writer(wrap_at).fmt(expr, 0)


def expr_code(expr: Expr) -> tuple[str, bool]:
    """Python text for ``expr``, and whether it needs brackets inside another expression
    (an operator's, a negative number)."""
    text, precedence = _Writer(None).node(expr)
    return text, precedence < _PRIMARY


class _Writer:
    def __init__(self, wrap_at: int | None):
        self.wrap_at = wrap_at
        self.depth = 0

    def fmt(self, e: Expr, need: int) -> str:
        text, prec = self.node(e)
        return f"({text})" if prec < need else text

    def node(self, e: Expr) -> tuple[str, int]:
        if isinstance(e, Const):
            return _const(e.value)
        if isinstance(e, Code):
            return e.text, 0
        if isinstance(e, Seq):
            return self.seq(e), _PRIMARY
        if isinstance(e, Call):
            return self.call(e), _PRIMARY
        if isinstance(e, BinOp):
            p = _PREC[e.op]
            if e.op == "**":
                left, right = self.fmt(e.left, p + 1), self.fmt(e.right, _UNARY)
            elif p == 5:
                left, right = self.fmt(e.left, p + 1), self.fmt(e.right, p + 1)
            else:
                left, right = self.fmt(e.left, p), self.fmt(e.right, p + 1)
            return f"{left} {e.op} {right}", p
        if isinstance(e, UnaryOp):
            return f"{e.op}{self.fmt(e.operand, _UNARY)}", _UNARY
        if isinstance(e, Subscript):
            index = e.index
            if isinstance(index, Seq) and index.kind == "tuple" and index.items:
                inner = ", ".join(self.fmt(i, 0) for i in index.items)
                if len(index.items) == 1:
                    inner += ","  # x[0,] is a one-element tuple index, not x[0]
            else:
                inner = self.fmt(index, 0)
            return f"{self.fmt(e.value, _PRIMARY)}[{inner}]", _PRIMARY
        if isinstance(e, Slice):
            parts = ["" if p is None else self.fmt(p, 0) for p in (e.lower, e.upper, e.step)]
            text = f"{parts[0]}:{parts[1]}" + (f":{parts[2]}" if e.step is not None else "")
            return text, 0
        if isinstance(e, Attr):
            return f"{self.fmt(e.value, _PRIMARY)}.{e.name}", _PRIMARY
        return f"{e.name}", _PRIMARY  # Ref

    def call(self, e: Call) -> str:
        args = list(e.args)
        if e.is_method:
            head = f"{self.fmt(args.pop(0), _PRIMARY)}.{e.name}"
        else:
            head = e.op
        parts = [self.fmt(a, 0) for a in args]
        parts += [f"{k}={self.fmt(v, 0)}" for k, v in e.kwargs]
        return f"{head}({', '.join(parts)})"

    def seq(self, e: Seq) -> str:
        if e.kind == "dict":  # (key, value) pairs: {"a": nn.Linear(2, 2)}
            pairs = [i.items for i in e.items]  # type: ignore[attr-defined]
            return "{" + ", ".join(f"{self.fmt(k, 0)}: {self.fmt(v, 0)}" for k, v in pairs) + "}"
        open_, close = ("[", "]") if e.kind == "list" else ("(", ")")
        nested = self.wrap_at is not None and e.items and all(
            isinstance(i, Seq) for i in e.items)
        self.depth += 1
        items = [self.fmt(i, 0) for i in e.items]
        self.depth -= 1
        if e.kind == "tuple" and len(items) == 1:
            return f"({items[0]},)"
        if nested:
            pad = " " * ((self.wrap_at or 0) + 4 * (self.depth + 1))
            end = " " * ((self.wrap_at or 0) + 4 * self.depth)
            return open_ + "\n" + "".join(f"{pad}{i},\n" for i in items) + end + close
        return open_ + ", ".join(items) + close


def literal_code(value: object) -> tuple[str, bool]:
    """Python text for a literal, and whether it needs brackets before ``**``, ``.``,
    ``[`` or ``(`` (a negative number)."""
    text, precedence = _const(value)
    return text, precedence < _PRIMARY


def _const(value: object) -> tuple[str, int]:
    if isinstance(value, DType):
        return str(value), _PRIMARY
    if value is Ellipsis:
        return "...", _PRIMARY
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")', _PRIMARY
        if math.isinf(value):
            return ('float("inf")', _PRIMARY) if value > 0 else ('float("-inf")', _PRIMARY)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False), _PRIMARY
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        return repr(value), _UNARY
    return repr(value), _PRIMARY
