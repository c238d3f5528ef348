"""The one evaluator: runs a recipe's steps and gives each a result or an error.

It walks the expression tree; the only things it can call are catalogue entries
(looked up on ``torch``, ``torch.nn.functional`` or a tensor), ``print``, and
Python's operators. Allocation sizes are checked against a budget first.
"""

from __future__ import annotations

import contextlib
import math
import operator
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import torch

from app.catalog import CATALOG, OpSpec
from app.expr import Attr, BinOp, Call, Const, Expr, Ref, Seq, Slice, Subscript, UnaryOp
from app.recipe import Recipe, Step

#: Largest single allocation a recipe may ask for, in bytes.
DEFAULT_BUDGET = 2 * 1024**3

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "==": operator.eq,
    "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
_UNARY: dict[str, Callable[[Any], Any]] = {"-": operator.neg, "+": operator.pos,
                                           "~": operator.invert}
_NAMESPACES = {"torch": torch, "F": torch.nn.functional, "nn": torch.nn}


#: Ops that only read a tensor's shape or make a view of it: they never touch its
#: elements, so an expanded tensor of any apparent size is fine to pass them.
_NO_COPY = frozenset({"size", "dim", "numel", "view", "expand", "transpose", "t", "permute",
                      "squeeze", "unsqueeze", "detach", "chunk", "split"})


class RecipeRuntimeError(Exception):
    """Raised for a recipe asking for something the lab will not do (too much memory...)."""


@dataclass
class StepResult:
    """What one step produced.

    Parameters
    ----------
    status : str
        ``ok``, ``error``, ``blocked`` (an input failed) or ``skipped`` (after a stop).
    value : Any
        The assigned value, or what a bare call returned.
    error : str
        torch's message, for ``error``.
    error_type : str
        The exception's class name, such as ``RuntimeError``.
    blocked_by : str
        The failed name this step reads, for ``blocked``.
    """

    step: Step
    status: str = "ok"
    value: Any = None
    error: str = ""
    error_type: str = ""
    blocked_by: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class RecipeRun:
    """The outcome of evaluating a recipe: one ``StepResult`` per step, in order."""

    results: list[StepResult] = field(default_factory=list)
    namespace: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    @property
    def errors(self) -> list[StepResult]:
        return [r for r in self.results if r.status == "error"]

    def value(self, name: str) -> Any:
        return self.namespace[name]

    def result_for(self, name: str) -> StepResult | None:
        """The result of the last step assigning ``name``."""
        for r in reversed(self.results):
            if r.step.name == name:
                return r
        return None


def evaluate(recipe: Recipe, *, stdout: IO[str] | None = None, stop_on_error: bool = False,
             budget_bytes: int = DEFAULT_BUDGET) -> RecipeRun:
    """Run every step of ``recipe`` in order.

    Parameters
    ----------
    recipe : Recipe
        What to run.
    stdout : file, optional
        Where ``print`` steps write; ``sys.stdout`` by default.
    stop_on_error : bool
        Stop at the first error, as ``python`` would; later steps are ``skipped``.
        Otherwise steps that do not read a failed name still run.
    budget_bytes : int
        Refuse any single allocation larger than this.
    """
    run = RecipeRun()
    ev = _Evaluator(run.namespace, stdout or sys.stdout, budget_bytes)
    failed: dict[str, str] = {}
    stopped = False
    for step in recipe.steps:
        result = StepResult(step)
        run.results.append(result)
        if stopped:
            result.status = "skipped"
            continue
        bad = next((n for n in step.reads if n in failed), None)
        if bad is not None:
            result.status, result.blocked_by = "blocked", failed[bad]
            if step.name:
                failed[step.name] = failed[bad]
            continue
        try:
            with torch.no_grad() if step.block == "no_grad" else contextlib.nullcontext():
                result.value = ev.eval(step.expr)
        except Exception as e:  # noqa: BLE001 - every torch error is a lesson, not a crash
            result.status, result.error, result.error_type = "error", _message(e), type(e).__name__
            if step.name:
                failed[step.name] = step.name
                run.namespace.pop(step.name, None)
            stopped = stop_on_error
            continue
        if step.name:
            run.namespace[step.name] = result.value
            failed.pop(step.name, None)
    return run


def evaluate_expr(expr: Expr, namespace: dict[str, Any], *,
                  budget_bytes: int = DEFAULT_BUDGET) -> Any:
    """The value of one expression, with ``namespace`` giving the names it reads.

    The same rules as ``evaluate``: only catalogue entries and operators can run.
    Errors are raised, not recorded. ``print`` calls write to ``sys.stdout``.
    """
    return _Evaluator(namespace, sys.stdout, budget_bytes).eval(expr)


def _message(e: BaseException) -> str:
    text = str(e)
    if isinstance(e, KeyError) and text.startswith("'"):
        text = text[1:-1]
    return text.strip() or type(e).__name__


class _Evaluator:
    def __init__(self, namespace: dict[str, Any], stdout: IO[str], budget: int):
        self.ns, self.stdout, self.budget = namespace, stdout, budget

    def eval(self, e: Expr) -> Any:
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Ref):
            return self.ns[e.name]
        if isinstance(e, Seq):
            items = [self.eval(i) for i in e.items]
            return items if e.kind == "list" else tuple(items)
        if isinstance(e, Call):
            return self.call(e)
        if isinstance(e, BinOp):
            left, right = self.eval(e.left), self.eval(e.right)
            _check_arithmetic(e.op, left, right)
            if e.op != "@":
                self.check_broadcast(e.op, [left, right])
            return _BINARY[e.op](left, right)
        if isinstance(e, UnaryOp):
            return _UNARY[e.op](self.eval(e.operand))
        if isinstance(e, Slice):
            return slice(*(None if p is None else self.eval(p)
                           for p in (e.lower, e.upper, e.step)))
        if isinstance(e, Subscript):
            value = self.eval(e.value)
            if not isinstance(value, (torch.Tensor, list, tuple, torch.Size)):
                raise TypeError(f"cannot index a {type(value).__name__}")
            return value[self.eval(e.index)]
        if isinstance(e, Attr):
            value = self.eval(e.value)
            if not isinstance(value, torch.Tensor):
                raise TypeError(f"'{type(value).__name__}' has no attribute '{e.name}' here: "
                                "only tensor attributes can be read")
            return getattr(value, e.name)
        raise TypeError(f"cannot evaluate {type(e).__name__}")

    def call(self, e: Call) -> Any:
        spec = CATALOG.get(e.op)
        if spec is None:
            raise NameError(f"'{e.op}' is not in the op catalogue")
        args = [self.eval(a) for a in e.args]
        kwargs = {k: self.eval(v) for k, v in e.kwargs}
        if e.op == "print":
            kwargs.pop("file", None)
            return print(*args, **kwargs, file=self.stdout)
        if spec.creates:
            self.check_budget(spec, e, args, kwargs)
        else:
            self.check_inputs(spec, args, kwargs)
        if e.is_method:
            receiver = args.pop(0)
            if not isinstance(receiver, torch.Tensor):
                raise TypeError(f"'.{spec.name}()' is a tensor method, but this is a "
                                f"{type(receiver).__name__}")
            return getattr(receiver, spec.name)(*args, **kwargs)
        # F.softmax and torch.softmax share one spec: call the spelling the recipe used
        namespace = e.op.rsplit(".", 1)[0]
        return getattr(_NAMESPACES[namespace], spec.name)(*args, **kwargs)

    def check_budget(self, spec: OpSpec, e: Call, args: list[Any], kwargs: dict) -> None:
        """Refuse an allocation over budget before torch attempts it."""
        bound = spec.bind(Call(e.op, tuple(Const(a) for a in args),
                               tuple((k, Const(v)) for k, v in kwargs.items())))
        values = {k: v.value for k, v in bound.items() if isinstance(v, Const)}
        sizes = {k: v for k, v in bound.items() if isinstance(v, Seq)}
        numel = _numel(spec, values, sizes)
        if numel is None:
            return
        dtype = values.get("dtype") or torch.get_default_dtype()
        itemsize = dtype.itemsize if isinstance(dtype, torch.dtype) else 8
        if numel * itemsize > self.budget:
            raise RecipeRuntimeError(
                f"{spec.name} would allocate {numel * itemsize / 2**30:.1f} GiB; the lab's "
                f"budget is {self.budget / 2**30:.1f} GiB per tensor")

    def check_inputs(self, spec: OpSpec, args: list[Any], kwargs: dict) -> None:
        """Refuse ops whose result would be over budget, where that is cheap to tell.

        An ``expand``-ed tensor takes no memory, but almost any op on it allocates or
        visits every element it appears to have; broadcasting and ``repeat`` multiply sizes.
        """
        tensors = [t for t in _flat(args) + _flat(list(kwargs.values()))
                   if isinstance(t, torch.Tensor)]
        if spec.name not in _NO_COPY:
            for t in tensors:
                self.check_size(spec.name, t.numel(), t.dtype)
        if spec.provenance == "elementwise":
            self.check_broadcast(spec.name, args + list(kwargs.values()))
        if spec.name == "repeat" and tensors:
            sizes = [a for a in _flat(args[1:]) if isinstance(a, int)]
            if len(sizes) >= tensors[0].dim():
                self.check_size("repeat", math.prod(max(s, 0) for s in sizes)
                                * max(tensors[0].numel(), 1), tensors[0].dtype)

    def check_broadcast(self, what: str, values: list[Any]) -> None:
        tensors = [v for v in values if isinstance(v, torch.Tensor)]
        if len(tensors) < 2:
            return
        try:
            shape = torch.broadcast_shapes(*(t.shape for t in tensors))
        except RuntimeError:
            return  # torch will say so, in its own words
        self.check_size(what, math.prod(shape), tensors[0].dtype)

    def check_size(self, what: str, numel: int, dtype: torch.dtype) -> None:
        if numel * dtype.itemsize > self.budget:
            raise RecipeRuntimeError(
                f"{what} would need {numel * dtype.itemsize / 2**30:.1f} GiB; "
                f"the lab's budget is {self.budget / 2**30:.1f} GiB per tensor")


def _flat(values: list[Any]) -> list[Any]:
    """``values`` with lists and tuples (one level deep, as in ``torch.cat((a, b))``) opened."""
    out: list[Any] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(v)
        else:
            out.append(v)
    return out


def _numel(spec: OpSpec, values: dict[str, Any], sizes: dict[str, Seq]) -> int | None:
    """Elements a creation call would allocate, worked out from its arguments alone."""
    names = {p.name for p in spec.params}
    if "size" in names:
        seq = sizes.get("size")
        dims = [i.value for i in seq.items] if seq is not None else [values.get("size")]
        if len(dims) == 1 and isinstance(dims[0], (list, tuple, torch.Size)):
            dims = list(dims[0])
        if all(isinstance(d, int) for d in dims):
            return math.prod(max(d, 0) for d in dims)
        return None
    if spec.name == "eye":
        n = values.get("n", 0)
        m = values.get("m")
        return int(n) * int(n if m is None else m)
    if spec.name in ("linspace", "logspace"):
        return int(values.get("steps", 0))
    if spec.name == "randperm":
        return int(values.get("n", 0))
    if spec.name == "arange":
        start, end, step = values.get("start", 0), values.get("end"), values.get("step", 1)
        if end is None:  # arange(n)
            start, end = 0, start
        try:
            return max(0, math.ceil((float(end) - float(start)) / float(step)))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None  # infinite or NaN bounds: torch gives its own error
    return None


def _check_arithmetic(op: str, left: Any, right: Any) -> None:
    """Keep plain-number arithmetic in a recipe from running away (``10 ** 10 ** 10``)."""
    if isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple)):
        if not (isinstance(left, torch.Tensor) or isinstance(right, torch.Tensor)):
            raise TypeError(f"'{op}' on {type(left).__name__} and {type(right).__name__} is "
                            "not allowed in recipes")
    if op == "**" and isinstance(left, int) and isinstance(right, int) and right > 0:
        if right * max(abs(left), 2).bit_length() > 4096:
            raise RecipeRuntimeError("integer power too large")
    if op in ("<<", ">>"):
        raise RecipeRuntimeError("shifts are not allowed")
