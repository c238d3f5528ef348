"""What the window sees of a training loop while it runs, and how it steers it.

``Controls`` is the window's hand on the loop: pause, a single step, a live learning
rate and the NaN pause. The kernel's reader thread sets it (``messages.TrainingControl``);
the recipe's thread obeys it at the next ``backward()``, in ``TrainingWatch``. Waiting
there is a Python loop, so Stop (``KeyboardInterrupt``) ends a paused run at once.

``LiveFeed`` gathers the steps since it last sent, and sends them as one
``messages.Training`` message at most ``SEND_GAP_S`` apart: the window gets a batch per
frame, whatever the loop's speed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The least time between two batches sent to the window, in seconds: 20 a second, the
#: rate of a smooth animation. Each costs a fast loop about 0.4 ms (a third of it after
#: the send, in caches the send left cold): at 30 a second, 1.2% of its time.
SEND_GAP_S = 1 / 20
#: How often a paused loop looks for a Stop or a resume, in seconds.
_WAIT_S = 0.05
#: What a sampled step says of each layer, in the order the watch takes them: its
#: output's std, its gradients' norm, and its weights' and gradients' percentiles
#: (``kernel.watch_quantiles``).
LAYER_KEYS = ("std", "grad_norm", "weight_q", "grad_q")


class Controls:
    """The window's requests, shared between the reader thread and the recipe's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Event()
        self.paused = False
        self.steps_left: int | None = None  # a single step: backward() calls before pausing
        self.lr: float | None = None
        self.nan_pause = True
        self.histogram: str | None = None  # the layer the window's histograms show
        #: Called (on the reader thread) after each change: the watch's lean path ends.
        self.on_change: Callable[[], None] | None = None

    def apply(self, message: Any) -> None:
        """A ``messages.TrainingControl`` from the window (the reader thread)."""
        with self._lock:
            if message.pause is not None:
                self.paused, self.steps_left = bool(message.pause), None
            if message.step:
                self.paused, self.steps_left = False, 1
            if message.lr is not None:
                self.lr = float(message.lr) if message.lr > 0 else None
            if message.nan_pause is not None:
                self.nan_pause = bool(message.nan_pause)
            if getattr(message, "histogram", None) is not None:
                self.histogram = str(message.histogram)
        self._changed.set()
        if self.on_change is not None:
            self.on_change()

    def new_run(self) -> None:
        """A new run starts running: no pause, no step, its own learning rate."""
        with self._lock:
            self.paused, self.steps_left, self.lr = False, None, None

    def should_pause(self) -> bool:
        with self._lock:
            return self.paused or self.steps_left == 0

    def wait(self) -> None:
        """Wait while paused (a Python loop: an interrupt ends it); then take the step."""
        while self.should_pause():
            self._changed.wait(_WAIT_S)
            self._changed.clear()
        with self._lock:
            if self.steps_left:
                self.steps_left -= 1

    def pause(self) -> None:
        with self._lock:
            self.paused, self.steps_left = True, None


class LiveFeed:
    """The steps not sent yet, for one statement at a time."""

    def __init__(self, send: Callable[[Any], None]) -> None:
        self._send = send
        self._last = -SEND_GAP_S
        self._clear(None)

    def _clear(self, statement: tuple[int, int] | None) -> None:
        self.statement = statement
        self.steps: list[int] = []
        self.loss: list[float | None] = []
        self.lr: list[float | None] = []
        self.layer_steps: list[int] = []
        self.layers: dict[str, dict[str, list[float | None]]] = {}
        self.boundary: dict | None = None  # a 2-D classifier's (``watch_boundary``)
        self.histogram: dict | None = None  # a layer's values (``watch_histogram``)

    def at(self, statement: tuple[int, int]) -> None:
        """The steps that follow are ``statement``'s (the last one's are sent first)."""
        if statement != self.statement:
            self.send()
            self._clear(statement)

    def add(self, statement: tuple[int, int], step: int, loss: float | None,
            layers: dict[str, tuple] | None) -> None:
        self.at(statement)
        self.steps.append(step)
        self.loss.append(loss)
        self.lr.append(None)
        if layers:
            kept = len(self.layer_steps)
            self.layer_steps.append(step)
            for path in layers:
                if path not in self.layers:
                    self.layers[path] = {key: [None] * kept for key in LAYER_KEYS}
            for path, series in self.layers.items():
                taken = layers.get(path, ())
                for i, key in enumerate(LAYER_KEYS):
                    series[key].append(taken[i] if i < len(taken) else None)

    def stepped(self, lr: Any) -> None:
        """The last step's optimizer stepped with ``lr`` (made a float when it is sent)."""
        if self.lr:
            self.lr[-1] = lr

    def due(self) -> bool:
        return bool(self.steps) and time.perf_counter() >= self.next_at

    @property
    def next_at(self) -> float:
        """When the next batch is due (``time.perf_counter``)."""
        return self._last + SEND_GAP_S

    def send(self, paused: str = "", always: bool = False) -> None:
        """Send what is waiting; ``paused`` says why the loop waits now (``pause``,
        ``nan``); ``always`` sends even no step (the loop goes on again)."""
        from protocol.messages import Training

        if self.statement is None or not (self.steps or paused or always):
            return
        import numpy as np  # torch's own numpy, loaded with it

        index, line = self.statement
        try:  # floats, or None for none: in C (a list of Python floats costs the loop)
            lr = np.array(self.lr, dtype=np.float64)
        except (TypeError, ValueError, RuntimeError):  # a tensor's rate, say
            lr = np.array([_rate(value) for value in self.lr], dtype=np.float64)
        self._send(Training(index, line, np.array(self.steps, dtype=np.int64),
                            np.array(self.loss, dtype=np.float64), lr, self.layer_steps,
                            self.layers, paused, self.boundary, self.histogram))
        self._last = time.perf_counter()
        self._clear(self.statement)


def _rate(value: Any) -> float | None:
    """An optimizer's ``lr`` as the window plots it: a float (a 0-d tensor too), else None."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError, RuntimeError):
        return None
