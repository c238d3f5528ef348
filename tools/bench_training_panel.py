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


def open_panel(settings):
    """The training panel on a recipe with ``settings``, shown at 1280 x 800 and painted,
    as a user finds it before pressing Start. ``close_panel`` when done."""
    from PySide6.QtCore import QEventLoop, QTimer

    from app.recipe.document import Document
    from app.recipe.model import Recipe
    from widgets.training.panel import TrainingPanel

    panel = TrainingPanel(Document(Recipe(training=settings)))
    panel.resize(1280, 800)
    panel.show()
    settle = QEventLoop()
    QTimer.singleShot(300, settle.quit)
    settle.exec()
    return panel


def close_panel(app, panel) -> None:
    panel.shutdown()
    panel.close()
    panel.deleteLater()
    app.processEvents()


def panel_run(app, panel) -> tuple[float, list[float], float]:
    """Start a run from ``panel`` (a new one each call, as pressing Start again does) and
    wait for its end. Returns its steps per second, the timer's lateness (ms) and the
    share of one core the window's process used meanwhile.

    The speed is timed by the training process itself, from the start of its first chunk
    to the end of its last (everything between chunks included), as the bare loop times
    itself: the window noticing the end up to a frame later is not the run's speed.
    """
    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer

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
    chunks = []

    def on_chunk(event) -> None:
        if event.kind == "chunk":
            chunks.append(event.data)

    panel.run_event.connect(on_chunk)
    clock.start()
    tick.start()
    panel.start()
    QTimer.singleShot(600_000, loop.quit)
    loop.exec()
    tick.stop()
    panel.state_changed.disconnect(on_state)
    panel.run_event.disconnect(on_chunk)
    if "running" not in marks or "end" not in marks:
        raise RuntimeError("the run did not finish")
    wall = marks["end"] - marks["running"]
    steps = sum(len(c.steps) for c in chunks)
    trained = chunks[-1].started + chunks[-1].elapsed - chunks[0].started
    return steps / trained, lateness, (marks["cpu1"] - marks["cpu0"]) / wall


def main(argv: list[str]) -> int:
    import numpy as np

    from app.training.bench import SETTINGS, bare_steps_per_second
    from tools.bench import qapp

    steps = int(argv[0]) if argv else 600
    pairs = int(argv[1]) if len(argv) > 1 else 15
    app = qapp()  # set up as the app sets itself up
    settings = SETTINGS.replace(steps=steps)
    warm = open_panel(settings.replace(steps=50))
    panel_run(app, warm)  # starts the fork server, warms the caches
    close_panel(app, warm)
    panel = open_panel(settings)
    ratios, late = [], []
    print(f"{'pair':>4} {'bare steps/s':>13} {'panel steps/s':>14} {'ratio':>6} "
          f"{'timer p99 late ms':>18} {'window CPU':>11}")
    for i in range(pairs):
        bare = bare_steps_per_second(settings)
        speed, lateness, cpu = panel_run(app, panel)
        ratios.append(speed / bare)
        late += lateness
        p99 = float(np.percentile(lateness, 99)) if lateness else float("nan")
        print(f"{i + 1:>4} {bare:>13.0f} {speed:>14.0f} {speed / bare:>6.2f} {p99:>18.1f} "
              f"{cpu:>10.0%}", flush=True)
    close_panel(app, panel)
    print(f"median ratio {statistics.median(ratios):.2f}; 16 ms timer lateness over all "
          f"panel runs: median {np.median(late):.1f} ms, p99 {np.percentile(late, 99):.1f} ms "
          f"({len(late)} ticks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
