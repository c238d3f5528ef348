"""Qt-free helpers of the op panel: an op step's call and its catalogue entry.

``bind_node`` maps a call's ``ast`` arguments to its op's parameters; the catalogue
itself is data:
``app.catalog.spec``. ``op_spec`` finds the catalogue entry of a step the op panel can
edit; ``app.recipe.call_text`` reads such a call into the form's values and writes it
back. ``node_literal`` reads a literal's node, ``statement_value`` a statement's
expression, and ``signature`` writes an op's signature for its description.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import replace
from typing import Any

from app.catalog import CATALOG, OpSpec
from app.dtypes import DTYPE_NAMES, DType
from app.recipe.model import Step
from app.text_edits import literal_text

#: Categories the builder panel offers; every other category is an op.
BUILDER_CATEGORIES = frozenset({"creation", "random", "output"})
#: Optional parameters of these kinds are written as keywords: ``diagonal=1``, ``dim=0``.
KEYWORD_KINDS = frozenset({"dim", "int", "bool", "float", "number", "dtype", "device", "str"})


def bind_node(spec: OpSpec, call: ast.Call, is_method: bool) -> dict[str, ast.expr]:
    """A call's argument nodes, with their positions, by parameter name. A method's
    receiver (``call.func.value``) is not among them; several arguments of one parameter
    (``x.view(3, 4)``) come as one ``ast.Tuple`` without positions of its own."""
    kwargs = [(k.arg, k.value) for k in call.keywords if k.arg]
    positional, args = list(call.args), list(call.args)
    bound: dict[str, Any] = {}
    params = [p for p in (spec.method_params() if is_method else spec.params)
              if not p.keyword_only]
    for p in params:
        if not args:
            break
        if p.kind == "device" and is_dtype_node(args[0]):
            continue  # x.to(torch.float64): torch's dtype-only overload skips device
        if p.varargs:  # takes every remaining positional argument
            bound[p.name], args = _pack_node(args), []
        else:
            bound[p.name] = args.pop(0)
    for k, v in kwargs:
        bound[k] = v
    if not is_method and spec.leading_optional():
        return _bind_required_first(spec, positional, dict(kwargs), bound)
    return bound


def is_dtype_node(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in DTYPE_NAMES \
        and isinstance(node.value, ast.Name) and node.value.id == "torch"


def _pack_node(items: list[ast.expr]) -> ast.expr:
    return items[0] if len(items) == 1 and isinstance(items[0], ast.List | ast.Tuple) \
        else ast.Tuple(elts=items, ctx=ast.Load())


def _bind_required_first(spec: OpSpec, args: list, kwargs: dict[str, Any],
                         bound: dict[str, Any]) -> dict[str, Any]:
    """``bound``, redone when too few positional arguments left a required one empty:
    then positional arguments go to the required parameters first."""
    slots = [p for p in spec.params if not p.keyword_only and p.name not in kwargs]
    if all(p.name in bound for p in slots if p.required) or any(p.varargs for p in slots):
        return bound
    args = list(args)
    spare = len(args) - sum(p.required for p in slots)
    if spare < 0 or len(args) > len(slots):
        return bound
    out: dict[str, Any] = {}
    for p in slots:
        if args and (p.required or spare > 0):
            spare -= not p.required
            out[p.name] = args.pop(0)
    return {**out, **kwargs}


def statement_value(code: str) -> ast.expr | None:
    """The expression statement ``code`` computes (``y = x + 1``: ``x + 1``), or None."""
    try:
        body = ast.parse(code).body
    except SyntaxError:  # (a statement from inside a block: its lines indented)
        try:
            body = ast.parse(textwrap.dedent(code)).body
        except SyntaxError:
            return None
    if len(body) != 1 or not isinstance(body[0], ast.Assign | ast.Expr):
        return None
    return body[0].value


def node_literal(node: ast.expr) -> tuple[bool, Any]:
    """``(True, value)`` for a literal a form shows: a number (``-1`` too), bool, None,
    string, ``...``, ``float("nan")`` and the like, a dtype (``torch.float64``, read as
    ``DType``); ``(False, None)`` for anything else (a name, a list, ``i - 1``)."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return True, -node.operand.value
    if is_dtype_node(node):
        return True, DType(node.attr)  # type: ignore[attr-defined]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
        try:
            return True, float(ast.literal_eval(node.args[0]))
        except (ValueError, TypeError, SyntaxError):
            return False, None
    return False, None


def same_literal(a: Any, b: Any) -> bool:
    """``a == b`` of the same type: ``1``, ``1.0`` and ``True`` all differ."""
    return type(a) is type(b) and a == b


def op_spec(step: Step) -> OpSpec | None:
    """The catalogue entry of a step the op panel edits: one call of a non-builder op."""
    if step.op is None or not isinstance(step.node, ast.Call):
        return None
    spec = CATALOG.get(step.op)
    return None if spec is None or spec.category in BUILDER_CATEGORIES else spec


def has_receiver(spec: OpSpec) -> bool:
    """Whether "Apply to" picks the op's main tensor (``x`` in ``x.view`` or ``tril(x)``)."""
    if spec.function_key is None:
        return True
    return any(p.name == spec.receiver and p.kind == "tensor" for p in spec.params)


def form_spec(spec: OpSpec) -> OpSpec:
    """``spec`` with the parameters the form shows: all but the one "Apply to" picks."""
    return replace(spec, params=spec.method_params()) if has_receiver(spec) else spec


def default_keywords(spec: OpSpec) -> set[str]:
    """The optional parameters a new step writes as keywords."""
    return {p.name for p in spec.params if not p.required and p.kind in KEYWORD_KINDS}


def signature(spec: OpSpec) -> str:
    """``torch.tril(input, diagonal=0)`` and, for ops that are also methods, the method."""
    def one(head: str, params: tuple) -> str:
        parts: list[str] = []
        for p in params:
            if p.keyword_only and "*" not in parts:
                parts.append("*")
            text = ("*" if p.varargs else "") + p.name
            parts.append(text if p.required else f"{text}={literal_text(p.default)}")
        return f"{head}({', '.join(parts)})"

    lines = [one(key, spec.params) for key in spec.function_keys[:1]]
    if spec.method:
        lines.append(one(f"{spec.receiver}.{spec.name}" if has_receiver(spec)
                         else f"Tensor.{spec.name}", spec.method_params()))
    return "\n".join(lines)
