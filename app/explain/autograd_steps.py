"""Autograd actions as recipe steps, explanations of autograd errors, Jacobians and Hessians.

Qt-free. The explorer panel's buttons call these: every action becomes a step
(``out.backward()``, ``y.retain_grad()``, ``x.grad.zero_()``) applied with
``widgets.common.undo.push_edit``, so it is written, saved and read back like any other.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from app.explain.autograd_facts import read_grad
from app.expr import Attr, Call, Const, Expr, Ref
from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.recipe.evaluator import RecipeRun, evaluate_expr
from app.recipe.model import Recipe, Step

#: Largest Jacobian (output elements times input elements) worked out on request.
MAX_JACOBIAN_CELLS = 10_000
#: Largest input (elements) a Hessian is worked out for: the matrix is its square.
MAX_HESSIAN_INPUT = 100


# -- backward ---------------------------------------------------------------------------------
def needs_gradient(t: torch.Tensor) -> bool:
    """Whether ``t.backward()`` needs a ``gradient`` argument: it has more than one element."""
    return t.numel() != 1


def gradient_explanation(name: str, t: torch.Tensor | int) -> Filled:
    """Why a tensor with several elements (``t``, or their count) needs ``gradient=`` for
    backward, in plain words."""
    return Filled(QT_TRANSLATE_NOOP(
        "Lesson", "{name} has {count} elements, so there is no single number to differentiate: "
        "backward needs to know how much each element of {name} counts. "
        "gradient=torch.ones_like({name}) counts every element once, which gives the same "
        "gradients as {name}.sum().backward(). Any tensor of {name}'s shape works: it is the "
        "gradient of some final scalar with respect to {name}."), name=name,
        count=t if isinstance(t, int) else t.numel())


def default_gradient(name: str) -> Expr:
    """``torch.ones_like(name)``."""
    return Call("torch.ones_like", (Ref(name),))


def backward_step(name: str, gradient: Expr | None = None, retain_graph: bool = False) -> Step:
    """The step ``name.backward(gradient, retain_graph=True)``, leaving out what is default."""
    args: tuple[Expr, ...] = (Ref(name),) if gradient is None else (Ref(name), gradient)
    kwargs = (("retain_graph", Const(True)),) if retain_graph else ()
    return Step(None, Call("Tensor.backward", args, kwargs))


def add_backward(recipe: Recipe, name: str, gradient: Expr | None = None,
                 retain_graph: bool = False) -> None:
    """Append ``name.backward(...)`` to ``recipe`` (an edit for ``push_edit``)."""
    recipe.append(backward_step(name, gradient, retain_graph))


# -- zeroing ----------------------------------------------------------------------------------
def zero_grad_step(name: str) -> Step:
    """The step ``name.grad.zero_()``."""
    return Step(None, Call("Tensor.zero_", (Attr(Ref(name), "grad"),)))


def gradient_candidates(namespace: dict[str, Any], name: str, t: torch.Tensor) -> list[str]:
    """Other tensors of ``namespace`` that could be ``name.backward``'s ``gradient``:
    floating point, of ``t``'s shape."""
    return [other for other, v in namespace.items() if other != name
            and isinstance(v, torch.Tensor) and v.shape == t.shape and v.is_floating_point()]


def leaves_with_grad(run: RecipeRun, *, nonzero: bool = False) -> list[str]:
    """Names of the run's leaf tensors whose ``.grad`` is set, in recipe order.

    With ``nonzero``, only those whose ``.grad`` holds something other than zeros.
    """
    out: list[str] = []
    seen: set[int] = set()
    for name, value in run.namespace.items():
        if not isinstance(value, torch.Tensor) or not value.is_leaf or id(value) in seen:
            continue
        grad = read_grad(value)
        if grad is not None and (not nonzero or bool(grad.any())):
            seen.add(id(value))
            out.append(name)
    return out


def add_zero_grads(recipe: Recipe, names: list[str]) -> None:
    """Append ``name.grad.zero_()`` for each of ``names`` (an edit for ``push_edit``)."""
    for name in names:
        recipe.append(zero_grad_step(name))


# -- retain_grad ------------------------------------------------------------------------------
def _is_retain_grad(step: Step, name: str) -> bool:
    e = step.expr
    return step.name is None and isinstance(e, Call) and e.op == "Tensor.retain_grad" \
        and e.args == (Ref(name),)


def has_retain_grad(recipe: Recipe, name: str) -> bool:
    """Whether the recipe calls ``name.retain_grad()``."""
    return any(_is_retain_grad(s, name) for s in recipe.steps)


def set_retain_grad(recipe: Recipe, name: str, on: bool) -> None:
    """Add ``name.retain_grad()`` just after the step making ``name``, or remove every one.

    An edit for ``push_edit``.
    """
    if not on:
        recipe.restore((tuple(s for s in recipe.steps if not _is_retain_grad(s, name)),
                        recipe.docstring))
        return
    if has_retain_grad(recipe, name):
        return
    recipe.insert(recipe.index_of(name) + 1, Step(None, Call("Tensor.retain_grad", (Ref(name),))))


# -- errors -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class AutogradLesson:
    """The usual cause of an autograd error and its fix, in plain words.

    Both are ``app.i18n.Filled`` texts: English, and translatable whole by the views.
    """

    cause: str
    fix: str


# (pattern over torch's message, cause, fix). Cause and fix are ``str.format`` templates over
# the pattern's named groups, marked for translation (the views translate them whole).
_LESSONS: list[tuple[str, str, str]] = [
    (r"backward through the graph a second time",
     QT_TRANSLATE_NOOP("Lesson", "The first backward freed the values the graph saved for it "
                       "(the inputs of each multiplication, the outputs of each activation...) "
                       "to save memory, so the graph cannot be walked again."),
     QT_TRANSLATE_NOOP("Lesson", "Pass retain_graph=True to every backward but the last, for "
                       "example out.backward(retain_graph=True); or compute the result again "
                       "before the next backward.")),
    (r"grad can be implicitly created only for (real )?scalar outputs",
     QT_TRANSLATE_NOOP("Lesson", "backward was called on a tensor with more than one element, "
                       "so torch does not know how much each element counts."),
     QT_TRANSLATE_NOOP("Lesson", "Pass gradient=torch.ones_like(out) (the same as "
                       "out.sum().backward()), or reduce the result to one number first, for "
                       "example with .sum() or .mean().")),
    (r"does not require grad and does not have a grad_fn",
     QT_TRANSLATE_NOOP("Lesson", "backward was called on a tensor autograd never recorded: "
                       "nothing it was computed from requires grad, or it was computed under "
                       "torch.no_grad() or from a detach()-ed tensor."),
     QT_TRANSLATE_NOOP("Lesson", "Create the input leaves with requires_grad=True (or call "
                       "requires_grad_()), and compute the result outside torch.no_grad() and "
                       "without detach().")),
    (r"Mismatch in shape: grad_output\[0\] has a shape of (?P<g>torch\.Size\(\[[^\]]*\]\)) "
     r"and output\[0\] has a shape of (?P<o>torch\.Size\(\[[^\]]*\]\))",
     QT_TRANSLATE_NOOP("Lesson", "The gradient passed to backward has shape {g}, but the tensor "
                       "has shape {o}: they must match element for element."),
     QT_TRANSLATE_NOOP("Lesson", "Pass a gradient of the same shape, for example "
                       "torch.ones_like(out).")),
    (r"can't retain_grad on Tensor that has requires_grad=False",
     QT_TRANSLATE_NOOP("Lesson", "retain_grad() keeps the gradient of a tensor in the graph, "
                       "but this tensor is not in any graph (it does not require grad)."),
     QT_TRANSLATE_NOOP("Lesson", "Compute it from a tensor with requires_grad=True, outside "
                       "torch.no_grad().")),
    (r"you can only change requires_grad flags of leaf variables",
     QT_TRANSLATE_NOOP("Lesson", "The tensor was computed from others, so whether it requires "
                       "grad follows from them; only leaves can be switched."),
     QT_TRANSLATE_NOOP("Lesson", "Call requires_grad_() on the leaf it was computed from, or "
                       "make a new leaf with y.detach().requires_grad_().")),
    (r"a leaf Variable that requires grad is being used in an in-place operation",
     QT_TRANSLATE_NOOP("Lesson", "Autograd needs a leaf's values as they were when the graph "
                       "was built, so a leaf that requires grad cannot be changed in place."),
     QT_TRANSLATE_NOOP("Lesson", "Do the update inside `with torch.no_grad():`, or zero its "
                       "gradient with x.grad.zero_().")),
    (r"is a tensor method, but this is a NoneType|'NoneType' object has no attribute",
     QT_TRANSLATE_NOOP("Lesson", "The tensor's .grad is None: backward has not put a gradient "
                       "there yet (or it is not a leaf, or it does not require grad)."),
     QT_TRANSLATE_NOOP("Lesson", "Run backward first; x.grad.zero_() only makes sense once "
                       "x.grad exists.")),
    (r"only Tensors of floating point dtype can require gradients",
     QT_TRANSLATE_NOOP("Lesson", "Gradients are only defined for floating point tensors; this "
                       "one holds integers."),
     QT_TRANSLATE_NOOP("Lesson", "Create it as floating point, for example torch.arange(3.0) "
                       "or dtype=torch.float32.")),
    (r"modified by an inplace operation",
     QT_TRANSLATE_NOOP("Lesson", "A value the graph saved for backward was changed in place "
                       "afterwards, so the gradient would be computed from the wrong numbers."),
     QT_TRANSLATE_NOOP("Lesson", "Use the out-of-place form (y = y + 1 instead of y.add_(1)) "
                       "before backward.")),
]


def explain_error(error_type: str, message: str) -> AutogradLesson | None:
    """The cause and fix for an autograd error from torch, or None when it is not one we know."""
    for pattern, cause, fix in _LESSONS:
        m = re.search(pattern, message)
        if m is not None:
            groups = {k: v for k, v in m.groupdict().items() if v is not None}
            return AutogradLesson(Filled(cause, **groups), Filled(fix, **groups))
    return None


def is_autograd_step(step: Step) -> bool:
    """A step that calls an autograd entry of the catalogue or reads ``.grad``."""
    from app.catalog import CATALOG
    from app.expr import walk

    for node in walk(step.expr):
        if isinstance(node, Call):
            spec = CATALOG.get(node.op)
            if spec is not None and spec.category == "autograd":
                return True
        if isinstance(node, Attr) and node.name == "grad":
            return True
    return False


# -- Jacobian and Hessian ---------------------------------------------------------------------
class FunctionError(ValueError):
    """Why a Jacobian or Hessian cannot be worked out for the chosen tensors.

    Its one argument is a ``Filled`` text: ``str(error)`` is English, and the views
    translate ``error.args[0]``.
    """


def function_of(recipe: Recipe, run: RecipeRun, input_name: str,
                output_name: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """``f(X)``: the recipe's steps from ``input_name`` to ``output_name`` with X put in.

    The steps between the two that depend on ``input_name`` are evaluated again (with the
    same evaluator, under ``torch.no_grad()`` where the recipe has it); every other name
    keeps the value it had in ``run``. Bare steps (``print``, ``backward``...) are left out.
    """
    steps = recipe.steps
    out_index = _last_index(steps, output_name, len(steps))
    if out_index is None:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{output}' is not a step of "
                                                     "the recipe"), output=output_name))
    in_index = _last_index(steps, input_name, out_index)
    if in_index is None:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{input}' is not computed "
                                                     "before '{output}'"),
                                   input=input_name, output=output_name))
    base: dict[str, Any] = {}
    for j in range(in_index):
        if steps[j].name and j < len(run.results) and run.results[j].ok:
            base[steps[j].name] = run.results[j].value
    depends = {input_name}
    chain: list[Step] = []
    for j in range(in_index + 1, out_index + 1):
        step = steps[j]
        if step.name and depends.intersection(step.reads):
            chain.append(step)
            depends.add(step.name)
        elif step.name:  # a name bound again without the input: keep the value it got
            depends.discard(step.name)
            if j < len(run.results) and run.results[j].ok:
                base[step.name] = run.results[j].value
    if not chain or chain[-1].name != output_name:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{output}' is not computed "
                                                     "from '{input}'"),
                                   input=input_name, output=output_name))

    def f(x: torch.Tensor) -> torch.Tensor:
        ns = dict(base)
        ns[input_name] = x
        for step in chain:
            block = torch.no_grad() if step.block == "no_grad" else contextlib.nullcontext()
            with block:
                ns[step.name] = evaluate_expr(step.expr, ns)  # type: ignore[index]
        value = ns[output_name]
        if not isinstance(value, torch.Tensor):
            raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' is not a tensor"),
                                       output_name))
        return value

    return f


def _last_index(steps: tuple[Step, ...], name: str, before: int) -> int | None:
    for j in range(min(before, len(steps)) - 1, -1, -1):
        if steps[j].name == name:
            return j
    return None


def _input_value(run: RecipeRun, recipe: Recipe, input_name: str) -> torch.Tensor:
    value = run.namespace.get(input_name)
    if not isinstance(value, torch.Tensor):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' is not a tensor"),
                                   input_name))
    if not (value.is_floating_point() or value.is_complex()):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' holds {1}: derivatives "
                                                     "need floating point values"),
                                   input_name, value.dtype))
    return value.detach().clone()


def jacobian_matrix(recipe: Recipe, run: RecipeRun, input_name: str,
                    output_name: str) -> torch.Tensor:
    """d output / d input as a matrix: row i is output element i, column j input element j.

    Uses ``torch.autograd.functional.jacobian`` on ``function_of``; both tensors are
    flattened in row-major order.
    """
    f = function_of(recipe, run, input_name, output_name)
    x = _input_value(run, recipe, input_name)
    out = run.namespace.get(output_name)
    n_out = out.numel() if isinstance(out, torch.Tensor) else 1
    if n_out * x.numel() > MAX_JACOBIAN_CELLS:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "the Jacobian would have {0} x "
                                                     "{1} entries; the explorer shows at most "
                                                     "{2}"), n_out, x.numel(), MAX_JACOBIAN_CELLS))
    jac = torch.autograd.functional.jacobian(f, x)
    return jac.reshape(n_out, x.numel())


def hessian_matrix(recipe: Recipe, run: RecipeRun, input_name: str,
                   output_name: str) -> torch.Tensor:
    """Second derivatives of a one-element output with respect to every pair of input elements.

    Uses ``torch.autograd.functional.hessian``; entry (i, j) is
    d²output / d input[i] d input[j], the input flattened in row-major order.
    """
    out = run.namespace.get(output_name)
    if isinstance(out, torch.Tensor) and out.numel() != 1:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "a Hessian needs a one-element "
                                                     "output; '{0}' has {1} elements (reduce "
                                                     "it with .sum() or .mean())"),
                                   output_name, out.numel()))
    f = function_of(recipe, run, input_name, output_name)
    x = _input_value(run, recipe, input_name)
    if x.numel() > MAX_HESSIAN_INPUT:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "the Hessian would be {0} x {0}; "
                                                     "the explorer shows inputs of at most {1} "
                                                     "elements"), x.numel(), MAX_HESSIAN_INPUT))
    hess = torch.autograd.functional.hessian(lambda v: f(v).reshape(()), x)
    return hess.reshape(x.numel(), x.numel())
