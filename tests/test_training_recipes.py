"""The training lessons are plain loops that the lab watches live: ``tensor-lab run --json``
prints what ``python`` prints and reports each loop's losses and layers
(``kernel.watch``); the initialisation lesson shows what its text says.

Core tier: the real command, a kernel process per run. Expected values come from what
python prints, or from arithmetic a person can check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.recipe.document import RECIPES_DIR
from app.recipe.gallery import read_entry
from app.training.old_format import MARKER
from app.training.write import init_line

TRAINING = sorted(p.name for p in RECIPES_DIR.glob("*.py")
                  if read_entry(p).category == "training")
#: Training lessons that are not loops to watch, each with why: they show one step or a
#: pattern in a few steps (they must stay that small, below), or call no backward() at
#: all (test_gallery runs those as python runs them; they are not run again here).
NOT_LOOPS = {
    "training_accumulate_loop.py": "the notes' accumulation pattern, 4 batches checked "
                                   "number by number",
    "training_checkpoint.py": "saving and loading a model, 3 steps before and after",
    "training_clip_value_source.py": "one backward() per model, to compare their gradients",
    "training_dataset_loader.py": "Dataset and DataLoader, no training",
    "training_init_std.py": "initialisation of single layers, no training",
    "training_manual_sgd.py": "one SGD step by hand",
    "training_matmul_timing.py": "matrix products to time, no training",
}
#: The lessons written as loops (the engine recipes rewritten, and the LeNet lesson).
LOOPS = ["init_depth50.py", "training_accumulate.py", "training_big_batch.py",
         "training_clip_norm.py", "training_clip_value.py", "training_explodes.py",
         "training_lenet.py", "training_lr_too_large.py", "training_spirals.py",
         "training_warmup.py"]
#: One torch thread per process: the two runs of a pair share two cores (as test_gallery).
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
ENV.pop("QT_QPA_PLATFORM", None)


def lab_report(path: Path) -> dict:
    """``tensor-lab run PATH --json``'s report."""
    lab = subprocess.run([sys.executable, "-m", "widgets", "run", str(path), "--json"],
                         capture_output=True, text=True, cwd=path.parent, env=ENV, timeout=300)
    assert lab.returncode == 0, lab.stderr[-2000:]
    return json.loads(lab.stdout)


def lab_and_python(path: Path) -> tuple[dict, str]:
    """``tensor-lab run PATH --json``'s report and what ``python PATH`` printed, run at once."""
    commands = ([sys.executable, "-m", "widgets", "run", str(path), "--json"],
                [sys.executable, str(path)])
    with ThreadPoolExecutor(2) as pool, tempfile.TemporaryDirectory() as a, \
            tempfile.TemporaryDirectory() as b:  # where a checkpoint lesson writes its file
        lab, python = pool.map(lambda run: subprocess.run(
            run[0], capture_output=True, text=True, cwd=run[1], env=ENV, timeout=300),
            zip(commands, (a, b), strict=True))
    assert lab.returncode == 0, lab.stderr[-2000:]
    assert python.returncode == 0, python.stderr[-2000:]
    return json.loads(lab.stdout), python.stdout


def test_the_lists_cover_every_training_lesson():
    assert set(TRAINING) == set(NOT_LOOPS) | set(LOOPS)


@pytest.mark.parametrize("name", TRAINING)
def test_a_training_lesson_runs_as_python_runs_it_and_its_loop_is_watched(name):
    if ".backward(" not in (RECIPES_DIR / name).read_text(encoding="utf-8"):
        assert name in NOT_LOOPS
        return  # nothing to watch
    report, printed = lab_and_python(RECIPES_DIR / name)
    assert report["stdout"] == printed
    assert report["errors"] == []
    entries = report["training"]
    if name in NOT_LOOPS:
        assert all(len(e["steps"]) < 10 for e in entries), "a loop now: move it to LOOPS"
        return
    assert any(len(e["steps"]) > 1 for e in entries)
    losses = [v for e in entries for v in e["loss"]]
    layers = {path for e in entries for path in e["layers"]}
    assert len(losses) >= 10 and len(layers) >= 2, (len(losses), layers)


@pytest.mark.parametrize("name", sorted(p.name for p in RECIPES_DIR.glob("*.py")))
def test_no_recipe_carries_the_retired_engine(name):
    text = (RECIPES_DIR / name).read_text(encoding="utf-8")
    assert "training = dict(" not in text and MARKER not in text
    if name in LOOPS:
        assert len(text.splitlines()) <= 110


# -- the initialisation lesson --------------------------------------------------------
def test_the_depth_50_lesson_vanishes_stays_flat_or_explodes_by_its_init(tmp_path):
    """init_depth50 with each init in its one init line, for 2 steps; the first step's
    numbers of the 50 hidden Linear layers (model.0, model.2, ... model.98)."""
    source = (RECIPES_DIR / "init_depth50.py").read_text(encoding="utf-8")
    xavier = init_line("xavier_normal", "tanh")
    assert source.count(xavier) == 1 and source.count("steps = 20\n") == 1
    paths = {}
    for init in ("small_normal", "normal", "xavier_normal", "kaiming_normal"):
        paths[init] = tmp_path / f"depth50_{init}.py"
        paths[init].write_text(source.replace(xavier, init_line(init, "tanh"))
                               .replace("steps = 20\n", "steps = 2\n"), encoding="utf-8")
    with ThreadPoolExecutor(2) as pool:
        reports = dict(zip(paths, pool.map(lab_report, paths.values()),
                           strict=True))
    hidden = [f"model.{i}" for i in range(0, 100, 2)]  # Linear; the odd ones are Tanh
    std, grad = {}, {}
    for init, report in reports.items():
        (entry,) = report["training"]
        assert len(entry["steps"]) == 2
        std[init] = [entry["layers"][p]["std"][0] for p in hidden]
        grad[init] = [entry["layers"][p]["grad_norm"][0] for p in hidden]

    # N(0, 0.01): each layer multiplies the std by about 0.01 * sqrt(64) = 0.08
    assert std["small_normal"][0] > 100 * std["small_normal"][-1], std["small_normal"]
    # Xavier with tanh's gain keeps every layer within 10x of the first; so does Kaiming,
    # which for these square 64 x 64 layers draws with the same std, gain / 8
    for init in ("xavier_normal", "kaiming_normal"):
        assert all(std[init][0] / 10 < s < 10 * std[init][0] for s in std[init]), std[init]
    # N(0, 1): tanh saturates, so the forward std stays below 1 after each tanh, but the
    # gradients grow on the way back through 50 layers of weights with std 1
    assert max(grad["normal"]) > 100 * min(grad["normal"]), grad["normal"]
    tanh = [reports["normal"]["training"][0]["layers"][f"model.{i}"]["std"][0]
            for i in range(1, 100, 2)]
    assert all(s < 1 for s in tanh)
