"""One recipe, three ways to train it: the same losses at every logged step, bit for bit.

The lab's engine (a ``TrainingRun`` in its worker process), ``tensor-lab run --json`` and
``python RECIPE.py`` (a real subprocess) all train the recipe's setup on the CPU.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from app.cli import main
from app.expr import Call, Const, Ref
from app.recipe.model import Recipe, Step
from app.recipe.writer import write_recipe
from app.training.settings import TrainingSettings
from app.training.worker import TrainingRun

#: Everything that draws random numbers or reorders work is on: shuffling, dropout,
#: accumulation, warm-up with cosine decay, clipping; and a device that is not here.
SETTINGS = TrainingSettings().replace(
    model={"hidden": 32, "dropout": 0.1},
    data={"kind": "moons", "samples": 300, "noise": 0.1, "validation": 0.25},
    batch={"size": 32, "shuffle": True}, accumulate=2,
    optimizer={"name": "sgd", "lr": 0.2, "momentum": 0.9, "nesterov": True},
    schedule={"kind": "cosine", "warmup": 5}, clip={"mode": "norm", "value": 1.0},
    steps=30, log_every=5, seed=7, device="cuda:99")


def _popen(*args: str) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _parse(stdout: str) -> tuple[list[int], list[float], list[float]]:
    steps, loss, val = [], [], []
    for line in stdout.splitlines():
        if line.startswith("step "):
            words = line.split()
            steps.append(int(words[1]))
            loss.append(float(words[3]))
            val.append(float(words[5]))
    return steps, loss, val


def test_engine_cli_and_python_print_identical_losses(tmp_path, capfd):
    # capfd: the kernel process writes to the file descriptors it inherits
    recipe = Recipe([Step("x", Call("torch.arange", (Const(3),))),
                     Step(None, Call("print", (Ref("x"),)))], "Identity", SETTINGS)
    path = tmp_path / "recipe.py"
    path.write_text(write_recipe(recipe))
    python = _popen(str(path))  # runs while the engine and the CLI train here
    with TrainingRun(SETTINGS) as run:
        run.start()
        assert main(["run", str(path)]) == 0
        lab = capfd.readouterr()
        assert main(["run", str(path), "--json"]) == 0
        lab_json = capfd.readouterr()
        events = run.wait(("finished", "error"), timeout=120)
        assert run.state == "finished", [e.message for e in events if e.message]
        assert any(e.kind == "warning" and "cuda:99" in e.message for e in events)
        history = run.history
        logged = np.isin(history.loss.steps, history.val_loss.steps)
        engine = (list(history.val_loss.steps), list(history.loss.values[logged]),
                  list(history.val_loss.values))
    out, err = python.communicate(timeout=300)
    assert python.returncode == 0, err
    for stderr in (err, lab.err, lab_json.err):
        assert "warning: device 'cuda:99' is not present" in stderr

    assert lab.out == out
    assert out.startswith("tensor([0, 1, 2])\nstep 5 loss ")
    report = json.loads(lab_json.out)
    assert report["stdout"] == out
    trained = report["training"]
    from_python = _parse(out)
    assert from_python[0] == [5, 10, 15, 20, 25, 30]
    assert (trained["steps"], trained["loss"], trained["val_loss"]) == from_python
    assert engine == from_python  # exact float equality, every logged step
    assert trained["device"] == "cpu" and "cuda:99" in trained["warnings"][0]
