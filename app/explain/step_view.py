"""The selected step as Op explained shows it: its inputs, as they were before it ran, and
its output, as the kernel copied them (``app.tensor_copy.TensorCopy``), and the values of
its operands that the kernel worked out (the ``step_parts`` query of
``app.explain.provenance_query``). Qt-free and torch-free; used by
``widgets.explain.op_view`` and its extras.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app.catalog import CATALOG, OpSpec
from app.explain.provenance_data import Index, Provenance
from app.expr import BinOp, Call, Const, Expr, Ref, Seq, UnaryOp
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.recipe.model import Step
from app.recipe.op_call import bind
from app.recipe.reader import RecipeError, read_recipe
from app.recipe.results import StepResult
from app.recipe.writer import write_expr
from app.tensor_copy import TensorCopy, copy_of

__all__ = ["Index", "Provenance", "StepView", "inner_step_view", "make_step_view",
           "shape_text", "tensor_parts"]


@dataclass
class StepView:
    """The selected step as the op view shows it; what an extra is shown.

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
        The values of the names the step reads, as they were before it ran (the kernel's
        copies: ``TensorCopy``, plain values).
    output : Any
        What the step produced (None when it failed or was too large to copy).
    code : str
        The statement's text, as the kernel is asked about it.
    parts : dict
        Operand values the kernel worked out, by parameter name (``step_parts``).
    offsets : dict
        Their storage offsets, for the tensors among them.
    labels : numpy.ndarray or None
        For cat and stack, the number of the source of each output element.
    """

    index: int
    step: Step
    result: StepResult
    spec: OpSpec | None
    op: str
    inputs: dict[str, Any]
    output: Any
    code: str = ""
    parts: dict[str, Any] = field(default_factory=dict)
    offsets: dict[str, int] = field(default_factory=dict)
    labels: np.ndarray | None = None
    #: For the op statement inside a loop or a function (``inner_step_view``): the
    #: kernel's answer (``app.explain.inner_step_query``), and the loop's iteration.
    inner: dict | None = None
    iteration: int | None = None

    def operands(self) -> dict[str, Expr]:
        """The step's top-level operands by parameter name (``left``/``right`` for operators)."""
        expr = self.step.expr
        if isinstance(expr, BinOp):
            return {"left": expr.left, "right": expr.right}
        if isinstance(expr, UnaryOp):
            return {"operand": expr.operand}
        if isinstance(expr, Call) and self.spec is not None:
            bound = bind(self.spec, expr)
            return {self.spec.receiver: expr.args[0], **bound} if expr.is_method else bound
        return {}

    def roles(self) -> dict[str, str]:
        """Which parameter each name the step reads is given as (``{"x": "input"}``); a
        name given twice keeps its first."""
        roles: dict[str, str] = {}
        for parameter, expr in self.operands().items():
            for item in expr.items if isinstance(expr, Seq) else (expr,):
                if isinstance(item, Ref):
                    roles.setdefault(item.name, parameter)
        return roles

    def literal(self, parameter: str, default: Any = None) -> tuple[bool, Any]:
        """``(True, value)`` where ``parameter`` is given as a literal, or left out
        (``default``); ``(False, None)`` where it is an expression (``i - 1``)."""
        expr = self.operands().get(parameter, Const(default))
        return (True, expr.value) if isinstance(expr, Const) else (False, None)

    def operand_text(self, parameter: str, default: Any = None) -> str:
        """Python text of operand ``parameter`` (``default``'s where it is left out)."""
        return write_expr(self.operands().get(parameter, Const(default)))

    def item_texts(self, parameter: str) -> list[str] | None:
        """The text of each item of a list or tuple operand (``[a, b]``); None where it
        is no list or tuple written out."""
        expr = self.operands().get(parameter)
        return [write_expr(e) for e in expr.items] if isinstance(expr, Seq) else None

    def with_literal(self, parameter: str, value: Any) -> Step | None:
        """The step with ``parameter`` set to literal ``value``, spelled as it was; None
        for a step that is no call of its op."""
        if self.spec is None or not isinstance(self.step.expr, Call):
            return None
        return replace(self.step, expr=_with_param(self.spec, self.step.expr, parameter,
                                                  Const(value)))

    def part(self, parameter: str) -> Any:
        """The value of operand ``parameter``: the kernel's, or, before it answered, a name
        the step read or a literal; None when unknown."""
        if parameter in self.parts:
            return self.parts[parameter]
        return self._known(self.operands().get(parameter))

    def _known(self, expr: Expr | None) -> Any:
        if isinstance(expr, Ref):
            return self.inputs.get(expr.name)
        if isinstance(expr, Const):
            return expr.value
        if isinstance(expr, Seq) and expr.kind in ("list", "tuple"):
            items = [self._known(e) for e in expr.items]
            if all(isinstance(i, TensorCopy) for i in items):
                return items if expr.kind == "list" else tuple(items)
        return None

    def computed(self) -> list[str]:
        """The operands only the kernel can work out (neither a name nor a literal)."""
        return [p for p, e in self.operands().items() if self._known(e) is None]

    def receiver(self) -> TensorCopy | None:
        """The tensor the op works on (``x`` in ``x.view(...)`` or ``torch.tril(x)``)."""
        if self.spec is None:
            return None
        value = self.part(self.spec.receiver)
        return value if isinstance(value, TensorCopy) else None


def make_step_view(doc: Document) -> StepView | None:
    """The document's selected step with its inputs and output, or None."""
    i = doc.selected
    if i is None or i >= len(doc.run.results) or i >= len(doc.recipe.steps):
        return None
    result = doc.run.results[i]
    step = result.step
    spec, op = _spec_and_op(step)
    if not isinstance(result.value, KernelValue):  # not run (yet): nothing to show
        return StepView(i, step, result, spec, op, {}, None)
    # the kernel's copies of what the step read, before it ran, and of what it made (small
    # values only: ``app.kernel.mirror``); copies are never changed, so they are shared
    return StepView(i, step, result, spec, op, dict(result.value.inputs),
                    result.value.output, code=doc.step_text(i, step))


def inner_step_view(sv: StepView, answer: dict, iteration: int | None) -> StepView:
    """The op statement the kernel found inside ``sv``'s loop or function (its
    ``inner_step`` answer), with the values it read then and what it made, for
    iteration ``iteration`` of a loop; ``sv`` itself when that statement cannot be read."""
    names = list(answer.get("inputs", {}))
    prelude = "import torch\nimport torch.nn.functional as F\n" + "".join(
        f"{n} = torch.zeros(1)\n" for n in names)  # bound: the statement reads as a form step
    try:
        step = read_recipe(prelude + str(answer["code"]) + "\n").steps[-1]
    except (RecipeError, SyntaxError, ValueError, KeyError, IndexError):
        return sv
    spec, op = _spec_and_op(step)
    return StepView(sv.index, step, sv.result, spec, op,
                    {n: copy_of(d) for n, d in answer.get("inputs", {}).items()},
                    copy_of(answer.get("output")), code=str(answer["code"]), inner=answer,
                    iteration=iteration)


def tensor_parts(value: Any) -> list[tuple[int | None, TensorCopy]]:
    """A tensor as one part (None), a list or tuple of tensors as numbered parts."""
    if isinstance(value, TensorCopy):
        return [(None, value)]
    if isinstance(value, (list, tuple)):
        return [(k, v) for k, v in enumerate(value) if isinstance(v, TensorCopy)]
    return []


def _spec_and_op(step: Step) -> tuple[OpSpec | None, str]:
    """The catalogue entry of the op a step calls, and the name a view gives it: the
    entry's, or the operator (``+``)."""
    spec = CATALOG.get(step.op) if step.op else None  # (no entry has an operator's key)
    return spec, spec.name if spec is not None else (step.op or "")


def _with_param(spec: OpSpec, call: Call, name: str, value: Expr) -> Call:
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


def shape_text(shape) -> str:
    """``(2, 3)``, and ``(3,)`` for one dimension."""
    shape = tuple(shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
