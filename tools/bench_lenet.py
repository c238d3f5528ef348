"""The training figures on the LeNet lesson, with the model views open, for
``tools/bench.py`` (``--only lenet``).

The lesson ``recipes/training_lenet.py`` as it is, but for its length (``STEPS`` steps,
not 100: a loop of a few seconds) and two lines that time its loop as the training bench's
recipe times itself (``loop seconds``, and the last ``loss``). Both sides run torch on one
thread (``OMP_NUM_THREADS=1``, which the window's kernel inherits), as the training
bench's recipe asks, so the window has a core of its own, as under python nothing else
does. A pair is ``python`` on the file, then the window's run with each set of the new
views live, in turn (their order swapped every other pair):

- ``model``: the Model tab shown on ``net = Net().to(device)``, ``conv1`` picked, its
  activations asked again while the loop trains (every 150 ms);
- ``distributions``: the Training tab shown on its Distributions page (every layer's
  percentile bands).

Figures, as the training bench's, of the worse view set:

- ``LeNet lesson, model views live vs python``: python's loop time over the window's
  (target at least 0.95);
- ``window responsiveness, LeNet lesson``: the 99th percentile lateness of a 16 ms timer
  in the window meanwhile, the median of the runs' (target at most 16 ms).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from tools.bench_training import WindowRuns, _printed, _python_seconds

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "recipes" / "training_lenet.py"
#: The lesson's loop, lengthened to a few seconds.
STEPS = 500
VIEWS = ("model", "distributions")


def lenet_recipe(steps: int = STEPS) -> str:
    """The lesson's text, ``steps`` long, its loop timed by itself."""
    text = LESSON.read_text(encoding="utf-8")
    loop = "for step in range(steps):"
    if "steps = 100\n" not in text or text.count(loop) != 1:
        raise RuntimeError("the LeNet lesson no longer has the loop this bench times")
    text = text.replace("steps = 100\n", f"steps = {steps}\n", 1)
    text = text.replace(loop, "import time\n\nloop_start = time.perf_counter()\n" + loop, 1)
    return text.rstrip("\n") + (
        '\nfinal = loss.item()\n'
        'print(f"loop seconds {time.perf_counter() - loop_start:.6f}")\n'
        'print(f"loss {final:.4f}")\n')


class LeNetRuns(WindowRuns):
    """A main window on the timed lesson, its kernel warm, run again with a view set."""

    def __init__(self, path: Path, steps: int) -> None:
        super().__init__(path, steps)
        self.activation_answers: list[int] = [0]  # each run's answers (and those before)
        view = self.window.model.activations
        real = view.show_answer

        def show_answer(data: dict, _real=real) -> None:
            _real(data)
            self.activation_answers[-1] += 1
        view.show_answer = show_answer

    def _pick_conv1(self) -> None:
        """The net's step selected, the Model tab shown, conv1 picked (as a user does)."""
        from PySide6.QtWidgets import QApplication

        window, document = self.window, self.document
        steps = document.recipe.steps
        index = next(i for i, s in enumerate(steps)
                     if document.step_text(i, s).startswith("net = Net()"))
        document.select(index)
        window.views.setCurrentWidget(window.model)
        panel = window.model
        deadline = time.monotonic() + 60
        while (panel.tree is None or panel.tree_view.row_of("conv1") is None) \
                and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.002)
        row = panel.tree_view.row_of("conv1")
        if row is None:
            raise RuntimeError("the Model tab shows no conv1")
        panel.tree_view.setCurrentItem(row)

    def run_with(self, views: str) -> tuple[float, str, list[float]]:
        """Run the lesson again with ``views`` live: its loop's seconds, its loss line and
        the timer's lateness meanwhile."""
        from tools.bench import painted_until_quiet

        window, training = self.window, self.window.training
        if views == "distributions":
            window.views.setCurrentWidget(training)
            training.views.setCurrentWidget(training.distributions)
        else:
            self._pick_conv1()
        painted_until_quiet(0.05)
        self.activation_answers.append(0)
        self.document.run_again()
        if views == "model":  # the new run's tree: conv1 picked again once it shows
            self._pick_conv1()
        late = self._wait()
        loop = training.loop
        if loop is None or not loop.finished or loop.steps != self.steps:
            raise RuntimeError(f"the window saw {loop.steps if loop else 0} of "
                               f"{self.steps} steps")
        if views == "model" and self.activation_answers[-1] < 2:
            raise RuntimeError("conv1's activations did not follow the loop")
        if views == "distributions" and not training.distributions.layers:
            raise RuntimeError("the Distributions page drew no layer")
        seconds, loss = _printed(self.document.output)
        return seconds, loss, late


def bench_lenet(pairs: int, figure, percentile, interleave, qapp) -> list:
    """The two figures (see the module's docstring)."""
    threads = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = "1"  # the kernel's torch, as python's (one thread)
    try:
        return _bench_lenet(pairs, figure, percentile, interleave, qapp)
    finally:  # (the figures after this one start kernels of their own)
        if threads is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = threads


def _bench_lenet(pairs: int, figure, percentile, interleave, qapp) -> list:
    qapp()
    with tempfile.TemporaryDirectory(prefix="tensor-lab-bench-lenet-") as folder:
        path = Path(folder) / "training_lenet.py"
        path.write_text(lenet_recipe(), encoding="utf-8")
        _, want = _python_seconds(path)
        runs = LeNetRuns(path, STEPS)
        losses = {want}
        times: dict[str, list[float]] = {v: [] for v in VIEWS}
        lateness: dict[str, list[float]] = {v: [] for v in VIEWS}

        def python() -> float:
            seconds, loss = _python_seconds(path)
            losses.add(loss)
            return seconds

        def lab() -> float:
            order = VIEWS if len(times["model"]) % 2 == 0 else VIEWS[::-1]
            for views in order:
                seconds, loss, late = runs.run_with(views)
                losses.add(loss)
                times[views].append(seconds)
                lateness[views].append(percentile(late, 99))
            return max(times[v][-1] for v in VIEWS)

        try:
            for views in VIEWS:  # every path warm
                runs.run_with(views)
            bare, _ = interleave(python, lab, pairs)
        finally:
            runs.close()
    if losses != {want}:
        raise RuntimeError(f"the runs printed different losses: {sorted(losses)}")
    ratios = {v: statistics.median(b / a for a, b in zip(times[v], bare, strict=True))
              for v in VIEWS}
    p99 = {v: statistics.median(lateness[v]) for v in VIEWS}
    worst, laggard = min(VIEWS, key=ratios.get), max(VIEWS, key=p99.get)
    setup = (f"the LeNet lesson, {STEPS} steps of batch 32 on cpu, one torch thread, timed "
             f"by the recipe itself; {len(bare)} pairs")
    each = lambda values, fmt: ", ".join(f"{v} {fmt(values[v])}" for v in VIEWS)  # noqa: E731
    return [
        figure("LeNet lesson, model views live vs python",
               f"{statistics.median(bare):.2f} s python",
               f"{statistics.median(times[worst]):.2f} s {worst} live", ratios[worst], "",
               ">= 0.95",
               f"{setup}; python's loop time over the window's with the model views live, "
               f"the worse view set's (medians: {each(ratios, '{:.3f}'.format)})"),
        figure("window responsiveness, LeNet lesson", "-",
               f"{p99[laggard]:.1f} ms {laggard} live", p99[laggard], " ms", "<= 16",
               f"p99 lateness of a 16 ms QTimer in the window while the lesson trains, "
               f"median of the runs' p99s, the worse view set's (medians: "
               f"{each(p99, '{:.1f} ms'.format)})"),
    ]
