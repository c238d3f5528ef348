"""``TrainingRun``: a training loop in its own process, steered from the GUI thread.

The loop runs in a process started with the ``spawn`` method (the only one CUDA
supports), so that neither the GIL nor the window's redraws slow it down. One duplex pipe
carries small commands in and metric chunks out; the GUI polls it (from a ``QTimer`` at
display rate) and never blocks on it. The child checks for commands between chunks of
about 30 ms, so pause and stop take effect within one chunk.

The child can never outlive the window: it is a daemon process, ``close()`` joins it and
terminates it after a timeout, a finalizer does the same when the run is garbage
collected, and the child exits by itself when its pipe breaks.

A panel uses it like this::

    run = TrainingRun(settings)      # nothing starts yet
    run.start()                      # the process starts and trains
    ...                              # every frame (QTimer, ~30 Hz):
    for event in run.poll():         #   events since the last frame; history updated
        if event.kind == "diverged":
            show(event.message)
    curve.setData(run.history.loss.steps, run.history.loss.values)
    ...
    run.close()                      # on reset or when the window closes

A script that starts runs needs the usual ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
import traceback
import weakref
from dataclasses import dataclass
from typing import Any

import torch

from app.training.history import HISTORY_POINTS, History
from app.training.loop import TrainingLoop
from app.training.settings import TrainingSettings

#: Kinds of ``Event``, in the order a run usually reports them.
EVENT_KINDS = ("started", "warning", "running", "chunk", "paused", "diverged", "finished",
               "checkpoint_saved", "checkpoint_loaded", "stopped", "error")


@dataclass(frozen=True)
class Event:
    """Something the training process reported.

    Parameters
    ----------
    kind : str
        One of ``EVENT_KINDS``.
    step : int
        The last step trained when it happened.
    message : str
        Words for the user (the warning, the error, why the run paused).
    data : Any
        ``RunInfo`` for ``started``, ``MetricsChunk`` for ``chunk``, the path for the
        checkpoint events.
    """

    kind: str
    step: int
    message: str = ""
    data: Any = None


class TrainingRun:
    """One training run in a spawned process.

    Parameters
    ----------
    settings : TrainingSettings
        The setup to train.
    stats_every : int or None
        Layer statistics every this many steps (and at step 1); by default as often as
        their cost allows (see ``loop.TrainingLoop``).
    chunk_seconds : float
        How long the child trains between reports and command checks.
    threads : int or None
        torch's intra-op threads in the child; by default half the cores, at least one,
        so the window keeps a core of its own.
    history_capacity : int
        Points kept per metric before the history thins itself out.

    Attributes
    ----------
    state : str
        ``new``, ``starting``, ``running``, ``paused``, ``finished``, ``stopped`` or
        ``error``; updated by ``poll()``.
    step : int
        The last step reported.
    info : RunInfo or None
        Layer names, model summary, device and data points, once started.
    history : History
        Every metric so far (numpy arrays), updated by ``poll()``.
    """

    def __init__(self, settings: TrainingSettings, *, stats_every: int | None = None,
                 chunk_seconds: float = 0.03, threads: int | None = None,
                 history_capacity: int = HISTORY_POINTS, start_method: str | None = None):
        self.settings = settings
        self.state = "new"
        self.step = 0
        self.info: Any = None
        self.history = History(settings.model.layers + 1, history_capacity)
        self._options = {"stats_every": stats_every, "chunk_seconds": chunk_seconds,
                         "threads": threads or default_threads()}
        self._start_method = start_method or default_start_method()
        self._conn: Any = None
        self._process: Any = None
        self._finalizer: Any = None

    # -- commands ------------------------------------------------------------------------------
    def start(self) -> None:
        """Start training (starting the process first when needed)."""
        self._send("run")

    def resume(self) -> None:
        self._send("run")

    def pause(self) -> None:
        if self._process is not None:
            self._send("pause")

    def step_once(self) -> None:
        """Train exactly one step, then stay paused."""
        self._send("step")

    def stop(self) -> None:
        """End the run; the process exits after reporting ``stopped``."""
        if self._process is not None and self.state not in ("stopped", "error"):
            self._send("stop")

    def set_lr(self, lr: float) -> None:
        """The base learning rate from the next step on."""
        self._send("set_lr", float(lr))

    def set_clip(self, mode: str, value: float) -> None:
        """Gradient clipping (``none``, ``value``, ``norm``) from the next step on."""
        self._send("set_clip", mode, float(value))

    def set_histogram_layer(self, index: int | None) -> None:
        """Sample this layer's weights and gradients in every chunk (None: none)."""
        self._send("set_hist", index)

    def save_checkpoint(self, path: str | os.PathLike[str]) -> None:
        self._send("save", os.fspath(path))

    def load_checkpoint(self, path: str | os.PathLike[str]) -> None:
        """Load a checkpoint of a run with the same settings; the run stays paused."""
        self._send("load", os.fspath(path))

    # -- reports -------------------------------------------------------------------------------
    def poll(self) -> list[Event]:
        """Every event reported since the last poll; never blocks."""
        events: list[Event] = []
        conn = self._conn
        if conn is not None:
            try:
                while conn.poll():
                    events.append(self._apply(conn.recv()))
            except (EOFError, OSError):  # the child closed its end: it is exiting
                if self.state not in ("stopped", "error"):
                    events.append(self._apply(Event(
                        "error", self.step, "the training process ended unexpectedly")))
                conn.close()
                self._conn = None
        if self._conn is None and self._process is not None:
            self._process.join(0)  # reap it without waiting
            if not self._process.is_alive():
                self._release()
        return events

    def wait(self, kinds: tuple[str, ...] | str, timeout: float = 10.0) -> list[Event]:
        """Poll until an event of one of ``kinds`` arrives (or ``timeout`` seconds pass).

        Returns every event polled meanwhile; for scripts and tests, not for the GUI.
        """
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        deadline = time.monotonic() + timeout
        seen: list[Event] = []
        while True:
            seen += self.poll()
            if any(e.kind in kinds for e in seen) or time.monotonic() > deadline:
                return seen
            if self._conn is None:
                return seen
            self._conn.poll(min(0.05, max(0.0, deadline - time.monotonic())))

    @property
    def alive(self) -> bool:
        """Whether the training process is running."""
        return self._process is not None and self._process.is_alive()

    def close(self, timeout: float = 1.0) -> None:
        """Stop the process and wait for it, terminating it after ``timeout`` seconds."""
        if self._process is not None:
            try:
                if self._conn is not None:
                    self._conn.send(("stop",))
            except (OSError, ValueError):
                pass
            _shutdown(self._process, self._conn, timeout)
            self._release()
        if self.state not in ("stopped", "error", "new"):
            self.state = "stopped"

    def __enter__(self) -> TrainingRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------------------
    def _send(self, *command: Any) -> None:
        if self.state in ("stopped", "error"):
            raise RuntimeError(f"the run has {self.state}; start a new TrainingRun")
        if self._process is None:
            self._launch()
        if self._conn is not None:
            self._conn.send(command)

    def _launch(self) -> None:
        context = multiprocessing.get_context(self._start_method)
        if self._start_method == "forkserver":
            context.set_forkserver_preload(PRELOAD)
        parent, child = context.Pipe(duplex=True)
        self._process = context.Process(
            target=child_main, args=(child, self.settings.to_literal(), self._options),
            name="tensor-lab-training", daemon=True)
        self._process.start()
        child.close()  # so that the child's end breaks when the child dies
        self._conn = parent
        self.state = "starting"
        self._finalizer = weakref.finalize(self, _shutdown, self._process, parent, 0.5)

    def _release(self) -> None:
        if self._finalizer is not None:
            self._finalizer.detach()
        if self._conn is not None:
            self._conn.close()
        self._conn = self._process = self._finalizer = None

    def _apply(self, event: Event) -> Event:
        self.step = event.step
        if event.kind == "chunk":
            self.history.add(event.data)
        elif event.kind == "started":
            self.info = event.data
        elif event.kind == "checkpoint_loaded":
            self.history.truncate(event.step)
        state = {"running": "running", "paused": "paused", "diverged": "paused",
                 "finished": "finished", "stopped": "stopped", "error": "error",
                 "started": "paused"}.get(event.kind)
        if state:
            self.state = state
        return event


#: What the fork server imports once, so that each run starts without importing torch.
PRELOAD = ["torch", "torch._dynamo", "app.training.worker"]


def default_threads() -> int:
    """Half the cores, at least one: the other half stays with the window.

    On a busy machine a second intra-op thread can make small models ten times slower
    (its threads wait for each other); results are the same either way.
    """
    return max(1, (os.cpu_count() or 2) // 2)


def default_start_method() -> str:
    """``forkserver`` on Linux, ``spawn`` elsewhere.

    Both are safe with CUDA (``fork`` is not). The fork server imports torch once and each
    run is then forked from it in milliseconds, where ``spawn`` imports torch (and, with
    the first optimizer, torch._dynamo) every time: seconds. macOS keeps ``spawn``: forking
    after its system frameworks have started is not safe there.
    """
    return "forkserver" if sys.platform.startswith("linux") else "spawn"


def warm_up() -> None:
    """Start the fork server now, in the background, so that the first run starts quickly.

    Call it once when the training panel opens; it returns at once. Without a fork server
    (``spawn``), there is nothing to warm up.
    """
    if default_start_method() == "forkserver":
        from multiprocessing import forkserver

        multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD)
        forkserver.ensure_running()


def _shutdown(process: Any, conn: Any, timeout: float) -> None:
    """Close the pipe (the child leaves when it notices), wait, then terminate, then kill."""
    if conn is not None:
        conn.close()
    process.join(timeout)
    if process.is_alive():
        process.terminate()
        process.join(1.0)
    if process.is_alive():
        process.kill()
        process.join()


# -- the child process ---------------------------------------------------------------------------
def child_main(conn: Any, literal: dict[str, Any], options: dict[str, Any]) -> None:
    """The training process: set up, then obey commands and send events until ``stop``."""
    try:
        _Child(conn, literal, options).serve()
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the window went away: nothing to report to
    finally:
        conn.close()
    # Leave at once: tearing down an interpreter with torch loaded takes a second or more,
    # and there is nothing left to clean up.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


class _Child:
    def __init__(self, conn: Any, literal: dict[str, Any], options: dict[str, Any]):
        self.conn, self.literal, self.options = conn, literal, options
        self.loop: Any = None
        self.running = False
        self.single = False
        self.failed = False  # an error ends the process

    def send(self, kind: str, message: str = "", data: Any = None) -> None:
        step = self.loop.step if self.loop is not None else 0
        self.conn.send(Event(kind, step, message, data))

    def serve(self) -> None:
        torch.set_num_threads(self.options["threads"])
        try:
            self.loop = TrainingLoop(TrainingSettings.from_literal(self.literal),
                                     stats_every=self.options["stats_every"])
        except Exception as e:  # noqa: BLE001 - every setup failure is the user's to see
            self.send("error", _message(e))
            return
        self.send("started", data=self.loop.info())
        for warning in self.loop.warnings:
            self.send("warning", warning)
        while not self.failed:
            busy = self.running or self.single
            if self.conn.poll(0 if busy else None):
                if not self.command(self.conn.recv()):
                    return
                continue
            if busy:
                self.train()

    def command(self, command: tuple[Any, ...]) -> bool:
        """Obey one command; False for ``stop``."""
        name, args = command[0], command[1:]
        loop = self.loop
        try:
            if name == "stop":
                self.send("stopped")
                return False
            if name == "run" and loop.done:
                self.send("finished")
            elif name == "run":
                self.running = True
                self.send("running")
            elif name == "pause":
                self.running = self.single = False
                self.send("paused")
            elif name == "step" and not loop.done:
                self.running, self.single = False, True
            elif name == "set_lr":
                loop.set_lr(*args)
            elif name == "set_clip":
                loop.set_clip(*args)
            elif name == "set_hist":
                loop.hist_layer = args[0]
            elif name == "save":
                loop.save(args[0])
                self.send("checkpoint_saved", data=args[0])
            elif name == "load":
                loop.load(args[0])
                self.running = self.single = False
                self.send("checkpoint_loaded", data=args[0])
        except Exception as e:  # noqa: BLE001 - a bad path or checkpoint is reported
            self.send("warning", f"{name}: {_message(e)}")
        return True

    def train(self) -> None:
        loop = self.loop
        try:
            chunk = loop.advance(max_steps=1 if self.single else 1_000_000,
                                 max_seconds=self.options["chunk_seconds"])
        except Exception as e:  # noqa: BLE001 - torch's message, shown in the window
            self.failed = True
            self.send("error", _message(e))
            return
        self.send("chunk", data=chunk)
        if chunk.diverged_at is not None:
            self.running = self.single = False
            value = chunk.loss[chunk.diverged_at - chunk.steps[0]]
            self.send("diverged", f"the loss became {value} at step {chunk.diverged_at}: "
                                  "training paused (lower the learning rate, or clip)")
        elif loop.done:
            self.running = self.single = False
            self.send("finished")
        elif self.single:
            self.single = False
            self.send("paused")


def _message(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    if not isinstance(e, (ValueError, RuntimeError, OSError)):
        text += "\n" + "".join(traceback.format_exception(e)[-3:])
    return text
