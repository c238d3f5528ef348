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

from app.kernel.source import first_line
from app.recipe.model import Recipe, Step
from app.recipe.reader import parse
from app.recipe.writer import docstring_literal, write_step
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


def _statements(tree: ast.Module, in_block: bool) -> list[ast.stmt]:
    if not in_block:
        return list(tree.body)
    return [n for top in tree.body if isinstance(top, ast.With) for n in top.body]


def replaced_text(source: str, old: Recipe, index: int, step: Step) -> str | None:
    """``source`` (which reads as ``old``) with step ``index``'s statement written again
    as ``step``: at its span, and its comment lines where the comment changed. None
    where the text has no statement of its own for it, or the step changes block."""
    was = old.steps[index]
    if was.block != step.block:
        return None
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = statement_of(tree, old.steps, index)
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
    text = write_step(step, indent)
    text = text.replace("\r\n", "\n").replace("\n", newline)
    edited = replace_span(source, start, end, text)
    if step.comment != was.comment and not source[line_start:start].strip(" \t"):
        edited = _with_comment(edited, at, first, indent, step.comment, newline)
    return edited


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
    (``a = 1; b = 2``): the statement and its ``;``; None where that is not so."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = statement_of(tree, old.steps, index)
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
    return None


def put_after_line(source: str, old: Recipe, index: int, steps: list[Step],
                   written: str) -> str | None:
    """``written`` (new steps' lines) put in after the last line of step ``index``'s
    statement (which shares a line with another); None where it has none."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = statement_of(tree, old.steps, index)
    if node is None:
        return None
    at = Positions(source)
    last = node.end_lineno or node.lineno
    offset = at.starts[last] if last < len(at.starts) else len(source)
    head = source[:offset]
    if head and not head.endswith(("\n", "\r")):
        written = newline_of(source) + written
    return head + written + source[offset:]


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
