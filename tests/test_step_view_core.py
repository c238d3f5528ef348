"""The selected step worked out for the explanations (``app.explain.step_view``): its
inputs as they were before it ran, its output, its operands, from the kernel's copies
(``TensorCopy``), and what the kernel works out of its operands (``step_parts``).
Core tests: no QApplication; every value is compared with torch run directly."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from app.catalog import CATALOG
from app.explain.step_view import (
    StepView,
    make_step_view,
    shape_text,
    tensor_parts,
)
from app.recipe.reader import read_recipe, read_step
from app.tensor_copy import TensorCopy
from tests.kernel_values import as_torch

SOURCE = """import torch
x = torch.arange(6.0).reshape(2, 3)
y = x + 1
z = torch.tril(x)
v = x.view(6)
s = x.sum(0)
parts = torch.split(torch.arange(5), 2)
"""


@pytest.fixture
def _document(kernel_document):
    return kernel_document


def _step_view(code: str) -> StepView:
    """The view of step ``y = code`` before any run (``x``, ``a``, ``b``, ``i``: earlier
    steps')."""
    step = read_recipe("import torch\nx = torch.zeros(1)\na = torch.zeros(2, 2)\n"
                       f"b = torch.ones(2, 2)\ni = 1\ny = {code}\n").steps[-1]
    return StepView(0, step, None, CATALOG.get(step.op) if step.op else None,  # type: ignore[arg-type]
                    "", {}, None, code=f"y = {code}")


def test_nothing_selected_gives_no_view(_document):
    assert make_step_view(_document(SOURCE, None)) is None


def test_an_operator_step_has_its_inputs_output_and_operands(_document):
    sv = make_step_view(_document(SOURCE, 1))
    x = torch.arange(6.0).reshape(2, 3)
    assert sv is not None and sv.index == 1 and sv.step.name == "y"
    assert sv.spec is None and sv.op == "+"
    assert list(sv.inputs) == ["x"] and torch.equal(as_torch(sv.inputs["x"]), x)
    assert torch.equal(as_torch(sv.output), x + 1)
    assert set(sv.operands()) == {"left", "right"}
    assert (sv.operand_text("left"), sv.operand_text("right")) == ("x", "1")
    assert sv.receiver() is None  # an operator has no catalogue entry
    assert torch.equal(as_torch(sv.part("left")), x) and sv.part("right") == 1
    assert sv.computed() == []  # a name and a literal: nothing to ask the kernel
    assert sv.code == "y = x + 1"


def test_a_call_step_names_its_op_and_receiver(_document):
    sv = make_step_view(_document(SOURCE, 2))
    x = torch.arange(6.0).reshape(2, 3)
    assert sv.spec is CATALOG.get("torch.tril") and sv.op == "tril"
    assert torch.equal(as_torch(sv.output), torch.tril(x))
    assert torch.equal(as_torch(sv.receiver()), x)
    method = make_step_view(_document(SOURCE, 4))  # x.sum(0): the receiver is the tensor
    assert method.op == "sum" and set(method.operands()) == {"input", "dim"}
    assert (method.operand_text("input"), method.literal("dim")) == ("x", (True, 0))
    assert torch.equal(as_torch(method.output), x.sum(0))
    assert torch.equal(as_torch(method.receiver()), x)


def test_inputs_and_output_are_the_kernels_copies(_document):
    doc = _document(SOURCE, 3)  # v = x.view(6): in the kernel, the same storage as x
    sv = make_step_view(doc)
    assert isinstance(sv.output, TensorCopy) and isinstance(sv.inputs["x"], TensorCopy)
    assert torch.equal(as_torch(sv.output), torch.arange(6.0))
    assert sv.output.dtype == "float32" and sv.output.strides == (1,)
    assert sv.inputs["x"].strides == torch.zeros(2, 3).stride()
    assert torch.equal(as_torch(make_step_view(doc).inputs["x"]),
                       torch.arange(6.0).reshape(2, 3))


def test_a_later_in_place_op_does_not_change_the_inputs_shown(_document):
    source = "import torch\nx = torch.ones(2, 2)\ny = x * 3\nx.add_(5)\n"
    before = make_step_view(_document(source, 1))
    # not the 6s the run now holds
    assert torch.equal(as_torch(before.inputs["x"]), torch.ones(2, 2))
    assert torch.equal(as_torch(before.output), torch.full((2, 2), 3.0))
    in_place = make_step_view(_document(source, 2))
    assert in_place.op == "add_"
    assert torch.equal(as_torch(in_place.inputs["x"]), torch.ones(2, 2))
    assert torch.equal(as_torch(in_place.output), torch.full((2, 2), 6.0))


def test_a_step_that_makes_several_tensors_has_numbered_parts(_document):
    sv = make_step_view(_document(SOURCE, 5))
    expected = torch.split(torch.arange(5), 2)
    parts = tensor_parts(sv.output)
    assert [k for k, _ in parts] == [0, 1, 2]
    assert all(torch.equal(as_torch(t), e)
               for (_, t), e in zip(parts, expected, strict=True))
    t = sv.output[0]
    assert tensor_parts(t) == [(None, t)]
    assert tensor_parts(3) == [] and [k for k, _ in tensor_parts([t, "a", t])] == [0, 2]


def test_an_operand_is_known_in_the_window_or_asked_of_the_kernel(_document):
    doc = _document(SOURCE + "c = torch.clamp(x * 2, min=-1.5)\n", 6)
    sv = make_step_view(doc)
    assert sv.part("missing") is None and sv.part("min") == -1.5
    assert sv.computed() == ["input"] and sv.receiver() is None  # x * 2: the kernel's
    # the kernel's answer (its handler, run here: ``kernel.explain.provenance_query``)
    import kernel.explain.provenance_query  # noqa: F401 - registers the query
    from app.explain.op_facts import op_table
    from kernel.queries import Values, answer

    data = answer(Values(), "step_parts", {
        "code": sv.code, "ops": op_table(sv.code),
        "inputs": {"x": {"tensor": sv.inputs["x"].values,
                                         "dtype": "float32"}},
        "operands": ["input", "min"]})
    assert set(data["operands"]) == {"input", "min"}
    assert torch.equal(torch.from_numpy(data["operands"]["input"]["tensor"]),
                       torch.arange(6.0).reshape(2, 3) * 2)
    assert data["offsets"] == {"input": 0}


def test_with_literal_keeps_how_the_call_is_spelled():
    x = torch.arange(6.0).reshape(2, 3)
    cases = [("torch.sum(x, 0)", "torch.sum(x, 1)"),
             ("x.sum(0)", "x.sum(1)"),
             ("x.sum(dim=0)", "x.sum(dim=1)"),
             ("torch.sum(x)", "torch.sum(x, dim=1)")]
    for before, after in cases:
        changed = _step_view(before).with_literal("dim", 1)
        assert changed == read_step(f"y = {after}", ["x"]), before
        assert torch.equal(eval(after, {"torch": torch, "x": x}), x.sum(1))
    keep = _step_view("x.sum(0)").with_literal("keepdim", True)
    assert keep == read_step("y = x.sum(0, keepdim=True)", ["x"])
    assert x.sum(0, keepdim=True).shape == (1, 3)


def test_shape_text_writes_tuples_as_python_does():
    assert shape_text(torch.Size([2, 3])) == str((2, 3)) == "(2, 3)"
    assert shape_text([3]) == str((3,)) == "(3,)"
    assert shape_text(()) == str(()) == "()"


def test_roles_name_the_parameter_each_read_name_is_given_as():
    def roles(code: str) -> dict:
        return _step_view(code).roles()

    assert roles("torch.cat([a, b], dim=0)") == {"a": "tensors", "b": "tensors"}
    assert roles("a.sum(0)") == {"a": "input"}
    assert roles("a - b") == {"a": "left", "b": "right"}
    assert roles("torch.where(a > 0, a, b)") == {"a": "input", "b": "other"}


def test_literal_operands_read_as_values_and_expressions_do_not():
    assert _step_view("torch.tril(a, diagonal=-1)").literal("diagonal", 0) == (True, -1)
    assert _step_view("a.tril(2)").literal("diagonal", 0) == (True, 2)
    assert _step_view("torch.tril(a)").literal("diagonal", 0) == (True, 0)  # the default
    assert _step_view("torch.tril(a, i - 1)").literal("diagonal", 0) == (False, None)


def test_operand_texts_are_the_operands_python():
    cat = _step_view("torch.cat([a, b * 2], dim=-1)")
    assert cat.item_texts("tensors") == ["a", "b * 2"]
    assert cat.operand_text("dim", 0) == "-1"
    pair = _step_view("torch.cat((a, b))")
    assert pair.item_texts("tensors") == ["a", "b"] and pair.operand_text("dim", 0) == "0"
    assert _step_view("torch.cat(a.unbind(0))").item_texts("tensors") is None


def test_with_literal_sets_one_parameter_in_the_steps_spelling():
    for code, after in (("torch.tril(a)", "torch.tril(a, diagonal=3)"),
                        ("a.tril(1)", "a.tril(3)"),
                        ("torch.tril(a, diagonal=-1)", "torch.tril(a, diagonal=3)")):
        step = _step_view(code).with_literal("diagonal", 3)
        assert step == read_step(f"y = {after}", ["a"]), code
    assert _step_view("a + b").with_literal("diagonal", 3) is None  # no call of an op


def test_operands_are_read_from_the_statements_own_text():
    """The text's own spelling (torch.long, spaces), not the step written again
    (torch.int64); a statement from inside a block, its lines indented, reads too."""
    to = _step_view("x.to(torch.long)")
    assert to.operand_text("dtype") == "torch.long" and to.literal("dtype")[0]
    spaced = dataclasses.replace(_step_view("torch.cat([a,b],  dim = 1)"),
                                 code="y = torch.cat([a,b],  dim = 1)")
    assert spaced.item_texts("tensors") == ["a", "b"] and spaced.operand_text("dim") == "1"
    inner = dataclasses.replace(_step_view("torch.tril(a, i - 1)"),
                                code="y = torch.tril(a,\n        i - 1)")
    assert inner.operand_text("diagonal") == "i - 1" and inner.roles() == {"a": "input"}
    assert inner.with_literal("diagonal", 2) == read_step("y = torch.tril(a, 2)", ["a"])
