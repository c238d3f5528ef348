"""Jacobians and Hessians of one tensor of a run with respect to an earlier one.

Kernel-side, Qt-free. The function differentiated is the run's own statements from the
input to the output: the assignments between the two that depend on the input
(``chain_of``, read from the run's text with ``ast``: ``kernel.explain.autograd_source``),
run again with the input put in, under ``torch.no_grad()`` where the text has them.
``torch.autograd.functional`` does the differentiating; the ``derivative`` query of
``kernel.explain.kernel_queries`` asks for it with the names alone.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kernel.explain.autograd_source import RanStatement, SourceRun, assigned, reads, source_run
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

if TYPE_CHECKING:
    import torch

#: Largest Jacobian (output elements times input elements) worked out on request.
MAX_JACOBIAN_CELLS = 10_000
#: Largest input (elements) a Hessian is worked out for: the matrix is its square.
MAX_HESSIAN_INPUT = 100


class FunctionError(ValueError):
    """Why a Jacobian or Hessian cannot be worked out for the chosen tensors.

    Its one argument is a ``Filled`` text: ``str(error)`` is English, and the views
    translate ``error.args[0]``.
    """


def chain_of(run: SourceRun, input_name: str, output_name: str) -> list[RanStatement]:
    """The assignments after the last one that binds ``input_name`` before ``output_name``'s
    that depend on it, ending with the one that binds ``output_name``: the statements
    ``output_name`` is a function of ``input_name`` through."""
    statements = run.statements
    out_index = _last_index(statements, output_name, len(statements))
    if out_index is None:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{output}' is not a step of "
                                                     "the recipe"), output=output_name))
    in_index = _last_index(statements, input_name, out_index)
    if in_index is None:
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{input}' is not computed "
                                                     "before '{output}'"),
                                   input=input_name, output=output_name))
    depends = {input_name}
    chain: list[RanStatement] = []
    for s in statements[in_index + 1:out_index + 1]:
        names = assigned(s.node)
        if names and depends.intersection(reads(s.node)):
            chain.append(s)
            depends.update(names)
        else:  # a name bound again without the input keeps the value it got
            depends.difference_update(names)
    if not chain or output_name not in assigned(chain[-1].node):
        raise FunctionError(Filled(QT_TRANSLATE_NOOP("Lesson", "'{output}' is not computed "
                                                     "from '{input}'"),
                                   input=input_name, output=output_name))
    return chain


def function_of(namespace: dict[str, Any], input_name: str, output_name: str,
                source: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """``f(X)``: the statements of ``source`` from ``input_name`` to ``output_name``
    (``chain_of``) run with X put in, in a copy of ``namespace`` (the kernel's, where
    ``source`` ran)."""
    chain = chain_of(source_run(source, namespace), input_name, output_name)
    codes = [(compile(ast.Module(body=[s.node], type_ignores=[]), "<recipe step>", "exec"),
              s.no_grad) for s in chain]
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


def _last_index(statements: tuple[RanStatement, ...], name: str, before: int) -> int | None:
    for j in range(min(before, len(statements)) - 1, -1, -1):
        if name in assigned(statements[j].node):
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
                  source: str) -> torch.Tensor:
    """``jacobian`` or ``hessian`` of ``output_name`` with respect to ``input_name``, the
    statements of ``source`` between them run again on ``namespace``'s values (in the
    kernel: its namespace, which ``source`` left); ``FunctionError`` says why there is
    none."""
    f = function_of(namespace, input_name, output_name, source)
    x = input_value(namespace.get(input_name), input_name)
    return derivative(kind, f, x, namespace.get(output_name), output_name)
