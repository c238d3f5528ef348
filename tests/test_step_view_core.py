"""The selected step worked out for the explanations (``app.explain.step_view``): its
inputs as they were before it ran, its output, its operands, from the kernel's copies.
Core tests: no QApplication; every value is compared with torch run directly."""

from __future__ import annotations

import pytest
import torch

from app.catalog import CATALOG
from app.explain.probe import value_of
from app.explain.step_view import (
    make_step_view,
    op_key,
    safe_value,
    shape_text,
    tensor_parts,
    with_param,
)
from app.expr import BinOp, Call, Const, Ref
from app.recipe.reader import read_recipe
from app.recipe.writer import write_expr

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


def _expr(code: str):
    return read_recipe(f"import torch\nx = torch.zeros(1)\ny = {code}\n").steps[-1].expr


def test_nothing_selected_gives_no_view(_document):
    assert make_step_view(_document(SOURCE, None)) is None


def test_an_operator_step_has_its_inputs_output_and_operands(_document):
    sv = make_step_view(_document(SOURCE, 1))
    x = torch.arange(6.0).reshape(2, 3)
    assert sv is not None and sv.index == 1 and sv.step.name == "y"
    assert sv.spec is None and sv.op == "+"
    assert list(sv.inputs) == ["x"] and torch.equal(sv.inputs["x"], x)
    assert torch.equal(sv.output, x + 1)
    assert sv.operands() == {"left": Ref("x"), "right": Const(1)}
    assert sv.receiver() is None  # an operator has no catalogue entry
    assert torch.equal(sv.value_of(BinOp("*", Ref("x"), Const(2))), x * 2)


def test_a_call_step_names_its_op_and_receiver(_document):
    sv = make_step_view(_document(SOURCE, 2))
    x = torch.arange(6.0).reshape(2, 3)
    assert sv.spec is CATALOG.get("torch.tril") and sv.op == "tril"
    assert torch.equal(sv.output, torch.tril(x))
    assert torch.equal(sv.receiver(), x)
    method = make_step_view(_document(SOURCE, 4))  # x.sum(0): the receiver is the tensor
    assert method.op == "sum" and method.operands() == {"input": Ref("x"), "dim": Const(0)}
    assert torch.equal(method.output, x.sum(0)) and torch.equal(method.receiver(), x)


def test_inputs_and_output_are_the_kernels_copies(_document):
    doc = _document(SOURCE, 3)  # v = x.view(6): in the kernel, the same storage as x
    sv = make_step_view(doc)
    assert torch.equal(sv.output, torch.arange(6.0))
    sv.inputs["x"].fill_(-1)  # changing a copy changes neither the output nor a new view
    assert torch.equal(sv.output, torch.arange(6.0))
    assert torch.equal(make_step_view(doc).inputs["x"], torch.arange(6.0).reshape(2, 3))


def test_a_later_in_place_op_does_not_change_the_inputs_shown(_document):
    source = "import torch\nx = torch.ones(2, 2)\ny = x * 3\nx.add_(5)\n"
    before = make_step_view(_document(source, 1))
    assert torch.equal(before.inputs["x"], torch.ones(2, 2))  # not the 6s the run now holds
    assert torch.equal(before.output, torch.full((2, 2), 3.0))
    in_place = make_step_view(_document(source, 2))
    assert in_place.op == "add_"
    assert torch.equal(in_place.inputs["x"], torch.ones(2, 2))
    assert torch.equal(in_place.output, torch.full((2, 2), 6.0))


def test_a_step_that_makes_several_tensors_has_numbered_parts(_document):
    sv = make_step_view(_document(SOURCE, 5))
    expected = torch.split(torch.arange(5), 2)
    parts = tensor_parts(sv.output)
    assert [k for k, _ in parts] == [0, 1, 2]
    assert all(torch.equal(t, e) for (_, t), e in zip(parts, expected, strict=True))
    t = torch.zeros(2)
    assert tensor_parts(t) == [(None, t)]
    assert tensor_parts(3) == [] and [k for k, _ in tensor_parts([t, "a", t])] == [0, 2]


def test_safe_value_is_none_for_nothing_and_for_what_fails(_document):
    sv = make_step_view(_document(SOURCE, 1))
    assert safe_value(sv, None) is None
    assert safe_value(sv, Ref("missing")) is None
    failing = Call("torch.reshape", (Ref("x"), Const(7)))  # 6 elements cannot be 7
    assert safe_value(sv, failing) is None
    assert torch.equal(safe_value(sv, Ref("x")), torch.arange(6.0).reshape(2, 3))


def test_op_key_names_the_call_or_the_operator():
    assert op_key(_expr("torch.tril(x)")) == "torch.tril"
    assert op_key(_expr("x + 1")) == "+"
    assert op_key(_expr("-x")) == "-"
    assert op_key(Ref("x")) is None


def test_with_param_keeps_how_the_call_is_spelled():
    spec = CATALOG.get("torch.sum")
    x = torch.arange(6.0).reshape(2, 3)
    cases = [("torch.sum(x, 0)", "torch.sum(x, 1)"),
             ("x.sum(0)", "x.sum(1)"),
             ("x.sum(dim=0)", "x.sum(dim=1)"),
             ("torch.sum(x)", "torch.sum(x, dim=1)")]
    for before, after in cases:
        changed = with_param(spec, _expr(before), "dim", Const(1))
        assert write_expr(changed) == after
        assert torch.equal(value_of(changed, {"x": x}), x.sum(1))
    keep = with_param(spec, _expr("x.sum(0)"), "keepdim", Const(True))
    assert write_expr(keep) == "x.sum(0, keepdim=True)"
    assert value_of(keep, {"x": x}).shape == x.sum(0, keepdim=True).shape == (1, 3)


def test_shape_text_writes_tuples_as_python_does():
    assert shape_text(torch.Size([2, 3])) == str((2, 3)) == "(2, 3)"
    assert shape_text([3]) == str((3,)) == "(3,)"
    assert shape_text(()) == str(()) == "()"
