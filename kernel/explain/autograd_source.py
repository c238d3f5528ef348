"""How a kernel run's values were made, read from its text with ``ast``: for autograd.

Kernel-side. The explanations of autograd (``kernel.explain.autograd_facts``) ask of a
run which ``backward()`` calls ran, which statement made a tensor, and whether it was
cut from its graph there (``detach()``, ``.data``, ``with torch.no_grad():``, a later
``detach_()``). ``SourceRun`` answers from the run's namespace and its statements, as
``protocol.source`` reads them; it needs neither the window's recipe nor torch.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from protocol.source import statements

#: Statements whose bodies run where they stand (a ``def``'s body runs when called).
_BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try)


@dataclass(frozen=True)
class RanStatement:
    """A statement of the run: a top-level one, or one in a ``with torch.no_grad():``.

    Attributes
    ----------
    node : ast.stmt
    ran : bool
        Whether its top-level statement ran to its end.
    no_grad : bool
        Whether it sits in a ``with torch.no_grad():`` block.
    """

    node: ast.stmt
    ran: bool
    no_grad: bool = False


@dataclass
class SourceRun:
    """A run's namespace and its statements, as autograd's explanations read them."""

    namespace: dict[str, Any] = field(default_factory=dict)
    statements: tuple[RanStatement, ...] = ()

    def value(self, name: str) -> Any:
        """What ``name`` holds at the end of the run (None: nothing)."""
        return self.namespace.get(name)

    def made_by(self, name: str) -> RanStatement | None:
        """The last statement that assigns ``name`` (``name = ...``), or None."""
        found = None
        for s in self.statements:
            if name in assigned(s.node):
                found = s
        return found

    def method_calls(self, method: str) -> list[str]:
        """The names ``name.method(...)`` was called on, as a statement of its own, in
        the statements that ran (loop and ``if`` bodies too, not ``def`` bodies)."""
        return [name for s in self.statements if s.ran for node in _run_here(s.node)
                if (name := _method_call(node, method)) is not None]


def source_run(source: str, namespace: dict[str, Any],
               finished: set[int] | None = None) -> SourceRun:
    """The run of ``source`` that left ``namespace``, its top-level statements
    ``finished`` having run (all of them when None). A text that does not parse gives a
    run with no statements."""
    try:
        found, nodes = statements(source)
    except SyntaxError:
        return SourceRun(dict(namespace))
    out = []
    for statement, node in zip(found, nodes, strict=True):
        ran = finished is None or statement.index in finished
        if is_no_grad(node):
            out.extend(RanStatement(inner, ran, True) for inner in node.body)
        else:
            out.append(RanStatement(node, ran))
    return SourceRun(dict(namespace), tuple(out))


def is_no_grad(node: ast.stmt) -> bool:
    """Whether ``node`` is ``with torch.no_grad():``."""
    return isinstance(node, ast.With) and len(node.items) == 1 \
        and dotted(node.items[0].context_expr) == "torch.no_grad()"


def dotted(node: ast.AST) -> str:
    """``torch.no_grad()`` for that call, ``a.b`` for that attribute; else empty."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        inner = dotted(node.func)
        return f"{inner}()" if inner else ""
    return ""


def assigned(node: ast.stmt) -> list[str]:
    """The names an assignment binds (``=``, ``+=``, an annotated ``=``; tuple targets
    unpacked, not a subscript's or an attribute's object); none for other statements."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    else:
        return []
    names: list[str] = []
    for target in targets:
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.append(n.id)
    return names


def value_of(node: ast.stmt) -> ast.expr | None:
    """The expression an assignment binds; None for other statements."""
    return node.value if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) \
        else None


def reads(node: ast.AST | None) -> list[str]:
    """The names ``node`` reads, in first-use order (``y += x`` reads ``y`` too)."""
    seen: dict[str, None] = {}
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        seen.setdefault(node.target.id)
    if node is not None:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                seen.setdefault(n.id)
    return list(seen)


def _method_call(node: ast.stmt, method: str) -> str | None:
    """``name`` when ``node`` is ``name.method(...)``, else None."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Attribute) and func.attr == method \
                and isinstance(func.value, ast.Name):
            return func.value.id
    return None


def _run_here(node: ast.stmt) -> Iterator[ast.stmt]:
    """``node`` and the statements of its bodies that run with it."""
    yield node
    if isinstance(node, _BLOCKS):
        for body in (getattr(node, "body", []), getattr(node, "orelse", []),
                     getattr(node, "finalbody", [])):
            for inner in body:
                yield from _run_here(inner)
        for handler in getattr(node, "handlers", []):
            for inner in handler.body:
                yield from _run_here(inner)
