"""A form's edit of steps, made as an edit of the text: each literal the form changed is
replaced at its ``ast`` span (``app.text_edits``), and every other byte stays.

A form (the op panel, the builder, a slider of Op explained) writes a step's call again
from its fields, in its own spelling: ``x.to(torch.float64)`` comes back as
``x.to(dtype=torch.float32)``. What it means is the call's parameters, as the catalogue
binds them; where only literal parameters changed, the text's own arguments are edited.
Anything else (a new step, a new name, an argument added or dropped, a tensor picked)
is left to ``app.recipe.statement_edits``. Qt-free.
"""

from __future__ import annotations

import ast
from typing import Any

from app.catalog import CATALOG
from app.recipe.model import Recipe, Step
from app.recipe.op_call import bind_node, node_literal, same_literal
from app.recipe.reader import RecipeError, parse, read_recipe
from app.text_edits import Positions, literal_text, replace_span

#: An edit of the text: (start, end, new text), offsets into it.
Edit = tuple[int, int, str]


def form_edit_text(source: str, old: Recipe, new: Recipe) -> str | None:
    """The text of ``new``, made from ``source`` (which reads as ``old``) by replacing
    only the literal arguments that changed; None when anything else changed, or when
    the edited text would not read as ``new``."""
    if old.docstring != new.docstring or len(old.steps) != len(new.steps):
        return None
    # (== first: a literal's repr for each of 5,000 steps took 130 ms an edit)
    changed = [i for i, (a, b) in enumerate(zip(old.steps, new.steps, strict=True))
               if a is not b and a != b]
    if not changed:
        return None
    try:
        tree = parse(source)  # (kept: the text an edit reads was read last)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    positions, edits = Positions(source), []
    for index in changed:
        found = _step_edits(source, positions, tree, old.steps, index, new.steps[index])
        if found is None:
            return None
        edits.extend(found)
    if not edits:
        return None
    text = source
    for start, end, literal in sorted(edits, reverse=True):
        text = replace_span(text, start, end, literal)
    again = read_back(text, new)
    if again is None:
        return None
    edited = set(changed)
    same = all(_same_meaning(a, b) if i in edited else a == b
               for i, (a, b) in enumerate(zip(again.steps, new.steps, strict=True)))
    return text if same else None


def _step_edits(source: str, positions: Positions, tree: ast.Module, steps: tuple[Step, ...],
                index: int, new: Step) -> list[Edit] | None:
    """The edits that make step ``index`` ``new``; None unless only literals changed."""
    old = steps[index]
    bound = _bound(old, new)
    if bound is None:
        return None
    before, after = bound
    node = _call_node(tree, steps, index)
    if node is None:
        return None
    spec = CATALOG.get(old.op)  # type: ignore[arg-type]  (_bound found it)
    there = bind_node(spec, node, old.op.startswith("Tensor."))  # type: ignore[union-attr]
    edits: list[Edit] = []
    for name, value in after.items():
        was = before[name]
        if _same(was, value):
            continue
        found = there.get(name)
        if found is None or not _same(found, was):
            return None
        nodes, spread = ([found], False) if hasattr(found, "lineno") else (
            found.elts, True)  # type: ignore[attr-defined]  (several arguments, packed)
        if not _edit(source, positions, nodes, spread, was, value, edits):
            return None
    return edits


def _bound(old: Step, new: Step) -> tuple[dict[str, ast.expr], dict[str, ast.expr]] | None:
    """The parameters of both steps' calls, when they are one op's and differ only in
    literals; else None. A parameter one call gives at its default and the other leaves
    out is the same in both, and left out of both."""
    a, b = old.node, new.node
    if (old.name, old.comment, old.block) != (new.name, new.comment, new.block) \
            or not isinstance(a, ast.Call) or not isinstance(b, ast.Call) or not old.op \
            or old.op != new.op or old.is_code or new.is_code:
        return None
    spec = CATALOG.get(old.op)
    method = old.op.startswith("Tensor.")
    if spec is None or (method and not (isinstance(a.func, ast.Attribute) and isinstance(
            b.func, ast.Attribute) and _same(a.func.value, b.func.value))):
        return None
    before, after = bind_node(spec, a, method), bind_node(spec, b, method)
    defaults = {p.name: p.default for p in spec.params if not p.required}
    for name in before.keys() ^ after.keys():  # a form leaves out what is the default
        value = _value(before.get(name, after.get(name)))  # type: ignore[arg-type]
        if name not in defaults or value is _NOT or not _same_value(value, defaults[name]):
            return None
        before.pop(name, None)
        after.pop(name, None)
    for name, value in after.items():
        if not _same(before[name], value) and (
                _value(value) is _NOT or _value(before[name]) is _NOT):
            return None
    return before, after


def _call_node(tree: ast.Module, steps: tuple[Step, ...], index: int) -> ast.Call | None:
    """The call of step ``index`` in ``tree``: the simple statement on its line (the
    ``n``-th, after the steps before it on that line)."""
    line = steps[index].line
    nth = sum(1 for s in steps[:index] if s.line == line and not s.is_code)
    simple = [n for top in tree.body for n in (top.body if isinstance(top, ast.With) else [top])
              if isinstance(n, ast.Assign | ast.Expr) and n.lineno == line]
    if nth >= len(simple) or not isinstance(simple[nth].value, ast.Call):
        return None
    return simple[nth].value  # type: ignore[return-value]


def _edit(source: str, positions: Positions, nodes: list[ast.expr], spread: bool,
          was: ast.expr, value: ast.expr, edits: list[Edit]) -> bool:
    """Add the edits that make ``nodes`` (which hold ``was``; ``spread``: its items) read
    as ``value``: item by item where a list keeps its length, so that its spacing stays."""
    items = nodes if spread else (
        nodes[0].elts if isinstance(nodes[0], ast.List | ast.Tuple) else None)
    if isinstance(was, ast.List | ast.Tuple) and isinstance(value, ast.List | ast.Tuple) \
            and items is not None and len(items) == len(was.elts) == len(value.elts):
        return all(_same(a, b) or _edit(source, positions, [n], False, a, b, edits)
                   for n, a, b in zip(items, was.elts, value.elts, strict=True))
    start, end = positions.span(nodes[0])[0], positions.span(nodes[-1])[1]
    python = _value(value)
    if spread:  # a spread size stays spread
        if not isinstance(python, tuple | list):
            return False
        text = ", ".join(literal_text(v) for v in python)
    else:
        text = literal_text(python, like=source[start:end])
    edits.append((start, end, text))
    return True


_NOT = object()


def _value(node: ast.expr) -> Any:
    """The Python value of a literal's node (a list or tuple of them too); else ``_NOT``."""
    if isinstance(node, ast.List | ast.Tuple):
        items = [_value(e) for e in node.elts]
        if any(v is _NOT for v in items):
            return _NOT
        return items if isinstance(node, ast.List) else tuple(items)
    ok, value = node_literal(node)
    if not ok:
        return _NOT
    try:
        literal_text(value)
    except ValueError:
        return _NOT
    return value


def _same(a: ast.expr, b: ast.expr) -> bool:
    """The same expression, literal for literal (``1``, ``1.0`` and ``True`` differ; a
    list and a tuple of the same items do not)."""
    return _shape(a) == _shape(b)


def _shape(node: ast.expr) -> str:
    if isinstance(node, ast.List | ast.Tuple):
        return "[" + ", ".join(_shape(e) for e in node.elts) + "]"
    ok, value = node_literal(node)
    if ok:
        return repr((type(value).__name__, value))
    return ast.dump(node)


def _same_value(a: Any, b: Any) -> bool:
    """Two literals' values the same, of the same types (a list and a tuple alike)."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    return same_literal(a, b)


def _same_meaning(read: Step, meant: Step) -> bool:
    """Whether ``read`` (from the new text) is the step a form ``meant``: the same, or
    the same call's parameters spelled another way."""
    if read == meant:
        return True
    bound = _bound(read, meant)
    return bound is not None and all(_same(bound[0][k], v) for k, v in bound[1].items())


def read_back(text: str, new: Recipe) -> Recipe | None:
    """``text`` read again, when it parses into as many steps as ``new``, with its
    docstring (an edit's text checked against the recipe it is meant to be); else None."""
    try:
        again = read_recipe(text)
    except RecipeError:
        return None
    if again.docstring != new.docstring or len(again.steps) != len(new.steps):
        return None
    return again
