"""Work off the GUI thread: run a function in a ``QThread``, hand its result back.

Views use it for whole-tensor work on big tensors (statistics, a heatmap's display
image), so a selection paints at once and the numbers follow. torch and numpy release
the GIL in their kernels, so the window keeps painting while a job runs.

    job = start_job(tensor_stats, t, on_done=self._on_stats, key=generation)

``on_done(key, result)`` runs on the GUI thread, with the function's return value or,
when it raised, a :class:`JobError`. Pass a ``key`` (say, a generation counter) and
compare it in ``on_done`` to drop results that a newer request made stale. A job keeps
itself alive until it finishes, so closing a view never destroys a running thread;
:func:`wait_for_jobs` lets tests and shutdown wait for every job still running.
"""

from __future__ import annotations

import atexit
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QDeadlineTimer, QThread, Signal

#: Jobs still running; held here so that a closed view never destroys a live thread.
_LIVE: set[QThread] = set()


@dataclass(frozen=True)
class JobError:
    """What a job raised, for ``on_done`` to show (never to re-raise)."""

    type: str
    message: str


class Job(QThread):
    """Runs ``fn(*args)`` once, off the GUI thread; emits ``done(key, result)``."""

    done = Signal(object, object)

    def __init__(self, fn: Callable[..., Any], args: tuple, key: object):
        super().__init__()
        self._fn, self._args, self._key = fn, args, key

    def run(self) -> None:
        try:
            result: object = self._fn(*self._args)
        except Exception as e:  # noqa: BLE001 - handed to on_done, shown there
            result = JobError(type(e).__name__, str(e))
        self.done.emit(self._key, result)


def start_job(fn: Callable[..., Any], *args: Any, on_done: Callable[[object, object], None],
              key: object = None) -> Job:
    """Run ``fn(*args)`` in a thread; call ``on_done(key, result)`` on the GUI thread.

    When ``on_done`` is a method of a QObject (a view), PySide drops the connection once
    that object is destroyed, so a late result never reaches a closed view.
    """
    job = Job(fn, args, key)
    job.done.connect(on_done)
    job.finished.connect(functools.partial(_forget, job))
    _LIVE.add(job)
    job.start()
    return job


def running_jobs() -> int:
    return sum(job.isRunning() for job in _LIVE)


def wait_for_jobs(timeout_ms: int = 30_000) -> bool:
    """Wait until every job has finished; True if they all did in time."""
    deadline = QDeadlineTimer(timeout_ms)
    return all(job.wait(deadline) for job in list(_LIVE))


# A QThread destroyed while it runs aborts the process: let running jobs end first.
atexit.register(wait_for_jobs)


def _forget(job: QThread) -> None:
    _LIVE.discard(job)
    job.deleteLater()
