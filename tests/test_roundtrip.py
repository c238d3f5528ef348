"""Recipe → Python text → parsed recipe → identical tensors."""

from __future__ import annotations

import math
import subprocess
import sys

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.recipe.document import WELCOME
from app.recipe.model import Recipe, Step
from app.recipe.reader import form_step, read_recipe, read_recipe_file
from app.recipe.text_recipe import new_text
from app.text_edits import literal_text
from tests.python_run import run_python


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(
        torch.nan_to_num(a.float(), nan=1234.5), torch.nan_to_num(b.float(), nan=1234.5))


def test_welcome_recipe_round_trips_to_identical_tensors():
    recipe = read_recipe_file(str(WELCOME))
    again = read_recipe(new_text(recipe))
    assert again == recipe
    first, second = run_python(recipe), run_python(again)
    tensors = {n: v for n, v in first.namespace.items() if isinstance(v, torch.Tensor)}
    assert tensors
    for name, value in tensors.items():
        assert _same(value, second.namespace[name]), name


def test_written_text_is_stable():
    text = new_text(read_recipe_file(str(WELCOME)))
    assert new_text(read_recipe(text)) == text


def _step(name: str, value: str) -> Step:
    step = form_step(name, value)
    assert step is not None, value
    return step


def test_special_floats_and_dtypes_survive():
    floats = literal_text([math.nan, math.inf, -math.inf, -2.5])
    recipe = Recipe([
        _step("x", f"torch.tensor({floats}, dtype=torch.float64)"),
        _step("y", "(-2) ** 2"),
    ], "Title\n\nText with \"quotes\" and a backslash \\ and \"\"\" triple.")
    text = new_text(recipe)
    assert 'float("nan")' in text and 'float("-inf")' in text
    assert "y = (-2) ** 2" in text
    again = read_recipe(text)
    assert again.docstring == recipe.docstring
    assert again == recipe
    run = run_python(again)
    assert run.namespace["y"] == (-2) ** 2 == 4
    assert _same(run.namespace["x"], torch.tensor([math.nan, math.inf, -math.inf, -2.5],
                                                  dtype=torch.float64))


def test_a_step_over_several_lines_keeps_its_lines():
    rows = ",\n".join("    " + literal_text([float(i * 10 + j) for j in range(10)])
                      for i in range(6))
    recipe = Recipe([_step("m", f"torch.tensor([\n{rows},\n])")])
    text = new_text(recipe)
    assert max(len(line) for line in text.splitlines()) <= 100
    again = read_recipe(text)
    assert again == recipe and again.steps[0].text == recipe.steps[0].text
    expected = torch.tensor([[float(i * 10 + j) for j in range(10)] for i in range(6)])
    assert _same(run_python(again).namespace["m"], expected)


def test_saved_script_runs_with_python_and_prints_the_same(tmp_path):
    recipe = read_recipe_file(str(WELCOME))
    path = tmp_path / "saved.py"
    path.write_text(new_text(recipe))
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            check=True)

    run = run_python(read_recipe_file(str(path)))
    assert python.stdout == "".join(r.printed for r in run.results)


_number = st.one_of(st.integers(-1000, 1000),
                    st.floats(allow_nan=True, allow_infinity=True, width=32))


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), data=st.data())
def test_any_literal_matrix_round_trips(rows, cols, data):
    values = [[data.draw(_number) for _ in range(cols)] for _ in range(rows)]
    recipe = Recipe([_step("t", f"torch.tensor({literal_text(values)}, dtype=torch.float64)")])
    again = read_recipe(new_text(recipe))
    expected = torch.tensor(values, dtype=torch.float64)
    assert _same(run_python(again).namespace["t"], expected)


def test_rename_updates_later_references():
    recipe = read_recipe("import torch\nx = torch.ones(2)\ny = torch.zeros_like(x)\n")
    recipe.rename(0, "input")
    assert recipe.steps[1].text == "torch.zeros_like(input)"
    assert recipe.steps[1].reads == ["input"]
    assert run_python(recipe).ok
