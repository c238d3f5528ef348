"""``app.training.write``: a training setup written as a short plain loop, and the retired
recipe format converted to one.

Core tier. Each generated text is compiled and then run by a real ``python`` (all of
them in one process, each as ``__main__``); what is checked is what python prints.
"""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from app.training import old_format
from app.training.setup import TrainingSettings
from app.training.write import convert_old, init_line, training_recipe

ROOT = Path(__file__).resolve().parent.parent
#: The commit this branch started from: the last one with the 8 engine recipes.
OLD_COMMIT = "3fcfd8be85854ada3efc29f2caa89610dc7a02bf"
OLD_RECIPES = ["init_depth50", "training_accumulate", "training_big_batch",
               "training_clip_norm", "training_clip_value", "training_explodes",
               "training_spirals", "training_warmup"]

SMALL = dict(model=dict(inputs=2, hidden=16, layers=2, outputs=2), steps=40, log_every=10,
             data=dict(kind="moons", samples=200), batch=dict(size=32),
             optimizer=dict(name="adam", lr=0.01))
REGRESSION = dict(model=dict(inputs=1, hidden=16, layers=2, outputs=1), loss="mse")
#: name: changes to SMALL. A spread over every choice the settings offer.
CASES = {
    "spirals": dict(data=dict(kind="spirals")),
    "circles_3": dict(data=dict(kind="circles", classes=3), model=dict(outputs=3)),
    "moons": {},
    "xor": dict(data=dict(kind="xor")),
    "blobs_4": dict(data=dict(kind="blobs", classes=4), model=dict(outputs=4)),
    "sin": dict(REGRESSION, data=dict(kind="sin")),
    "linear": dict(REGRESSION, data=dict(kind="linear")),
    "bce_one_output": dict(loss="bce_with_logits", model=dict(outputs=1)),
    "mse_one_hot": dict(loss="mse"),
    "sgd_nesterov": dict(optimizer=dict(name="sgd", lr=0.1, momentum=0.9, nesterov=True,
                                        weight_decay=1e-4)),
    "adamw": dict(optimizer=dict(name="adamw", lr=0.01)),
    "rmsprop": dict(optimizer=dict(name="rmsprop", lr=0.003, momentum=0.5)),
    "warmup": dict(schedule=dict(kind="warmup", warmup=10)),
    "cosine": dict(schedule=dict(kind="cosine")),
    "cosine_warmup": dict(schedule=dict(kind="cosine", warmup=10)),
    "clip_value": dict(clip=dict(mode="value", value=0.1)),
    "clip_norm": dict(clip=dict(mode="norm", value=1.0)),
    "accumulate": dict(accumulate=3, batch=dict(size=16)),
    "in_order": dict(batch=dict(shuffle=False)),
    "in_order_accumulate": dict(batch=dict(shuffle=False, size=16), accumulate=2),
    "batchnorm_dropout": dict(model=dict(batchnorm=True, dropout=0.1)),
    "deep_tanh_xavier": dict(model=dict(layers=6, activation="tanh"), init="xavier_normal"),
    "gelu_kaiming": dict(model=dict(activation="gelu"), init="kaiming_uniform"),
    "no_hidden_layer": dict(model=dict(layers=0)),
    "no_validation": dict(data=dict(validation=0.0)),
    "float64": dict(dtype="float64", init="small_normal"),
}


def settings_for(changes: dict) -> TrainingSettings:
    literal = {k: dict(v) if isinstance(v, dict) else v for k, v in SMALL.items()}
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(literal.get(key), dict):
            literal[key].update(value)
        else:
            literal[key] = value
    return TrainingSettings.from_literal(literal)


def run_all(paths: list[Path]) -> dict[str, str]:
    """What ``python PATH`` prints for each path, each run as ``__main__`` in one process."""
    code = ("import contextlib, io, json, runpy, sys, torch\nout = {}\n"
            "for path in sys.argv[1:]:\n"
            "    printed = io.StringIO()\n"
            "    with contextlib.redirect_stdout(printed):\n"
            "        runpy.run_path(path, run_name='__main__')\n"
            "    torch.set_default_dtype(torch.float32)  # a float64 recipe sets it\n"
            "    out[path] = printed.getvalue()\n"
            "print(json.dumps(out))\n")
    proc = subprocess.run([sys.executable, "-c", code, *map(str, paths)], capture_output=True,
                          text=True, timeout=300, cwd=paths[0].parent)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def losses(printed: str, column: int = 1) -> list[float]:
    """A column of the lines the loop prints: ``step loss [val_loss] [lr]``."""
    return [float(line.split()[column]) for line in printed.splitlines()
            if line[:1].isdigit()]


def code_lines(text: str) -> list[str]:
    """The lines after the docstring that are not blank."""
    tree = ast.parse(text)
    start = tree.body[1].lineno if ast.get_docstring(tree) is not None else 1
    return [line for line in text.splitlines()[start - 1:] if line.strip()]


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, tuple[TrainingSettings, str, str]]:
    """name: (settings, the generated text, what python printed running it)."""
    folder = tmp_path_factory.mktemp("generated")
    (folder / "table.csv").write_text("a,b,label\n" + "".join(
        f"{i % 7 / 7},{i % 5 / 5},{int(i % 7 / 7 + i % 5 / 5 > 1)}\n" for i in range(120)))
    cases = dict(CASES)
    cases["csv"] = dict(data=dict(kind="csv", path=str(folder / "table.csv")),
                        model=dict(inputs=2, outputs=2))
    texts = {name: (settings_for(c), training_recipe(settings_for(c))) for name, c in
             cases.items()}
    paths = []
    for name, (_, text) in texts.items():
        paths.append(folder / f"setup_{name}.py")
        paths[-1].write_text(text, encoding="utf-8")
    printed = run_all(paths)
    return {name: (s, text, printed[str(folder / f"setup_{name}.py")])
            for name, (s, text) in texts.items()}


@pytest.mark.parametrize("name", [*CASES, "csv"])
def test_each_setup_is_a_short_loop_that_python_runs(name, generated):
    settings, text, printed = generated[name]
    compile(text, name, "exec")
    assert len(code_lines(text)) <= 70, name
    assert ("clip_grad_norm_" in text) == (settings.clip.mode == "norm")
    assert ("clip_grad_value_" in text) == (settings.clip.mode == "value")
    assert ("scheduler" in text) == (settings.schedule.kind != "constant")
    assert ("accumulate" in text) == (settings.accumulate > 1)
    assert ("init_weights" in text) == (settings.init != "default")
    assert ("Dropout" in text, "BatchNorm1d" in text) == (
        settings.model.dropout > 0, settings.model.batchnorm)
    assert ("val_loss" in text) == (settings.data.validation > 0)
    # the knobs a form rewrites are plain top-level literals
    tree = ast.parse(text)
    knobs = {n.targets[0].id: n.value.value for n in tree.body
             if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
             and isinstance(n.value, ast.Constant)}
    assert (knobs["device"], knobs["steps"], knobs["batch_size"]) == (
        settings.device, settings.steps, settings.batch.size)
    assert f"lr={settings.optimizer.lr!r}" in text
    # python ran it: one line per logged step, finite losses
    found = losses(printed)
    steps = settings.steps
    assert len(found) == len(range(0, steps, settings.log_every)) + (
        (steps - 1) % settings.log_every != 0), printed
    assert all(math.isfinite(v) for v in found), printed
    assert "diverged" not in printed


#: Setups that need not learn in 40 steps: spirals take hundreds (training_spirals: 200).
SLOW = {"spirals"}


def test_the_others_learn_in_40_steps(generated):
    """The loss on the held-out samples (the training loss without them) falls."""
    for name, (settings, _, printed) in generated.items():
        found = losses(printed, 2 if settings.data.validation > 0 else 1)
        if name not in SLOW:
            assert found[-1] < found[0], (name, printed)


def test_float64_runs_in_float64(generated):
    text = generated["float64"][1]
    assert "torch.set_default_dtype(torch.float64)" in text
    assert "set_default_dtype" not in generated["spirals"][1]


def test_same_settings_same_text_and_clipping_is_one_line():
    settings = settings_for(REGRESSION | dict(data=dict(kind="sin")))
    assert training_recipe(settings) == training_recipe(settings)
    plain = training_recipe(settings).splitlines()
    clipped = training_recipe(settings.replace(clip={"mode": "norm", "value": 0.5}))
    extra = [line for line in clipped.splitlines() if line not in plain]
    assert extra == ["    nn.utils.clip_grad_norm_(model.parameters(), 0.5)"]
    assert len(clipped.splitlines()) == len(plain) + 1


def test_the_lesson_is_the_docstring():
    lesson = 'A title\n\nWith "quotes", a \\ and """ inside.\n\nCategory: training\n'
    text = training_recipe(settings_for({}), lesson)
    assert ast.get_docstring(ast.parse(text), clean=False) == lesson


def test_init_lines_use_the_activations_gain():
    assert init_line("xavier_normal", "tanh") == (
        'nn.init.xavier_normal_(layer.weight, gain=nn.init.calculate_gain("tanh"))')
    assert init_line("kaiming_normal", "gelu") == (
        'nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")')
    assert init_line("small_normal", "relu").endswith("std=0.01)")


# -- the retired format ------------------------------------------------------------------
def old_recipe(name: str) -> str:
    proc = subprocess.run(["git", "show", f"{OLD_COMMIT}:recipes/{name}.py"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"the old recipes are not in this checkout's history: {proc.stderr}")
    return proc.stdout


def test_convert_old_turns_each_engine_recipe_into_a_loop_python_runs(tmp_path):
    paths = []
    for name in OLD_RECIPES:
        old = old_recipe(name)
        new = convert_old(old)
        assert new is not None and "training = dict(" not in new and "def main" not in new
        tree, old_tree = ast.parse(new), ast.parse(old)
        assert ast.get_docstring(tree) == ast.get_docstring(old_tree)
        assert len(code_lines(new)) <= 70
        assert new.count("import torch\n") == 1  # the file's own import is not repeated
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(new, encoding="utf-8")
    printed = run_all(paths)
    for path in paths:
        found = losses(printed[str(path)])
        assert len(found) >= 4, printed[str(path)]  # training_explodes stops at step 30
        if path.stem != "training_explodes":  # the lesson of a run that diverges
            assert all(math.isfinite(v) for v in found), printed[str(path)]
    assert "training diverged" in printed[str(tmp_path / "training_explodes.py")]


def test_convert_old_keeps_the_statements_before_the_block():
    source = ('"""Doc."""\nimport torch\nimport numpy as np\nx = torch.ones(2)\n'
              'training = dict(steps=5, optimizer=dict(lr=0.5))\n'
              '\n# --- Tensor Lab training code: generated; the lab reads only the settings'
              ' above ---\nthis is not python\n')
    new = convert_old(source)
    assert new is not None and new.startswith('"""Doc."""\n')
    assert "import numpy as np" in new and "x = torch.ones(2)" in new
    assert "steps = 5" in new and "lr=0.5" in new and "not python" not in new
    compile(new, "converted", "exec")


def test_convert_old_without_a_block_and_with_bad_settings():
    assert convert_old("import torch\nx = torch.ones(2)\n") is None
    with pytest.raises(ValueError, match="steps"):
        convert_old("training = dict(steps=0)\n")
    with pytest.raises(ValueError, match="literals"):
        convert_old("training = dict(steps=n)\n")


def test_the_marker_text_inside_a_string_is_not_the_marker():
    lesson = f'"""Lesson\n\n{old_format.MARKER}\n"""\nimport torch\nx = torch.ones(2)\n'
    assert old_format.split_generated(lesson) == lesson
    cut = lesson + f"{old_format.MARKER}\nmain(training)\n"
    assert old_format.split_generated(cut) == lesson
