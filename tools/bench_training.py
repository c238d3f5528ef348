"""The Training tab's figures for ``tools/bench.py``: a recipe's own training loop run in the
main window, watched live, against the same file under ``python``.

One window (``widgets.launch.make_window``, offscreen, 1280x800) and its kernel stay warm
for every pair; each lab run is ``document.run_again()`` of the same recipe, timed by the
recipe itself (``time.perf_counter`` around its loop, after the loss is read, so a GPU
has finished), which is exactly what ``python`` times of the same file. Kernel start-up
and ``import torch`` are left out of both sides. A pair is three runs: ``python`` (a
subprocess), then the window's run with the Training tab shown and every plot live, and
with the Training tab hidden (another tab current: the kernel's hooks and the document
still take every step, nothing plots); the last two swap order every other pair.

Figures:

- ``training recipe live vs python``: python's loop time over the window's with the
  Training tab live (1.0: as fast; target at least 0.95).
- ``training overhead`` (the name kept from the old engine's figure): the window's loop
  time with the Training tab hidden over the same with it live, i.e. what drawing the
  plots costs the loop (target at least 0.95).
- ``window responsiveness, training recipe``: the 99th percentile lateness of a 16 ms
  precise ``QTimer`` in the window while the Training tab plots the loop live, the median
  of the pairs' p99s (target at most 16 ms, one frame), against the same timer with the
  window idle.
- ``window responsiveness`` (the name kept from the old figure): the same ticks pooled
  over every live run, their p99, as the old figure reduced them (at most 16 ms, one
  frame, since issue 19).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The training recipe: an MLP 2-64-64-1 on one batch of 256, SGD with momentum, one torch
#: thread, ``{steps}`` steps; it prints its own loop time and final loss.
RECIPE = '''\
"""Benchmark: an MLP trained on one batch, timed by itself"""
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "{device}"
model = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                      nn.Linear(64, 1)).to(device)
x = torch.randn(256, 2, device=device)
y = (x[:, :1] * x[:, 1:]).sign()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
start = time.perf_counter()
for step in range({steps}):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
final = loss.item()  # waits for the device
print(f"loop seconds {{time.perf_counter() - start:.6f}}")
print(f"loss {{final:.4f}}")
'''
#: Ticks of the 16 ms timer with the window idle, before each pair.
IDLE_TICKS = 60


def _printed(text: str) -> tuple[float, str]:
    """The loop's seconds and the loss line of what the recipe printed."""
    lines = [line for line in text.splitlines() if line.startswith(("loop seconds", "loss"))]
    if len(lines) != 2:
        raise RuntimeError(f"the recipe printed {text[-300:]!r}")
    return float(lines[0].split()[-1]), lines[1]


def _python_seconds(path: Path) -> tuple[float, str]:
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          cwd=path.parent, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    if done.returncode != 0:
        raise RuntimeError(f"python exited {done.returncode}: {done.stderr[-500:]}")
    return _printed(done.stdout)


class WindowRuns:
    """A main window on the recipe at ``path``, its kernel kept warm between runs."""

    def __init__(self, path: Path, steps: int) -> None:
        from PySide6.QtCore import QSettings

        from app.settings import Settings
        from widgets.launch import make_window

        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        self.steps = steps
        self.window = window = make_window(str(path), restore_layout=False, trust=True,
                                           settings=Settings())
        window.resize(1280, 800)
        window.show()
        window.views.setCurrentWidget(window.training)
        self.document = window.document
        if self.document.kernel_run is None:
            raise RuntimeError("the window did not run the recipe")
        self._wait()  # the kernel's start, torch's import, the first (cold) run
        self.cpu_share: list[float] = []

    def _wait(self, limit_s: float = 300.0) -> list[float]:
        from tools.bench_window_kernel import _lateness

        late = _lateness(None, lambda: self.document.kernel_run is None, limit_s)
        if self.document.kernel_run is not None:
            raise RuntimeError(f"the run did not end in {limit_s:.0f} s")
        return late

    def idle(self) -> list[float]:
        """The 16 ms timer's lateness with nothing running (the Training tab shown)."""
        from tools.bench_window_kernel import _after_ticks, _lateness

        return _lateness(None, _after_ticks(IDLE_TICKS))

    def run(self, live: bool) -> tuple[float, str, list[float]]:
        """Run the recipe again, the Training tab shown (``live``) or hidden: its loop's
        seconds as it printed them, its loss line, and the timer's lateness meanwhile."""
        from tools.bench import painted_until_quiet

        window, training = self.window, self.window.training
        window.views.setCurrentWidget(training if live else window.viewer)
        painted_until_quiet(0.05)
        if training.frame_timer.isActive() != live:
            raise RuntimeError("the Training tab's plots are not as asked")
        cpu, wall = time.process_time(), time.perf_counter()
        self.document.run_again()
        late = self._wait()
        if live:
            self.cpu_share.append((time.process_time() - cpu) / (time.perf_counter() - wall))
        loop = training.loop
        if loop is None or not loop.finished or loop.steps != self.steps:
            raise RuntimeError(f"the Training tab saw {loop.steps if loop else 0} of "
                               f"{self.steps} steps")
        drawn = training.plots.loss_curve.xData
        if live and (drawn is None or not len(drawn)):
            raise RuntimeError("the Training tab plotted nothing")
        seconds, loss = _printed(self.document.output)
        return seconds, loss, late

    def close(self) -> None:
        window = self.window
        window.kernel_hook.close()
        window.confirm_discard = lambda: True
        window.close()
        window.deleteLater()


def bench_training_recipe(pairs: int, steps: int, device: str, figure, percentile,
                          interleave, qapp) -> list:
    """The Training tab's four figures (see the module's docstring)."""
    qapp()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mlp_training.py"
        path.write_text(RECIPE.format(steps=steps, device=device), encoding="utf-8")
        _, want = _python_seconds(path)  # the file cache warm, and the answer
        runs = WindowRuns(path, steps)
        losses = {want}
        hidden: list[float] = []
        lateness: list[list[float]] = []
        idle: list[float] = []

        def python() -> float:
            seconds, loss = _python_seconds(path)
            losses.add(loss)
            return seconds

        def lab() -> float:
            idle.append(percentile(runs.idle(), 99))
            live_first = len(hidden) % 2 == 1
            out = {}
            for live in ((True, False) if live_first else (False, True)):
                seconds, loss, late = runs.run(live)
                losses.add(loss)
                out[live] = seconds
                if live:
                    lateness.append(late)
            hidden.append(out[False])
            return out[True]

        try:
            runs.run(True)  # every path warm: the plots' first loop, the hidden tab
            runs.run(False)
            runs.cpu_share.clear()
            bare, live = interleave(python, lab, pairs)
        finally:
            runs.close()
    if losses != {want}:
        raise RuntimeError(f"the runs printed different losses: {sorted(losses)}")
    vs_python = [b / a for a, b in zip(live, bare, strict=True)]
    overhead = [h / a for a, h in zip(live, hidden, strict=True)]
    p99s = [percentile(late, 99) for late in lateness]
    pooled = [t for late in lateness for t in late]
    idle99 = statistics.median(idle)
    setup = (f"MLP 2-64-64-1, batch 256, {steps} SGD steps on {device}, one torch thread, "
             f"timed by the recipe itself; {len(live)} pairs")
    spread = lambda values: f"{min(values):.2f} to {max(values):.2f}"  # noqa: E731
    return [
        figure("training recipe live vs python", f"{statistics.median(bare):.2f} s python",
               f"{statistics.median(live):.2f} s Training tab live",
               statistics.median(vs_python), "", ">= 0.95",
               f"{setup} (ratios {spread(vs_python)}); python's loop time over the window's, "
               f"its Training tab shown with every plot live; the window process at "
               f"{statistics.median(runs.cpu_share):.0%} of a core meanwhile"),
        figure("training overhead", f"{statistics.median(hidden):.2f} s tab hidden",
               f"{statistics.median(live):.2f} s tab live", statistics.median(overhead), "",
               ">= 0.95",
               f"now the Training tab live against hidden (hooks and document only), the "
               f"same recipe in the same window: what plotting costs the loop; {setup} "
               f"(ratios {spread(overhead)})"),
        figure("window responsiveness, training recipe", f"{idle99:.1f} ms idle",
               f"{statistics.median(p99s):.1f} ms training", statistics.median(p99s), " ms",
               "<= 16",
               f"p99 lateness of a 16 ms QTimer in the window while the Training tab plots "
               f"the loop live, median of {len(p99s)} runs (p99s {spread(p99s)} ms)"),
        figure("window responsiveness", f"{idle99:.1f} ms idle",
               f"{percentile(pooled, 99):.1f} ms training", percentile(pooled, 99), " ms",
               "<= 16",
               f"the old figure's reduction of the same ticks: p99 over all {len(pooled)} "
               f"ticks of the live runs pooled"),
    ]
