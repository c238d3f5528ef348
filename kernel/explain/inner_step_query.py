"""The op statement inside a loop or a function, worked out in the kernel for Op explained
(the ``inner_step`` query; loaded by name with ``VIEW_QUERIES``).

A top-level statement that is a ``for``/``while`` loop, or that calls a function of the
recipe (``y = f(x)``), made its tensors where Op explained cannot see them. The question
names the ops of the recipe's text (``ops``, ``app.explain.op_facts.op_table``). This query
finds the op statement they ran and the values it read, without running the recipe's
code again:

- a loop: the last statement of its body that binds one name to an op expression (or is
  one), for iteration ``iteration``. It reads the values that iteration's sample left
  (``samples``: what the window holds of the loop's report, sent back as
  ``mirror.encode``'s data) for the names the body binds, and the kernel's own values for
  the rest (the loop left them alone). A name the body binds after the statement, or that
  the statement binds itself and reads, held another value when it ran: not known.
- a call of a function whose body is one ``return <expression>``: that expression, its
  parameters bound to the call's arguments (worked out as Op explained works out any
  operand: catalogue ops only) and defaults.

The expression is then worked out on those values (``provenance_nodes``) and compared with
what the recipe made (the sample, or the kernel's value of the name): ``same`` says
whether they agree. The answer: ``code`` (the op statement as ``name = expression``), the
statement's ``line`` in the recipe, its ``inputs`` and ``output`` (copies), ``same``, and
``where`` (``loop``/``function``) and ``function`` (its name); or ``why`` there is none
(nothing at all for a statement that is neither a loop nor a call of a function).
"""

from __future__ import annotations

import ast
import types
from typing import Any

from kernel.explain.provenance_nodes import copy_value, forward, names_read
from kernel.explain.provenance_query import step_inputs
from kernel.mirror import encode
from kernel.queries import QueryError, Values, register
from protocol.limits import ASKED_CELLS
from protocol.provenance_data import OpFacts, call_key, facts_table
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's


def _inner_step(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    import torch

    run = int(args.get("run", 0))
    namespace = values.user_namespace(run)
    try:
        tree = ast.parse(values.source)
        statement = tree.body[int(args["statement"])]
    except (SyntaxError, IndexError, ValueError) as e:
        raise QueryError(str(e)) from None
    ops = facts_table(args.get("ops"))
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        try:
            if isinstance(statement, (ast.For, ast.While)):
                found = _in_loop(statement, namespace, step_inputs(values, {
                    "inputs": args.get("samples") or {}}), ops)
            else:
                found = _in_function(statement, tree, namespace, ops)
        except _NotHere as e:
            return {"why": str(e)} if str(e) else {}
        expr, inputs, made, name = found
        try:
            value = forward(expr, {k: copy_value(v) for k, v in inputs.items()}, ops).value
        except Exception as e:  # noqa: BLE001 - said to the view, as torch says it
            return {"why": f"{type(e).__name__}: {e}"}
    out: dict[str, Any] = {
        "code": f"{name} = {ast.unparse(expr)}" if name else ast.unparse(expr),
        "line": expr.lineno, "name": name,
        "inputs": {n: d for n, v in inputs.items() if (d := encode(v, ASKED_CELLS)) is not None},
        "output": encode(value, ASKED_CELLS), "same": _same(value, made),
        "where": "loop" if isinstance(statement, (ast.For, ast.While)) else "function"}
    if out["where"] == "function":
        out["function"] = _called(statement)
    return out


class _NotHere(Exception):
    """Why a statement has no op statement to explain."""


def _op_expression(expr: ast.expr, ops: dict[str, OpFacts]) -> bool:
    """Whether Op explained can work out ``expr``: an op ``ops`` names, or an operator, at
    its top."""
    if isinstance(expr, ast.Call):
        return call_key(expr.func) in ops
    return isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Subscript))


def _bound_names(statements: list[ast.stmt]) -> list[set[str]]:
    """The names each statement binds (nested blocks included)."""
    out = []
    for s in statements:
        names = set()
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
        out.append(names)
    return out


def _in_loop(loop: ast.For | ast.While, namespace: dict[str, Any], sample: dict[str, Any],
             ops: dict[str, OpFacts]) -> tuple[ast.expr, dict[str, Any], Any, str | None]:
    body = loop.body
    at = next((i for i in range(len(body) - 1, -1, -1) if _simple(body[i], ops)), None)
    if at is None:
        raise _NotHere("the loop's body has no op statement of one name")
    statement = body[at]
    expr = statement.value  # type: ignore[attr-defined]
    name = _target(statement)
    bound = _bound_names(body)
    target = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} \
        if isinstance(loop, ast.For) else set()
    before = set().union(*bound[:at]) if at else set()
    after = set().union(*bound[at + 1:]) if at + 1 < len(bound) else set()
    inputs: dict[str, Any] = {}
    for n in names_read(expr):
        if n in after or n in bound[at]:
            raise _NotHere(f"{n} changes in the loop's body after this statement: its "
                           "value when the statement ran is not kept")
        if n in before or n in target:
            if n not in sample:
                raise _NotHere(f"the loop's report keeps no value of {n} for this "
                               "iteration (a small tensor or a number only)")
            inputs[n] = sample[n]
        elif n in namespace:
            inputs[n] = namespace[n]
    made = sample.get(name) if name is not None and name not in after else None
    return expr, inputs, made, name


def _simple(statement: ast.stmt, ops: dict[str, OpFacts]) -> bool:
    if isinstance(statement, ast.Assign):
        return len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name) \
            and _op_expression(statement.value, ops)
    return isinstance(statement, ast.Expr) and _op_expression(statement.value, ops)


def _target(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.Assign):
        return statement.targets[0].id  # type: ignore[attr-defined]
    return None


def _called(statement: ast.stmt) -> str | None:
    value = getattr(statement, "value", None)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id
    return None


def _in_function(statement: ast.stmt, tree: ast.Module, namespace: dict[str, Any],
                 ops: dict[str, OpFacts]) -> tuple[ast.expr, dict[str, Any], Any, str | None]:
    function = _called(statement)
    call = getattr(statement, "value", None)
    fn = namespace.get(function) if function is not None else None
    if not isinstance(call, ast.Call) or not isinstance(fn, types.FunctionType):
        raise _NotHere("")  # not a loop, nor a call of a function: nothing to say
    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == function
            and s.lineno < statement.lineno]
    if not defs:
        raise _NotHere(f"{function} is not defined in the recipe before this statement")
    body = list(defs[-1].body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # its docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None \
            or not _op_expression(body[0].value, ops):
        raise _NotHere(f"{function}'s body is not one return of an op expression")
    expr = body[0].value
    params = [a.arg for a in defs[-1].args.posonlyargs + defs[-1].args.args]
    if defs[-1].args.vararg or defs[-1].args.kwarg or defs[-1].args.kwonlyargs:
        raise _NotHere(f"{function} takes *args, **kwargs or keyword-only arguments")
    defaults = dict(zip(reversed(params), reversed(fn.__defaults__ or ()), strict=False))
    given: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    inputs: dict[str, Any] = {}
    for p in params:
        if p in given:
            arg = given[p]
            try:
                inputs[p] = forward(arg, {n: copy_value(namespace[n]) for n in names_read(arg)
                                          if n in namespace}, ops).value
            except Exception as e:  # noqa: BLE001
                raise _NotHere(f"{p}: {type(e).__name__}: {e}") from None
        elif p in defaults:
            inputs[p] = defaults[p]
    name = _target(statement)
    made = namespace.get(name) if name is not None else None
    return expr, {n: v for n, v in inputs.items() if n in names_read(expr)}, made, name


def _same(value: Any, made: Any) -> bool | None:
    """Whether the worked-out value equals what the recipe made (None: nothing to compare)."""
    import torch

    if made is None:
        return None
    if isinstance(value, torch.Tensor) and isinstance(made, torch.Tensor):
        try:
            return value.shape == made.shape and bool(torch.equal(
                value.detach().cpu(), made.detach().cpu().to(value.dtype)))
        except (RuntimeError, TypeError):
            return None
    return None


register("inner_step", _inner_step)
