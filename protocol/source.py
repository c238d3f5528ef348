"""A recipe's source as top-level statements: read with ``ast``, never run here.

Each statement keeps its exact text (from the first line of its decorators to its last
character) and is compiled on its own, with the file's name and line numbers, so a
traceback points into the file just as ``python FILE`` would.
"""

from __future__ import annotations
import __future__

import ast
import importlib.util
import re
from dataclasses import dataclass
from types import CodeType

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's


@dataclass(frozen=True)
class Statement:
    """One top-level statement of a recipe.

    Attributes
    ----------
    index : int
        Its position among the top-level statements, from 0.
    line, end_line : int
        First and last line in the file (1-based; decorators included).
    text : str
        Its exact source text.
    kind : str
        The ``ast`` node's class name: ``Assign``, ``For``, ``FunctionDef``, ``Expr`` ...
    """

    index: int
    line: int
    end_line: int
    text: str
    kind: str

    @property
    def first_line(self) -> str:
        """The statement's first line, as a list of steps shows it."""
        return self.text.splitlines()[0] if self.text else ""


def decode(data: bytes, filename: str) -> str:
    """A file's bytes as python reads them: a UTF-8 BOM, a PEP 263 coding line and
    universal newlines, by python's own rules (``importlib.util.decode_source``, as
    ``import`` reads a module).

    Raises ``SyntaxError`` when python could not read them either: ``compile``'s own,
    on the bytes, naming ``filename`` and the line.
    """
    try:
        return importlib.util.decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as e:
        reason = str(e)
    try:
        compile(data, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as e:
        raise e.with_traceback(None) from None
    raise SyntaxError(reason, (filename, 1, 0, None))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def source_lines(source: str) -> list[str]:
    """``source``'s lines, each with its end, split where Python splits them (``\\n``,
    ``\\r\\n``, ``\\r``). ``str.splitlines`` also splits at a form feed, U+2028 and a
    few more, and its line numbers then drift from ``ast``'s."""
    return _LINE.findall(source)


def statements(source: str, filename: str = "<recipe>", tree: ast.Module | None = None,
               ) -> tuple[list[Statement], list[ast.stmt]]:
    """The top-level statements of ``source`` and their ``ast`` nodes (``tree``: the
    source's, parsed already by the caller).

    Raises ``SyntaxError`` as ``compile`` does, naming ``filename`` and the line.
    """
    tree = ast.parse(source, filename=filename) if tree is None else tree
    lines = source_lines(source)
    found = []
    for i, node in enumerate(tree.body):
        first = first_line(node)
        end = node.end_lineno or node.lineno
        found.append(Statement(i, first, end, node_text(lines, node, first), type(node).__name__))
    return found, list(tree.body)


def first_line(node: ast.stmt) -> int:
    """The statement's first line: its first decorator's, for a decorated ``def``."""
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def node_text(lines: list[str], node: ast.stmt, first: int) -> str:
    """The exact text of ``node`` from line ``first`` (its decorators') to its end."""
    end, end_col = node.end_lineno or node.lineno, node.end_col_offset
    chunk = lines[first - 1:end]
    if not chunk:
        return ""
    if end_col is not None:
        last = chunk[-1].encode("utf-8")[:end_col].decode("utf-8", errors="replace")
        chunk = [*chunk[:-1], last]
    start_col = node.col_offset if first == node.lineno else 0
    chunk[0] = chunk[0].encode("utf-8")[start_col:].decode("utf-8", errors="replace")
    return "".join(chunk)


def docstring(nodes: list[ast.stmt]) -> str | None:
    """The module docstring, as ``python`` sets ``__doc__``."""
    return ast.get_docstring(ast.Module(body=nodes, type_ignores=[]), clean=False)


def future_flags(node: ast.stmt) -> int:
    """The compiler flags a ``from __future__ import ...`` statement turns on."""
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        flags = 0
        for alias in node.names:
            feature = getattr(__future__, alias.name, None)
            flags |= getattr(feature, "compiler_flag", 0)
        return flags
    return 0


def compile_statement(node: ast.stmt, filename: str, flags: int = 0) -> CodeType:
    """One statement as a code object of its own, as part of module ``filename``."""
    return compile(ast.Module(body=[node], type_ignores=[]), filename, "exec", flags=flags,
                   dont_inherit=True)
