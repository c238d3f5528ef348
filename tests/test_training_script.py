"""The training block of a recipe: read without running, written back, kept in the Recipe."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.expr import Call, Const
from app.recipe.document import RECIPES_DIR, Document
from app.recipe.model import Recipe, Step
from app.recipe.reader import read_recipe, read_recipe_file
from app.recipe.writer import write_recipe
from app.training import program
from app.training.script import MARKER, generated_code, split_generated, training_text
from app.training.settings import TrainingSettings

SETTINGS = TrainingSettings().replace(model={"layers": 3, "activation": "gelu"},
                                      optimizer={"name": "adamw", "lr": 3e-4}, steps=50)


def _recipe() -> Recipe:
    return Recipe([Step("x", Call("torch.ones", (Const(3),))),
                   Step(None, Call("print", (Const("hello"),)))], "A title\n\nText.", SETTINGS)


def test_training_round_trips_through_the_file():
    recipe = _recipe()
    text = write_recipe(recipe)
    assert "training = dict(\n    model=dict(inputs=2, hidden=64, layers=3" in text
    assert f"\n{MARKER}\n" in text and text.rstrip().endswith("main(training)")
    again = read_recipe(text)
    assert again == recipe and again.training == SETTINGS and again.warnings == ()
    assert write_recipe(again) == text


def test_shipped_training_recipes_are_current():
    for name in ("training_spirals.py", "init_depth50.py"):
        recipe = read_recipe_file(str(RECIPES_DIR / name))
        assert recipe.training is not None
        assert recipe.warnings == (), name  # regenerate them when program.py changes
        assert write_recipe(recipe) == (RECIPES_DIR / name).read_text()


def test_the_generated_code_is_never_run_and_edits_earn_a_warning(tmp_path):
    marker = tmp_path / "ran.txt"
    text = write_recipe(_recipe()) + f"open({str(marker)!r}, 'w')\nimport os\n"
    recipe = read_recipe(text)
    assert not marker.exists()
    assert recipe.training == SETTINGS
    assert len(recipe.warnings) == 1 and "replaces it" in recipe.warnings[0]
    assert write_recipe(recipe) == write_recipe(_recipe())


def test_code_after_the_marker_without_settings_is_dropped_with_a_warning():
    recipe = read_recipe(f"import torch\nx = torch.ones(2)\n{MARKER}\nfor i in range(3): pass\n")
    assert recipe.training is None and len(recipe.steps) == 1
    assert "dropped" in recipe.warnings[0]


def test_marker_text_inside_a_string_is_not_the_marker():
    text = f'"""Lesson\n\n{MARKER}\n"""\nimport torch\nx = torch.ones(2)\n'
    head, tail = split_generated(text)
    assert tail is None and head == text
    assert read_recipe(text).docstring.endswith(MARKER + "\n")


def test_partial_settings_open_with_defaults_and_a_warning():
    recipe = read_recipe("training = dict(steps=20, optimizer=dict(lr=0.5))\n")
    assert recipe.training == TrainingSettings().replace(steps=20, optimizer={"lr": 0.5})
    assert "optimizer.name" in recipe.warnings[0] and "model" in recipe.warnings[0]


@pytest.mark.parametrize("block, line, words", [
    ("training = dict(steps=x)", 3, "literals"),
    ("training = dict(optimizer=dict(lr=1e-3 * 2))", 3, "literals"),
    ("training = dict(**x)", 3, "dict(name=value"),
    ("training = dict([('steps', 3)])", 3, "dict(name=value"),
    ("training = dict(steps=open('f'))", 3, "literals"),
    ("training = dict(\n    steps=10,\n    optimizer=dict(lr=-1.0),\n)", 5, "optimizer.lr"),
    ("training = dict(model=dict(layers=500))", 3, "model.layers"),
    ("training = dict(steps=3)\ntraining = dict(steps=4)", 4, "one 'training"),
    ("with torch.no_grad():\n    training = dict(steps=3)", 4, "top level"),
])
def test_settings_that_are_not_plain_valid_literals_are_code_steps(block, line, words):
    """Such a block is no training setup (once refused for ``words``): it is code."""
    recipe = read_recipe(f"import torch\nx = torch.ones(1)\n{block}\n")
    holding = [s for s in recipe.steps if s.is_code and s.line <= line
               <= s.line + s.expr.text.count("\n")]
    assert len(holding) == 1, words


def test_recipe_snapshot_equality_and_undo_include_training():
    recipe = _recipe()
    before = recipe.snapshot()
    assert Recipe(*before) == recipe
    changed = []
    recipe.changed.connect(lambda: changed.append(1))
    recipe.set_training(SETTINGS.replace(steps=7))
    assert changed and recipe.training.steps == 7 and recipe != Recipe(*before)
    recipe.append(Step("y", Call("torch.zeros", (Const(2),))))
    assert recipe.training.steps == 7  # editing steps keeps the training setup
    recipe.restore(before)
    assert recipe == Recipe(*before)
    recipe.restore((before[0], before[1]))  # an old two-item snapshot: no training
    assert recipe.training is None


def test_document_saves_and_reopens_a_training_recipe(tmp_path):
    doc = Document(_recipe())
    path = tmp_path / "saved.py"
    doc.save(path)
    assert not doc.modified
    doc.recipe.set_training(SETTINGS.replace(seed=3))
    assert doc.modified
    other = Document()
    other.open(path)
    assert other.recipe.training == SETTINGS and other.recipe == _recipe()


def test_generated_code_is_the_program_module():
    code = generated_code()
    assert "def train_steps(run, training, control, start=0):" in code
    assert code.endswith("main(training)\n") and '"""The plain-PyTorch' not in code
    assert training_text(SETTINGS).startswith("training = dict(")


def test_the_engine_is_qt_free_and_the_program_needs_only_torch():
    folder = Path(program.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom)}
        roots = {name.split(".")[0] for name in imported}
        assert not roots & {"PySide6", "pyqtgraph", "shiboken6"}, path.name
        if path.name == "program.py":  # it is copied into recipes
            assert roots == {"csv", "math", "sys", "torch"}, roots
