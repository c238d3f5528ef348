"""Tensor Lab's benchmark suite (issue 8), headless: one table and ``bench.json``.

    python tools/bench.py [--pairs N] [--only NAME[,NAME...]] [--device cuda] [--json PATH]

Every figure is the app against a baseline measured in the same run, interleaved
(baseline, app, baseline, app, ...), and reduced to the median of at least 5 pairs, so
that a shared, noisy machine slows both sides alike. Absolute times are printed for
information only. ``make bench`` runs it with Qt offscreen.

Figures (names for ``--only``):

- ``training`` (``tools/bench_training.py``): a training recipe (an MLP's loop, timed by
  the recipe itself) run in the main window with its Training tab shown and every plot
  live, against the same file under ``python`` (``training recipe live vs python``), and
  against the same window with the Training tab hidden, the kernel's hooks only
  (``training overhead``, the old figure's name); and the 99th percentile lateness of a
  16 ms ``QTimer`` in the window meanwhile (``window responsiveness, training recipe``,
  and pooled over all ticks under the old name ``window responsiveness``). ``--device``
  sets the recipe's ``device = ...`` line.
- ``plot``: update and render the Training tab's loss plot with the ``History`` of a
  10^6-step loop against a 10^3-step one.
- ``viewer``: open a 4096x4096 float32 tensor in the grid and in the heatmap against a
  64x64 one, and the memory that costs.
- ``op``: change ``tril``'s diagonal on a 1000x1000 tensor in the Ops panel, until the
  window's last view has repainted (``painted_until_quiet``).
- ``startup``: process start to first paint against a process that imports only what
  the window has imported by its first paint (the modules neither the standard library's
  nor the lab's, as the window lists them: no torch, which only its kernel imports); and
  ``window memory``, the window process's peak RSS once its kernel has started, before
  any recipe runs (it opens one held by the trust rule), the kernel's own not counted.
- ``recipe``: a training loop's time under ``tensor-lab run`` (the kernel) against
  ``python`` (``tools/bench_kernel.py``).
- ``scale`` (``tools/bench_scale.py``): a recipe of 5,000 top-level statements run in the
  main window against ``python`` on the same file (``5000 statements vs python``), and
  the p99 lateness of a 16 ms ``QTimer`` in the window meanwhile (``window
  responsiveness, 5000 statements``).
- ``model`` (``tools/bench_model.py``): a 100-layer model's step selected until the
  Model tab's tree is painted, then its graph, against a tensor's step until the viewer
  painted its plane (``module view, 100 layers``).
- ``ssh`` (``tools/bench_ssh.py``): the ``op`` and ``training`` figures with the window's
  kernel over ssh, through an sshd on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NAMES = ("training", "plot", "viewer", "op", "startup", "recipe", "scalar", "long", "scale",
         "model", "lenet", "ssh")
#: Pairs for the training figures, at least: a pair is three runs of a few seconds.
TRAINING_PAIRS = 9
#: Edits for the op figure: its 95th percentile needs more than a handful.
OP_PAIRS = 60
#: Start-ups of each kind: a start takes seconds, and one slow second moves a median of 5.
STARTUP_PAIRS = 9


@dataclass
class Figure:
    """One line of the table.

    ``value`` is what the target judges (a ratio, or milliseconds); ``baseline`` and
    ``app`` are the medians of both sides, in words with their units, for information.
    """

    name: str
    baseline: str
    app: str
    value: float
    unit: str
    target: str
    passed: bool
    note: str = ""


def check(value: float, target: str) -> bool:
    """Whether ``value`` meets ``target``, written ``">= 0.9"`` or ``"<= 50"``."""
    op, bound = target.split()
    return value >= float(bound) if op == ">=" else value <= float(bound)


def figure(name: str, baseline: str, app: str, value: float, unit: str, target: str,
           note: str = "") -> Figure:
    return Figure(name, baseline, app, value, unit, target, check(value, target), note)


def format_table(figures: list[Figure]) -> str:
    """The figures as one plain-text table (a Markdown table, so the README can hold it)."""
    head = ("figure", "baseline", "app", "value", "target", "result")
    rows = [head] + [(f.name, f.baseline, f.app, f"{f.value:.3g}{f.unit}",
                      f"{f.target}{f.unit}", "pass" if f.passed else "FAIL")
                     for f in figures]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
             for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    notes = [f"- {f.name}: {f.note}" for f in figures if f.note]
    return "\n".join(lines + ([""] + notes if notes else []))


def interleave(baseline: Callable[[], float], app: Callable[[], float],
               pairs: int) -> tuple[list[float], list[float]]:
    """Call ``baseline`` then ``app``, ``pairs`` times; both lists of results."""
    a, b = [], []
    for _ in range(pairs):
        a.append(baseline())
        b.append(app())
    return a, b


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


# -- Qt helpers ------------------------------------------------------------------------------
def qapp():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from widgets.launch import _on_qt_message, prepare_environment

    prepare_environment()  # as the app starts
    qInstallMessageHandler(_on_qt_message)  # the offscreen platform's known complaint, hushed
    return QApplication.instance() or QApplication([])


def settle(rounds: int = 3) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(rounds):
        QApplication.processEvents()


def painted_until_quiet(quiet: float = 0.15, limit: float = 5.0) -> float:
    """Process events until nothing has painted or laid out for ``quiet`` seconds.

    Returns ``time.perf_counter()`` at the end of the last round of events that painted or
    laid out something: when the window's last view has repainted, follow-up layouts,
    timers and background results included (a fixed number of ``processEvents`` rounds
    stops while some views are still catching up).
    """
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    watched = (QEvent.Type.Paint, QEvent.Type.LayoutRequest, QEvent.Type.UpdateRequest)

    class Work(QObject):
        seen = False

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() in watched:
                self.seen = True
            return False

    app = QApplication.instance()
    work = Work()
    app.installEventFilter(work)
    try:
        last = now = time.perf_counter()
        while now - last < quiet and now - last < limit:
            work.seen = False
            app.processEvents()
            now = time.perf_counter()
            if work.seen:
                last = now
            else:
                time.sleep(0.001)  # let timers and background jobs come due
        return last
    finally:
        app.removeEventFilter(work)


def rss() -> int:
    """Resident memory of this process in bytes (Linux), or 0."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def bench_training(pairs: int, steps: int, device: str = "cpu") -> list[Figure]:
    """A training recipe in the window, its Training tab live, against ``python``
    (``tools/bench_training.py``)."""
    from tools.bench_training import bench_training_recipe

    return bench_training_recipe(max(pairs, TRAINING_PAIRS), steps, device, figure,
                                 percentile, interleave, qapp)


# -- plot cost against history ---------------------------------------------------------------
def bench_plot(pairs: int) -> list[Figure]:
    """The Training tab's loss plot fed as the tab feeds it: ``setData`` from the loss
    ``Series`` of a ``History`` a loop of 10^6 steps leaves, against one of 10^3."""
    import numpy as np

    from app.training.history import History
    from app.training.peaks import peaks
    from widgets.training.plots import LivePlots

    qapp()
    plots = LivePlots()  # the Training tab's own plots
    plots.resize(1280, 800)
    plots.show()
    settle()
    plot, curve, view = plots.loss_plot, plots.loss_curve, plots.graphics

    rng = np.random.default_rng(0)
    data = {}
    for n in (1_000, 1_000_000):
        # The loss history as a loop of n steps leaves it: the document's own bounded
        # History (app.training.live), filled in batches as the kernel sends them.
        loss = History(1).loss
        for start in range(0, n, 10_000):
            steps = np.arange(start + 1, min(n, start + 10_000) + 1)
            loss.extend(steps, 1 / np.sqrt(steps) + 0.01 * rng.random(len(steps)))
        data[n] = loss

    def frame(n: int) -> float:
        plot.setXRange(0, n, padding=0)
        settle(1)
        start = time.perf_counter()
        curve.setData(*peaks(data[n]))  # as LivePlots.refresh feeds it
        # the loss plot's part of the window, as a frame that changed only it repaints
        view.viewport().repaint(view.mapFromScene(plot.sceneBoundingRect()).boundingRect())
        return time.perf_counter() - start

    for n in data:
        frame(n)
    small, big = interleave(lambda: frame(1_000), lambda: frame(1_000_000), max(pairs, 9))
    ratios = [b / s for s, b in zip(small, big, strict=True)]
    plots.close()
    return [figure("plot cost vs history", f"{ms(statistics.median(small))} at 10^3",
                   f"{ms(statistics.median(big))} at 10^6", statistics.median(ratios), "",
                   "<= 1.3", f"setData and render of the loss plot; the history keeps "
                           f"{len(data[1_000_000])} of 10^6 points, drawn as "
                           f"{len(peaks(data[1_000_000])[0])} (their peaks)")]


# -- tensor viewer ---------------------------------------------------------------------------
def bench_viewer(pairs: int) -> list[Figure]:
    """Selecting a step in the tensor viewer, as the window does it: the tensor lives in
    the kernel, and the viewer asks it for what it shows (a window of cells, a heatmap
    plane), 4096x4096 against 64x64."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from widgets.common.background import wait_for_jobs
    from widgets.common.kernel_hook import KernelHook
    from widgets.viewer.panel import ViewerPanel

    qapp()
    recipe = read_recipe("import torch\ntorch.manual_seed(0)\n"
                         "small = torch.rand(64, 64)\nbig = torch.rand(4096, 4096)\n")
    document = Document(recipe)
    panel = ViewerPanel(document)
    hook = KernelHook(document, panel)
    panel.resize(900, 700)
    panel.show()

    def answered(limit: float = 120.0) -> None:
        """Until the kernel has run the recipe and answered the views' questions."""
        deadline = time.monotonic() + limit
        while document.kernel_run is not None or document.asking \
                or document.waiting_since is not None:
            if time.monotonic() > deadline:
                raise RuntimeError("the kernel did not answer")
            QApplication.processEvents()

    document.evaluate()
    answered()
    settle()
    small_index, big_index = document.recipe.index_of("small"), document.recipe.index_of("big")
    nbytes = 4096 * 4096 * 4  # the big tensor's float32s (in the kernel, not the window)

    complete: dict[int, list[float]] = {}
    planes: list[object] = []
    show_plane = panel.show_plane

    def shown_plane(values, address) -> None:
        show_plane(values, address)
        planes.append(address)
    panel.show_plane = shown_plane  # the controller shows the kernel's plane through it

    def open_step(index: int, mode: str) -> float:
        # From the selection until the panel has laid out and painted the plane the
        # kernel sent (the layout request, the question, its answer, the paint). The
        # statistics come after, as a second question, and whole-tensor work in the
        # window (the heatmap's full image) runs in background jobs; the time until all
        # of it has landed is kept for the notes.
        document.select(None)
        settle()
        wait_for_jobs()
        answered()
        settle()
        gc.collect()
        planes.clear()
        start = time.perf_counter()
        document.select(index)
        panel.set_mode(mode)
        deadline = time.monotonic() + 60
        while not planes and time.monotonic() < deadline:
            QApplication.processEvents()
        if not planes:
            raise RuntimeError("the viewer showed no plane")
        # its layout and its paint, now (not the events that came meanwhile: the full
        # grid of a big tensor, the statistics, which land after the first paint)
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        panel.repaint()
        shown = time.perf_counter() - start
        wait_for_jobs()
        answered()
        settle(2)
        complete.setdefault(index, []).append(time.perf_counter() - start)
        return shown

    figures = []
    for mode in ("grid", "heatmap"):
        document.select(None)
        settle()
        gc.collect()
        before = rss()
        open_step(big_index, mode)
        settle()
        growth = rss() - before
        small, big = interleave(lambda m=mode: open_step(small_index, m),
                                lambda m=mode: open_step(big_index, m), pairs)
        ratios = [b / s for s, b in zip(small, big, strict=True)]
        complete.clear()
        open_step(big_index, mode)
        figures.append(figure(
            f"tensor viewer, {mode}", f"{ms(statistics.median(small))} at 64x64",
            f"{ms(statistics.median(big))} at 4096x4096", statistics.median(ratios), "",
            "<= 1.5", f"the window's memory growth {growth / nbytes:.2f}x the tensor's "
                      f"{nbytes / 2**20:.0f} MiB (target < 2x; the tensor is the kernel's); "
                      f"selection to first paint of what the kernel sent; statistics and "
                      f"full image in the background by {ms(complete[big_index][0])}"))
        if growth >= 2 * nbytes:
            figures[-1].passed = False
    hook.close()
    panel.close()
    return figures


# -- op re-evaluation ------------------------------------------------------------------------
def bench_op(pairs: int, name: str = "op re-evaluation", bound_ms: float = 16.0,
             note: str = "") -> list[Figure]:
    """tril's diagonal changed as a student changes it: in the Ops panel's form, with the
    window at 1280x800 showing the tensor; the window's kernel runs the edit, from the
    edited statement on, and the views repaint from what it sends back (the heatmap asks
    for its plane). Timed until the last view has repainted."""
    import torch
    import torch.utils.benchmark as benchmark
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.recipe.kernel_results import KernelValue
    from app.recipe.reader import read_recipe
    from app.settings import Settings
    from widgets.launch import make_window

    qapp()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    window = make_window(None, restore_layout=False, settings=Settings())
    document = window.document
    document.recipe.restore(read_recipe(
        "import torch\ntorch.manual_seed(0)\nx = torch.rand(1000, 1000)\n"
        "y = torch.tril(x, diagonal=0)\n").snapshot())
    document.select_name("y")
    window.resize(1280, 800)
    window.show()
    window.docks["ops"].raise_()  # where the diagonal is edited
    painted_until_quiet()
    diagonal = window.ops.form.editor("diagonal")
    steps_before = len(document.recipe.steps)

    def change(value: int) -> float:
        start = time.perf_counter()
        diagonal.setValue(value)  # what typing into the box or its arrows does
        while document.kernel_run is not None or document.asking:  # the kernel's answers
            QApplication.processEvents()
        return painted_until_quiet() - start

    x = torch.rand(1000, 1000)
    bare_timer = benchmark.Timer("torch.tril(x, diagonal=d)", globals={"x": x, "d": 1})
    values = iter([v for v in range(-25, 26) if v] * 10)
    change(next(values))
    bare, app = interleave(lambda: bare_timer.blocked_autorange(min_run_time=0.05).median,
                           lambda: change(next(values)), max(pairs, OP_PAIRS))
    edited = ast.parse(document.recipe.steps[document.recipe.index_of("y")].text, mode="eval")
    keywords = {k.arg for k in edited.body.keywords} if isinstance(edited.body, ast.Call) else ()
    if len(document.recipe.steps) != steps_before or "diagonal" not in keywords:
        raise RuntimeError("the Ops panel did not edit tril's diagonal in place")
    if not isinstance(document.run.results[-1].value, KernelValue):
        raise RuntimeError("the recipe did not run in the kernel")
    window.hide()  # not close(): that asks whether to save the changed recipe
    if window.kernel_hook is not None:
        window.kernel_hook.close()
    window.deleteLater()
    p95 = percentile(app, 95)
    return [figure(name, f"{ms(statistics.median(bare))} torch.tril",
                   f"{ms(p95)} p95 ({ms(statistics.median(app))} median)", p95 * 1e3, " ms",
                   f"<= {bound_ms:.4g}", f"tril's diagonal on 1000x1000 changed in the Ops "
                   f"panel, until the last view repainted, the kernel running it; "
                   f"{len(app)} edits{note}")]


# -- start-up --------------------------------------------------------------------------------
_SINCE_START = ("import os\n"
                "def since_start():\n"
                "    with open('/proc/self/stat') as f:\n"
                "        ticks = int(f.read().rsplit(')', 1)[1].split()[19])\n"
                "    with open('/proc/uptime') as f:\n"
                "        return float(f.read().split()[0]) - ticks / os.sysconf('SC_CLK_TCK')\n")


def bench_startup(pairs: int) -> list[Figure]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TENSOR_LAB_STARTUP_TIMING": "exit",
           "XDG_CONFIG_HOME": "/tmp/tensor-lab-bench-config"}
    # Let the warm-up run write the project's .pyc files, as any user's first start does;
    # an environment that forbids it would have every start compile the app from source.
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def said(args: list[str], marker: str, mode: str = "exit") -> str:
        # The child's own report (widgets.startup_report): the rest of its marker's line.
        out = subprocess.run(args, env={**env, "TENSOR_LAB_STARTUP_TIMING": mode}, cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
        for line in out.stdout.splitlines():
            if line.startswith(marker):
                return line.removeprefix(marker)
        raise RuntimeError(f"{args} printed no {marker!r}: {out.stdout}{out.stderr}")

    def timed(args: list[str], marker: str) -> float:
        return float(said(args, marker).split()[-2])

    app_args = [sys.executable, "-m", "widgets"]
    modules = said(app_args, "modules:", "modules").split()  # also warms the file cache
    if any(m.split(".")[0] == "torch" for m in modules):
        raise RuntimeError("the window imported torch before its first paint")
    bare_args = [sys.executable, "-c", _SINCE_START + "import importlib\n"
                 f"for name in {modules!r}:\n"
                 "    try:\n        importlib.import_module(name)\n"
                 "    except Exception:\n        pass\n"
                 "print(f'imported after {since_start():.3f} s', flush=True)\nos._exit(0)"]
    timed(bare_args, "imported after")  # warm the file cache
    bare, app = interleave(lambda: timed(bare_args, "imported after"),
                           lambda: timed(app_args, "first paint after"),
                           max(pairs, STARTUP_PAIRS))
    ratios = [a / b for a, b in zip(app, bare, strict=True)]
    top = sorted({m.split(".")[0] for m in modules})
    return [figure("start-up", f"{statistics.median(bare):.2f} s imports",
                   f"{statistics.median(app):.2f} s first paint", statistics.median(ratios), "",
                   "<= 1.15", f"process start to first paint, offscreen, against importing "
                             f"what the window has by then ({', '.join(top)}); "
                             f"{len(ratios)} pairs (ratios {min(ratios):.2f} to "
                             f"{max(ratios):.2f}; imports {min(bare):.2f} to {max(bare):.2f} "
                             f"s, first paint {min(app):.2f} to {max(app):.2f} s)"),
            window_memory(said, app_args, pairs)]


def window_memory(said: Callable[..., str], app_args: list[str], pairs: int) -> Figure:
    """The window's peak RSS, in MiB, once its kernel has started, on a held recipe."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as folder:  # from elsewhere: held, not run
        held = shutil.copy(ROOT / "recipes" / "welcome.py", Path(folder) / "welcome.py")
        peaks = [float(said(app_args + [held], "window peak RSS", "memory").split()[0])
                 for _ in range(max(pairs, 5))]
    return figure("window memory", "-", f"{statistics.median(peaks):.0f} MiB",
                  statistics.median(peaks), " MiB", "<= 200",
                  f"the window process's peak RSS once its kernel has started, before any "
                  f"recipe runs (the welcome recipe from elsewhere, held); {len(peaks)} "
                  f"starts ({min(peaks):.0f} to {max(peaks):.0f} MiB)")


def _bench_recipe(pairs: int) -> list[Figure]:
    from tools.bench_kernel import bench_recipe_loop

    return bench_recipe_loop(pairs, figure, interleave)


def _bench_scalar(pairs: int) -> list[Figure]:
    from tools.bench_kernel import bench_scalar_loop

    return bench_scalar_loop(pairs, figure, interleave)


def _bench_long(pairs: int) -> list[Figure]:
    from tools.bench_window_kernel import bench_long_evaluation

    return bench_long_evaluation(pairs, figure, percentile, qapp)


def _bench_model(pairs: int) -> list[Figure]:
    from tools.bench_model import bench_model_view

    return bench_model_view(pairs, figure, interleave, qapp, settle)


def _bench_ssh(pairs: int, steps: int) -> list[Figure]:
    from tools.bench_ssh import bench_ssh

    return bench_ssh(pairs, steps, bench_op, bench_training)


def _bench_lenet(pairs: int) -> list[Figure]:
    from tools.bench_lenet import bench_lenet

    return bench_lenet(pairs, figure, percentile, interleave, qapp)


def _bench_scale(pairs: int) -> list[Figure]:
    from tools.bench_scale import bench_scale

    return bench_scale(pairs, figure, percentile, qapp)


def present_devices() -> list[str]:
    """The ids of the devices present (``cpu``, ``cuda:0``, ...), ``cuda`` meaning cuda:0."""
    from kernel.machine import probe_devices

    ids = [d["id"] for d in probe_devices()]
    return ids + (["cuda"] if "cuda:0" in ids else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=5, help="pairs per figure (at least 5)")
    parser.add_argument("--only", default=",".join(NAMES), help="figures to run")
    parser.add_argument("--steps", type=int, default=2000,
                        help="steps of the training recipe's loop")
    parser.add_argument("--json", default=str(ROOT / "bench.json"), help="where to write")
    parser.add_argument("--device", default="cpu",
                        help="where the training recipe trains, on both sides (its device "
                             "line: cpu, cuda:0...)")
    args = parser.parse_args(argv)
    present = present_devices()
    if args.device not in present:
        # The training program would fall back to the CPU: numbers under the wrong name.
        parser.error(f"device {args.device!r} is not present here; present: "
                     f"{', '.join(present)}")
    # Keep the user's settings out: the window reads and writes QSettings.
    os.environ["XDG_CONFIG_HOME"] = "/tmp/tensor-lab-bench-config"
    pairs = max(5, args.pairs)
    chosen = [n.strip() for n in args.only.split(",") if n.strip()]
    figures: list[Figure] = []
    started = time.perf_counter()
    runs = {"training": lambda: bench_training(pairs, args.steps, args.device),
            "plot": lambda: bench_plot(pairs), "viewer": lambda: bench_viewer(pairs),
            "op": lambda: bench_op(pairs), "startup": lambda: bench_startup(pairs),
            "recipe": lambda: _bench_recipe(pairs), "scalar": lambda: _bench_scalar(pairs),
            "long": lambda: _bench_long(pairs), "scale": lambda: _bench_scale(pairs),
            "model": lambda: _bench_model(pairs), "lenet": lambda: _bench_lenet(pairs),
            "ssh": lambda: _bench_ssh(pairs, args.steps)}
    for name in chosen:
        if name not in runs:
            parser.error(f"unknown figure {name!r}; choose from {', '.join(NAMES)}")
    for name in chosen:
        t = time.perf_counter()
        try:
            figures += runs[name]()
        except Exception as e:  # noqa: BLE001 - one broken figure must not lose the rest
            message = str(e).strip().splitlines()[-1:] or [type(e).__name__]
            figures.append(Figure(name, "-", "-", float("nan"), "", "-", False,
                                  f"could not be measured: {message[0][:200]}"))
        print(f"[{name}: {time.perf_counter() - t:.0f} s]", file=sys.stderr, flush=True)
    import torch

    print(format_table(figures))
    report = {"figures": [asdict(f) for f in figures],
              "passed": all(f.passed for f in figures), "pairs": pairs,
              "device": args.device, "torch": torch.__version__, "cores": os.cpu_count(),
              "seconds": round(time.perf_counter() - started, 1)}
    Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
