"""Jacobians and Hessians of one recipe tensor with respect to an earlier one.

Qt-free. The function differentiated is the recipe's own steps from the input to the
output: the steps between the two that depend on the input (``chain_of``: forms, and
assignments written as code, which only the kernel runs), run
again with the input put in, under ``torch.no_grad()`` where the recipe has them.
``torch.autograd.functional`` does the differentiating.

The window finds the chain and writes its steps as Python (``chain_texts``); the kernel,
which holds the values, runs them (``function_of_texts``, from the ``derivative`` query
of ``app.explain.kernel_queries``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.recipe.model import Recipe, Step
from app.recipe.writer import write_step

if TYPE_CHECKING:
    import torch

#: Largest Jacobian (output elements times input elements) worked out on request.
MAX_JACOBIAN_CELLS = 10_000
#: Largest input (elements) a Hessian is worked out for: the matrix is its square.
MAX_HESSIAN_INPUT = 100
#: Code statements that a Jacobian may run again: assignments, nothing else.
_ASSIGNMENTS = frozenset({"Assign", "AugAssign", "AnnAssign"})


class FunctionError(ValueError):
    """Why a Jacobian or Hessian cannot be worked out for the chosen tensors.

    Its one argument is a ``Filled`` text: ``str(error)`` is English, and the views
    translate ``error.args[0]``.
    """


def chain_of(recipe: Recipe, input_name: str, output_name: str) -> tuple[int, list[Step]]:
    """The index of the step that binds ``input_name`` last before ``output_name``, and
    the steps after it that depend on it, ending with the one that binds ``output_name``."""
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
    depends = {input_name}
    chain: list[Step] = []
    for step in steps[in_index + 1:out_index + 1]:
        names = binds(step)
        if names and depends.intersection(step.reads):
            chain.append(step)
            depends.update(names)
        else:  # a name bound again without the input keeps the value it got
            depends.difference_update(names)
    if not chain or output_name not in binds(chain[-1]):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{output}' is not computed "
                                                     "from '{input}'"),
                                   input=input_name, output=output_name))
    return in_index, chain


def binds(step: Step) -> tuple[str, ...]:
    """The names a step binds that a function of its inputs can bind again: a form's
    name, or those of a plain assignment written as code (``x2 = torch.pow(x, 2)``)."""
    if step.name:
        return (step.name,)
    if step.is_code and step.expr.kind in _ASSIGNMENTS:  # type: ignore[union-attr]
        return tuple(step.expr.binds)  # type: ignore[union-attr]
    return ()


def chain_texts(recipe: Recipe, input_name: str, output_name: str) -> list[list]:
    """``chain_of``'s steps as ``[python, under_no_grad]`` pairs, for the kernel."""
    return [[s.expr.text if s.is_code else write_step(s), s.block == "no_grad"]  # type: ignore
            for s in chain_of(recipe, input_name, output_name)[1]]


def function_of_texts(namespace: dict[str, Any], input_name: str, output_name: str,
                      texts: list[list]) -> Callable[[torch.Tensor], torch.Tensor]:
    """``f(X)``: the Python of ``chain_texts`` run with X put in, in a copy of
    ``namespace`` (the kernel's, where the recipe ran)."""
    codes = [(compile(text, "<recipe step>", "exec"), bool(no_grad)) for text, no_grad in texts]
    return _function(codes, namespace, input_name, output_name,
                     lambda code, ns: exec(code, ns))  # noqa: S102 - the recipe's own steps


def _function(chain: list, base: dict[str, Any], input_name: str, output_name: str,
              run_step: Callable[[Any, dict[str, Any]], None]
              ) -> Callable[[torch.Tensor], torch.Tensor]:
    import torch

    def f(x: torch.Tensor) -> torch.Tensor:
        ns = dict(base)
        ns[input_name] = x
        for step, no_grad in chain:
            with torch.no_grad() if no_grad else contextlib.nullcontext():
                run_step(step, ns)
        value = ns[output_name]
        if not isinstance(value, torch.Tensor):
            raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' is not a tensor"),
                                       output_name))
        return value
    return f


def _last_index(steps: tuple[Step, ...], name: str, before: int) -> int | None:
    for j in range(min(before, len(steps)) - 1, -1, -1):
        if name in binds(steps[j]):
            return j
    return None


def input_value(value: Any, input_name: str) -> torch.Tensor:
    """A detached copy of the input tensor, or ``FunctionError`` saying why it cannot be one."""
    import torch

    if not isinstance(value, torch.Tensor):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' is not a tensor"),
                                   input_name))
    if not (value.is_floating_point() or value.is_complex()):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{0}' holds {1}: derivatives "
                                                     "need floating point values"),
                                   input_name, value.dtype))
    return value.detach().clone()


def derivative(kind: str, f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
               out: Any, output_name: str) -> torch.Tensor:
    """``jacobian`` or ``hessian`` of ``f`` at ``x`` (``out`` is the output ``f`` made),
    as a matrix over the elements flattened in row-major order."""
    import torch

    n_out = out.numel() if isinstance(out, torch.Tensor) else 1
    if kind == "jacobian":
        if n_out * x.numel() > MAX_JACOBIAN_CELLS:
            raise FunctionError(Filled(QT_TRANSLATE_NOOP(
                "Lesson", "the Jacobian would have {0} x {1} entries; the explorer shows at "
                "most {2}"), n_out, x.numel(), MAX_JACOBIAN_CELLS))
        return torch.autograd.functional.jacobian(f, x).reshape(n_out, x.numel())
    if n_out != 1:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "a Hessian needs a one-element "
                                                     "output; '{0}' has {1} elements (reduce "
                                                     "it with .sum() or .mean())"),
                                   output_name, n_out))
    if x.numel() > MAX_HESSIAN_INPUT:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "the Hessian would be {0} x {0}; "
                                                     "the explorer shows inputs of at most {1} "
                                                     "elements"), x.numel(), MAX_HESSIAN_INPUT))
    hess = torch.autograd.functional.hessian(lambda v: f(v).reshape(()), x)
    return hess.reshape(x.numel(), x.numel())


def derivative_in(kind: str, namespace: dict[str, Any], input_name: str, output_name: str,
                  chain: list[list]) -> torch.Tensor:
    """``jacobian`` or ``hessian`` of ``output_name`` with respect to ``input_name``, the
    steps of ``chain`` (``chain_texts``) run again on ``namespace``'s values (in the
    kernel: its namespace); ``FunctionError`` says why there is none."""
    f = function_of_texts(namespace, input_name, output_name, chain)
    x = input_value(namespace.get(input_name), input_name)
    return derivative(kind, f, x, namespace.get(output_name), output_name)
