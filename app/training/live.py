"""The training loops of a document's runs, as the kernel reports them while they train.

Each top-level statement whose run called ``backward()`` is a ``Loop``: its steps' loss
and learning rate, and each layer's output std and gradient norm at the steps the
kernel sampled, kept in bounded ``History`` series the plots draw directly. A loop
remembers the recipe text that made it, for the run comparison.

``LiveTraining`` holds them: a statement that runs again starts its loop afresh, and a
statement an edit did not run again (a resumed run) keeps its loop. Every loop that
trained is also kept for the run comparison (``kept``, the last ``KEEP``), numbered in
the order they started. Qt-free.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.training.history import History
from protocol.limits import LAYER_PERCENTILES

#: Loops kept for the run comparison (older ones are let go).
KEEP = 12


@dataclass
class LoopInfo:
    """What the plots need to know of a loop (``widgets.training.plots.LivePlots``)."""

    layer_names: list[str] = field(default_factory=list)
    steps: int | None = None  # the x axis's end, when known
    extent: tuple[float, float, float, float] | None = None  # a decision boundary's
    points: Any = None
    labels: Any = None
    validation: bool = False  # a validation loss curve
    histogram_layer: str | None = None  # the layer whose values the kernel samples


class Loop:
    """One statement's training loop in one run."""

    def __init__(self, run_id: int, index: int, line: int, source: str) -> None:
        self.run_id, self.index, self.line, self.source = run_id, index, line, source
        self.history: History | None = None
        self.info = LoopInfo()
        self._paused = ""
        self._paused_since: float | None = None
        self._paused_for = 0.0
        self.finished = False
        self.number = 0  # "Run 3" in the comparison, once kept
        self.steps = 0  # backward() calls reported

    @property
    def paused(self) -> str:
        """Why the loop waits now ("pause", "nan"); "" while it runs."""
        return self._paused

    @paused.setter
    def paused(self, why: str) -> None:
        now = time.monotonic()
        if why and self._paused_since is None:
            self._paused_since = now
        elif not why and self._paused_since is not None:
            self._paused_for += now - self._paused_since
            self._paused_since = None
        self._paused = why

    def paused_time(self, now: float | None = None) -> float:
        """Seconds the loop has waited paused so far (``time.monotonic`` clock), the
        pause under way included."""
        now = time.monotonic() if now is None else now
        since = self._paused_since
        return self._paused_for + (now - since if since is not None else 0.0)

    def add(self, message: Any) -> None:
        """A ``messages.Training`` batch."""
        if self.history is None and message.layers:
            self.info.layer_names = list(message.layers)
        if self.history is None and (message.layers or len(message.steps)):
            self.history = History(len(self.info.layer_names) or 1)
        self.paused = message.paused
        if len(message.steps):
            steps = np.asarray(message.steps, dtype=np.int64) + 1  # 1-based, as printed
            self.history.loss.extend(steps, _floats(message.loss))
            self.history.lr.extend(steps, _floats(message.lr))
            self.history.step = int(steps[-1])
            self.steps = int(steps[-1])
        if getattr(message, "boundary", None):
            self._add_boundary(message.boundary)
        sample = getattr(message, "histogram", None)
        if sample and self.history is not None:
            self.history.weights = np.asarray(sample["weights"], dtype=np.float64)
            self.history.grads = np.asarray(sample["grads"], dtype=np.float64)
            self.history.sample_step = int(sample["step"]) + 1
            self.history.sample_layer = sample["layer"]
            self.info.histogram_layer = sample["layer"]
        if message.layer_steps and self.info.layer_names:
            steps = np.asarray(message.layer_steps, dtype=np.int64) + 1
            for key, series in (("std", self.history.output_std),
                                ("grad_norm", self.history.grad_norm)):
                columns = [_floats(message.layers.get(path, {}).get(key) or
                                   [None] * len(steps)) for path in self.info.layer_names]
                series.extend(steps, np.stack(columns, axis=1))
            for key, series in (("weight_q", self.history.weight_q),
                                ("grad_q", self.history.grad_q)):
                columns = [_bands(message.layers.get(path, {}).get(key), len(steps))
                           for path in self.info.layer_names]
                series.extend(steps, np.stack(columns, axis=1))

    def _add_boundary(self, boundary: dict) -> None:
        """A 2-D classifier's predictions over its grid (and, the first time, its points)."""
        self.history.boundary = np.asarray(boundary["grid"], dtype=np.float32)
        self.info.extent = tuple(boundary["extent"])
        if "points" in boundary:
            self.info.points = np.asarray(boundary["points"], dtype=np.float32).reshape(-1, 2)
            self.info.labels = np.asarray(boundary["labels"], dtype=np.int64)

    @property
    def last_loss(self) -> float | None:
        value = self.history.loss.last() if self.history is not None else None
        return None if value is None or not np.isfinite(value) else float(value)

    @property
    def last_lr(self) -> float | None:
        value = self.history.lr.last() if self.history is not None else None
        return None if value is None or not np.isfinite(value) else float(value)


def metrics_columns(loop: Loop) -> dict[str, list]:
    """A loop's numbers as CSV columns, one row per step that has any ("" where none):
    ``step``, ``loss``, ``learning_rate``, then ``output_std <layer>`` and ``grad_norm
    <layer>`` at the steps whose layers were sampled."""
    history = loop.history
    if history is None:
        return {"step": []}
    steps = np.union1d(history.loss.steps, history.output_std.steps)
    columns: dict[str, list] = {"step": steps.tolist()}

    def place(at: np.ndarray, values: np.ndarray) -> list:
        column = np.full(len(steps), "", dtype=object)
        column[np.searchsorted(steps, at)] = [v if np.isfinite(v) else "" for v in
                                             values.tolist()]
        return column.tolist()

    columns["loss"] = place(history.loss.steps, history.loss.values)
    columns["learning_rate"] = place(history.lr.steps, history.lr.values)
    for prefix, series in (("output_std", history.output_std),
                           ("grad_norm", history.grad_norm)):
        for i, layer in enumerate(loop.info.layer_names):
            columns[f"{prefix} {layer}"] = place(series.steps, series.values[:, i])
    return columns


def _floats(values: list | np.ndarray) -> np.ndarray:
    """As float64, NaN for none (a kernel's batch is an array already)."""
    if isinstance(values, np.ndarray):
        return values.astype(np.float64, copy=False)
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def _bands(rows: list | None, n: int) -> np.ndarray:
    """A layer's percentiles at ``n`` steps, shape (n, len(LAYER_PERCENTILES)): NaN where
    the kernel sent none (a step of another layer, a weight without a gradient)."""
    out = np.full((n, len(LAYER_PERCENTILES)), np.nan)
    for i, row in enumerate(rows or ()):
        if row is not None and len(row) == len(LAYER_PERCENTILES) and i < n:
            out[i] = [np.nan if v is None else v for v in row]
    return out


class LiveTraining:
    """Every loop of the document's runs, by statement; ``version`` grows with each change."""

    def __init__(self) -> None:
        self.loops: dict[int, Loop] = {}
        self.kept: list[Loop] = []
        self.version = 0
        self._numbers = 0

    def statement_started(self, run_id: int, index: int) -> bool:
        """Statement ``index`` runs in ``run_id``: the loops from it on, of older runs,
        are over. True when one was dropped."""
        old = [i for i, loop in self.loops.items() if i >= index and loop.run_id != run_id]
        for i in old:
            del self.loops[i]
        self.version += bool(old)
        return bool(old)

    def add(self, run_id: int, source: str, message: Any) -> None:
        loop = self.loops.get(message.index)
        if loop is None or loop.run_id != run_id:
            loop = self.loops[message.index] = Loop(run_id, message.index, message.line, source)
            self._numbers += 1
            loop.number = self._numbers
            self.kept = [*self.kept, loop][-KEEP:]
        loop.add(message)
        self.version += 1

    def run_ended(self, run_id: int) -> None:
        for loop in self.loops.values():
            if loop.run_id == run_id:
                loop.paused, loop.finished = "", True
        self.version += 1

    def paused_time(self, run_id: int) -> float:
        """Seconds the loops of run ``run_id`` have waited paused: its clock stands still
        meanwhile (the status bar's time)."""
        now = time.monotonic()
        return sum(loop.paused_time(now) for loop in self.loops.values()
                   if loop.run_id == run_id)

    @property
    def current(self) -> Loop | None:
        """The loop to show: the last statement's that trained."""
        return self.loops[max(self.loops)] if self.loops else None

    def forget(self, loop: Loop) -> None:
        """Take ``loop`` out of the comparison."""
        self.kept = [k for k in self.kept if k is not loop]
        self.version += 1

    def clear(self) -> None:
        """Forget every loop, the kept ones too (another recipe: nothing of this one's
        training is its)."""
        self.loops.clear()
        self.kept = []
        self.version += 1
