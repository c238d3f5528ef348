"""Provenance's forward pass, in the kernel: an expression's ``ast`` as a tree of op nodes.

``forward`` splits a Python expression (the value of ``y = torch.gather(x, 1, index)``)
into nodes, one for each call, operator, comparison, subscript and attribute, and
evaluates them bottom up. Each node keeps a *template*: its own ``ast`` with every operand
replaced by a placeholder name ``_p<i>``, compiled, so that ``kernel.explain.provenance_rules``
can evaluate it again with operands of its choosing (``local_namespace``, ``evaluate``).

Only the ops the window names (``ops``: ``OpFacts`` from its catalogue, by the dotted name
the code spells: ``torch.tril``, ``F.softmax``, ``Tensor.view``), Python's operators,
subscripts and a tensor's own attributes are evaluated, never a function of the recipe's.
Every node is worked out first on torch's ``meta`` device, which knows shapes and allocates
nothing: a node that would make a value of more than ``MAX_CELLS`` elements
(``torch.ones(10**5, 10**5)``) is refused before anything is made.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field
from typing import Any

from protocol.provenance_data import MODULES, OpFacts, call_key, module_path
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most elements any value worked out here may have (16 MiB of float32).
MAX_CELLS = 1 << 22
#: Ops whose result's shape depends on the values (the meta device cannot tell it), and
#: is never larger than what they read: these run on the values without a dry run.
BOUNDED_BY_VALUES = frozenset({"nonzero", "argwhere", "masked_select", "unique",
                               "unique_consecutive"})
#: A tensor's attributes that may be read (never a method called without parentheses).
TENSOR_ATTRIBUTES = frozenset({"grad", "T", "mT", "H", "mH", "shape", "dtype", "device",
                               "is_leaf", "requires_grad", "grad_fn", "data", "ndim",
                               "is_cuda"})

_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
              ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
              ast.BitXor: "^", ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=",
              ast.Gt: ">", ast.GtE: ">=", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~",
              ast.LShift: "<<", ast.RShift: ">>", ast.Not: "not"}
_PLAIN_OPERATORS = {"*": operator.mul, "**": operator.pow}


class ProbeError(ValueError):
    """A part of a step the kernel will not work out (too large, or not an op it knows)."""


@dataclass
class OpNode:
    """One node of an expression: its value, and how to evaluate it again."""

    node: ast.expr
    op: str  # "torch.gather", "Tensor.view", "+", "[]", ".T", "tuple"; "" for a leaf
    operands: list[OpNode]
    value: Any
    name: str | None = None  # a leaf that reads a name of the recipe: that name
    template: ast.expr | None = None  # node with each operand replaced by Name("_p<i>")
    code: Any = field(default=None, repr=False)  # the template, compiled
    facts: OpFacts | None = None  # a call's op


def expression_of(code: str) -> ast.expr:
    """The expression a statement's text computes: the value of ``y = ...``, of a bare
    call, of ``return ...``; or the text itself when it is an expression."""
    tree = ast.parse(code.strip())
    if len(tree.body) != 1:
        raise ProbeError("not one statement")
    statement = tree.body[0]
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) \
            and statement.value is not None:
        return statement.value
    raise ProbeError(f"a {type(statement).__name__} statement is not worked out here")


def names_read(expr: ast.expr) -> list[str]:
    """The names of the recipe ``expr`` reads (a module's name is not one)."""
    found: list[str] = []
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id not in MODULES and node.id not in found:
            found.append(node.id)
    return found


def forward(expr: ast.expr, namespace: dict[str, Any], ops: dict[str, OpFacts]) -> OpNode:
    """``expr`` split into nodes and evaluated, operands first, in ``namespace``; ``ops``:
    the calls it may make."""
    if isinstance(expr, ast.Name) and expr.id not in MODULES:
        if expr.id not in namespace:
            raise NameError(f"name '{expr.id}' is not defined")
        return OpNode(expr, "", [], namespace[expr.id], name=expr.id)
    if isinstance(expr, ast.Constant) or module_path(expr) is not None:
        return OpNode(expr, "", [], _run(_compile(expr), {}))
    number = _number(expr)
    if number is not None:
        return OpNode(expr, "", [], number)
    template, parts = _split(expr, ops)
    operands = [forward(p, namespace, ops) for p in parts]
    op = op_name(template, ops)
    node = OpNode(expr, op, operands, None, template=template, code=_compile(template),
                  facts=ops.get(op) if isinstance(template, ast.Call) else None)
    node.value = evaluate(node, local_namespace(operands))
    return node


_NUMBERS = {"float": float, "int": int, "bool": bool, "complex": complex}


def _number(expr: ast.expr) -> Any:
    """``float('-inf')``, ``int(3)``: a number made of constants, or None."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) \
            and expr.func.id in _NUMBERS and not expr.keywords and len(expr.args) <= 1 \
            and all(isinstance(a, ast.Constant) for a in expr.args):
        try:
            return _NUMBERS[expr.func.id](*(a.value for a in expr.args))  # type: ignore
        except (TypeError, ValueError):
            return None
    return None


def _compile(expr: ast.expr) -> Any:
    tree = ast.fix_missing_locations(ast.Expression(body=expr))
    return compile(tree, "<provenance>", "eval")


def _split(expr: ast.expr, ops: dict[str, OpFacts]) -> tuple[ast.expr, list[ast.expr]]:
    """``expr`` with its operands (sub-expressions that are nodes themselves) taken out."""
    parts: list[ast.expr] = []

    def sub(e: ast.expr | None) -> ast.expr | None:
        if e is None or isinstance(e, ast.Constant) or module_path(e) is not None:
            return e
        if isinstance(e, (ast.Tuple, ast.List)):
            return type(e)(elts=[sub(i) for i in e.elts], ctx=ast.Load())
        if isinstance(e, ast.Slice):
            return ast.Slice(sub(e.lower), sub(e.upper), sub(e.step))
        parts.append(e)
        return ast.Name(f"_p{len(parts) - 1}", ast.Load())

    template: ast.expr
    if isinstance(expr, ast.Call):
        func = expr.func
        if module_path(func) is None:
            if not isinstance(func, ast.Attribute):
                raise ProbeError(f"'{ast.unparse(func)}' is not worked out here")
            func = ast.Attribute(sub(func.value), func.attr, ast.Load())
        template = ast.Call(func, [sub(a) for a in expr.args],
                            [ast.keyword(k.arg, sub(k.value)) for k in expr.keywords])
    elif isinstance(expr, ast.BinOp):
        template = ast.BinOp(sub(expr.left), expr.op, sub(expr.right))
    elif isinstance(expr, ast.UnaryOp):
        template = ast.UnaryOp(expr.op, sub(expr.operand))
    elif isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        template = ast.Compare(sub(expr.left), expr.ops, [sub(expr.comparators[0])])
    elif isinstance(expr, ast.Subscript):
        template = ast.Subscript(sub(expr.value), sub(expr.slice), ast.Load())
    elif isinstance(expr, ast.Attribute):
        template = ast.Attribute(sub(expr.value), expr.attr, ast.Load())
    elif isinstance(expr, (ast.Tuple, ast.List)):
        template = type(expr)(elts=[sub(i) for i in expr.elts], ctx=ast.Load())
    else:
        raise ProbeError(f"{type(expr).__name__} is not worked out here")
    op_name(template, ops)  # refuses what is not worked out, before anything runs
    return template, parts


def op_name(template: ast.expr, ops: dict[str, OpFacts]) -> str:
    """What a node does, as the catalogue and the rules name it; ``ProbeError`` for a call
    ``ops`` does not name, or an attribute not worked out here."""
    if isinstance(template, ast.Call):
        op = call_key(template.func)
        if op is None or op not in ops:
            raise ProbeError(f"'{op or ast.unparse(template.func)}' is not worked out here")
        return op
    if isinstance(template, ast.BinOp):
        return _OPERATORS.get(type(template.op), "?")
    if isinstance(template, ast.UnaryOp):
        return _OPERATORS.get(type(template.op), "?")
    if isinstance(template, ast.Compare):
        return _OPERATORS.get(type(template.ops[0]), "?")
    if isinstance(template, ast.Subscript):
        return "[]"
    if isinstance(template, ast.Attribute):
        if template.attr not in TENSOR_ATTRIBUTES:
            raise ProbeError(f"'.{template.attr}' is not worked out here")
        return "." + template.attr
    return "list" if isinstance(template, ast.List) else "tuple"


def spec_of(node: OpNode) -> OpFacts | None:
    """The op of a call node, or None."""
    return node.facts


def evaluate(node: OpNode, namespace: dict[str, Any]) -> Any:
    """``node``'s template evaluated with its operands taken from ``namespace`` (the
    caller's copies: an in-place op changes them), after a dry run on the meta device.
    torch's errors are raised as torch raises them."""
    import torch

    if isinstance(node.template, ast.BinOp):
        _plain_arithmetic(node.op, *(_operand(e, namespace)
                                     for e in (node.template.left, node.template.right)))
    spec = spec_of(node)
    if spec is None or spec.name not in BOUNDED_BY_VALUES:
        meta = {name: _on_meta(value) for name, value in namespace.items()}
        try:
            with torch.device("meta"):
                _checked(_run(node.code, meta))
        except ProbeError:
            raise
        except (NotImplementedError, RuntimeError, TypeError, ValueError, IndexError):
            pass  # torch will say it again, in its own words, on the real values
    return _run(node.code, namespace)


_GLOBALS: dict[str, Any] = {}


def _run(code: Any, namespace: dict[str, Any]) -> Any:
    if not _GLOBALS:
        import importlib

        _GLOBALS.update({"__builtins__": {}}, **{
            name: importlib.import_module(module) for name, module in MODULES.items()})
    return eval(code, _GLOBALS, dict(namespace))  # noqa: S307 - a checked template


def _operand(e: ast.expr, namespace: dict[str, Any]) -> Any:
    if isinstance(e, ast.Constant):
        return e.value
    if isinstance(e, ast.Name):
        return namespace.get(e.id)
    return None


def _plain_arithmetic(op: str, left: Any, right: Any) -> None:
    """Refuse Python arithmetic that would run for minutes or fill memory without a
    tensor in sight: ``2 ** 10**9``, ``"ab" * 10**9``."""
    plain = (int, float, complex, str, bytes, list, tuple)
    if not isinstance(left, plain) or not isinstance(right, plain):
        return
    if op == "*" and (isinstance(left, (str, bytes, list, tuple))
                      or isinstance(right, (str, bytes, list, tuple))):
        raise ProbeError("repeating a string or a list is not worked out here")
    if op == "**" and isinstance(right, int) and abs(right) > 1000 \
            and isinstance(left, int) and abs(left) > 1:
        raise ProbeError(f"{left} ** {right} is too large a number to work out here")


def _on_meta(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return torch.empty_strided(value.shape, value.stride(), dtype=value.dtype,
                                   device="meta").requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_on_meta(v) for v in value)
    return value


def _checked(value: Any) -> None:
    import torch

    for t in value if isinstance(value, (list, tuple)) else (value,):
        if isinstance(t, torch.Tensor) and t.numel() > MAX_CELLS:
            raise ProbeError(f"a value of {t.numel():,} elements is not worked out "
                             f"here (at most {MAX_CELLS:,})")


def local_namespace(operands: list[OpNode], **replace: Any) -> dict[str, Any]:
    """The namespace a template is evaluated in: fresh copies, so in-place ops harm nothing."""
    ns = {f"_p{i}": copy_value(node.value) for i, node in enumerate(operands)}
    ns.update(replace)
    return ns


def copy_value(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(copy_value(v) for v in value)
    return value


def tensors_in(value: Any) -> list:
    """The tensors a value holds: itself, or the items of a flat tuple or list."""
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []


def no_elements(value: Any) -> list:
    """A mask with nothing wanted for each tensor ``value`` holds."""
    import torch

    return [torch.zeros(t.shape, dtype=torch.bool) for t in tensors_in(value)]
