"""A step's statement replaced, a step cut from a shared line, a step put in after one,
and the lesson's docstring changed, as edits of the text: every other byte stays.

A replaced step's expression is edited where it differs from the text's, node by node;
else its new statement (``app.recipe.model.write_step``: one statement, not the
recipe) is put at the old statement's ``ast`` span, from its first decorator to its
end: its indentation, a comment after it on its last line, and a statement that shares
its line stay. Its comment lines above it change only where the step's comment did. The
docstring is its node's span. Offsets come from ``app.text_edits.Positions`` (CRLF, a
BOM, UTF-8 columns). Qt-free.
"""

from __future__ import annotations

import ast

from app.dtypes import DTYPE_NAMES
from app.recipe.header import docstring_literal
from app.recipe.model import Recipe, Step, write_step
from app.recipe.reader import RecipeError, parse, read_recipe
from app.recipe.step_nodes import is_negative_number, parse_value
from app.text_edits import Positions, replace_span
from protocol.source import first_line


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
        _expr_edits(at, value, step.node, _Text(step.text), edits)  # type: ignore[arg-type]
        edited = source
        for a, b, text in sorted(edits, reverse=True):
            edited = replace_span(edited, a, b, _lines(text, newline))
        try:
            again = read_recipe(edited).steps
        except RecipeError:
            again = ()
        if len(again) == len(old.steps) and again[index] == step:
            return edited  # only the parts of the expression that changed
    return replace_span(source, start, end, _lines(write_step(step), newline))


def _lines(text: str, newline: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", newline)


class _Text(Positions):
    """A step's text, with the text of a node of it."""

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]


#: Expressions that need brackets as an operand, the object of ``.``, ``[`` or a call.
_LOOSE = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.NamedExpr,
          ast.Lambda)
#: The fields of a node whose value binds tighter than a loose expression.
_TIGHT = {(ast.Attribute, "value"), (ast.Subscript, "value"), (ast.Call, "func")}


def _expr_edits(at: Positions, node: ast.AST, new: ast.AST, text: _Text,
                edits: list[tuple[int, int, str]], tight: bool = False) -> None:
    """The edits that make ``node`` (of the text ``at`` reads) read as ``new`` (of the
    step's ``text``): where both have the same shape, only their parts that differ; else
    ``node``'s text (in brackets where ``tight``: an operand that binds tighter)."""
    if ast.dump(node) == ast.dump(new):
        return
    parts = _parts(node, new)
    if parts is not None:
        for a, b, inner in parts:
            _expr_edits(at, a, b, text, edits, inner)
        return
    start, end = at.span(node)
    written = text.segment(new)
    if tight and isinstance(new, _LOOSE):
        written = f"({written})"
    edits.append((start, end, written))


def _parts(node: ast.AST, new: ast.AST) -> list[tuple[ast.AST, ast.AST, bool]] | None:
    """The (node, new, tight) of the parts of two nodes of the same shape, which have
    positions of their own; None where their shapes differ."""
    if type(node) is not type(new):
        return None
    out = []
    operator = isinstance(node, _LOOSE)
    for (field, a), (_, b) in zip(ast.iter_fields(node), ast.iter_fields(new), strict=True):
        xs, ys = (a, b) if isinstance(a, list) and isinstance(b, list) else ([a], [b])
        if len(xs) != len(ys):
            return None
        for x, y in zip(xs, ys, strict=True):
            if hasattr(x, "end_col_offset") and hasattr(y, "end_col_offset"):
                out.append((x, y, operator or (type(node), field) in _TIGHT))
            elif (ast.dump(x) != ast.dump(y)) if isinstance(x, ast.AST) and isinstance(
                    y, ast.AST) else (type(x) is not type(y) or x != y):
                return None
    return out


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
            or was.is_code or step.is_code:
        return None
    node = statement_node(source, old.steps, index)
    value = getattr(node, "value", None)
    if value is None:
        return None
    at, text = Positions(source), _Text(step.text)
    nodes, news = literal_nodes(value), literal_nodes(step.node)  # type: ignore[arg-type]
    if len(nodes) != len(news) or _blank(at, value, nodes) != _blank(text, step.node, news):
        return None
    edits = []
    for place, new in zip(nodes, news, strict=True):
        if ast.dump(place) == ast.dump(new):
            continue
        start, end = at.span(place)
        written = text.segment(new)
        if is_negative_number(new) and source[end:end + 40].lstrip(" ").startswith(
                ("**", ".", "[", "(")):
            written = f"({written})"  # -2 ** 2 is -(2 ** 2)
        edits.append((start, end, written))
    for start, end, text in sorted(edits, reverse=True):
        source = replace_span(source, start, end, text)
    return source


def literal_nodes(node: ast.expr) -> list[ast.expr]:
    """The nodes of ``node`` a form step holds as literals (``op_call.node_literal``),
    in the order of the text: a constant, a negative number, ``float("nan")``, a dtype
    (``torch.int64``)."""
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


def _blank(at: Positions, node: ast.AST, literals: list[ast.expr]) -> str:
    """``node`` with every literal in it made the same: what a literal edit may not
    change (``at``: its text's positions)."""
    start, end = at.span(node)
    text = at.text[start:end]
    for literal in reversed(literals):
        a, b = at.span(literal)
        text = text[:a - start] + "_" + text[b - start:]
    try:
        return ast.dump(parse_value(f"({text})"))
    except SyntaxError:
        return text


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
