"""A training recipe on the GPU (skipped without CUDA): the same float64 loop, 100 steps,
run by ``tensor-lab run --json`` with its ``device = "cpu"`` line and with ``cuda:0``,
reports the same loss at every step, within 1e-4 (the kernel's watch works on a CUDA
loop, and the device line is all that moves it)."""

from __future__ import annotations

import json

import pytest
import torch

from app.training.setup import TrainingSettings
from app.training.write import training_recipe
from tests.test_cli import tensor_lab

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")]


def _losses(tmp_path, text: str, name: str) -> tuple[list[float], list[str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    lab = tensor_lab("run", str(path), "--json")
    assert lab.returncode == 0, lab.stderr
    (entry,) = json.loads(lab.stdout)["training"]
    return entry["loss"], sorted(entry["layers"])


def test_a_float64_loop_on_cuda_reports_the_cpus_losses(tmp_path):
    text = training_recipe(TrainingSettings().replace(steps=100, log_every=10,
                                                      dtype="float64"))
    assert 'device = "cpu"' in text
    cpu, layers = _losses(tmp_path, text, "cpu.py")
    cuda, cuda_layers = _losses(tmp_path, text.replace('device = "cpu"', 'device = "cuda:0"'),
                                "cuda.py")
    assert len(cpu) == len(cuda) == 100 and layers == cuda_layers and len(layers) >= 2
    assert max(abs(a - b) for a, b in zip(cpu, cuda, strict=True)) < 1e-4
