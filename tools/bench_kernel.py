"""The kernel's figure for ``tools/bench.py``: a recipe's loop under ``tensor-lab run``
against the same file under ``python``.

``recipe loop vs python``: a torch-heavy training loop (an MLP 2-64-64-2, batches of 64,
1,000 steps), timed inside the process by the recipe itself, so that process start and
``import torch`` are left out of both sides. The value is python's loop time over the
lab's (1.0: as fast; the target is at least 0.95).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LOOP = '''\
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
net = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                    nn.Linear(64, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
x = torch.randn(64, 2)
y = (x[:, 0] * x[:, 1] > 0).long()
start = time.perf_counter()
for step in range(1000):
    opt.zero_grad()
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
print(f"loop seconds {time.perf_counter() - start:.6f}")
print(f"loss {loss.item():.4f}")
'''


def _loop_seconds(args: list[str], cwd: str) -> tuple[float, str]:
    done = subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    if done.returncode != 0:
        raise RuntimeError(f"{args[1:]} exited {done.returncode}: {done.stderr[-500:]}")
    lines = done.stdout.splitlines()
    return float(lines[0].split()[-1]), lines[1]


def bench_recipe_loop(pairs: int, figure, interleave) -> list:
    """The ``recipe loop vs python`` figure (``figure``/``interleave`` from bench.py)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mlp_loop.py"
        path.write_text(LOOP, encoding="utf-8")
        python = [sys.executable, str(path)]
        lab = [sys.executable, "-m", "app", "run", str(path)]
        _, want = _loop_seconds(python, folder)  # warm the file cache, and the answer
        outputs = set()

        def side(args: list[str]) -> float:
            seconds, printed = _loop_seconds(args, folder)
            outputs.add(printed)
            return seconds

        bare, app = interleave(lambda: side(python), lambda: side(lab), pairs)
    if outputs != {want}:
        raise RuntimeError(f"the two sides printed different losses: {sorted(outputs)}")
    ratios = [b / a for a, b in zip(app, bare, strict=True)]
    return [figure("recipe loop vs python", f"{statistics.median(bare):.2f} s python",
                   f"{statistics.median(app):.2f} s tensor-lab run", statistics.median(ratios),
                   "", ">= 0.95",
                   f"MLP 2-64-64-2, batch 64, 1000 SGD steps, timed in the process, one "
                   f"thread; {len(ratios)} pairs (ratios {min(ratios):.2f} to "
                   f"{max(ratios):.2f}); both printed {want}")]


SCALAR = '''\
import time
total = 0.0
start = time.perf_counter()
for i in range(100_000):
    x = i * 0.5
    total += x * x
seconds = time.perf_counter() - start
print(f"loop seconds {seconds:.6f}")
print(f"total {total!r}")
'''


def _lab_seconds(path: Path, folder: str) -> tuple[float, str]:
    """The scalar loop run for the window (``Kernel.run_source``, loops recorded)."""
    from app.link.supervisor import Kernel
    from protocol import messages

    kernel = Kernel()
    try:
        kernel.run_source(str(path), path.read_text(encoding="utf-8"), folder)
        printed, loop = [], None
        while True:
            message = kernel.receive(60)
            if message is None:
                raise RuntimeError("the kernel sent nothing for 60 s")
            if isinstance(message, messages.Output) and message.stream == "stdout":
                printed.append(message.text)
            if isinstance(message, messages.StepDone) and message.loop:
                loop = message.loop
            if isinstance(message, messages.Done):
                break
    finally:
        kernel.close()
    if message.exit_code != 0 or loop is None or loop.iterations != 100_000:
        raise RuntimeError(f"the lab's run failed: exit {message.exit_code}")
    lines = "".join(printed).splitlines()
    return float(lines[0].split()[-1]), lines[1]


def bench_scalar_loop(pairs: int, figure, interleave) -> list:
    """The ``scalar loop vs python`` figure: 10^5 iterations of scalar arithmetic run for
    the window, every iteration recorded (``kernel.loops``) and its report sent,
    against ``python``; the value is the lab's time over python's (target at most 1.5)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scalar_loop.py"
        path.write_text(SCALAR, encoding="utf-8")
        python = [sys.executable, str(path)]
        _, want = _loop_seconds(python, folder)
        outputs = set()

        def bare() -> float:
            seconds, printed = _loop_seconds(python, folder)
            outputs.add(printed)
            return seconds

        def lab() -> float:
            seconds, printed = _lab_seconds(path, folder)
            outputs.add(printed)
            return seconds

        base, app = interleave(bare, lab, pairs)
    if outputs != {want}:
        raise RuntimeError(f"the two sides printed different totals: {sorted(outputs)}")
    ratios = [a / b for a, b in zip(app, base, strict=True)]
    return [figure("scalar loop vs python", f"{statistics.median(base) * 1e3:.1f} ms python",
                   f"{statistics.median(app) * 1e3:.1f} ms lab", statistics.median(ratios), "",
                   "<= 1.5",
                   f"10^5 iterations of scalar arithmetic, iterations recorded, the step's "
                   f"report included; {len(ratios)} pairs (ratios {min(ratios):.2f} to "
                   f"{max(ratios):.2f})")]
