"""The one evaluator: runs a recipe's steps and gives each a result or an error.

It walks the expression tree; the only things it can call are catalogue entries
(looked up on ``torch``, ``torch.nn.functional`` or a tensor), ``print``, and
Python's operators. Allocation sizes are checked against a budget first.
"""

from __future__ import annotations

import contextlib
import io
import math
import operator
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import torch

from app.catalog import CATALOG, OpSpec
from app.catalog.nn import BUILTINS, MAX_LIST_ITEMS, MODULE_METHODS
from app.expr import (
    TENSOR_ATTRIBUTES,
    Attr,
    BinOp,
    Call,
    Code,
    Const,
    Expr,
    Ref,
    Seq,
    Slice,
    Subscript,
    UnaryOp,
)
from app.recipe.model import Recipe, Step
from app.recipe.modules import (
    INDEXABLE,
    MODULE_CALL,
    ModuleDef,
    build_class,
    call_method,
    is_recipe_class,
    module_attribute,
    module_item,
    size_guard,
)

#: Largest single allocation a recipe may ask for, in bytes.
DEFAULT_BUDGET = 2 * 1024**3
#: Most multiply-adds one matrix product may take (more would run for minutes).
MAX_MATMUL_MACS = 10**11
_MATMUL = frozenset({"matmul", "mm", "bmm", "mv", "dot", "@"})
#: The dtype of conversion methods, for ops that take no dtype argument.
_CASTS = {"float": torch.float32, "long": torch.int64, "int": torch.int32, "bool": torch.bool}

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
        ``ok``, ``error``, ``blocked`` (an input failed), ``skipped`` (after a stop) or
        ``kernel`` (a step of a recipe with code steps: only the kernel runs those).
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
    warnings: list[str] = field(default_factory=list)
    printed: str = ""

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
    stdout = stdout or sys.stdout
    run = RecipeRun()
    failed: dict[str, str] = {}
    step_out = io.StringIO()
    ev = _Evaluator(run.namespace, step_out, budget_bytes)
    stopped = False
    #: A recipe with code steps runs only in the kernel, every step of it: code may change
    #: any value (a loop's ``backward()``, ``x.add_(1)`` in a function), and a step without
    #: a seed would draw other numbers here than there; one process makes all its values.
    kernel = any(isinstance(step.expr, Code) for step in recipe.steps)
    for step in recipe.steps:
        result = StepResult(step)
        run.results.append(result)
        if kernel:
            result.status = "kernel"
            continue
        bad = next((n for n in step.reads if n in failed), None)
        if stopped or bad is not None:
            if stopped:
                result.status = "skipped"
            else:
                result.status, result.blocked_by = "blocked", failed[bad]
            _bind(run.namespace, failed, result)
            continue
        try:
            # Warnings (reading .grad of a non-leaf...) are part of the lesson: keep them
            # with the step instead of letting them reach stderr.
            with warnings.catch_warnings(record=True) as caught, \
                    torch.no_grad() if step.block == "no_grad" else contextlib.nullcontext():
                warnings.simplefilter("always")
                try:
                    result.value = ev.eval_step(step)
                finally:
                    result.warnings = [f"{w.category.__name__}: {w.message}" for w in caught]
        except Exception as e:  # noqa: BLE001 - every torch error is a lesson, not a crash
            result.status, result.error, result.error_type = "error", _message(e), type(e).__name__
            stopped = stop_on_error
        finally:
            result.printed = step_out.getvalue()
            step_out.seek(0)
            step_out.truncate()
            stdout.write(result.printed)
        _bind(run.namespace, failed, result)
    return run


def _bind(namespace: dict[str, Any], failed: dict[str, str], result: StepResult) -> None:
    """Record what ``result`` leaves behind: its value under its name, or its failure."""
    name = result.step.name
    if not name:
        return
    if result.status == "ok":
        namespace[name] = result.value
        failed.pop(name, None)
    elif result.status == "error":
        failed[name] = name
        namespace.pop(name, None)
    elif result.status == "blocked":
        failed[name] = result.blocked_by


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

    def eval_step(self, step: Step) -> Any:
        """The value of one step: a module class for a ``ModuleDef``, else its expression's."""
        if isinstance(step.expr, ModuleDef):
            return build_class(step.name or "Module", step.expr, self.run_in)
        return self.eval(step.expr)

    def run_in(self, expr: Expr, namespace: dict[str, Any]) -> Any:
        """``expr`` evaluated in another namespace (a module method's) by the same rules."""
        return _Evaluator(namespace, self.stdout, self.budget).eval(expr)

    def eval(self, e: Expr) -> Any:
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Ref):
            return self.ns[e.name]
        if isinstance(e, Seq):
            items = [self.eval(i) for i in e.items]
            if e.kind == "dict":  # (key, value) pairs, as nn.ModuleDict takes them
                return dict(items)
            return items if e.kind == "list" else tuple(items)
        if isinstance(e, Call):
            return self.call(e)
        if isinstance(e, BinOp):
            left, right = self.eval(e.left), self.eval(e.right)
            _check_arithmetic(e.op, left, right)
            if e.op != "@":
                self.check_broadcast(e.op, [left, right])
            self.check_operands(e.op, [left, right])
            return _BINARY[e.op](left, right)
        if isinstance(e, UnaryOp):
            operand = self.eval(e.operand)
            self.check_operands(e.op, [operand])
            return _UNARY[e.op](operand)
        if isinstance(e, Slice):
            return slice(*(None if p is None else self.eval(p)
                           for p in (e.lower, e.upper, e.step)))
        if isinstance(e, Subscript):
            value = self.eval(e.value)
            if isinstance(value, INDEXABLE):  # seq[0], heads["a"], state_dict["weight"]
                return module_item(value, self.eval(e.index))
            if not isinstance(value, (torch.Tensor, list, tuple, torch.Size)):
                raise TypeError(f"cannot index a {type(value).__name__}")
            return value[self.eval(e.index)]
        if isinstance(e, Attr):
            value = self.eval(e.value)
            if isinstance(value, torch.nn.Module):  # lin.weight, drop.p: its own tables only
                return module_attribute(value, e.name)
            if not isinstance(value, torch.Tensor) or e.name not in TENSOR_ATTRIBUTES:
                raise TypeError(f"'{type(value).__name__}' has no attribute '{e.name}' here: "
                                "only tensor attributes can be read")
            return getattr(value, e.name)
        raise TypeError(f"cannot evaluate {type(e).__name__}")

    def call(self, e: Call) -> Any:
        if e.op == MODULE_CALL or e.op in MODULE_METHODS:
            return self.call_module(e)
        spec = CATALOG.get(e.op)
        if spec is None:
            raise NameError(f"'{e.op}' is not in the op catalogue")
        args = [self.eval(a) for a in e.args]
        kwargs = {k: self.eval(v) for k, v in e.kwargs}
        if e.op == "print":
            kwargs.pop("file", None)
            return print(*args, **kwargs, file=self.stdout)
        if spec.namespace == "builtins":
            return self.call_builtin(spec, args, kwargs)
        if spec.creates:
            self.check_budget(spec, e, args, kwargs)
        else:
            self.check_inputs(spec, args, kwargs)
            self.check_output(spec.name, args, kwargs)
        if e.is_method:
            receiver = args.pop(0)
            if not isinstance(receiver, torch.Tensor):
                raise TypeError(f"'.{spec.name}()' is a tensor method, but this is a "
                                f"{type(receiver).__name__}")
            return getattr(receiver, spec.name)(*args, **kwargs)
        # F.softmax and torch.softmax share one spec: call the spelling the recipe used
        namespace = e.op.rsplit(".", 1)[0]
        return getattr(_NAMESPACES[namespace], spec.name)(*args, **kwargs)

    def call_module(self, e: Call) -> Any:
        """``lin(x)``, ``Net()``, or a module method such as ``net.parameters()``."""
        args = [self.eval(a) for a in e.args]
        kwargs = {k: self.eval(v) for k, v in e.kwargs}
        if e.op != MODULE_CALL:
            return call_method(e.op, args, kwargs)
        target, args = args[0], args[1:]
        if is_recipe_class(target):
            return target(*args, **kwargs)
        if not isinstance(target, torch.nn.Module):
            raise TypeError(f"'{type(target).__name__}' object is not callable")
        for t in _flat(args + list(kwargs.values())):
            if isinstance(t, torch.Tensor):
                self.check_size(type(target).__name__, t.numel(), t.dtype)
        with size_guard(target, self.check_size):
            return target(*args, **kwargs)

    def call_builtin(self, spec: OpSpec, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """``len(...)`` or ``list(...)``: Python's own, with the size of a list bounded."""
        first = args[0] if args else None
        if spec.name == "list" and isinstance(first, torch.Tensor) and first.dim() \
                and len(first) > MAX_LIST_ITEMS:
            raise RecipeRuntimeError(f"list() would make {len(first):,} tensors, one per row; "
                                     f"the lab stops at {MAX_LIST_ITEMS:,}")
        return BUILTINS[spec.name](*args, **kwargs)

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
            sizes = [_index(a) for a in _flat(args[1:])]  # x.repeat(torch.tensor(n), 1) too
            if len(sizes) >= tensors[0].dim() and all(isinstance(s, int) for s in sizes):
                self.check_size("repeat", math.prod(max(s, 0) for s in sizes)
                                * max(tensors[0].numel(), 1), tensors[0].dtype)

    def check_operands(self, op: str, values: list[Any]) -> None:
        """Refuse an operator whose operands or result would be over budget."""
        tensors = [v for v in values if isinstance(v, torch.Tensor)]
        for t in tensors:
            self.check_size(op, t.numel(), t.dtype)
        if op == "@":
            self.check_output(op, values, {})

    def check_output(self, what: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """Refuse ops whose result can be far larger than their inputs, from shapes alone.

        Products of matrices, joins, index lists, ``one_hot``, ``multinomial``,
        ``nonzero`` and dtype changes; ``tolist`` counts its Python numbers.
        """
        tensors = [t for t in _flat(args + list(kwargs.values())) if isinstance(t, torch.Tensor)]
        if not tensors:
            return
        first = tensors[0]

        def arg(i: int, name: str, default: Any = None) -> Any:
            return kwargs[name] if name in kwargs else args[i] if len(args) > i else default

        dtype = next((v for v in (*args, *kwargs.values()) if isinstance(v, torch.dtype)),
                     _CASTS.get(what))
        if dtype is not None:
            self.check_size(what, first.numel(), dtype)
        if what in _MATMUL and len(tensors) >= 2:
            shape = _matmul_shape(tensors[0].shape, tensors[1].shape)
            if shape is not None:
                self.check_work(what, math.prod(shape), tensors[0].shape[-1], first.dtype)
        elif what == "einsum" and isinstance(args[0] if args else None, str):
            sizes = _einsum_sizes(args[0], tensors)
            if sizes is not None:
                self.check_work(what, *sizes, first.dtype)
        elif what in ("cat", "stack"):
            self.check_size(what, sum(t.numel() for t in tensors), first.dtype)
        elif what == "where":
            self.check_broadcast(what, tensors)
        elif what == "index_select":
            dim, index = _index(arg(1, "dim")), arg(2, "index")
            if isinstance(dim, int) and isinstance(index, torch.Tensor) \
                    and -first.dim() <= dim < first.dim():
                rest = math.prod(n for i, n in enumerate(first.shape) if i != dim % first.dim())
                self.check_size(what, rest * index.numel(), first.dtype)
        elif what == "one_hot":
            classes = _index(arg(1, "num_classes", -1))
            if classes == -1 and first.numel() and not first.is_floating_point():
                classes = int(first.max()) + 1
            if isinstance(classes, int):
                self.check_size(what, first.numel() * max(classes, 0), torch.int64)
        elif what == "multinomial":
            samples = _index(arg(1, "num_samples"))
            if isinstance(samples, int):
                rows = first.shape[0] if first.dim() == 2 else 1
                self.check_size(what, rows * max(samples, 0), torch.int64)
        elif what == "nonzero":
            self.check_size(what, first.numel() * max(first.dim(), 1), torch.int64)
        elif what == "tolist" and first.numel() * 32 > self.budget:
            # a Python number and its list slot take about 32 bytes
            raise RecipeRuntimeError(
                f"tolist would make {first.numel():,} Python numbers; the lab's budget "
                f"is {self.budget / 2**30:.1f} GiB per value")

    def check_work(self, what: str, numel: int, macs: int, dtype: torch.dtype) -> None:
        """Refuse a product whose result is over budget or that takes too long."""
        self.check_size(what, numel, dtype)
        if numel * macs > MAX_MATMUL_MACS:
            raise RecipeRuntimeError(
                f"{what} would take {numel * macs:.2g} multiply-adds; the lab stops at "
                f"{MAX_MATMUL_MACS:.0g}, which already takes seconds")

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


def _matmul_shape(a: torch.Size, b: torch.Size) -> tuple[int, ...] | None:
    """The shape of ``a @ b`` by torch's rules, or None when they do not fit."""
    if not a or not b:
        return None
    if len(a) == 1 and len(b) == 1:
        return () if a[0] == b[0] else None
    left, right = (1, *a) if len(a) == 1 else tuple(a), (*b, 1) if len(b) == 1 else tuple(b)
    if left[-1] != right[-2]:
        return None
    try:
        batch = tuple(torch.broadcast_shapes(torch.Size(left[:-2]), torch.Size(right[:-2])))
    except RuntimeError:
        return None
    return (*batch, *(left[-2:-1] if len(a) > 1 else ()), *(right[-1:] if len(b) > 1 else ()))


def _einsum_sizes(equation: str, operands: list[torch.Tensor]) -> tuple[int, int] | None:
    """(result elements, multiply-adds per result element) of a plain einsum, or None."""
    inputs, arrow, output = equation.replace(" ", "").partition("->")
    terms = inputs.split(",")
    if "." in equation or len(terms) != len(operands):
        return None
    sizes: dict[str, int] = {}
    for term, t in zip(terms, operands, strict=True):
        if len(term) != t.dim() or not term.isalpha():
            return None
        for letter, n in zip(term, t.shape, strict=True):
            sizes[letter] = max(sizes.get(letter, 1), n)
    if not arrow:  # implicit output: the letters used once, in order
        output = "".join(sorted(k for k in sizes if inputs.count(k) == 1))
    if any(k not in sizes for k in output):
        return None
    numel = math.prod(sizes[k] for k in set(output))
    return numel, math.prod(sizes[k] for k in sizes if k not in output)


def _index(value: Any) -> Any:
    """``value`` as an int when it is one, a 0-d integer tensor included."""
    try:
        return operator.index(value)
    except TypeError:
        return value


def _numel(spec: OpSpec, values: dict[str, Any], sizes: dict[str, Seq]) -> int | None:
    """Elements a creation call would allocate, worked out from its arguments alone."""
    names = {p.name for p in spec.params}
    if "numel" in spec.extra:  # nn.Linear(in, out): the product of the named arguments
        dims = [_index(values.get(n)) for n in spec.extra["numel"]]
        return math.prod(max(d, 0) for d in dims) if all(
            isinstance(d, int) for d in dims) else None
    if "size" in names:
        seq = sizes.get("size")
        dims = [i.value for i in seq.items] if seq is not None else [values.get("size")]
        if len(dims) == 1 and isinstance(dims[0], (list, tuple, torch.Size)):
            dims = list(dims[0])
        dims = [_index(d) for d in dims]  # torch reads 0-d integer tensors as sizes
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
    if op == "*" and isinstance(left, int) and isinstance(right, int) \
            and left.bit_length() + right.bit_length() > 4096:
        raise RecipeRuntimeError("integer product too large")
    if op in ("<<", ">>"):
        raise RecipeRuntimeError("shifts are not allowed")
