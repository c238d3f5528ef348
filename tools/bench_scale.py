"""The scale figures for ``tools/bench.py`` (``--only scale``): a recipe of 5,000
top-level statements run in a real main window.

The recipe is issue 32's: ``import torch``, ``t = torch.zeros(3)``, 4,997 lines of
``t = t + 1`` and ``print(t)``. It is opened in the window (its first run warms the
kernel), then each pair is ``python`` on the same file (process start to exit, torch's
import included, as a user runs it), and the window's Run (Run Again: every statement,
from the first) until the last statement's results are in the window, a 16 ms precise
``QTimer`` ticking in the window meanwhile.

- ``5000 statements vs python``: the window's whole run over python's; target at most 3.
- ``window responsiveness, 5000 statements``: the p99 lateness of that timer during the
  window's run (Run's own work included); target at most 16 ms (one frame).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The statements of the recipe.
STATEMENTS = 5000


def recipe_text(statements: int = STATEMENTS) -> str:
    """Issue 32's recipe of ``statements`` top-level statements."""
    return ("import torch\nt = torch.zeros(3)\n" + "t = t + 1\n" * (statements - 3)
            + "print(t)\n")


def _python(path: Path) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                         timeout=600)
    took = time.perf_counter() - start
    if out.returncode:
        raise RuntimeError(f"python failed: {out.stderr[-300:]}")
    return took, out.stdout


def _window_run(document, limit_s: float = 600.0) -> tuple[float, list[float]]:
    """Run Again in the window; the seconds until the run's last results are in, and the
    lateness (ms) of each tick of a 16 ms timer meanwhile."""
    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer

    clock, late, last = QElapsedTimer(), [], [0]
    times: dict[str, float] = {}
    loop = QEventLoop()

    def on_changed() -> None:
        if "start" in times and "end" not in times and document.kernel_run is None:
            times["end"] = time.perf_counter()
            loop.quit()

    def start() -> None:
        times["start"] = time.perf_counter()
        document.run_again()

    tick = QTimer(interval=16)
    tick.setTimerType(Qt.TimerType.PreciseTimer)

    def on_tick() -> None:
        now = clock.nsecsElapsed()
        if last[0]:
            late.append(max(0.0, (now - last[0]) / 1e6 - 16))
        last[0] = now
        if now / 1e9 > limit_s:
            loop.quit()

    document.kernel_changed.connect(on_changed)
    tick.timeout.connect(on_tick)
    clock.start()
    tick.start()
    QTimer.singleShot(0, start)  # Run's own work counts: it happens while the timer ticks
    try:
        loop.exec()
    finally:
        tick.stop()
        document.kernel_changed.disconnect(on_changed)
    if "end" not in times:
        raise RuntimeError(f"the run did not end within {limit_s:.0f} s")
    return times["end"] - times["start"], late


def bench_scale(pairs: int, figure, percentile, qapp) -> list:
    """The ``5000 statements vs python`` and ``window responsiveness, 5000 statements``
    figures."""
    from app.recipe.document import Document
    from app.settings import Settings
    from tools.bench_window_kernel import _after_ticks, _lateness
    from widgets.common.gui_gc import collect_on_gui_thread, freeze_start
    from widgets.shell.main_window import MainWindow

    app = qapp()
    collect_on_gui_thread()  # the collector as the app runs it (``widgets.launch``)
    folder = tempfile.TemporaryDirectory(prefix="tensor-lab-bench-scale-")
    path = Path(folder.name) / "statements.py"
    path.write_text(recipe_text(), encoding="utf-8")
    _, expected = _python(path)  # (and the file cache warm)
    window = MainWindow(Document(), settings=Settings())
    window.resize(1280, 800)
    window.show()
    document = window.document
    idle, busy, python, runs, ticks = [], [], [], [], []
    try:
        document.open(path)  # its first run warms the kernel and the window's views
        while document.kernel_run is not None:
            app.processEvents()
        import torch  # noqa: F401 - in the window by now, as the app has it once warm

        freeze_start()  # the start's objects left out, as the app does once torch is in
        for _ in range(pairs):
            took, printed = _python(path)
            python.append(took)
            idle.append(percentile(_lateness(app, _after_ticks(30)), 99))
            seconds, late = _window_run(document)
            if document.output != printed or printed != expected:
                raise RuntimeError(f"the window printed {document.output[-200:]!r}, "
                                   f"python {printed[-200:]!r}")
            results = document.run.results
            if len(results) != len(document.recipe.steps) or len(results) < STATEMENTS - 2 \
                    or any(r.status != "ok" for r in results):
                raise RuntimeError("not every step of the recipe got its result")
            runs.append(seconds)
            busy.append(percentile(late, 99))
            ticks.append(len(late))
    finally:
        window.kernel_hook.close()
        window.confirm_discard = lambda: True
        window.close()
        folder.cleanup()
    ratios = [w / p for w, p in zip(runs, python, strict=True)]
    p99 = statistics.median(busy)
    return [
        figure("5000 statements vs python", f"{statistics.median(python):.2f} s python",
               f"{statistics.median(runs):.2f} s window", statistics.median(ratios), "",
               "<= 3", f"issue 32's recipe ({STATEMENTS} statements: import torch, a "
                       f"tensor, t = t + 1 ...); python's time is its process, torch's "
                       f"import included, the window's from Run until the last "
                       f"statement's results are in (its kernel has torch loaded); "
                       f"{len(ratios)} pairs (ratios {min(ratios):.2f} to "
                       f"{max(ratios):.2f})"),
        figure("window responsiveness, 5000 statements",
               f"{statistics.median(idle):.1f} ms idle", f"{p99:.1f} ms running", p99,
               " ms", "<= 16",
               f"p99 lateness of a 16 ms QTimer from Run until the last of the "
               f"{STATEMENTS} statements' results is in the window "
               f"({statistics.median(ticks):.0f} ticks a run), median of {len(busy)} runs "
               f"(from {min(busy):.1f} to {max(busy):.1f} ms)"),
    ]
