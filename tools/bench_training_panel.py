"""How much watching training costs: the training panel against a bare torch loop.

    python tools/bench_training_panel.py [STEPS] [PAIRS]

Interleaved pairs (bare loop, then a run started from the training panel, ...) on issue 8's
setup: MLP 2-64-64-2, batch 64, Adam, one seed, on the CPU. The panel runs offscreen at
1280 x 800 with its live plots shown and redrawn at display rate (every metric on: loss,
learning rate, per-layer output std and gradient norm, decision boundary). While it
trains, a 16 ms ``QTimer`` measures how late the window's event loop serves it.

Prints each pair, the median ratio of steps per second (panel / bare) and the 99th
percentile of the timer's lateness over all panel runs. Not a test: no assertion.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def panel_run(app, settings) -> tuple[float, list[float], float]:
    """Steps per second of one run started from the panel, the timer's lateness (ms) and
    the share of one core the window's process used meanwhile."""
    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer

    from app.document import Document
    from app.recipe import Recipe
    from widgets.training_panel import TrainingPanel

    panel = TrainingPanel(Document(Recipe(training=settings)))
    panel.resize(1280, 800)
    panel.show()
    # As a user finds it: the panel built and painted before Start is pressed.
    settle = QEventLoop()
    QTimer.singleShot(300, settle.quit)
    settle.exec()
    loop = QEventLoop()
    clock = QElapsedTimer()
    marks: dict[str, float] = {}
    lateness: list[float] = []
    last = [0.0]

    def on_state(state: str) -> None:
        if state == "running" and "running" not in marks:
            marks["running"] = clock.nsecsElapsed() / 1e9
            marks["cpu0"] = time.process_time()
        if state in ("finished", "stopped", "error"):
            marks["end"] = clock.nsecsElapsed() / 1e9
            marks["cpu1"] = time.process_time()
            loop.quit()

    def on_tick() -> None:
        now = clock.nsecsElapsed() / 1e6
        if "running" in marks and "end" not in marks and last[0]:
            lateness.append(now - last[0] - 16.0)
        last[0] = now

    tick = QTimer()
    tick.setTimerType(Qt.TimerType.PreciseTimer)
    tick.setInterval(16)
    tick.timeout.connect(on_tick)
    panel.state_changed.connect(on_state)
    clock.start()
    tick.start()
    panel.start()
    QTimer.singleShot(600_000, loop.quit)
    loop.exec()
    tick.stop()
    steps = panel.record.history.step if panel.record else 0
    panel.shutdown()
    panel.close()
    panel.deleteLater()
    app.processEvents()
    if "running" not in marks or "end" not in marks:
        raise RuntimeError("the run did not finish")
    wall = marks["end"] - marks["running"]
    return steps / wall, lateness, (marks["cpu1"] - marks["cpu0"]) / wall


def main(argv: list[str]) -> int:
    import numpy as np

    from app.training.bench import SETTINGS, bare_steps_per_second
    from tools.bench import qapp

    steps = int(argv[0]) if argv else 3000
    pairs = int(argv[1]) if len(argv) > 1 else 5
    app = qapp()  # set up as the app sets itself up
    settings = SETTINGS.replace(steps=steps)
    panel_run(app, settings.replace(steps=50))  # starts the fork server, warms the caches
    ratios, late = [], []
    print(f"{'pair':>4} {'bare steps/s':>13} {'panel steps/s':>14} {'ratio':>6} "
          f"{'timer p99 late ms':>18} {'window CPU':>11}")
    for i in range(pairs):
        bare = bare_steps_per_second(settings)
        panel, lateness, cpu = panel_run(app, settings)
        ratios.append(panel / bare)
        late += lateness
        p99 = float(np.percentile(lateness, 99)) if lateness else float("nan")
        print(f"{i + 1:>4} {bare:>13.0f} {panel:>14.0f} {panel / bare:>6.2f} {p99:>18.1f} "
              f"{cpu:>10.0%}", flush=True)
    print(f"median ratio {statistics.median(ratios):.2f}; 16 ms timer lateness over all "
          f"panel runs: median {np.median(late):.1f} ms, p99 {np.percentile(late, 99):.1f} ms "
          f"({len(late)} ticks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
