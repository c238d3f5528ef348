"""Op explained's questions, answered in the kernel (loaded there by name, as
``kernel.explain.kernel_queries`` is: ``widgets.common.kernel_hook.VIEW_QUERIES``).

- ``provenance``: which input elements output element ``index`` (of output ``part``) of a
  statement ``code`` comes from (``kernel.explain.provenance.trace_data``: a bool mask of each
  input), worked out on the values it read as they were before it ran;
- ``step_parts``: what Op explained's extras draw that needs torch: the value of each
  operand of ``code`` that ``operands`` names (by parameter: ``input``, ``min``,
  ``tensors``, ``left``...), copied (``mirror.encode``) with its storage offset, and for cat
  and stack the number of the source of each output element (``labels``: the parameter
  that holds the sources).

Each question names the ops the kernel may call (``ops``: ``OpFacts`` data from the
window's catalogue, ``app.explain.op_facts.op_table``). The values a statement read come
with the question (``inputs``: the copies the window holds, ``mirror.encode``'s data), or,
for the tensors too large to travel with its report, from the kernel's stamps of statement
``statement`` of run ``run`` (``Values.large``), as long as no later statement changed
them. A loop's iteration or a function's call gives its
own ``inputs`` and ``code``. Nothing the recipe holds is changed, and the random state is
kept.
"""

from __future__ import annotations

import ast
from typing import Any

from kernel.explain.provenance import trace_data
from kernel.explain.provenance_nodes import (
    ProbeError,
    copy_value,
    expression_of,
    forward,
    names_read,
    op_name,
)
from kernel.explain.provenance_rules import bind
from kernel.mirror import decode, encode, stamped
from kernel.queries import QueryError, Values, register
from protocol.limits import ASKED_CELLS
from protocol.provenance_data import OpFacts, facts_table
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's


def step_inputs(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """The values a statement read: those sent with the question, and the stamped ones."""
    inputs = {str(n): decode(d) for n, d in (args.get("inputs") or {}).items()}
    if args.get("statement") is not None:
        try:
            marks = values.large(int(args.get("run", 0)), int(args["statement"]))
        except QueryError:
            marks = {"inputs": {}}
        for name, mark in marks["inputs"].items():
            value = stamped(mark) if name not in inputs else None
            if value is not None:
                inputs[name] = value
    return inputs


def _provenance(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    inputs = step_inputs(values, args)
    part = args.get("part")
    try:
        return trace_data(str(args["code"]), inputs, tuple(int(i) for i in args["index"]),
                          part=None if part is None else int(part), ops=args.get("ops"))
    except Exception as e:  # noqa: BLE001 - said to the view, as torch says it
        raise QueryError(f"{type(e).__name__}: {e}") from None


def _step_parts(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    import torch

    inputs = step_inputs(values, args)
    ops = facts_table(args.get("ops"))
    out: dict[str, Any] = {"operands": {}, "offsets": {}, "labels": None}
    try:
        expr = expression_of(str(args["code"]))
        bound = operands_of(expr, ops)
    except (SyntaxError, ValueError) as e:
        raise QueryError(str(e)) from None
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        for pname in args.get("operands") or ():
            if pname not in bound:
                continue
            try:
                value = _value_of(bound[pname], inputs, ops)
            except Exception:  # noqa: BLE001, S112 - an operand that fails is shown as missing
                continue
            data = encode(value, ASKED_CELLS)
            if data is not None:
                out["operands"][pname] = data
            if isinstance(value, torch.Tensor):
                out["offsets"][pname] = int(value.storage_offset())
        labels = args.get("labels")
        if labels in bound and isinstance(expr, ast.Call):
            try:
                out["labels"] = _labels(expr, bound[labels], inputs, ops)
            except Exception:  # noqa: BLE001, S110 - no colours rather than no answer
                pass
    return out


def operands_of(expr: ast.expr, ops: dict[str, OpFacts]) -> dict[str, ast.expr]:
    """A step's top-level operands by parameter name: the catalogue's names for a call
    (the receiver of a method call among them), ``left``/``right`` for an operator,
    ``operand`` for a unary one."""
    if isinstance(expr, ast.BinOp):
        return {"left": expr.left, "right": expr.right}
    if isinstance(expr, ast.Compare) and len(expr.comparators) == 1:
        return {"left": expr.left, "right": expr.comparators[0]}
    if isinstance(expr, ast.UnaryOp):
        return {"operand": expr.operand}
    if isinstance(expr, ast.Call):
        try:
            op = op_name(expr, ops)
        except ProbeError:
            return {}
        return bind(ops[op], expr, method=op.startswith("Tensor."))
    return {}


def _labels(call: ast.Call, sources_node: ast.expr, inputs: dict[str, Any],
            ops: dict[str, OpFacts]) -> Any:
    """The number of the source each output element of cat or stack comes from: the
    call made again on tensors filled with each source's number."""
    import torch

    sources = _value_of(sources_node, inputs, ops)
    placeholder = ast.Name("_sources", ast.Load())
    again = ast.Call(call.func, [placeholder if a is sources_node else a for a in call.args],
                     [ast.keyword(k.arg, placeholder if k.value is sources_node else k.value)
                      for k in call.keywords])
    made = _value_of(again, {**inputs, "_sources": [
        torch.full(t.shape, k, dtype=torch.float64) for k, t in enumerate(sources)]}, ops)
    return made.to(torch.int64).numpy().copy()


def _value_of(expr: ast.expr, inputs: dict[str, Any], ops: dict[str, OpFacts]) -> Any:
    """The value of ``expr``, worked out node by node on copies of ``inputs``."""
    return forward(expr, {k: copy_value(inputs[k]) for k in names_read(expr)
                          if k in inputs}, ops).value


def _warm_meta() -> None:
    """The meta device's first op imports torch's meta kernels (0.5 s): done as this module
    loads (on the kernel's warming thread), not on the first question."""
    try:
        import torch

        with torch.device("meta"):
            torch.gather(torch.empty(2, 2), 1, torch.zeros(2, 1, dtype=torch.int64))
    except Exception:  # noqa: BLE001, S110 - only a warm-up
        pass


register("provenance", _provenance)
register("step_parts", _step_parts)
_warm_meta()
