"""Qt-free helpers of the op panel: the call an op step is, read from and written to its form.

``bind`` maps a call's arguments to its op's parameters and ``make_call`` writes the call
for them (the catalogue itself is data: ``app.catalog.spec``). ``op_spec`` finds the
catalogue entry of a step the op panel can edit; ``bind_op`` splits its call into the
tensor "Apply to" picks and the form's values, and ``build_call`` puts them back together,
in the spelling the step had (method or function, positional or keyword arguments).
``signature`` writes an op's signature for its description.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.catalog import CATALOG, OpSpec, Param
from app.dtypes import DTYPE_NAMES
from app.expr import Call, Const, DType, Expr, Seq
from app.recipe.model import Step
from app.text_edits import literal_text

#: Categories the builder panel offers; every other category is an op.
BUILDER_CATEGORIES = frozenset({"creation", "random", "output"})
#: Optional parameters of these kinds are written as keywords: ``diagonal=1``, ``dim=0``.
KEYWORD_KINDS = frozenset({"dim", "int", "bool", "float", "number", "dtype", "device", "str"})


def make_call(spec: OpSpec, values: dict[str, Expr], *, receiver: Expr | None = None,
              namespace: str | None = None) -> Call:
    """Build ``spec``'s call for form ``values``; parameters equal to their default are left out.

    With ``receiver`` the call is the method form (the receiver parameter's value in
    ``values``, if any, is ignored), else the function form, spelled in ``namespace``
    (one of ``namespace`` and ``also_in``; the first by default).
    """
    args: list[Expr] = [] if receiver is None else [receiver]
    kwargs: list[tuple[str, Expr]] = []
    positional = True
    params = spec.params if receiver is None else spec.method_params()
    spread = receiver is not None
    leading = spec.leading_optional() if receiver is None else ()
    forced: set[str] = set()
    if leading:
        unset = [p for p in leading if _is_default(p, values.get(p.name))]
        later = [p for p in params if not p.required and not p.keyword_only
                 and p not in leading and not _is_default(p, values.get(p.name))]
        if len(unset) == len(leading) and later:
            # torch.arange(0, 12, 2): a later optional needs the leading one written.
            values = {**values, **{p.name: Const(p.default) for p in leading}}
            forced = {p.name for p in leading}
            leading = ()
        elif len(unset) < len(leading):
            leading = ()
    for p in params:
        if p in leading:
            continue  # torch.arange(12): the one-argument overload fills end first
        if p.name not in values:
            positional = positional and p.required
            continue
        value = values[p.name]
        if not p.required and p.name not in forced and isinstance(value, Const) \
                and _same(value.value, p.default):
            positional = False
            continue
        if p.varargs and isinstance(value, Seq) and positional and not p.keyword_only \
                and (spread or p.varargs_in_function):
            args.extend(value.items)
        elif positional and not p.keyword_only:
            args.append(value)
        else:
            kwargs.append((p.name, value))
            positional = False
    if receiver is not None:
        op: str | None = f"Tensor.{spec.name}"
    elif namespace is not None and namespace != spec.namespace:
        if namespace not in spec.also_in:
            raise ValueError(f"{spec.name} is not in namespace {namespace!r}")
        op = f"{namespace}.{spec.name}"
    else:
        op = spec.function_key
    assert op is not None, f"{spec.name} has no function form"
    return Call(op, tuple(args), tuple(kwargs))


def bind(spec: OpSpec, call: Call) -> dict[str, Expr]:
    """Map a call's arguments back to parameter names (the inverse of ``make_call``)."""
    return _bind(spec, list(call.args[1:] if call.is_method else call.args), list(call.kwargs),
                 call.is_method, _is_dtype_expr, _pack_expr)


def bind_node(spec: OpSpec, call: ast.Call, is_method: bool) -> dict[str, ast.expr]:
    """``bind`` over a call's ``ast``: its argument nodes, with their positions, by
    parameter name. A method's receiver (``call.func.value``) is not among them; several
    arguments of one parameter (``x.view(3, 4)``) come as one ``ast.Tuple`` without
    positions of its own."""
    return _bind(spec, list(call.args), [(k.arg, k.value) for k in call.keywords if k.arg],
                 is_method, _is_dtype_node, _pack_node)


def _bind(spec: OpSpec, args: list, kwargs: list[tuple[str, Any]], is_method: bool,
          is_dtype: Callable[[Any], bool], pack: Callable[[list], Any]) -> dict[str, Any]:
    """Arguments ``args`` and ``kwargs`` (a method's without its receiver) by parameter
    name; ``is_dtype`` and ``pack`` read and make the nodes of one kind of tree."""
    positional, args = list(args), list(args)
    bound: dict[str, Any] = {}
    params = [p for p in (spec.method_params() if is_method else spec.params)
              if not p.keyword_only]
    for p in params:
        if not args:
            break
        if p.kind == "device" and is_dtype(args[0]):
            continue  # x.to(torch.float64): torch's dtype-only overload skips device
        if p.varargs:  # takes every remaining positional argument
            bound[p.name], args = pack(args), []
        else:
            bound[p.name] = args.pop(0)
    for k, v in kwargs:
        bound[k] = v
    if not is_method and spec.leading_optional():
        return _bind_required_first(spec, positional, dict(kwargs), bound)
    return bound


def _is_dtype_expr(expr: Expr) -> bool:
    return isinstance(expr, Const) and isinstance(expr.value, DType)


def _pack_expr(items: list[Expr]) -> Expr:
    return items[0] if len(items) == 1 and isinstance(items[0], Seq) \
        else Seq(tuple(items), "tuple")


def _is_dtype_node(node: ast.expr) -> bool:
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
    if _is_dtype_node(node):
        return True, DType(node.attr)  # type: ignore[attr-defined]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
        try:
            return True, float(ast.literal_eval(node.args[0]))
        except (ValueError, TypeError, SyntaxError):
            return False, None
    return False, None


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _is_default(p: Param, value: Expr | None) -> bool:
    """Whether a form leaves ``p`` at its default (unset, or set to the default)."""
    return value is None or (isinstance(value, Const) and _same(value.value, p.default))


def op_spec(step: Step) -> OpSpec | None:
    """The catalogue entry of a step the op panel edits: one call of a non-builder op."""
    expr = step.expr
    if not isinstance(expr, Call) or (expr.is_method and not expr.args):
        return None
    spec = CATALOG.get(expr.op)
    return None if spec is None or spec.category in BUILDER_CATEGORIES else spec


def has_receiver(spec: OpSpec) -> bool:
    """Whether "Apply to" picks the op's main tensor (``x`` in ``x.view`` or ``tril(x)``)."""
    if spec.function_key is None:
        return True
    return any(p.name == spec.receiver and p.kind == "tensor" for p in spec.params)


def form_spec(spec: OpSpec) -> OpSpec:
    """``spec`` with the parameters the form shows: all but the one "Apply to" picks."""
    return replace(spec, params=spec.method_params()) if has_receiver(spec) else spec


def bind_op(spec: OpSpec, call: Call) -> tuple[Expr | None, dict[str, Expr]]:
    """Split a call into its receiver (for "Apply to") and the form's parameter values."""
    if call.is_method:
        values = bind(spec, call)
        first = spec.method_params()[0] if spec.method_params() else None
        value = values.get(first.name) if first is not None else None
        # x.to(torch.float64): torch reads a dtype in the device slot as the dtype
        if first is not None and first.kind == "device" and isinstance(value, Const) \
                and isinstance(value.value, DType) and "dtype" not in values:
            values["dtype"] = values.pop(first.name)
        if has_receiver(spec):
            return call.args[0], values
        return None, {**values, spec.receiver: call.args[0]}
    values = dict(bind(spec, call))
    return (values.pop(spec.receiver, None) if has_receiver(spec) else None), values


def build_call(spec: OpSpec, values: dict[str, Expr], receiver: Expr | None,
               spelling: str | None, keywords: frozenset[str] | set[str]) -> Call:
    """The call for the form's ``values``.

    ``spelling`` is ``"method"``, a namespace (``torch``, ``F``), or None for the
    catalogue's first spelling; optional parameters named in ``keywords`` are written
    as keywords when they come last.
    """
    values = dict(values)
    main = receiver if has_receiver(spec) else values.get(spec.receiver)
    if (spelling == "method" or spec.function_key is None) and main is not None \
            and spec.method:
        values.pop(spec.receiver, None)
        call = make_call(spec, values, receiver=main)
    else:
        if has_receiver(spec) and receiver is not None:
            values[spec.receiver] = receiver
        namespace = spelling if spelling not in (None, "method") else None
        call = make_call(spec, values, namespace=namespace)
    return _keywordize(call, spec, keywords)


def _keywordize(call: Call, spec: OpSpec, keywords: frozenset[str] | set[str]) -> Call:
    """Move trailing positional arguments named in ``keywords`` to keywords."""
    head = 1 if call.is_method else 0
    params = [p for p in (spec.method_params() if call.is_method else spec.params)
              if not p.keyword_only]
    args = list(call.args[head:])
    if len(args) > len(params) or any(p.varargs for p in params[:len(args)]):
        return call
    moved: list[tuple[str, Expr]] = []
    while args and params[len(args) - 1].name in keywords:
        moved.insert(0, (params[len(args) - 1].name, args.pop()))
    if not moved:
        return call
    return Call(call.op, call.args[:head] + tuple(args), tuple(moved) + call.kwargs)


def default_keywords(spec: OpSpec) -> set[str]:
    """The optional parameters a new step writes as keywords."""
    return {p.name for p in spec.params if not p.required and p.kind in KEYWORD_KINDS}


def call_keywords(spec: OpSpec, call: Call) -> set[str]:
    """The parameters to write as keywords when the form rewrites ``call``: those it gave
    as keywords, and optional ones it left out (``diagonal=1`` once the user sets it)."""
    given = {k for k, _ in call.kwargs}
    bound = set(bind(spec, call))
    return given | (default_keywords(spec) - bound)


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
