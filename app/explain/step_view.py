"""The selected step worked out for the visual explanations: its inputs, as they were
before it ran, and its output. Qt-free; used by ``widgets.explain.op_view`` and its extras.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from app.catalog import CATALOG, OpSpec
from app.explain.probe import value_of
from app.expr import BinOp, Call, Expr, Ref, UnaryOp
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.recipe.model import Step
from app.recipe.results import StepResult

if TYPE_CHECKING:
    import torch


@dataclass
class StepView:
    """The selected step as the op view worked it out; what an extra is shown.

    Parameters
    ----------
    index : int
        The step's position in the recipe.
    step : Step
    result : StepResult
    spec : OpSpec or None
        The catalogue entry of a call; None for operators.
    op : str
        The key of ``EXTRAS``: the op's name (``tril``) or the operator (``+``).
    inputs : dict
        The values of the names the step reads, as they were before it ran (copies).
    output : Any
        What the step produced (None when it failed).
    """

    index: int
    step: Step
    result: StepResult
    spec: OpSpec | None
    op: str
    inputs: dict[str, Any]
    output: Any

    def value_of(self, expr: Expr) -> Any:
        """The value of a sub-expression of the step, worked out on copies of the inputs."""
        import torch

        if isinstance(expr, Ref):
            return self.inputs.get(expr.name)
        namespace = {k: v.clone() if isinstance(v, torch.Tensor) else v
                     for k, v in self.inputs.items()}
        return value_of(expr, namespace)

    def operands(self) -> dict[str, Expr]:
        """The step's top-level operands by parameter name (``left``/``right`` for operators)."""
        expr = self.step.expr
        if isinstance(expr, BinOp):
            return {"left": expr.left, "right": expr.right}
        if isinstance(expr, UnaryOp):
            return {"operand": expr.operand}
        if isinstance(expr, Call) and self.spec is not None:
            bound = self.spec.bind(expr)
            return {self.spec.receiver: expr.args[0], **bound} if expr.is_method else bound
        return {}

    def receiver(self) -> torch.Tensor | None:
        """The tensor the op works on (``x`` in ``x.view(...)`` or ``torch.tril(x)``)."""
        import torch

        if self.spec is None:
            return None
        expr = self.operands().get(self.spec.receiver)
        value = safe_value(self, expr)
        return value if isinstance(value, torch.Tensor) else None


def make_step_view(doc: Document) -> StepView | None:
    """The document's selected step with its inputs and output, or None."""
    i = doc.selected
    if i is None or i >= len(doc.run.results) or i >= len(doc.recipe.steps):
        return None
    result = doc.run.results[i]
    step = result.step
    spec = CATALOG.get(step.expr.op) if isinstance(step.expr, Call) else None
    op = spec.name if spec is not None else (op_key(step.expr) or "")
    if not isinstance(result.value, KernelValue):  # not run (yet): nothing to show
        return StepView(i, step, result, spec, op, {}, None)
    # the kernel's copies of what the step read, before it ran, and of what it made (small
    # values only: ``app.kernel.mirror``)
    return StepView(i, step, result, spec, op,  # copies: a view may change what it is given
                    {n: _copy(v) for n, v in result.value.inputs.items()},
                    _copy(result.value.output))


def _copy(value: Any) -> Any:
    """A copy of a tensor (``requires_grad`` kept), or of each tensor in a list or tuple."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().clone().requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_copy(v) for v in value)
    return value


def tensor_parts(value: Any) -> list[tuple[int | None, torch.Tensor]]:
    """A tensor as one part (None), a list or tuple of tensors as numbered parts."""
    import torch

    if isinstance(value, torch.Tensor):
        return [(None, value)]
    if isinstance(value, (list, tuple)):
        return [(k, v) for k, v in enumerate(value) if isinstance(v, torch.Tensor)]
    return []


def op_key(expr: Expr) -> str | None:
    """The op a step's expression calls (``torch.tril``) or its operator (``+``)."""
    if isinstance(expr, Call):
        return expr.op
    return expr.op if isinstance(expr, (BinOp, UnaryOp)) else None


def with_param(spec: OpSpec, call: Call, name: str, value: Expr) -> Call:
    """``call`` with parameter ``name`` set to ``value``, keeping how the call is spelled."""
    if any(k == name for k, _ in call.kwargs):
        return replace(call, kwargs=tuple((k, value if k == name else v)
                                          for k, v in call.kwargs))
    head = 1 if call.is_method else 0
    params = [p.name for p in (spec.method_params() if call.is_method else spec.params)
              if not p.keyword_only]
    if name in params and params.index(name) < len(call.args) - head:
        args = list(call.args)
        args[head + params.index(name)] = value
        return replace(call, args=tuple(args))
    return replace(call, kwargs=call.kwargs + ((name, value),))


def safe_value(sv: StepView, expr: Expr | None) -> Any:
    """The value of ``expr`` in ``sv``, or None when there is none or it fails."""
    if expr is None:
        return None
    try:
        return sv.value_of(expr)
    except Exception:  # noqa: BLE001 - an operand that fails is shown as missing
        return None


def shape_text(shape) -> str:
    """``(2, 3)``, and ``(3,)`` for one dimension."""
    shape = tuple(shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
