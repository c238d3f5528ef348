"""Every catalogued op, saved as a script: ``python`` prints what ``tensor-lab run`` prints."""

from __future__ import annotations

import subprocess
import sys

import torch

from app.catalog import CATALOG
from app.recipe.model import Recipe
from app.recipe.reader import read_recipe, read_step
from app.recipe.text_recipe import new_text
from tests.python_run import run_python

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
SKIP_CATEGORIES = {"output", "random"}
#: Uninitialised memory: neither run prints the same values twice.
UNINITIALISED = {"empty", "empty_like"}


def _catalogue_recipe() -> Recipe:
    """One step per catalogued op (its example) and a print of each result."""
    steps = []
    for i, spec in enumerate(CATALOG.specs):
        if spec.category in SKIP_CATEGORIES or not spec.example:
            continue
        # The *_like examples read an `x`: give them one.
        setup = "(x" in spec.example
        if setup and not any(s.name == "x" for s in steps):
            steps.insert(0, read_step("x = torch.ones(2, 3)"))
        steps.append(read_step(f"{spec.name}_{i} = {spec.example}", ["x"] if setup else []))
        if spec.name not in UNINITIALISED:
            steps.append(read_step(f"print({spec.name}_{i})", [f"{spec.name}_{i}"]))
    steps.insert(0, read_step("torch.manual_seed(0)"))
    return Recipe(steps, "Every op in the catalogue")


def test_every_op_round_trips_and_python_prints_what_the_lab_prints(tmp_path):
    built = _catalogue_recipe()
    text = new_text(built)
    parsed = read_recipe(text)
    assert parsed == built
    first, second = run_python(built), run_python(parsed)
    failed = [r.step.label for r in first.results if not r.ok]
    assert not failed, f"examples failed: {failed}"
    for name, value in first.namespace.items():
        other = second.namespace[name]
        if isinstance(value, torch.Tensor) and name.rsplit("_", 1)[0] not in UNINITIALISED:
            assert value.dtype == other.dtype and value.shape == other.shape, name
            assert torch.equal(torch.nan_to_num(value.detach().float(), nan=7.5),
                               torch.nan_to_num(other.detach().float(), nan=7.5)), name

    path = tmp_path / "every_op.py"
    path.write_text(text)
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            timeout=300)
    lab = subprocess.run([sys.executable, "-m", "app", "run", str(path)], capture_output=True,
                         text=True, timeout=300)
    assert python.returncode == 0, python.stderr
    assert lab.returncode == 0, lab.stderr
    assert lab.stdout == python.stdout
    assert lab.stdout.count("tensor(") > 50
