"""The knobs of a training recipe, found in its text: the literals a form may rewrite.

A training recipe is Python, so its settings are literals in its code, wherever the
author put them. ``fields`` finds the ones a form can show, with ``ast`` (nothing runs):

- ``lr``, ``momentum``, ``weight_decay``: keywords (or ``lr`` as the second argument)
  of an optimizer call, ``torch.optim.SGD(net.parameters(), lr=0.01)``;
- ``clip``: the limit of ``clip_grad_norm_`` / ``clip_grad_value_``;
- ``device``: a top-level ``device = "cpu"`` (or ``torch.device("cpu")``);
- any other top-level ``name = <number>``, such as ``steps = 100`` or ``width = 32``.

``with_value`` rewrites one literal in the text and nothing else. Qt-free.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.text_edits import Positions, literal_text, replace_span

#: Keywords of an optimizer call offered as fields.
OPTIMIZER_KEYWORDS = ("lr", "momentum", "weight_decay")
_CLIPS = ("clip_grad_norm_", "clip_grad_value_")


@dataclass(frozen=True)
class Field:
    """One literal: its ``name``, ``value``, and where its text is (character offsets)."""

    name: str
    value: Any
    start: int
    end: int
    line: int


def fields(source: str) -> dict[str, Field]:
    """Every field of ``source``, by name (the first of a name wins); {} when unreadable.
    (The same text is read once: the Training tab's bar asks at every batch of a run.)"""
    return dict(_fields(source))


@lru_cache(maxsize=8)
def _fields(source: str) -> dict[str, Field]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    positions = Positions(source)
    found: dict[str, Field] = {}

    def add(name: str, node: ast.expr) -> None:
        value = _number(node)
        if value is None and name == "device":
            value = _device(node)
            node = _device_node(node) or node
        if value is not None and name not in found:
            found[name] = Field(name, value, *positions.span(node), node.lineno)

    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            add(statement.targets[0].id, statement.value)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if ".optim." in f".{name}" and name.rsplit(".", 1)[-1][:1].isupper():
            for keyword in node.keywords:
                if keyword.arg in OPTIMIZER_KEYWORDS:
                    add(keyword.arg, keyword.value)
            if len(node.args) > 1:
                add("lr", node.args[1])
        elif name.rsplit(".", 1)[-1] in _CLIPS:
            limit = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg in ("max_norm", "clip_value")), None)
            if limit is not None:
                add("clip", limit)
    return found


def with_value(source: str, field: Field, value: Any) -> str:
    """``source`` with ``field``'s literal replaced by ``value`` (a number; a device as a
    string, in the quotes it had)."""
    if field.name == "device":
        value = str(value)
    elif isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"not a number: {value!r}")
    old = source[field.start:field.end]
    return replace_span(source, field.start, field.end, literal_text(value, like=old))


def _number(node: ast.expr) -> int | float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _number(node.operand)
        return -value if value is not None else None
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def _device(node: ast.expr) -> str | None:
    inner = _device_node(node)
    return inner.value if inner is not None else None


def _device_node(node: ast.expr) -> ast.Constant | None:
    """The string of ``"cuda:0"`` or ``torch.device("cuda:0")``."""
    if isinstance(node, ast.Call) and _dotted(node.func).endswith("device") and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node
    return None


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""
