"""The recipe reader: what it accepts, and how it refuses everything else."""

from __future__ import annotations

import ast
import math

import pytest

from app.dtypes import DType
from app.recipe.op_call import node_literal
from app.recipe.reader import RecipeError, read_recipe

HEAD = "import torch\n"


def test_reads_docstring_seed_assignments_and_print():
    recipe = read_recipe('"""Title\n\nLesson."""\nimport torch\n\ntorch.manual_seed(3)\n'
                         "x = torch.zeros(2, 3, dtype=torch.float64)\nprint(x)\n")
    assert recipe.title == "Title"
    assert [s.name for s in recipe.steps] == [None, "x", None]
    assert [s.text for s in recipe.steps] == [
        "torch.manual_seed(3)", "torch.zeros(2, 3, dtype=torch.float64)", "print(x)"]
    assert [s.op for s in recipe.steps] == ["torch.manual_seed", "torch.zeros", "print"]
    assert [s.reads for s in recipe.steps] == [[], [], ["x"]]
    dtype = recipe.steps[1].node.keywords[0].value
    assert node_literal(dtype) == (True, DType("float64"))
    assert recipe.steps[1].line == 7  # docstring 1-3, import 4, blank 5, seed 6


@pytest.mark.parametrize(("literal", "expected"), [
    ('float("nan")', math.nan), ('float("inf")', math.inf), ('float("-inf")', -math.inf),
    ("-float('inf')", -math.inf), ("-3", -3), ("2.5", 2.5),
])
def test_special_literals(literal, expected):
    recipe = read_recipe(HEAD + f"x = torch.tensor([{literal}, 1.0])\n")
    (step,) = recipe.steps
    assert not step.is_code and step.calls == ("torch.tensor",)
    value = step.node.args[0].elts[0]
    literal, got = node_literal(value)
    if not literal:  # -float('inf') stays a negation of a literal
        assert isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub)
        got = -node_literal(value.operand)[1]
    assert (math.isnan(got) and math.isnan(expected)) or got == expected


def test_arithmetic_on_numbers_and_names_bound_earlier():
    recipe = read_recipe(HEAD + "a = torch.zeros(3 * 4)\nb = torch.zeros_like(a)\n")
    assert recipe.steps[1].text == "torch.zeros_like(a)"
    assert recipe.steps[1].op == "torch.zeros_like" and recipe.steps[1].reads == ["a"]
    assert isinstance(recipe.steps[0].node.args[0].op, ast.Mult)


def test_comments_above_a_step_are_kept():
    recipe = read_recipe(HEAD + "# first line\n# second line\nx = torch.ones(2)\n")
    assert recipe.steps[0].comment == "first line\nsecond line"


def test_nn_and_functional_imports_are_allowed():
    read_recipe("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n")


@pytest.mark.parametrize(("source", "line", "words"), [
    ("import os\n", 1, "only 'import torch'"),
    (HEAD + "import subprocess as torch2\n", 2, "only 'import torch'"),
    (HEAD + "from os import system\n", 2, "only 'import torch'"),
    (HEAD + "x = __import__('os')\n", 2, "unknown function"),
    (HEAD + "x = torch.zeros(2)\ny = x.__class__\n", 3, "dunder"),
    (HEAD + "x = torch.zeros(2)\ny = x.grad.__class__.__bases__\n", 3, "dunder"),
    (HEAD + "f = lambda: 1\n", 2, "lambda"),
    (HEAD + "for i in range(3):\n    pass\n", 2, "loop"),
    (HEAD + "while True:\n    pass\n", 2, "loop"),
    (HEAD + "x = torch.load('model.pt')\n", 2, "unknown function 'torch.load'"),
    (HEAD + "x = torch.zeros(2)\ny = x.numpy()\n", 3, "unknown tensor method '.numpy'"),
    (HEAD + "x = open('f')\n", 2, "unknown function 'open'"),
    (HEAD + "x = torch.zeros(y)\n", 2, "'y' is not defined"),
    (HEAD + "def f():\n    pass\n", 2, "function definitions"),
    (HEAD + "x = [i for i in range(3)]\n", 2, "comprehensions"),
    (HEAD + "x = torch.zeros(2)\nx += 1\n", 3, "augmented assignment"),
    (HEAD + "x = torch.zeros(*[2, 3])\n", 2, "unpacking"),
    (HEAD + "x = f'{1}'\n", 2, "f-strings"),
    ("x = torch.zeros(2)\n", 1, "before 'import torch'"),
    (HEAD + "torch = 3\n", 2, "cannot be assigned"),
    (HEAD + "x = torch.nn.modules.Linear(2, 2)\n", 2, "unknown function"),
    (HEAD + "x = getattr(torch, 'load')\n", 2, "unknown function 'getattr'"),
])
def test_statements_outside_the_forms_are_code_steps_kept_as_text(source, line, words):
    """What the forms cannot show (once refused for ``words``) is a code step now: it keeps
    its exact text and its line, and only the kernel runs it."""
    recipe = read_recipe(source)
    step = next(s for s in recipe.steps if s.line == line)
    assert step.is_code, words
    lines = source.splitlines()
    text = step.code_text or ""
    assert text == "\n".join(lines[line - 1:line - 1 + text.count("\n") + 1])
    assert step.label == lines[line - 1]


def test_a_syntax_error_is_the_one_refusal_of_a_statement():
    with pytest.raises(RecipeError) as info:
        read_recipe(HEAD + "x = (\n")
    assert info.value.line == 2 and "syntax error" in info.value.reason
    assert str(info.value).startswith("line 2, column ")


def test_refusals_for_bytes_that_are_not_text():
    with pytest.raises(RecipeError, match="not UTF-8"):
        read_recipe(b"import torch\n\xff\xfe\n")
    with pytest.raises(RecipeError, match="NUL bytes"):
        read_recipe(b"import torch\n\x00\x01\x02")
    assert read_recipe(b"").steps == ()


def test_deep_nesting_is_refused_without_crashing():
    deep = "[" * 200 + "]" * 200
    with pytest.raises(RecipeError):
        read_recipe(HEAD + f"x = torch.tensor({deep})\n")


def test_huge_integer_literal_is_a_code_step():
    (step,) = read_recipe(HEAD + f"x = torch.zeros({10**30})\n").steps
    assert step.is_code and step.binds == ("x",)


def test_with_no_grad_block_marks_its_steps():
    recipe = read_recipe(HEAD + "x = torch.ones(2)\nwith torch.no_grad():\n    y = x * 2\n")
    assert recipe.steps[1].block == "no_grad"
    assert recipe.steps[1].op == "*" and recipe.steps[1].reads == ["x"]


def test_tuple_arguments_become_sequences():
    recipe = read_recipe(HEAD + "x = torch.full((2, 3), 7.0)\n")
    size = recipe.steps[0].node.args[0]
    assert isinstance(size, ast.Tuple) and ast.literal_eval(size) == (2, 3)


def test_a_training_settings_block_and_the_code_after_the_marker_are_code_steps():
    """The retired training format is plain Python now: ``training = dict(...)`` is a
    statement like any other, and the engine pasted after the marker line is read too."""
    from app.training.old_format import MARKER

    recipe = read_recipe(HEAD + "x = torch.ones(2)\ntraining = dict(steps=20)\n"
                         f"{MARKER}\ndef main(training):\n    print(training)\n\n\n"
                         "main(training)\n")
    assert [s.label for s in recipe.steps][1:] == ["training = dict(steps=20)",
                                                   "def main(training):", "main(training)"]
    assert all(s.is_code for s in recipe.steps[1:])
    assert recipe.steps[3].line == 9


def test_read_step_reads_one_statement_as_the_recipe_would():
    from app.recipe.reader import read_step

    text = "low = torch.tril(m, diagonal=-1)"
    recipe = read_recipe(f"import torch\nm = torch.ones(2, 2)\n{text}\n")
    step = read_step(text, ["m"])
    assert step == recipe.steps[1] and step.line is None
    assert step.op == "torch.tril" and step.reads == ["m"]
    assert read_step("y = F.relu(x)", ["x"]).op == "F.relu"
    assert read_step("y = q + 1").is_code  # q is no earlier step's: Python for the kernel
    with pytest.raises(ValueError):
        read_step("a = torch.ones(1)\nb = torch.ones(1)")
    with pytest.raises(RecipeError):
        read_step("y = (")
