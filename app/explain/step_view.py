"""The selected step as Op explained shows it: its inputs, as they were before it ran, and
its output, as the kernel copied them (``app.tensor_copy.TensorCopy``), and the values of
its operands that the kernel worked out (the ``step_parts`` query of
``kernel.explain.provenance_query``). Qt-free and torch-free; used by
``widgets.explain.op_view`` and its extras.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app.catalog import CATALOG, OpSpec
from app.recipe.document import Document
from app.recipe.header import IMPORT_LINES
from app.recipe.kernel_results import KernelValue
from app.recipe.model import Step
from app.recipe.op_call import bind_node, node_literal, statement_value
from app.recipe.reader import RecipeError, read_recipe, read_step
from app.recipe.results import StepResult
from app.tensor_copy import TensorCopy, copy_of
from app.text_edits import Positions, literal_text, replace_span
from protocol.provenance_data import Index, Provenance

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
    #: kernel's answer (``kernel.explain.inner_step_query``), and the loop's iteration.
    inner: dict | None = None
    iteration: int | None = None
    _parsed: tuple[str, ast.expr | None] | None = field(default=None, repr=False,
                                                         compare=False)

    def operands(self) -> dict[str, ast.expr]:
        """The step's top-level operands by parameter name (``left``/``right`` for
        operators), as nodes of the ``ast`` of its statement's text (``code``)."""
        node = self._value()
        if node is None or not self.step.op:
            return {}
        if isinstance(node, ast.BinOp):
            return {"left": node.left, "right": node.right}
        if isinstance(node, ast.Compare):
            return {"left": node.left, "right": node.comparators[0]}
        if isinstance(node, ast.UnaryOp):
            return {"operand": node.operand}
        if isinstance(node, ast.Call) and self.spec is not None:
            method = self.step.op.startswith("Tensor.")
            bound = bind_node(self.spec, node, method)
            if method and isinstance(node.func, ast.Attribute):
                return {self.spec.receiver: node.func.value, **bound}
            return bound
        return {}

    def _value(self) -> ast.expr | None:
        """The expression of the statement ``code`` (kept: the views ask often)."""
        if self._parsed is None or self._parsed[0] != self.code:
            self._parsed = (self.code, statement_value(self.code))
        return self._parsed[1]

    def _text(self, node: ast.expr) -> str:
        """``node``'s text as ``code`` has it (several arguments of one parameter, which
        have no text of their own together, written as a tuple)."""
        if getattr(node, "end_col_offset", None) is None:
            return ast.unparse(node)
        return ast.get_source_segment(self.code, node) or ast.unparse(node)

    def roles(self) -> dict[str, str]:
        """Which parameter each name the step reads is given as (``{"x": "input"}``); a
        name given twice keeps its first."""
        roles: dict[str, str] = {}
        for parameter, node in self.operands().items():
            for item in node.elts if isinstance(node, ast.List | ast.Tuple) else (node,):
                if isinstance(item, ast.Name):
                    roles.setdefault(item.id, parameter)
        return roles

    def literal(self, parameter: str, default: Any = None) -> tuple[bool, Any]:
        """``(True, value)`` where ``parameter`` is given as a literal, or left out
        (``default``); ``(False, None)`` where it is an expression (``i - 1``)."""
        node = self.operands().get(parameter)
        return (True, default) if node is None else node_literal(node)

    def operand_text(self, parameter: str, default: Any = None) -> str:
        """Operand ``parameter``'s text as the statement has it (``default``'s where it
        is left out)."""
        node = self.operands().get(parameter)
        return literal_text(default) if node is None else self._text(node)

    def item_texts(self, parameter: str) -> list[str] | None:
        """The text of each item of a list or tuple operand (``[a, b]``); None where it
        is no list or tuple written out."""
        node = self.operands().get(parameter)
        if not isinstance(node, ast.List | ast.Tuple):
            return None
        return [self._text(e) for e in node.elts]

    def with_literal(self, parameter: str, value: Any) -> Step | None:
        """The step with ``parameter`` set to literal ``value``: its statement's text with
        that argument's text replaced, or the keyword added, every other byte kept; None
        for a step that is no call of its op."""
        node = self._value()
        if self.spec is None or not isinstance(node, ast.Call) or not self.step.op:
            return None
        code, method = self.code, self.step.op.startswith("Tensor.")
        at, literal = Positions(code), literal_text(value)
        given = next((k.value for k in node.keywords if k.arg == parameter), None)
        params = [p.name for p in (self.spec.method_params() if method else self.spec.params)
                  if not p.keyword_only]
        if given is None and parameter in params and params.index(parameter) < len(node.args):
            given = node.args[params.index(parameter)]
        if given is not None:
            start, end = at.span(given)
            code = replace_span(code, start, end, literal)
        else:
            last = [*node.args, *node.keywords]
            end = at.span(last[-1])[1] if last else at.span(node)[1] - 1  # before the )
            code = replace_span(code, end, end, f"{', ' if last else ''}{parameter}={literal}")
        try:
            step = read_step(code, self.step.reads)
        except (RecipeError, ValueError):
            return None
        return replace(step, comment=self.step.comment, block=self.step.block,
                       line=self.step.line)

    def part(self, parameter: str) -> Any:
        """The value of operand ``parameter``: the kernel's, or, before it answered, a name
        the step read or a literal; None when unknown."""
        if parameter in self.parts:
            return self.parts[parameter]
        node = self.operands().get(parameter)
        return None if node is None else self._known(node)

    def _known(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            return self.inputs.get(node.id)
        if isinstance(node, ast.List | ast.Tuple):
            items = [self._known(e) for e in node.elts]
            if all(isinstance(i, TensorCopy) for i in items):
                return items if isinstance(node, ast.List) else tuple(items)
            return None
        literal, value = node_literal(node)
        return value if literal else None

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
        return StepView(i, step, result, spec, op, {}, None, code=doc.step_text(i, step))
    # the kernel's copies of what the step read, before it ran, and of what it made (small
    # values only: ``kernel.mirror``); copies are never changed, so they are shared
    return StepView(i, step, result, spec, op, dict(result.value.inputs),
                    result.value.output, code=doc.step_text(i, step))


def inner_step_view(sv: StepView, answer: dict, iteration: int | None) -> StepView:
    """The op statement the kernel found inside ``sv``'s loop or function (its
    ``inner_step`` answer), with the values it read then and what it made, for
    iteration ``iteration`` of a loop; ``sv`` itself when that statement cannot be read."""
    names = list(answer.get("inputs", {}))
    prelude = IMPORT_LINES + "".join(
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


def shape_text(shape) -> str:
    """``(2, 3)``, and ``(3,)`` for one dimension."""
    shape = tuple(shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
