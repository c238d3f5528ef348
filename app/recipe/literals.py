"""Values typed into an op's parameter form, read as Python values and as Python text.

``parse_size``, ``parse_number`` and ``parse_data`` turn text into a shape, a number or
nested lists of numbers without running anything, and raise ``InputError`` saying why text
cannot be used; ``line_value`` and ``line_shown`` go between a one-line field's text and
its argument's Python text, ``data_value`` and ``data_shown`` between data and its text.

The messages are English ``Filled`` texts marked under the unnamed translation context
(``CONTEXT``); ``widgets.ops.param_form`` shows them in the UI language with
``translate_core(CONTEXT, message)``. Qt-free.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence
from typing import Any

from app.recipe.op_call import node_literal
from app.recipe.reader import MAX_DEPTH, MAX_LITERALS
from app.text_edits import Positions, literal_text
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

#: The translation context of the messages (the unnamed one, as the form's other texts).
CONTEXT = ""

_DATA_TOKEN = re.compile(r"""
    (?P<space>\s+) | (?P<open>[\[(]) | (?P<close>[\])]) | (?P<comma>,) | (?P<sign>[+-])
  | (?P<word>True|False|(?i:nan|inf(?:inity)?))
  | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
""", re.VERBOSE)
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:nan|inf(?:inity)?))")


class InputError(ValueError):
    """Text a field cannot turn into a value; the message tells the user why.

    Raised here, its message (``message``, also ``str(error)``) is an English ``Filled``
    text whose template is marked under ``CONTEXT``.
    """

    @property
    def message(self) -> str:
        """The message as given: a ``Filled`` text when raised by this module."""
        return self.args[0] if self.args and isinstance(self.args[0], str) else ""


# -- parsing: text to Python values ---------------------------------------------------------
def parse_size(text: str) -> tuple[int, ...]:
    """``"2, 3"``, ``"(2, 3)"`` or ``"4,"`` as a shape tuple."""
    body = text.strip()
    if body.startswith(("(", "[")) and body.endswith((")", "]")):
        body = body[1:-1].strip()
    if not body:
        raise InputError(Filled(QT_TRANSLATE_NOOP("", "enter the shape, for example 2, 3")))
    pieces = [p.strip() for p in body.split(",")]
    if len(pieces) > 1 and pieces[-1] == "":
        pieces.pop()  # "4," is the one-dimensional (4,)
    dims = []
    for piece in pieces:
        if not piece:
            raise InputError(Filled(QT_TRANSLATE_NOOP("", "an entry between two commas is empty")))
        if not _INT.fullmatch(piece):
            raise InputError(Filled(QT_TRANSLATE_NOOP("", "'{0}' is not an integer"), piece))
        n = int(piece)
        if n < 0:
            raise InputError(Filled(QT_TRANSLATE_NOOP(
                "", "{0} is negative: a size counts elements"), n))
        if n.bit_length() > 63:
            raise InputError(Filled(QT_TRANSLATE_NOOP("", "{0} is too large"), n))
        dims.append(n)
    return tuple(dims)


def parse_number(text: str, kind: str) -> int | float:
    """A number as typed: ``"7"`` stays an int for kind ``number``, ``"7.0"`` a float."""
    body = text.strip()
    if kind == "number" and _INT.fullmatch(body):
        value = int(body)
        if value.bit_length() > 63:
            raise InputError(Filled(QT_TRANSLATE_NOOP("", "{0} does not fit in 64 bits"), body))
        return value
    if _FLOAT.fullmatch(body) or _INT.fullmatch(body):
        return float(body)
    raise InputError(Filled(QT_TRANSLATE_NOOP("", "'{0}' is not a number"), body))


def parse_data(text: str) -> Any:
    """A number or nested lists of numbers, read without running anything.

    The text is first checked to hold only numbers, brackets, commas, signs,
    True/False and nan/inf; only then does ``ast.literal_eval`` read it.
    """
    out: list[str] = []
    depth = deepest = literals = 0
    pos = 0
    while pos < len(text):
        m = _DATA_TOKEN.match(text, pos)
        if m is None:
            bad = re.match(r"\w+|\S", text[pos:])
            shown = bad.group(0) if bad else text[pos]
            raise InputError(Filled(QT_TRANSLATE_NOOP(
                "", "'{0}' is not allowed here: use numbers, [ ], commas, "
                    "True/False, nan and inf"), shown))
        token, group = m.group(0), m.lastgroup
        if group == "open":
            depth += 1
            deepest = max(deepest, depth)
        elif group == "close":
            depth -= 1
        elif group == "word" and token.lower() == "nan":
            token = "'nan'"  # no literal spells nan; marked here, made a float below
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] in "+-":
                out.pop()  # -nan is nan
        elif group == "word" and token not in ("True", "False"):
            token = "1e999"  # literal_eval reads this as inf, and -1e999 as -inf
        if group in ("word", "number"):
            literals += 1
        out.append(token)
        pos = m.end()
    if deepest > MAX_DEPTH:
        raise InputError(Filled(QT_TRANSLATE_NOOP("", "nested more than {0} levels deep"),
                                MAX_DEPTH))
    if literals > MAX_LITERALS:
        raise InputError(Filled(QT_TRANSLATE_NOOP("", "more than {0} numbers"), MAX_LITERALS))
    source = "".join(out).strip()
    if not source:
        raise InputError(Filled(QT_TRANSLATE_NOOP(
            "", "enter a number or nested lists, for example [[1, 2], [3, 4]]")))
    try:
        value = ast.literal_eval(source)
    except (SyntaxError, ValueError, TypeError):
        raise InputError(Filled(QT_TRANSLATE_NOOP(
            "", "cannot read this: write numbers separated by commas, "
                "each row in [ ]"))) from None
    value = _plain(value)
    _check_rectangular(value, "data")
    return value


def _plain(value: Any) -> Any:
    """Tuples as lists, the nan marker as a float; refuse integers past 64 bits."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value == "nan":
        return math.nan
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
        raise InputError(Filled(QT_TRANSLATE_NOOP("", "{0} does not fit in 64 bits"), value))
    if isinstance(value, str):
        raise InputError(Filled(QT_TRANSLATE_NOOP("", "'{0}' is not a number"), value))
    return value


def _check_rectangular(value: Any, path: str) -> tuple[int, ...]:
    """The shape of nested lists; ragged rows raise ``InputError`` naming the row."""
    if not isinstance(value, list):
        return ()
    if not value:
        return (0,)
    shapes = [_check_rectangular(v, f"{path}[{i}]") for i, v in enumerate(value)]
    for i, shape in enumerate(shapes[1:], 1):
        if shape == shapes[0]:
            continue
        level = next(k for k in range(max(len(shape), len(shapes[0])))
                     if shape[k:k + 1] != shapes[0][k:k + 1])
        row, first = f"{path}[{i}]" + "[0]" * level, f"{path}[0]" + "[0]" * level
        raise InputError(Filled(QT_TRANSLATE_NOOP(
            "", "ragged rows: row {0} {1}, but row {2} {3}"),
            row, _describe(shape, level), first, _describe(shapes[0], level)))
    return (len(value), *shapes[0])


def _describe(shape: tuple[int, ...], level: int) -> Filled:
    """What a row at ``level`` below a shape holds, for ragged-row messages."""
    if level >= len(shape):
        return Filled(QT_TRANSLATE_NOOP("", "is a number"))
    if shape[level] == 1:
        return Filled(QT_TRANSLATE_NOOP("", "has 1 item"))
    return Filled(QT_TRANSLATE_NOOP("", "has {0} items"), shape[level])


# -- one-line fields and data: a field's text and its argument's Python text -------------------
def line_value(kind: str, text: str, names: Sequence[str]) -> str:
    """A one-line field's text (stripped, not empty) as the Python text of a parameter of
    ``kind`` : ``2, 3`` as a size is ``(2, 3)``, ``a, b`` as
    tensors ``[a, b]``, a string is quoted."""
    if kind == "size":
        return literal_text(parse_size(text))
    if kind in ("number", "float"):
        return literal_text(parse_number(text, kind))
    if kind == "tensors":
        typed = [n.strip() for n in text.split(",") if n.strip()]
        for n in typed:
            if n not in names:
                raise InputError(Filled(QT_TRANSLATE_NOOP(
                    "", "'{0}' is not a tensor in the recipe"), n))
        return "[" + ", ".join(typed) + "]"
    if kind == "any":
        if text in names:
            return text
        try:
            return literal_text(parse_number(text, "number"))
        except InputError:
            raise InputError(Filled(QT_TRANSLATE_NOOP(
                "", "enter a tensor name or a number"))) from None
    return literal_text(text)


def line_shown(kind: str, value: str | None) -> str:
    """The text a one-line field of ``kind`` shows for an argument's Python text ``value``
    (empty for None). What it cannot read back is shown as
    written, so that reading it reports the problem."""
    if value is None:
        return ""
    node = _node(value)
    if node is None:
        return value.strip()
    if kind in ("size", "tensors") and isinstance(node, ast.List | ast.Tuple):
        where = Positions(value.strip())  # one pass of the text for all its items
        return ", ".join(where.text[slice(*where.span(e))] for e in node.elts)
    if kind == "str" and isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    shown = data_shown(value) if _is_number(node) else None
    return value.strip() if shown is None else shown


def data_value(value: Any) -> str:
    """Nested lists of numbers (what ``parse_data`` reads) as Python text."""
    return literal_text(value)


def data_shown(value: str, indent: int = 0) -> str | None:
    """The text ``parse_data`` reads back as the Python text ``value``; None when it is
    not plain data."""
    node = _node(value)
    return None if node is None else _data_shown(value, node, indent)


def _data_shown(source: str, node: ast.expr, indent: int) -> str | None:
    if isinstance(node, ast.List | ast.Tuple):
        parts = [_data_shown(source, e, indent + 1) for e in node.elts]
        if any(p is None for p in parts):
            return None
        nested = any(isinstance(e, ast.List | ast.Tuple) for e in node.elts)
        sep = ",\n" + " " * (indent + 1) if nested else ", "
        return "[" + sep.join(parts) + "]"  # type: ignore[arg-type]
    if not _is_number(node) and not (isinstance(node, ast.Constant)
                                     and isinstance(node.value, bool)):
        return None
    _, v = node_literal(node)
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return repr(v)


def _is_number(node: ast.expr) -> bool:
    """A number's node: ``2``, ``-0.5``, ``float("nan")`` (not a bool)."""
    ok, v = node_literal(node)
    return ok and isinstance(v, int | float) and not isinstance(v, bool)


def _node(value: str) -> ast.expr | None:
    try:
        return ast.parse(value.strip(), mode="eval").body
    except SyntaxError:
        return None


