"""A step's statement replaced, a step cut from a shared line, a step put in after one,
and the lesson's docstring changed, as edits of the text: every other byte stays.

A replaced step's new statement is written from the step (``app.recipe.writer.write_step``:
one statement, not the recipe) and put at the old statement's ``ast`` span, from its
first decorator to its end: its indentation, a comment after it on its last line, and a
statement that shares its line stay. Its comment lines above it change only where the
step's comment did. The docstring is its node's span. Offsets come from
``app.text_edits.Positions`` (CRLF, a BOM, UTF-8 columns). Qt-free.
"""

from __future__ import annotations

import ast
from dataclasses import fields, is_dataclass, replace
from typing import Any

from app.dtypes import DTYPE_NAMES
from app.expr import Attr, BinOp, Call, Code, Const, Expr, Seq, Slice, Subscript, UnaryOp, walk
from app.kernel.source import first_line
from app.recipe.header import docstring_literal
from app.recipe.model import Recipe, Step
from app.recipe.reader import RecipeError, parse, read_recipe
from app.recipe.writer import expr_code, literal_code, write_step
from app.text_edits import Positions, replace_span


def newline_of(source: str) -> str:
    """The line ending ``source`` uses (``\\n`` for a text that has none)."""
    return "\r\n" if "\r\n" in source else "\n"


def statement_of(tree: ast.Module, steps: tuple[Step, ...], index: int) -> ast.stmt | None:
    """The statement of step ``index`` in ``tree`` (the text ``steps`` were read from):
    the ``n``-th statement that starts on its line, in its block or out of one."""
    step = steps[index]
    if step.line is None:
        return None
    nth = sum(1 for s in steps[:index] if s.line == step.line and bool(s.block) == bool(
        step.block))
    found = [n for n in _statements(tree, bool(step.block)) if first_line(n) == step.line]
    return found[nth] if nth < len(found) else None


def statement_node(source: str, steps: tuple[Step, ...], index: int) -> ast.stmt | None:
    """Step ``index``'s statement in ``source`` (which reads as ``steps``); None where the
    text does not parse or has no statement of its own for it."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return statement_of(tree, steps, index)


def _statements(tree: ast.Module, in_block: bool) -> list[ast.stmt]:
    if not in_block:
        return list(tree.body)
    return [n for top in tree.body if isinstance(top, ast.With) for n in top.body]


def replaced_text(source: str, old: Recipe, index: int, step: Step) -> str | None:
    """``source`` (which reads as ``old``) with step ``index``'s statement written again
    as ``step``, at its span (its comment: ``comment_text``). None where the text has no
    statement of its own for it, or the step changes block."""
    was = old.steps[index]
    if was.block != step.block:
        return None
    node = statement_node(source, old.steps, index)
    if node is None:
        return None
    at, newline = Positions(source), newline_of(source)
    first = first_line(node)
    start = at.offset(first, node.col_offset if first == node.lineno else 0)
    end = at.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
    line_start = at.starts[first - 1]
    indent = source[line_start:start]
    if indent.strip(" \t"):  # another statement before it on its line: no new indent
        indent = ""
    value = getattr(node, "value", None)
    if step.name == was.name and not step.is_code and not was.is_code and value is not None:
        edits: list[tuple[int, int, str]] = []
        _expr_edits(source, at, value, was.expr, step.expr, edits, top=True)
        edited = source
        for a, b, text in sorted(edits, reverse=True):
            edited = replace_span(edited, a, b, text)
        try:
            again = read_recipe(edited).steps
        except RecipeError:
            again = ()
        if len(again) == len(old.steps) and again[index].expr == step.expr:
            return edited  # only the parts of the expression that changed
    text = write_step(step, indent)
    return replace_span(source, start, end, text.replace("\r\n", "\n").replace("\n", newline))


def _expr_edits(source: str, at: Positions, node: ast.expr, old: Expr, new: Expr,
                edits: list[tuple[int, int, str]], top: bool = False) -> None:
    """The edits that make ``node`` (which reads as ``old``) read as ``new``: where both
    have the same shape, only their parts that differ; else ``node``'s text."""
    if type(old) is type(new) and (not isinstance(old, Const) or literal_code(
            old.value) == literal_code(new.value)) and old == new:  # type: ignore[union-attr]
        return
    parts = _parts(node, old, new)
    if parts is not None:
        for n, a, b in parts:
            _expr_edits(source, at, n, a, b, edits)
        return
    start, end = at.span(node)
    text, loose = literal_code(new.value) if isinstance(new, Const) else expr_code(new)
    if loose and not top:
        text = f"({text})"
    edits.append((start, end, text))


def _parts(node: ast.expr, old: Expr, new: Expr) -> list[tuple[ast.expr, Expr, Expr]] | None:
    """The (node, old, new) of the parts of two expressions of the same shape, ``node``
    being ``old``'s text; None where their shapes differ."""
    if type(old) is not type(new):
        return None
    if isinstance(old, Call) and isinstance(new, Call) and isinstance(node, ast.Call):
        if old.op != new.op or len(old.args) != len(new.args) \
                or [k for k, _ in old.kwargs] != [k for k, _ in new.kwargs]:
            return None
        nodes: list[ast.expr] = list(node.args)
        if old.is_method:
            if not isinstance(node.func, ast.Attribute):
                return None
            nodes.insert(0, node.func.value)
        if len(nodes) != len(old.args) or len(node.keywords) != len(old.kwargs):
            return None
        return [*zip(nodes, old.args, new.args, strict=True),
                *((k.value, a, b) for k, (_, a), (_, b) in zip(
                    node.keywords, old.kwargs, new.kwargs, strict=True))]
    if isinstance(old, BinOp) and isinstance(new, BinOp) and old.op == new.op:
        if isinstance(node, ast.BinOp):
            return [(node.left, old.left, new.left), (node.right, old.right, new.right)]
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            return [(node.left, old.left, new.left),
                    (node.comparators[0], old.right, new.right)]
        return None
    if isinstance(old, UnaryOp) and isinstance(new, UnaryOp) and old.op == new.op \
            and isinstance(node, ast.UnaryOp):
        return [(node.operand, old.operand, new.operand)]
    if isinstance(old, Attr) and isinstance(new, Attr) and old.name == new.name \
            and isinstance(node, ast.Attribute):
        return [(node.value, old.value, new.value)]
    if isinstance(old, Subscript) and isinstance(new, Subscript) \
            and isinstance(node, ast.Subscript):
        return [(node.value, old.value, new.value), (node.slice, old.index, new.index)]
    if isinstance(old, Seq) and isinstance(new, Seq) and old.kind == new.kind != "dict" \
            and len(old.items) == len(new.items) and isinstance(node, ast.List | ast.Tuple):
        if len(node.elts) != len(old.items):
            return None
        return list(zip(node.elts, old.items, new.items, strict=True))
    if isinstance(old, Slice) and isinstance(new, Slice) and isinstance(node, ast.Slice):
        out = []
        for n, a, b in ((node.lower, old.lower, new.lower), (node.upper, old.upper, new.upper),
                        (node.step, old.step, new.step)):
            if (a is None) != (b is None) or (n is None) != (a is None):
                return None
            if n is not None:
                out.append((n, a, b))
        return out  # type: ignore[return-value]
    return None


def comment_text(source: str, old: Recipe, index: int, comment: str) -> str:
    """``source`` with the comment lines right above step ``index``'s statement made
    ``comment``'s (its lines; ``old``: the steps of a text with the same lines up to
    there); as it was where the statement shares its first line with another."""
    node = statement_node(source, old.steps, index)
    if node is None:
        return source
    at, first = Positions(source), first_line(node)
    start = at.offset(first, node.col_offset if first == node.lineno else 0)
    indent = source[at.starts[first - 1]:start]
    if indent.strip(" \t"):
        return source
    return _with_comment(source, at, first, indent, comment, newline_of(source))


def literals_text(source: str, old: Recipe, index: int, step: Step) -> str | None:
    """``source`` with the literals in which ``step`` differs from step ``index`` replaced
    at their spans (``x * 2`` to ``x * 3``: a literal where no catalogue call binds it);
    None where anything but literals changed."""
    was = old.steps[index]
    if (was.name, was.comment, was.block) != (step.name, step.comment, step.block) \
            or isinstance(was.expr, Code) or isinstance(step.expr, Code) \
            or _blank(was.expr) != _blank(step.expr):
        return None
    node = statement_node(source, old.steps, index)
    value = getattr(node, "value", None)
    if value is None:
        return None
    nodes = literal_nodes(value)
    olds = [n.value for n in walk(was.expr) if isinstance(n, Const)]
    news = [n.value for n in walk(step.expr) if isinstance(n, Const)]
    if len(nodes) != len(olds):
        return None
    at, edits = Positions(source), []
    for place, a, b in zip(nodes, olds, news, strict=True):
        if type(a) is type(b) and literal_code(a) == literal_code(b):
            continue
        start, end = at.span(place)
        text, loose = literal_code(b)
        if loose and source[end:end + 40].lstrip(" ").startswith(("**", ".", "[", "(")):
            text = f"({text})"  # -2 ** 2 is -(2 ** 2)
        edits.append((start, end, text))
    for start, end, text in sorted(edits, reverse=True):
        source = replace_span(source, start, end, text)
    return source


def literal_nodes(node: ast.expr) -> list[ast.expr]:
    """The nodes of ``node`` a form step holds as literals (``Const``), in the order of
    the text: a constant, a negative number, ``float("nan")``, a dtype (``torch.int64``)."""
    found: list[ast.expr] = []
    stack: list[ast.AST] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Constant) or (
                isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub)
                and isinstance(n.operand, ast.Constant)
                and type(n.operand.value) in (int, float)) or (
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id == "float") or (
                isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.value.id == "torch" and n.attr in DTYPE_NAMES):
            found.append(n)  # type: ignore[arg-type]
            continue
        stack.extend(ast.iter_child_nodes(n))
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _blank(value: Any) -> Any:
    """``value`` with every literal made the same: what a literal edit may not change."""
    if isinstance(value, Const):
        return Const(None)
    if isinstance(value, tuple):
        return tuple(_blank(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: _blank(getattr(value, f.name))
                                 for f in fields(value)})
    return value


def _with_comment(text: str, at: Positions, line: int, indent: str, comment: str,
                  newline: str) -> str:
    """``text`` with the comment lines right above ``line`` (unchanged before it) made
    ``comment``'s."""
    top = line
    while top > 1:
        above = text[at.starts[top - 2]:at.starts[top - 1]]
        if not above.strip().startswith("#"):
            break
        top -= 1
    written = "".join(f"{indent}# {c}".rstrip() + newline for c in comment.splitlines())
    return text[:at.starts[top - 1]] + written + text[at.starts[line - 1]:]


def cut_text(source: str, old: Recipe, index: int) -> str | None:
    """``source`` with step ``index``'s statement cut from a line it shares with another
    (``a = 1; b = 2``): the statement and its ``;``; a statement that shares its line
    with a block's header becomes ``pass``. None where the text has no statement for it."""
    node = statement_node(source, old.steps, index)
    if node is None or first_line(node) != node.lineno:
        return None
    at = Positions(source)
    start, end = at.span(node)
    after = source[end:]
    rest = after.lstrip(" \t")
    if rest.startswith(";"):
        gap = len(after) - len(rest) + 1
        end += gap + len(after[gap:]) - len(after[gap:].lstrip(" \t"))
        return source[:start] + source[end:]
    before = source[:start].rstrip(" \t")
    if before.endswith(";"):
        return before[:-1] + source[end:]
    return replace_span(source, start, end, "pass")  # (with torch.no_grad(): x = 1)


def put_after_line(source: str, old: Recipe, index: int, steps: list[Step],
                   written: str) -> str | None:
    """``written`` (new steps' lines) put in after the last line of step ``index``'s
    statement (which shares a line with another); None where it has none."""
    node = statement_node(source, old.steps, index)
    if node is None:
        return None
    at = Positions(source)
    last = node.end_lineno or node.lineno
    offset = at.starts[last] if last < len(at.starts) else len(source)
    head = source[:offset]
    if head and not head.endswith(("\n", "\r")):
        written = newline_of(source) + written
    return head + written + source[offset:]


def split_block_text(source: str, old: Recipe, index: int, written: str) -> str | None:
    """``written`` (a step outside any block) put in before step ``index``, which is in
    the same ``with`` block as the step before it: the block ends there and a ``with``
    of the same kind opens again after the new lines, so that the steps after it keep
    their place in it. None where step ``index`` is not such a step."""
    steps = old.steps
    if not 0 < index < len(steps) or not steps[index].block \
            or steps[index - 1].block != steps[index].block:
        return None
    node = statement_node(source, steps, index)
    if node is None:
        return None
    at, newline = Positions(source), newline_of(source)
    top = first_line(node)
    if source[at.starts[top - 1]:at.offset(top, node.col_offset)].strip(" \t"):
        return None  # it shares its line with the step before it
    while top > 1 and source[at.starts[top - 2]:at.starts[top - 1]].strip().startswith("#"):
        top -= 1
    offset = at.starts[top - 1]
    header = f"with torch.{steps[index].block}():{newline}"
    return source[:offset] + written + header + source[offset:]


def docstring_text(source: str, docstring: str) -> str | None:
    """``source`` with its docstring made ``docstring``: the docstring's node replaced (a
    new one put first, an empty one cut with its lines); None for a text that does not
    parse."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    at, newline = Positions(source), newline_of(source)
    node = tree.body[0] if tree.body and _is_docstring(tree.body[0]) else None
    if node is None:
        if not docstring:
            return source
        offset = at.starts[0]
        return source[:offset] + docstring_literal(docstring) + newline + source[offset:]
    start, end = at.span(node)
    if docstring:
        return replace_span(source, start, end, docstring_literal(docstring))
    last = node.end_lineno or node.lineno
    line_end = at.starts[last] if last < len(at.starts) else len(source)
    if source[at.starts[node.lineno - 1]:start].strip() or source[end:line_end].strip():
        return replace_span(source, start, end, "pass")  # shares its line: keep a statement
    return source[:at.starts[node.lineno - 1]] + source[line_end:]


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)
