"""Qt-free helpers of the op panel: the call an op step is, read from and written to its form.

``op_spec`` finds the catalogue entry of a step the op panel can edit; ``bind_op`` splits
its call into the tensor "Apply to" picks and the form's values, and ``build_call`` puts
them back together, in the spelling the step had (method or function, positional or
keyword arguments). ``signature`` writes an op's signature for its description.
"""

from __future__ import annotations

from dataclasses import replace

from app.catalog import CATALOG, OpSpec
from app.expr import Call, Const, DType, Expr
from app.recipe.model import Step
from app.text_edits import literal_text

#: Categories the builder panel offers; every other category is an op.
BUILDER_CATEGORIES = frozenset({"creation", "random", "output"})
#: Optional parameters of these kinds are written as keywords: ``diagonal=1``, ``dim=0``.
KEYWORD_KINDS = frozenset({"dim", "int", "bool", "float", "number", "dtype", "device", "str"})


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
        values = spec.bind(call)
        first = spec.method_params()[0] if spec.method_params() else None
        value = values.get(first.name) if first is not None else None
        # x.to(torch.float64): torch reads a dtype in the device slot as the dtype
        if first is not None and first.kind == "device" and isinstance(value, Const) \
                and isinstance(value.value, DType) and "dtype" not in values:
            values["dtype"] = values.pop(first.name)
        if has_receiver(spec):
            return call.args[0], values
        return None, {**values, spec.receiver: call.args[0]}
    values = dict(spec.bind(call))
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
        call = spec.make_call(values, receiver=main)
    else:
        if has_receiver(spec) and receiver is not None:
            values[spec.receiver] = receiver
        namespace = spelling if spelling not in (None, "method") else None
        call = spec.make_call(values, namespace=namespace)
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
    bound = set(spec.bind(call))
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
