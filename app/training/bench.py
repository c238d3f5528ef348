"""Steps per second of the engine against a bare torch loop doing the same work.

``python -m app.training.bench [STEPS] [PAIRS]`` measures, interleaved (bare, engine,
bare, engine, ...), the MLP 2-64-64-2 on spirals with batch 64, Adam and one seed,
and prints each pair and the median ratio. The engine runs with every metric on (loss,
per-layer gradient norm and output std, learning rate, decision boundary) in its worker
process, polled the way a panel polls it, at 30 Hz.
"""

from __future__ import annotations

import statistics
import sys
import time

import torch

from app.training import program
from app.training.settings import TrainingSettings
from app.training.worker import TrainingRun, default_threads

#: The benchmark's setup: issue 8's MLP 2-64-64-2, batch 64.
SETTINGS = TrainingSettings().replace(
    model={"inputs": 2, "hidden": 64, "layers": 2, "outputs": 2},
    batch={"size": 64}, optimizer={"name": "adam", "lr": 0.01}, log_every=100)


def bare_steps_per_second(settings: TrainingSettings, threads: int | None = None) -> float:
    """A plain loop over the same data, model and optimizer: no metrics, no checks."""
    previous = torch.get_num_threads()
    torch.set_num_threads(threads or default_threads())
    try:
        run = program.prepare(settings.to_literal())
        model, optimizer, loss_fn = run["model"], run["optimizer"], run["loss_fn"]
        batches = run["batches"]
        start = time.perf_counter()
        for _ in range(settings.steps):
            x, y = next(batches)
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
        float(loss.detach())  # wait for the device
        return settings.steps / (time.perf_counter() - start)
    finally:
        torch.set_num_threads(previous)


def engine_steps_per_second(settings: TrainingSettings, poll_hz: float = 30.0) -> float:
    """The engine in its worker process, from the first report to the last step."""
    run = TrainingRun(settings)
    try:
        run.start()
        run.wait("running", 120)
        start = time.perf_counter()
        while run.state == "running" or run.state == "starting":
            time.sleep(1 / poll_hz)  # a display-rate timer, as a panel polls
            run.poll()
        if run.state != "finished":
            raise RuntimeError(f"the run ended {run.state}")
        return settings.steps / (time.perf_counter() - start)
    finally:
        run.close()


def main(argv: list[str]) -> int:
    steps = int(argv[0]) if argv else 2000
    pairs = int(argv[1]) if len(argv) > 1 else 5
    settings = SETTINGS.replace(steps=steps)
    engine_steps_per_second(settings.replace(steps=10))  # start the fork server
    ratios = []
    print(f"{'pair':>4} {'bare steps/s':>13} {'engine steps/s':>15} {'ratio':>6}")
    for i in range(pairs):
        bare = bare_steps_per_second(settings)
        engine = engine_steps_per_second(settings)
        ratios.append(engine / bare)
        print(f"{i + 1:>4} {bare:>13.0f} {engine:>15.0f} {engine / bare:>6.2f}")
    print(f"median ratio {statistics.median(ratios):.2f} "
          f"(threads {default_threads()}, steps {steps})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
