"""The training loop in this process: initialisation demo, metrics, checkpoints, devices."""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from app.recipe.document import RECIPES_DIR
from app.recipe.reader import read_recipe_file
from app.training import model as model_info
from app.training import program
from app.training.data import make_dataset
from app.training.loop import TrainingLoop
from app.training.settings import TrainingSettings

SMALL = TrainingSettings().replace(data={"samples": 256}, steps=40, log_every=10)


def _first_step_stats(settings: TrainingSettings) -> tuple[np.ndarray, np.ndarray]:
    chunk = TrainingLoop(settings, stats_every=1).advance(max_steps=1)
    assert list(chunk.stat_steps) == [1]
    return chunk.output_std[0], chunk.grad_norm[0]


def test_initialisation_demo_depth_50():
    """Depth 50, width 64, tanh: flat under Xavier; vanishing or exploding otherwise."""
    demo = read_recipe_file(str(RECIPES_DIR / "init_depth50.py")).training
    assert demo is not None
    assert (demo.model.layers, demo.model.hidden, demo.model.activation) == (50, 64, "tanh")

    std, _ = _first_step_stats(demo.replace(init="xavier_normal"))
    assert len(std) == 51  # 50 hidden layers and the output layer
    ratio = std / std[0]
    assert ratio.max() < 10 and ratio.min() > 0.1, ratio

    # N(0, 1): tanh bounds each layer's output, so the forward std cannot blow up (it
    # saturates near 1); what explodes, by far more than 100x, is the gradient going
    # back through 50 layers of weights with std 1.
    std, grad = _first_step_stats(demo.replace(init="normal"))
    assert grad.max() / grad.min() > 100, grad
    assert std[:-1].max() < 1.0  # saturated, not exploded: |tanh| < 1

    # N(0, 0.01): every layer shrinks the signal; the std spreads over more than 100x.
    std, _ = _first_step_stats(demo.replace(init="small_normal"))
    assert std[0] > 100 * std[-2], std


def test_a_chunk_moves_its_metrics_in_one_transfer(monkeypatch):
    loop = TrainingLoop(SMALL.replace(steps=400), stats_every=3)
    loop.hist_layer = 1
    loop.advance(max_steps=2)  # warm up
    calls = {"cpu": 0, "item": 0, "tolist": 0, "float": 0, "numpy": 0}
    engine = str(Path(program.__file__).parent)
    for name, method in (("cpu", "cpu"), ("item", "item"), ("tolist", "tolist"),
                         ("float", "__float__"), ("numpy", "numpy")):
        original = getattr(torch.Tensor, method)

        def counted(self, *args, _name=name, _original=original, **kwargs):
            # Only the engine's own calls count (torch's optimizers and samplers make
            # their own, on CPU tensors).
            if sys._getframe(1).f_code.co_filename.startswith(engine):
                calls[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(torch.Tensor, method, counted)
    chunk = loop.advance(max_steps=60, max_seconds=60)
    monkeypatch.undo()
    assert len(chunk.steps) == 60 and len(chunk.stat_steps) == 20
    assert calls["cpu"] == 1 and calls["item"] == calls["tolist"] == calls["float"] == 0
    assert chunk.weights is not None and chunk.weights.size == 64 * 64


def test_chunks_carry_every_step_and_logged_validation():
    loop = TrainingLoop(SMALL, stats_every=10)
    chunks = list(loop.chunks())
    steps = np.concatenate([c.steps for c in chunks])
    assert list(steps) == list(range(1, 41))
    assert list(np.concatenate([c.val_steps for c in chunks])) == [10, 20, 30, 40]
    assert list(np.concatenate([c.stat_steps for c in chunks])) == [1, 10, 20, 30, 40]
    assert all(c.output_std.shape[1] == 3 for c in chunks)
    assert any(c.boundary is not None for c in chunks)
    boundary = next(c.boundary for c in chunks if c.boundary is not None)
    assert np.allclose(boundary.sum(axis=2), 1.0)  # class probabilities


def test_chunks_are_timed_back_to_back():
    import time

    before = time.perf_counter()
    chunks = list(TrainingLoop(SMALL).chunks(max_seconds=0.001))
    assert len(chunks) > 1
    assert before <= chunks[0].started
    for a, b in itertools.pairwise(chunks):  # each ends before the next one starts
        assert a.started + a.elapsed <= b.started
    assert chunks[-1].started + chunks[-1].elapsed <= time.perf_counter()


def test_clipping_and_live_changes_take_effect_from_the_next_step():
    settings = SMALL.replace(optimizer={"name": "sgd", "lr": 1.0}, dtype="float64",
                             clip={"mode": "norm", "value": 1e-3})
    loop = TrainingLoop(settings)
    params = loop.run["params"]

    def step_change() -> torch.Tensor:
        before = [p.detach().clone() for p in params]
        loop.advance(max_steps=1)
        return torch.cat([(p.detach() - b).flatten() for p, b in zip(params, before, strict=True)])

    # SGD without momentum moves by lr times the clipped gradient: norm 1e-3 (up to the
    # 1e-6 clip_grad_norm_ adds to the norm it divides by).
    assert math.isclose(torch.linalg.vector_norm(step_change()).item(), 1e-3, rel_tol=1e-4)
    loop.set_clip("value", 1e-4)
    loop.set_lr(0.5)
    change = step_change()
    assert change.abs().max().item() == pytest.approx(0.5 * 1e-4, rel=1e-9)
    chunk = loop.advance(max_steps=1)
    assert chunk.lr[0] == 0.5


def test_accumulating_two_half_batches_equals_one_full_batch():
    base = SMALL.replace(batch={"size": 64, "shuffle": False},
                         optimizer={"name": "sgd", "lr": 0.5})
    whole = TrainingLoop(base)
    halves = TrainingLoop(base.replace(batch={"size": 32}, accumulate=2))
    whole.advance(max_steps=1)
    halves.advance(max_steps=1)
    for a, b in zip(whole.run["params"], halves.run["params"], strict=True):
        assert torch.allclose(a, b, atol=1e-6)


def test_warmup_and_cosine_schedule():
    settings = SMALL.replace(optimizer={"name": "sgd", "lr": 0.1}, steps=12,
                             schedule={"kind": "cosine", "warmup": 4})
    lr = np.concatenate([c.lr for c in TrainingLoop(settings).chunks()])
    assert lr[1] == pytest.approx(0.05)  # step 2 of 4 warm-up steps
    assert lr[3] == pytest.approx(0.1)  # warm-up done
    assert lr[7] == pytest.approx(0.05)  # half way down the cosine
    assert lr[11] == pytest.approx(0.0, abs=1e-12)


def test_validation_runs_in_eval_mode_without_gradients():
    run = program.prepare(SMALL.replace(model={"dropout": 0.5}).to_literal())
    first, second = program.validate(run), program.validate(run)
    assert not first.requires_grad
    assert first.item() == second.item()  # dropout off in eval mode
    assert run["model"].training


def test_nan_loss_is_reported_with_its_step():
    loop = TrainingLoop(SMALL.replace(optimizer={"name": "sgd", "lr": 1e6}, steps=100))
    chunk = loop.advance(max_steps=50, max_seconds=60)
    assert chunk.diverged_at is not None
    assert not math.isfinite(chunk.loss[chunk.diverged_at - 1])
    assert np.isfinite(chunk.loss[: chunk.diverged_at - 1]).all()


def test_checkpoint_resume_continues_the_same_losses(tmp_path):
    settings = SMALL.replace(model={"dropout": 0.2}, steps=30)  # dropout draws random numbers
    straight = np.concatenate([c.loss for c in TrainingLoop(settings).chunks()])
    first = TrainingLoop(settings)
    first.advance(max_steps=13, max_seconds=60)  # mid-epoch: 205 samples make 4 batches
    path = tmp_path / "ckpt.pt"
    first.save(path)
    state = torch.load(path, weights_only=True)
    assert {"model", "optimizer", "step"} <= set(state) and state["step"] == 13
    resumed = TrainingLoop(settings)
    resumed.advance(max_steps=2)  # whatever it did before is replaced by the checkpoint
    resumed.load(path)
    rest = np.concatenate([c.loss for c in resumed.chunks()])
    assert np.array_equal(rest, straight[13:])


def test_a_device_not_present_falls_back_to_cpu_with_a_warning():
    loop = TrainingLoop(SMALL.replace(device="cuda:99"))
    assert loop.run["device"] == torch.device("cpu")
    assert loop.warnings and "cuda:99" in loop.warnings[0] and "cpu" in loop.warnings[0]
    assert loop.info().warnings == loop.warnings


def test_model_summary_and_layers():
    model = model_info.build(SMALL.replace(model={"batchnorm": True, "dropout": 0.1}))
    names = [layer.name for layer in model_info.layers(model)]
    assert names == ["hidden 1", "hidden 2", "output"]
    plain = model_info.build(SMALL)
    assert model_info.parameter_count(plain) == (2 * 64 + 64) + (64 * 64 + 64) + (64 * 2 + 2)
    text = model_info.summary(plain)
    assert repr(plain) in text and "parameters: 4,482" in text and "0.weight: (64, 2)" in text
    loop = TrainingLoop(SMALL)
    for a, b in zip(plain.parameters(), loop.model.parameters(), strict=True):
        assert torch.equal(a, b)  # the same weights a run starts from


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_matches_cpu_in_float64():
    settings = SMALL.replace(dtype="float64", steps=100, log_every=100)
    cpu = np.concatenate([c.loss for c in TrainingLoop(settings).chunks()])
    cuda_loop = TrainingLoop(settings.replace(device="cuda:0"))
    assert cuda_loop.run["device"].type == "cuda" and not cuda_loop.warnings
    cuda = np.concatenate([c.loss for c in cuda_loop.chunks()])
    assert len(cuda) == len(cpu) == 100
    assert np.allclose(cuda, cpu, rtol=1e-4, atol=0)


def test_csv_data_with_a_header(tmp_path):
    path = tmp_path / "points.csv"
    rows = [(0.5, -1.0, 0), (1.5, 2.0, 1), (-0.25, 0.75, 2), (3.0, 4.0, 1), (2.0, 0.0, 0)]
    path.write_text("a,b,label\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows))
    settings = SMALL.replace(data={"kind": "csv", "path": str(path), "validation": 0.0},
                             model={"outputs": 3}, batch={"size": 2})
    data = make_dataset(settings)
    assert data.x_val.shape == (0, 2) and data.y.dtype == torch.int64
    got = sorted(zip(data.x[:, 0].tolist(), data.x[:, 1].tolist(), data.y.tolist(),
                     strict=True))
    assert got == sorted(rows)
    chunk = TrainingLoop(settings.replace(steps=3)).advance(max_steps=3, max_seconds=60)
    assert len(chunk.steps) == 3 and len(chunk.val_steps) == 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_float64_matches_the_cpu_after_100_steps():
    """The same seed on cuda:0 and on the CPU: losses within 1e-4 relative at step 100."""
    settings = SMALL.replace(steps=100, log_every=10, dtype="float64")

    def losses(device: str) -> np.ndarray:
        loop = TrainingLoop(settings.replace(device=device))
        assert str(loop.run["device"]).startswith(device.split(":")[0]), loop.warnings
        return np.concatenate([chunk.loss for chunk in loop.chunks()])

    cpu, cuda = losses("cpu"), losses("cuda:0")
    assert len(cpu) == len(cuda) == 100
    assert np.allclose(cuda, cpu, rtol=1e-4, atol=0), np.abs(cuda / cpu - 1).max()
