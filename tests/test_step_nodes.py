"""What a step reads from its own text and ``ast`` (the recipe's only model, issue 33):
its op, its calls and the steps it reads, its identity however spaced, and a rename of
the names in it (core tier; expected values written out by hand)."""

from __future__ import annotations

from app.recipe.model import Recipe, write_step
from app.recipe.reader import read_recipe
from app.recipe.step_nodes import rename_names
from tests.form_steps import step

HEAD = "import torch\nimport torch.nn.functional as F\nx = torch.ones(2, 2)\ny = x * 2\n"


def test_a_form_steps_op_calls_and_reads_come_from_its_text():
    z = read_recipe(HEAD + "z = torch.tril(y, diagonal=-1) * F.relu(x).T\n").steps[-1]
    assert (z.op, z.unary, z.calls, z.reads) == ("*", False, ("torch.tril", "F.relu"),
                                                 ["y", "x"])
    m = read_recipe(HEAD + "m = x.view(4).sum(dim=0)\n").steps[-1]
    assert (m.op, m.calls, m.reads) == ("Tensor.sum", ("Tensor.sum", "Tensor.view"), ["x"])
    n = read_recipe(HEAD + "n = -x\nk = -1\np = print(float('nan'))\n").steps[-3:]
    assert [(s.op, s.unary, s.calls) for s in n] == [
        ("-", True, ()), (None, False, ()), ("print", False, ("print",))]


def test_a_code_step_binds_and_reads_what_its_text_does():
    (*_, loop) = read_recipe(HEAD + "for i in range(3):\n    x = x + i\n").steps
    assert loop.is_code and loop.text == "for i in range(3):\n    x = x + i"
    assert loop.binds == ("i", "x") and loop.reads == ["range", "x", "i"]
    assert loop.label == "for i in range(3):" and write_step(loop) == loop.text


def test_two_steps_are_the_same_however_their_text_is_spaced():
    assert step("z", "torch.tril(x,diagonal=1)") == step("z", "(torch.tril(x, diagonal=1))")
    assert step("z", "x.to(torch.long)") == step("z", "x.to(torch.int64)")  # one dtype
    assert step("z", "x * 1") != step("z", "x * 1.0")
    assert step("z", "x * 1") != step("w", "x * 1")
    assert len({step("z", "x+1"), step("z", "x + 1")}) == 1


def test_a_step_over_lines_in_brackets_keeps_its_text_and_reads_back():
    text = "import torch\nx = torch.ones(2)\ny = (x +\n     1)  # two lines\n"
    y = read_recipe(text).steps[-1]
    assert y.text == "(x +\n     1)" and y.reads == ["x"] and y.op == "+"


def test_a_rename_changes_only_the_names():
    assert rename_names("torch.cat([x, xs], dim=0) + x.T * x_", "x", "a") == \
        "torch.cat([a, xs], dim=0) + a.T * x_"
    recipe = Recipe([step("x", "torch.ones(2)"), step("y", "x  *  x.T"),
                     step("x", "y + 1"), step("w", "x + 2")])
    recipe.rename(0, "a")
    assert [write_step(s) for s in recipe.steps] == [
        "a = torch.ones(2)", "y = a  *  a.T", "x = y + 1", "w = x + 2"]  # x bound again
    assert recipe.steps[1].reads == ["a"]


def test_a_module_name_bound_again_makes_its_later_uses_code_steps():
    """``F = x`` binds ``F`` anew: ``F.relu(x)`` after it is no catalogue call (the kernel
    runs it as Python), and a step's text alone still says what it calls and reads."""
    *_, rebind, call, value = read_recipe(HEAD + "F = x\nz = F.relu(x)\nw = F + 1\n").steps
    assert rebind.is_code and rebind.binds == ("F",)
    assert call.is_code and value.is_code and set(call.reads) == {"F", "x"}
