"""The expression tree a recipe step holds.

A small, closed set of immutable nodes: what a form step's form shows and edits. The
reader builds them from Python's ``ast``, the writer turns them back into Python text,
and the explanations work parts of them out on the kernel's copies (``app.explain.probe``).
Nothing here can name an arbitrary Python object: calls name catalogue entries and
attributes name an allow-list. Any other statement is a code step, kept as its text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.dtypes import DTYPE_ALIASES, DType  # noqa: F401  (their home: app.dtypes)


@dataclass(frozen=True)
class Const:
    """A literal: int, float (nan and infinities included), bool, None, str, or a
    ``DType`` (a torch dtype, by its name)."""

    value: Any


@dataclass(frozen=True)
class Ref:
    """A name bound by an earlier step."""

    name: str


@dataclass(frozen=True)
class Seq:
    """A list or tuple display, ``[a, b]`` or ``(a, b)``; or ``{"k": v}`` for nn.ModuleDict."""

    items: tuple[Expr, ...]
    kind: str = "list"  # "list" | "tuple" | "dict" (items are (key, value) tuples)


@dataclass(frozen=True)
class Call:
    """A call of a catalogue entry.

    ``op`` is the qualified spelling: ``"torch.zeros"``, ``"F.softmax"``, ``"print"``,
    or ``"Tensor.view"`` for a method, whose receiver is ``args[0]``.
    """

    op: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()

    @property
    def is_method(self) -> bool:
        return self.op.startswith("Tensor.")

    @property
    def name(self) -> str:
        return self.op.rsplit(".", 1)[-1]

    def kwarg(self, key: str, default: Expr | None = None) -> Expr | None:
        for k, v in self.kwargs:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class BinOp:
    """A binary operator: arithmetic, ``@``, comparisons, ``&``, ``|``, ``^``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp:
    """``-x``, ``+x`` or ``~x``."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Slice:
    """``lower:upper:step`` inside a subscript; any part may be None."""

    lower: Expr | None = None
    upper: Expr | None = None
    step: Expr | None = None


@dataclass(frozen=True)
class Subscript:
    """``value[index]``; a multi-axis index is a tuple ``Seq``."""

    value: Expr
    index: Expr


@dataclass(frozen=True)
class Attr:
    """An allow-listed tensor attribute such as ``x.grad`` or ``x.T``."""

    value: Expr
    name: str


@dataclass(frozen=True)
class Code:
    """A statement outside the forms: a loop, ``def``, ``class``, ``if``, ``try``, an import...

    It is kept as its exact text and runs only in the kernel. ``binds`` are the names it
    may bind at the top level, ``reads`` the names it reads (both found with ``ast``).
    """

    text: str
    kind: str = ""
    binds: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()

    @property
    def first_line(self) -> str:
        """What a list of steps shows: the statement's first line."""
        return self.text.lstrip("\n").splitlines()[0] if self.text.strip() else ""


Expr = Const | Ref | Seq | Call | BinOp | UnaryOp | Slice | Subscript | Attr | Code

#: Tensor attributes a form step shows; any other attribute makes its statement a code step.
TENSOR_ATTRIBUTES = frozenset(
    {"grad", "T", "mT", "H", "shape", "dtype", "device", "is_leaf", "requires_grad",
     "grad_fn", "data", "ndim", "is_cuda"}
)


def children(expr: Expr) -> Iterator[Expr]:
    """Yield the direct sub-expressions of ``expr``."""
    if isinstance(expr, Seq):
        yield from expr.items
    elif isinstance(expr, Call):
        yield from expr.args
        for _, v in expr.kwargs:
            yield v
    elif isinstance(expr, BinOp):
        yield expr.left
        yield expr.right
    elif isinstance(expr, UnaryOp):
        yield expr.operand
    elif isinstance(expr, Slice):
        yield from (e for e in (expr.lower, expr.upper, expr.step) if e is not None)
    elif isinstance(expr, Subscript):
        yield expr.value
        yield expr.index
    elif isinstance(expr, Attr):
        yield expr.value


def walk(expr: Expr) -> Iterator[Expr]:
    """Yield ``expr`` and every node below it, parents first."""
    yield expr
    for child in children(expr):
        yield from walk(child)


def references(expr: Expr) -> list[str]:
    """Names of earlier steps that ``expr`` reads, in first-use order."""
    seen: dict[str, None] = {}
    if isinstance(expr, Code):
        return list(expr.reads)
    for node in walk(expr):
        if isinstance(node, Ref):
            seen.setdefault(node.name)
    return list(seen)


def rename_refs(expr: Expr, old: str, new: str) -> Expr:
    """A copy of ``expr`` with every ``Ref(old)`` replaced by ``Ref(new)``."""
    if isinstance(expr, Ref):
        return Ref(new) if expr.name == old else expr
    if isinstance(expr, Seq):
        return Seq(tuple(rename_refs(e, old, new) for e in expr.items), expr.kind)
    if isinstance(expr, Call):
        return Call(expr.op, tuple(rename_refs(e, old, new) for e in expr.args),
                    tuple((k, rename_refs(v, old, new)) for k, v in expr.kwargs))
    if isinstance(expr, BinOp):
        return BinOp(expr.op, rename_refs(expr.left, old, new), rename_refs(expr.right, old, new))
    if isinstance(expr, UnaryOp):
        return UnaryOp(expr.op, rename_refs(expr.operand, old, new))
    if isinstance(expr, Slice):
        return Slice(*(None if e is None else rename_refs(e, old, new)
                       for e in (expr.lower, expr.upper, expr.step)))
    if isinstance(expr, Subscript):
        return Subscript(rename_refs(expr.value, old, new), rename_refs(expr.index, old, new))
    if isinstance(expr, Attr):
        return Attr(rename_refs(expr.value, old, new), expr.name)
    return expr
