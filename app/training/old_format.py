"""Reading the retired recipe format: a ``training = dict(...)`` settings block, then a
marker line and a pasted engine.

Only what ``app.training.write.convert_old`` needs to turn such a file into a plain loop:
find the marker, find the block, and read its literals. Nothing here runs the file.
"""

from __future__ import annotations

import ast
import io
import tokenize
from typing import Any

MARKER = "# --- Tensor Lab training code: generated; the lab reads only the settings above ---"
#: The name the settings block assigns.
NAME = "training"
_MAX_DEPTH = 8


def split_generated(source: str) -> str:
    """The recipe part of ``source``: everything before the marker line (all of it without)."""
    if MARKER not in source:
        return source  # (no need to tokenize it)
    lines = source.splitlines(keepends=True)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            # a real comment at column 0, not the same text inside a string
            if tok.type == tokenize.COMMENT and tok.start[1] == 0 \
                    and tok.string.rstrip() == MARKER:
                return "".join(lines[: tok.start[0] - 1])
    except (tokenize.TokenError, SyntaxError):
        pass  # ast.parse will refuse it, naming the line
    return source


def is_settings(node: ast.stmt) -> bool:
    """Whether ``node`` is ``training = dict(...)``."""
    return (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id == NAME
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "dict")


def settings_literal(node: ast.expr, depth: int = 0) -> Any:
    """The plain dict that ``dict(name=value, ...)`` of literals spells.

    Raises ``ValueError`` naming the line of anything else.
    """
    if depth > _MAX_DEPTH:
        raise ValueError(f"line {node.lineno}: training settings nested too deeply")
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        value = node.operand.value
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and not node.args and all(kw.arg is not None for kw in node.keywords):
        return {kw.arg: settings_literal(kw.value, depth + 1) for kw in node.keywords}
    raise ValueError(f"line {node.lineno}: training settings must be literals (numbers, "
                     "strings, True/False) and dict(name=value, ...)")
