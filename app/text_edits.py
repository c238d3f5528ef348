"""Edits of a recipe's text at ``ast`` spans: one node's text is replaced, every other
byte stays.

``ast`` gives a node's place as a line and a column counted in UTF-8 bytes; ``Positions``
turns them into offsets into the ``str``, with lines split where Python splits them
(``\\n``, ``\\r\\n`` and ``\\r``; not at a form feed or U+2028, where ``str.splitlines``
does) and after a leading byte order mark. A node is reached from a statement by a
``Path``: ``(1,)`` is a call's second positional argument, ``("dtype",)`` its ``dtype=``
keyword, ``(0, 2)`` the third item of the list its first argument is. Qt-free.
"""

from __future__ import annotations

import ast
import bisect
import math
import re
import warnings
from typing import Any

#: Where a node is from a statement: positional indices and keyword names.
Path = tuple[int | str, ...]

_LINE_END = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


class Positions:
    """Offsets into ``text`` of ``ast``'s (line, UTF-8 byte column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        skip = 1 if text.startswith(_BOM) else 0  # ast reads the text after it
        self.starts = [skip] + [m.end() for m in _LINE_END.finditer(text)]

    def offset(self, line: int, column: int) -> int:
        """The offset of ``column`` (bytes) on ``line`` (1-based)."""
        start = self.starts[line - 1]
        if column == 0:
            return start
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        head = self.text[start:end]
        if head.isascii():
            return start + column
        return start + len(head.encode("utf-8")[:column].decode("utf-8", errors="ignore"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        """The offsets where ``node``'s text starts and ends."""
        return (self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.offset(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]

    def line_of(self, offset: int) -> int:
        """The line (1-based) ``offset`` is on."""
        return bisect.bisect_right(self.starts, offset)


_STATEMENTS: list = [None, {}]  # the last text ``statement_text`` read, and its texts


def statement_text(text: str, line: int, tree: ast.Module | None = None) -> str | None:
    """The statement that starts on ``line`` of ``text``, exactly as written (comments
    outside it left out): a top-level one, or one inside a top-level ``with`` block (a
    ``with torch.no_grad():`` form step). None where none, or more than one
    (``a = 1; b = 2``), starts there, or the text does not parse. The last text's are
    kept: a list of 5,000 steps asks for each. ``tree``: the text's, when the caller has
    it (a 5,000-line text takes 100 ms to parse)."""
    if _STATEMENTS[0] is not text and _STATEMENTS[0] != text:
        found: dict[int, str | None] = {}
        if tree is None:
            try:
                tree = parse(text)
            except (SyntaxError, ValueError):
                tree = None
        if tree is not None:
            where = Positions(text)
            todo = list(tree.body)
            for stmt in tree.body:
                if isinstance(stmt, ast.With):
                    todo.extend(stmt.body)
            for stmt in todo:
                start, end = where.span(stmt)
                found[stmt.lineno] = None if stmt.lineno in found else text[start:end]
        _STATEMENTS[:] = [text, found]
    return _STATEMENTS[1].get(line)


def parse(text: str) -> ast.Module:
    """``text``'s tree (after a byte order mark), the file's own warnings left out;
    raises what ``ast.parse`` raises."""
    with warnings.catch_warnings():  # "invalid escape sequence": the file's, not ours
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(text.removeprefix(_BOM))


def node_at(statement: ast.stmt, path: Path) -> ast.AST:
    """The node ``path`` leads to from ``statement``.

    A statement with a value (``y = ...``, a bare call) is its value; a block
    (``with torch.no_grad():``) takes an index into its body. Raises ``LookupError``
    where ``path`` leads nowhere.
    """
    node: ast.AST = statement
    for key in path:
        node = _child(node, key)
    return node


def _child(node: ast.AST, key: int | str) -> ast.AST:
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Expr | ast.Return) \
            and node.value is not None:
        node = node.value
    if isinstance(node, ast.Call):
        if isinstance(key, int):
            return node.args[key]
        for keyword in node.keywords:
            if keyword.arg == key:
                return keyword.value
        raise KeyError(key)
    if isinstance(key, int):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return node.elts[key]
        body = getattr(node, "body", None)
        if isinstance(body, list):
            return body[key]
    raise LookupError(f"no {key!r} in a {type(node).__name__}")


def replace_span(text: str, start: int, end: int, new: str) -> str:
    """``text`` with ``text[start:end]`` replaced by ``new``."""
    return text[:start] + new + text[end:]


def with_node_text(text: str, node: ast.AST, new: str) -> str:
    """``text`` with ``node``'s text (a node of ``parse(text)``) replaced by ``new``."""
    start, end = Positions(text).span(node)
    return replace_span(text, start, end, new)


def with_argument(text: str, statement: int, path: Path, new: str,
                  tree: ast.Module | None = None) -> str:
    """``text`` with the node at ``path`` of its top-level statement ``statement``
    replaced by the text ``new``. ``tree``: ``parse(text)``, when the caller has it.
    Raises ``LookupError``, or ``SyntaxError`` for a text Python cannot read."""
    node = node_at((tree or parse(text)).body[statement], path)
    return with_node_text(text, node, new)


def with_literal(text: str, statement: int, path: Path, value: Any,
                 tree: ast.Module | None = None) -> str:
    """``text`` with the literal at ``path`` of statement ``statement`` made ``value``
    (``literal_text``; a string keeps the quotes it had)."""
    positions = Positions(text)
    node = node_at((tree or parse(text)).body[statement], path)
    start, end = positions.span(node)
    return replace_span(text, start, end, literal_text(value, like=text[start:end]))


def _double_quoted(text: str) -> str:
    """``json.dumps(text, ensure_ascii=False)``: a printable text with no ``"`` or ``\\``
    is itself in quotes, which json's import (2 ms, before the window's first paint: its
    builder writes its form's strings) is not needed for."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    import json

    return json.dumps(text, ensure_ascii=False)


def literal_text(value: Any, like: str = "") -> str:
    """Python text for ``value``: a number, bool, None, string, dtype, or a tuple or list
    of them. A string is quoted as ``like`` (the text it replaces) is, if it can be."""
    if isinstance(value, tuple):
        items = [literal_text(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(literal_text(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return 'float("nan")' if math.isnan(value) else \
            'float("inf")' if value > 0 else 'float("-inf")'
    if isinstance(value, str):
        single = like.startswith("'") and "'" not in value
        return repr(value) if single and repr(value).startswith("'") \
            else _double_quoted(value)
    if isinstance(value, bool | int | float) or value is None or value is Ellipsis:
        return "..." if value is Ellipsis else repr(value)
    if type(value).__name__ == "DType" or (
            type(value).__module__ == "torch" and type(value).__name__ == "dtype"):
        return str(value)  # torch.float64 (app.dtypes.DType, or the dtype itself)
    raise ValueError(f"no literal for {value!r}")
