"""Timing a step on every device: core tier, no QApplication."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
import torch

from app.explain.timing import Timing, format_seconds, on_device
from app.recipe.reader import read_recipe
from kernel.explain.step_timing import time_text

QUICK = 0.01  # seconds of measuring per device: enough to get numbers, not good numbers

LINES = ["import torch", "a = torch.ones(64, 64)", "b = a @ a", "a.add_(1)",
         "c = torch.tril(torch.ones(5, 5), diagonal=1)", "print(b)",
         "bad = torch.cat((a, a), dim=2)", "d = bad.sum()"]
RECIPE = read_recipe("\n".join(LINES) + "\n")


def _time(index: int, device: str, namespace: dict) -> Timing:
    """What the kernel's ``timing`` query does with the step the window sends it."""
    step = RECIPE.steps[index]
    return time_text(on_device(LINES[index + 1], device), {"torch": torch, **namespace},
                     list(step.reads), device, QUICK)


def test_cpu_timing_gives_positive_medians():
    timing = _time(1, "cpu", {"a": torch.ones(64, 64)})
    assert timing.device == "cpu" and timing.ok
    assert timing.median_s > 0 and timing.iqr_s >= 0 and timing.runs >= 1


def test_in_place_step_runs_on_copies_of_its_inputs():
    a = torch.ones(64, 64)
    timing = _time(2, "cpu", {"a": a})
    assert timing.ok and timing.median_s > 0
    assert torch.equal(a, torch.ones(64, 64))  # the caller's tensor is untouched


def test_an_error_is_a_result():
    timing = _time(1, "no-such-device", {"a": torch.ones(64, 64)})
    assert not timing.ok and timing.error and math.isnan(timing.median_s) and timing.runs == 0
    failed = _time(5, "cpu", {"a": torch.ones(2, 2)})
    with pytest.raises(IndexError) as raised:
        torch.cat((torch.ones(2, 2), torch.ones(2, 2)), dim=2)
    assert failed.error == str(raised.value)


def test_creation_inside_a_step_happens_on_the_timed_device():
    moved = on_device(LINES[4], "cuda:0")
    assert moved == "torch.tril(torch.ones(5, 5, device='cuda:0'), diagonal=1)"
    assert on_device("    y = torch.zeros(2, device='cpu') + x.new_ones(2)", "mps") == (
        "torch.zeros(2, device='mps') + x.new_ones(2, device='mps')")  # replaced; a method
    assert on_device("y = torch.nn.functional.relu(torch.rand(3))", "cpu") == (
        "torch.nn.functional.relu(torch.rand(3, device='cpu'))")
    assert on_device("print(a)", "cpu") == "print(a)"
    with pytest.raises(ValueError):
        on_device("for i in range(2):\n    y = torch.ones(2)", "cpu")


def test_format_seconds():
    assert format_seconds(1.5) == "1.5 s"
    assert format_seconds(0.00234) == "2.34 ms"
    assert format_seconds(4.5e-5) == "45 µs"
    assert format_seconds(7e-8) == "70 ns"
    assert format_seconds(float("nan")) == "—"


def test_timing_imports_no_qt():
    code = ("import sys\n"
            "for m in ('PySide6', 'pyqtgraph', 'shiboken6'): sys.modules[m] = None\n"
            "import app.explain.timing\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_timing_gives_positive_medians():
    timings = [_time(1, device, {"a": torch.ones(64, 64)}) for device in ("cpu", "cuda:0")]
    assert [t.device for t in timings] == ["cpu", "cuda:0"]
    assert all(t.ok and t.median_s > 0 and t.runs >= 1 for t in timings), timings
