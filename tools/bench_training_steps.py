"""Where a watched training loop's time goes, per step: the Training figure's recipe
(``tools.bench_training.RECIPE``) run by a kernel as the window runs it (the training
watch live, the loop recorded) against the same file under ``python``, pairs interleaved.

The wall-clock ratio of a 1 s loop moves by several percent on a shared two-core machine
from one run to the next; a run's median step much less (a few microseconds, of 500, on
a busy machine), so several runs of each side, interleaved, tell a change of a few
microseconds a step from the machine's noise. Both sides time every step the same
way, in the recipe's text (a global optimizer post-hook reading the thread's CPU clock),
and print the median step and the steps' time beyond it (the "excess": the rare steps
that send a batch or sample the layers, and what the machine did to any step). The
kernel's median step less python's is what the watch costs every step; its excess less
python's, what its rare steps cost.

    python -m tools.bench_training_steps [pairs] [steps]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.bench_training import RECIPE

#: What the recipe gets around its loop: every step's thread CPU time.
_TIMED = """import statistics as _statistics
from torch.optim.optimizer import register_optimizer_step_post_hook as _post_hook
_clock = []
_hook = _post_hook(lambda *_: _clock.append(time.thread_time()))
start = time.perf_counter()"""
_PRINTED = """_hook.remove()
_took = [b - a for a, b in zip(_clock, _clock[1:])]
_median = _statistics.median(_took)
print(f"step {_median * 1e6:.2f} excess {(sum(_took) - _median * len(_took)) * 1e3:.2f}")
print(f"loss"""


def recipe(steps: int) -> str:
    """The bench's recipe on the CPU, its steps timed (``_TIMED``)."""
    text = RECIPE.format(steps=steps, device="cpu")
    return text.replace("start = time.perf_counter()", _TIMED).replace('print(f"loss',
                                                                         _PRINTED)


def _timed(printed: str) -> tuple[float, float]:
    """The median step (us) and the excess (ms) a run printed."""
    line = next(line for line in printed.splitlines() if line.startswith("step "))
    _, median, _, excess = line.split()
    return float(median), float(excess)


def _python(path: Path) -> tuple[float, float]:
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "OMP_NUM_THREADS": "1"})
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-500:])
    return _timed(done.stdout)


def _kernel(session, path: Path) -> tuple[float, float]:
    from app.link.session import Ended, RunMessage
    from protocol import messages

    text, out = path.read_text(encoding="utf-8"), []
    run_id = session.run(text, str(path), str(path.parent))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        time.sleep(0.01)  # the window's timer polls so
        for event in session.poll():
            if isinstance(event, RunMessage) and event.run_id == run_id \
                    and isinstance(event.message, messages.Output):
                out.append(event.message.text)
            if isinstance(event, Ended) and event.run_id == run_id:
                return _timed("".join(out))
    raise RuntimeError("the kernel's run did not end")


def main(pairs: int = 6, steps: int = 2000) -> None:
    from app.link.session import KernelSession

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mlp_training.py"
        path.write_text(recipe(steps), encoding="utf-8")
        session = KernelSession()
        session.start()
        try:
            _python(path)
            _kernel(session, path)  # torch imported, every path warm
            python, kernel = [], []
            for i in range(pairs):
                for side in (("python", "kernel") if i % 2 == 0 else ("kernel", "python")):
                    if side == "python":
                        python.append(_python(path))
                    else:
                        kernel.append(_kernel(session, path))
        finally:
            session.close()
    step = statistics.median(k[0] for k in kernel) - statistics.median(p[0] for p in python)
    excess = statistics.median(k[1] for k in kernel) - statistics.median(p[1] for p in python)
    plain = statistics.median(p[0] for p in python)
    print(f"median step: python {plain:.1f} us, kernel "
          f"{statistics.median(k[0] for k in kernel):.1f} us ({step:+.1f} us a step; "
          f"kernel runs {', '.join(f'{k[0]:.0f}' for k in kernel)})")
    print(f"excess: python {statistics.median(p[1] for p in python):.1f} ms, kernel "
          f"{statistics.median(k[1] for k in kernel):.1f} ms ({excess:+.1f} ms a run)")
    print(f"the watch's cost: {(step * steps / 1e3 + excess) / (plain * steps / 1e3):.1%} "
          f"of python's loop")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:3]))
