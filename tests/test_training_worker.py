"""TrainingRun: a training process steered by commands, that never outlives its owner."""

from __future__ import annotations

import gc
import multiprocessing
import time

import numpy as np
import pytest

from app.training.history import Series
from app.training.loop import TrainingLoop
from app.training.settings import TrainingSettings
from app.training.worker import TrainingRun

SETTINGS = TrainingSettings().replace(data={"samples": 256}, steps=1_000_000, log_every=10)


def _training_children() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "tensor-lab-training"]


@pytest.fixture
def no_orphans():
    yield
    assert _training_children() == []


def test_step_pause_resume_and_stop_within_200_ms(no_orphans, record_property):
    with TrainingRun(SETTINGS) as run:
        run.step_once()
        events = run.wait("paused", timeout=120)
        assert [e.kind for e in events] == ["started", "chunk", "paused"]
        assert run.state == "paused" and run.step == 1 and run.history.step == 1
        assert run.info.layer_names == ["hidden 1", "hidden 2", "output"]
        assert "parameters: 4,482" in run.info.summary and run.info.device == "cpu"

        run.start()
        run.wait("chunk")
        run.pause()
        run.wait("paused")
        paused_at = run.step
        assert run.state == "paused" and paused_at > 1
        assert run.wait("chunk", timeout=0.3) == []  # nothing moves while paused

        run.resume()
        run.wait("chunk")
        run.set_lr(0.001)
        run.wait("chunk")
        run.wait("chunk")
        assert run.history.lr.last() == 0.001
        assert run.step > paused_at

        started = time.monotonic()
        run.stop()
        run.wait("stopped", timeout=2.0)  # a deadline, not a speed assertion
        latency = time.monotonic() - started
        record_property("stop_latency_ms", round(latency * 1000, 1))
        print(f"stop took {latency * 1000:.1f} ms")
        assert run.state == "stopped"
        with pytest.raises(RuntimeError):
            run.start()


def test_nan_loss_pauses_the_run_with_a_message(no_orphans):
    settings = SETTINGS.replace(optimizer={"name": "sgd", "lr": 1e6})
    with TrainingRun(settings) as run:
        run.start()
        events = run.wait("diverged", timeout=120)
        diverged = [e for e in events if e.kind == "diverged"]
        assert diverged and "nan" in diverged[0].message and "step" in diverged[0].message
        assert run.state == "paused"
        assert not np.isfinite(run.history.loss.values).all()


def test_closing_a_running_run_leaves_no_process(no_orphans):
    run = TrainingRun(SETTINGS)
    run.start()
    run.wait("chunk", timeout=120)
    assert run.alive and len(_training_children()) == 1
    run.close()
    assert not run.alive and _training_children() == []

    forgotten = TrainingRun(SETTINGS)
    forgotten.start()
    forgotten.wait("chunk", timeout=120)
    process = forgotten._process
    del forgotten
    gc.collect()  # the finalizer ends the process
    assert not process.is_alive()


def test_checkpoint_save_load_and_resume(no_orphans, tmp_path):
    settings = SETTINGS.replace(model={"dropout": 0.1}, steps=40)
    straight = np.concatenate([c.loss for c in TrainingLoop(settings).chunks()])
    path = tmp_path / "run.pt"
    with TrainingRun(settings.replace(steps=15)) as first:
        first.start()
        first.wait("finished", timeout=120)
        first.save_checkpoint(path)
        assert any(e.kind == "checkpoint_saved" for e in first.wait("checkpoint_saved"))
    with TrainingRun(settings) as second:
        second.step_once()  # one step past the start, then replaced by the checkpoint
        second.wait("paused", timeout=120)
        second.load_checkpoint(path)
        second.wait("checkpoint_loaded")
        assert second.step == 15 and second.history.step == 15
        second.start()
        second.wait("finished", timeout=120)
        # The history keeps what came before the checkpoint's step (here: step 1).
        assert list(second.history.loss.steps) == [1, *range(16, 41)]
        assert np.array_equal(second.history.loss.values[1:], straight[15:])


def test_a_bad_setup_reports_an_error_event(no_orphans, tmp_path):
    settings = SETTINGS.replace(data={"kind": "csv", "path": str(tmp_path / "none.csv")},
                                model={"outputs": 2})
    with TrainingRun(settings) as run:
        run.start()
        events = run.wait("error", timeout=120)
        errors = [e for e in events if e.kind == "error"]
        assert errors and "none.csv" in errors[0].message and run.state == "error"


def test_history_stays_bounded_over_a_million_steps():
    series = Series(capacity=1000)
    for start in range(1, 1_000_001, 5000):
        steps = np.arange(start, start + 5000)
        series.extend(steps, steps.astype(float))
    assert len(series) <= 1000 and series.stride == 1024
    assert series.steps[0] == 1 and np.all(np.diff(series.steps) == 1024)
    assert np.array_equal(series.values, series.steps.astype(float))
    layers = Series(capacity=8, width=3)
    layers.extend(np.arange(20), np.ones((20, 3)))
    assert layers.values.shape == (5, 3) and list(layers.steps) == [0, 4, 8, 12, 16]


def test_a_failed_command_is_a_warning_and_the_run_goes_on(no_orphans):
    with TrainingRun(SETTINGS) as run:
        run.step_once()
        run.wait("paused", timeout=120)
        run.load_checkpoint("/nonexistent/checkpoint.pt")
        events = run.wait("warning")
        assert any(e.kind == "warning" and "load" in e.message for e in events)
        assert run.state == "paused"
