"""Timing a step on every device: core tier, no QApplication."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
import torch

from app.devices import available_devices
from app.explain import timing
from app.explain.timing import (
    Timing,
    TimingError,
    format_seconds,
    iter_time_step,
    on_device,
    time_step,
)
from app.expr import Call, Const
from app.recipe.reader import read_recipe

QUICK = 0.01  # seconds of measuring per device: enough to get numbers, not good numbers

RECIPE = read_recipe(
    "import torch\n"
    "a = torch.ones(64, 64)\n"
    "b = a @ a\n"
    "a.add_(1)\n"
    "c = torch.tril(torch.ones(5, 5), diagonal=1)\n"
    "print(b)\n"
    "bad = torch.cat((a, a), dim=2)\n"
    "d = bad.sum()\n"
)


def test_cpu_timing_gives_positive_medians():
    (timing,) = time_step(RECIPE, 1, ["cpu"], min_run_time=QUICK)
    assert timing.device == "cpu" and timing.ok
    assert timing.median_s > 0 and timing.iqr_s >= 0 and timing.runs >= 1


def test_every_available_device_is_timed_in_order():
    devices = available_devices()
    seen: list[str] = []
    timings = time_step(RECIPE, 1, devices, min_run_time=QUICK,
                        progress=lambda i, n, d: seen.append(d))
    assert [t.device for t in timings] == [d.id for d in devices] == seen


def test_the_generator_form_yields_before_each_device_and_returns_the_timings():
    steps = iter_time_step(RECIPE, 1, ["cpu", "no-such-device"], min_run_time=QUICK)
    assert next(steps) == (0, 2, "cpu")
    assert next(steps) == (1, 2, "no-such-device")
    with pytest.raises(StopIteration) as end:
        next(steps)
    timings = end.value.value
    assert [t.device for t in timings] == ["cpu", "no-such-device"]
    assert timings[0].ok and not timings[1].ok


def test_the_generator_form_times_a_device_only_when_resumed_after_its_yield(monkeypatch):
    timed: list[str] = []

    def fake_time_on(expr, inputs, device, min_run_time):
        timed.append(device)
        return Timing(device, 1.0, 0.0, 1)

    monkeypatch.setattr(timing, "_time_on", fake_time_on)
    steps = iter_time_step(RECIPE, 1, ["cpu", "meta"], min_run_time=QUICK)
    assert next(steps) == (0, 2, "cpu") and timed == []
    assert next(steps) == (1, 2, "meta") and timed == ["cpu"]
    steps.close()  # a job cancelled at this yield: "meta" is never timed
    assert timed == ["cpu"]
    with pytest.raises(TimingError, match="print"):
        next(iter_time_step(RECIPE, 4, ["cpu"]))


def test_in_place_step_runs_on_copies_of_its_inputs():
    a = torch.ones(64, 64)
    (timing,) = time_step(RECIPE, 2, ["cpu"], min_run_time=QUICK, inputs={"a": a})
    assert timing.ok and timing.median_s > 0
    assert torch.equal(a, torch.ones(64, 64))  # the caller's tensor is untouched


def test_an_error_on_a_device_is_a_result():
    (timing,) = time_step(RECIPE, 1, ["no-such-device"], min_run_time=QUICK)
    assert not timing.ok and timing.error and math.isnan(timing.median_s) and timing.runs == 0


def test_steps_that_cannot_be_timed_say_why():
    with pytest.raises(TimingError, match="print"):
        time_step(RECIPE, 4, ["cpu"], min_run_time=QUICK)
    with pytest.raises(TimingError, match="'bad'"):
        time_step(RECIPE, 6, ["cpu"], min_run_time=QUICK)  # its input failed
    (failed,) = time_step(RECIPE, 5, ["cpu"], min_run_time=QUICK)
    with pytest.raises(IndexError) as raised:
        torch.cat((torch.ones(2, 2), torch.ones(2, 2)), dim=2)
    assert failed.error == str(raised.value)


def test_creation_inside_a_step_happens_on_the_timed_device():
    expr = RECIPE.steps[3].expr
    moved = on_device(expr, "cuda:0")
    inner = moved.args[0]
    assert isinstance(inner, Call) and inner.kwarg("device") == Const("cuda:0")
    assert moved.kwarg("diagonal") == Const(1) and moved.op == "torch.tril"


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
    timings = time_step(RECIPE, 1, ["cpu", "cuda:0"], min_run_time=QUICK)
    assert [t.device for t in timings] == ["cpu", "cuda:0"]
    assert all(t.ok and t.median_s > 0 and t.runs >= 1 for t in timings), timings
