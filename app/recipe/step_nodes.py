"""What a step's ``ast`` says: its operator or catalogue call at the top, every call in
it, the earlier steps it reads, and its shape (what tells two steps' expressions apart,
however their text is spaced). Read from the nodes, never run. Qt-free.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from app.catalog.call_keys import call_key
from app.dtypes import DTYPE_ALIASES
from app.text_edits import Positions

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
          ast.BitXor: "^"}
COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
           ast.GtE: ">="}
UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
#: The names of the modules the forms import: never an earlier step's.
MODULE_NAMES = frozenset({"torch", "nn", "F"})


def parse_value(text: str) -> ast.expr:
    """The expression ``text`` (a form step's) reads as. Raises ``SyntaxError``."""
    return ast.parse(text, mode="eval").body


def preorder(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every node below it, parents first and in the order of the text
    (``ast.walk`` goes breadth first), walked without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(ast.iter_child_nodes(n))))


def is_float_call(node: ast.AST) -> bool:
    """``float("nan")``, ``float(2)``: a literal the forms show, not a call."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id == "float"


def is_negative_number(node: ast.AST) -> bool:
    """``-1``, ``-0.5``: a literal, not an operation."""
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
        and isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)


def top_op(node: ast.expr) -> str | None:
    """The catalogue key (``torch.tril``, ``Tensor.view``) or the operator (``+``) at the
    top of a form step's expression; None for a name or a literal."""
    if isinstance(node, ast.Call):
        return None if is_float_call(node) else call_key(node.func)
    if isinstance(node, ast.BinOp):
        return BINOPS.get(type(node.op))
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return COMPARE.get(type(node.ops[0]))
    if isinstance(node, ast.UnaryOp) and not is_negative_number(node):
        return UNARY.get(type(node.op))
    return None


def calls_and_reads(node: ast.expr) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The catalogue keys of every call in a form step's expression, in order; and the
    earlier steps it reads, in first-use order: its names but the modules'
    (``torch.zeros``) and the builtins it calls (``print``). One walk of ``node``."""
    calls: list[str] = []
    callees: set[int] = set()
    found: dict[str, None] = {}
    for n in preorder(node):  # (a call comes before its function's name)
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name):
                callees.add(id(n.func))
            if not is_float_call(n):
                calls.append(call_key(n.func))
        elif isinstance(n, ast.Name) and id(n) not in callees and n.id not in MODULE_NAMES:
            found.setdefault(n.id)
    return tuple(calls), tuple(found)


def shape(node: ast.expr) -> str:
    """``node`` as ``ast.dump`` has it (no positions, no spacing), a dtype by its name
    (``torch.long`` is ``torch.int64``). Changes ``node``'s dtype names: give it a node of
    its own."""
    for n in preorder(node):
        if isinstance(n, ast.Attribute) and n.attr in DTYPE_ALIASES \
                and isinstance(n.value, ast.Name) and n.value.id == "torch":
            n.attr = DTYPE_ALIASES[n.attr]
    return ast.dump(node)


def rename_names(text: str, old: str, new: str) -> str:
    """A form step's expression ``text`` with each name ``old`` in it made ``new``."""
    node = parse_value(text)
    at = Positions(text)
    for n in sorted((n for n in preorder(node) if isinstance(n, ast.Name) and n.id == old),
                    key=lambda n: (n.lineno, n.col_offset), reverse=True):
        start, end = at.span(n)
        text = text[:start] + new + text[end:]
    return text
