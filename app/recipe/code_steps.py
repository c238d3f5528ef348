"""Code steps: the top-level statements that are not forms, kept as their exact text.

A loop, ``def``, ``class``, ``if``, ``try``, ``with``, an import or any call outside the
op catalogue is a code step. Reading one only looks at its ``ast``: which names it may
bind at the top level (so later form steps can read them) and which it reads
(``app.recipe.reader`` makes the step).
"""

from __future__ import annotations

import ast


def bound_names(node: ast.stmt) -> tuple[str, ...]:
    """Names ``node`` may bind in the module's namespace, in order of appearance."""
    found: dict[str, None] = {}
    for sub in _top_level_nodes(node):
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(sub.name)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
            found.setdefault(sub.id)
        elif isinstance(sub, ast.alias):
            found.setdefault((sub.asname or sub.name).split(".")[0])
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            found.setdefault(sub.name)
        elif isinstance(sub, ast.MatchAs | ast.MatchStar) and sub.name:
            found.setdefault(sub.name)
        elif isinstance(sub, ast.Global):
            for name in sub.names:
                found.setdefault(name)
    return tuple(n for n in found if n != "*")


def read_names(node: ast.stmt) -> tuple[str, ...]:
    """Every name ``node`` loads anywhere inside it (functions' bodies included)."""
    found: dict[str, None] = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            found.setdefault(sub.id)
    return tuple(found)


def _top_level_nodes(node: ast.AST):
    """``node`` and what it holds, without going into function or class bodies (their
    names are local) nor comprehensions (their own scope), walked without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is not node and isinstance(
                current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(current, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            stack.extend(_walrus_targets(current))
            continue
        children = list(ast.iter_child_nodes(current))
        if current is node and isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            children = [*node.decorator_list]  # the body is the function's own scope
        stack.extend(reversed(children))


def _walrus_targets(comprehension: ast.AST):
    """``:=`` inside a comprehension binds in the enclosing scope."""
    for sub in ast.walk(comprehension):
        if isinstance(sub, ast.NamedExpr):
            yield sub.target
