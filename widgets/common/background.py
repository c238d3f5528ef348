"""Work off the GUI thread: the one way the widgets start it, on superqt's thread workers.

Long work is a plain function, or a generator function when it has progress to report,
with no Qt in it. :func:`start_job` runs it in Qt's thread pool (a superqt
``FunctionWorker`` or ``GeneratorWorker``) and applies what comes back on the GUI
thread. torch and numpy release the GIL in their kernels, so the window keeps painting
while a job runs.

    job = start_job(tensor_stats, t, on_done=self._on_stats, key=generation)
    job = start_job(scan_folder, folder, on_done=self._on_scanned,
                    on_progress=self._on_scan_progress)

``on_done(key, result)`` runs on the GUI thread with the function's return value (a
generator's ``return`` value) or, when it raised, a :class:`JobError`. Each value a
generator yields reaches ``on_progress(key, value)`` on the GUI thread, in order. Pass a
``key`` (say, a generation counter) and compare it in ``on_done`` to drop results that a
newer request made stale; or call :meth:`Job.cancel` on the old job when starting a new
one: a cancelled job delivers nothing more, and a generator stops at its next ``yield``
(a plain function runs to its end, and its result is dropped).

When ``on_done`` (or ``on_progress``) is a method of a QObject (a view), PySide drops the
connection once that object is destroyed, so a late result never reaches a closed view.
A job keeps itself alive until its result has been handed over. :func:`wait_for_jobs` is
the one shutdown rule: it runs when the application is about to quit and at exit, and
tests call it to wait for the jobs still running.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import inspect
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QMetaMethod,
    QObject,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
)
from superqt.utils import FunctionWorker, GeneratorWorker, WorkerBase, create_worker

#: Jobs whose results are not handed over yet: a job keeps itself alive until then.
_JOBS: set[Job] = set()
#: Pool threads at least: a job that waits (a launch, a folder scan) must not hold up
#: the rest on a machine with few cores.
MIN_THREADS = 4
#: How long quitting waits for the jobs still running.
SHUTDOWN_MS = 30_000
_QUEUED = Qt.ConnectionType.QueuedConnection


@dataclass(frozen=True)
class JobError:
    """What a job raised, for ``on_done`` to show (never to re-raise)."""

    type: str
    message: str

    @classmethod
    def of(cls, error: BaseException) -> JobError:
        return cls(type(error).__name__, str(error))


class _Worker:
    """What the lab changes in superqt's workers (mixed in before them).

    - ``start`` hands the worker to the pool at once; superqt waits a timer tick when an
      event loop runs, and a job then is in no pool yet: ``wait_for_jobs`` would not see
      it, and one started just before quitting would never run. Every connection is made
      before ``start`` here, so nothing misses ``started``.
    - ``run`` leaves the warnings machinery alone: superqt's swaps the process-wide
      ``warnings.showwarning`` and filters for each run, which races with the GUI
      thread's own ``catch_warnings`` and with other jobs.
    - ``ended`` is set, in the pool thread, once the work is over.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ended = threading.Event()

    def start(self) -> None:
        if self in self._worker_set:
            raise RuntimeError("This worker is already started!")
        self._worker_set.add(self)
        self._finished.connect(self._set_discard)
        QThreadPool.globalInstance().start(self)

    def run(self) -> None:
        self._running = True
        self.started.emit()
        try:
            result = self.work()
            if not self.abort_requested:
                self.returned.emit(result)
        except Exception as e:  # noqa: BLE001 - handed to on_done as a JobError
            self.errored.emit(e)
        finally:
            self._running = False
            self.ended.set()
            self.finished.emit()
            self._finished.emit(self)


class _FunctionWorker(_Worker, FunctionWorker):
    pass


class _GeneratorWorker(_Worker, GeneratorWorker):
    def work(self) -> Any:
        result = super().work()
        if isinstance(result, RuntimeError):
            # superqt hands back a RuntimeError the generator raised (taking it for a
            # deleted worker) instead of raising it: it is the job's error.
            raise result
        return result


class Job(QObject):
    """One function or generator running off the GUI thread; see :func:`start_job`.

    Its signals are emitted on the GUI thread.
    """

    done = Signal(object, object)
    """Emitted with (key, the result or a ``JobError``); never after ``cancel``."""
    progressed = Signal(object, object)
    """Emitted with (key, a value the generator yielded); never after ``cancel``."""
    finished = Signal()
    """Emitted once the work is over, after ``done``; also when cancelled."""

    def __init__(self, fn: Callable[..., Any], args: tuple, key: object):
        super().__init__()
        self.key = key
        self._cancelled = False
        generator = inspect.isgeneratorfunction(fn)
        worker = create_worker(fn, *args, _start_thread=False, _ignore_errors=True,
                               _worker_class=_GeneratorWorker if generator else _FunctionWorker)
        # Queued: the pool thread emits, and the slots run on this object's (GUI) thread.
        worker.returned.connect(self._on_worker_returned, _QUEUED)
        worker.errored.connect(self._on_worker_errored, _QUEUED)
        worker.finished.connect(self._on_worker_finished, _QUEUED)
        if generator:
            worker.yielded.connect(self._on_worker_yielded, _QUEUED)
        self.worker: FunctionWorker | GeneratorWorker = worker
        self._ended: threading.Event = worker.ended

    @property
    def running(self) -> bool:
        """Whether the work is queued or running (its result may still be on its way)."""
        return not self._ended.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Deliver nothing more; a generator stops at its next ``yield``."""
        if self._cancelled:
            return
        self._cancelled = True
        self.worker.quit()
        for signal in (self.done, self.progressed):
            if self.isSignalConnected(QMetaMethod.fromSignal(signal)):
                signal.disconnect()

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Block until the work is over; True if it is. Its result comes by the event loop."""
        return self._ended.wait(None if timeout_ms is None else timeout_ms / 1000)

    # -- worker to job (queued onto the GUI thread) -------------------------------------------
    def _on_worker_yielded(self, value: object) -> None:
        if not self._cancelled:
            self.progressed.emit(self.key, value)

    def _on_worker_returned(self, result: object) -> None:
        if not self._cancelled:
            self.done.emit(self.key, result)

    def _on_worker_errored(self, error: BaseException) -> None:
        if not self._cancelled:
            self.done.emit(self.key, JobError.of(error))

    def _on_worker_finished(self) -> None:
        self.finished.emit()
        # Let go of the job after this slot: destroying a QObject inside its own event
        # handler is not safe.
        QTimer.singleShot(0, functools.partial(_JOBS.discard, self))


def start_job(fn: Callable[..., Any], *args: Any,
              on_done: Callable[[object, object], None] | None = None,
              key: object = None,
              on_progress: Callable[[object, object], None] | None = None) -> Job:
    """Run ``fn(*args)`` off the GUI thread; call ``on_done(key, result)`` on the GUI thread.

    ``fn`` is a plain function or a generator function (a ``functools.partial`` of one is
    fine too); each value a generator yields goes to ``on_progress(key, value)``, and its
    ``return`` value to ``on_done``. Errors come to ``on_done`` as a :class:`JobError`.
    """
    _install_shutdown()
    job = Job(fn, args, key)
    if on_done is not None:
        job.done.connect(on_done)
    if on_progress is not None:
        job.progressed.connect(on_progress)
    _JOBS.add(job)
    job.worker.start()
    return job


def running_jobs() -> int:
    """How many jobs are queued or running."""
    return sum(job.running for job in list(_JOBS))


def wait_for_jobs(timeout_ms: int = 30_000, *, cancel: bool = False) -> bool:
    """Wait until the work of every job is over; True if it all was in time.

    Results still come by the GUI thread's event loop, after this returns. With
    ``cancel``, every job is cancelled first (nothing more is delivered, generators stop
    at their next ``yield``), as when the application quits.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    if cancel:
        for job in list(_JOBS):
            job.cancel()
        # superqt's rule: ask every worker to quit, then wait for Qt's pool. It raises
        # RuntimeError when that takes too long; the pool is None once the application
        # is gone. Either way, the wait below for the lab's own jobs has the last word.
        with contextlib.suppress(RuntimeError, AttributeError):
            WorkerBase.await_workers(timeout_ms)
    return all(job.wait(max(0, round((deadline - time.monotonic()) * 1000)))
               for job in list(_JOBS))


def _shutdown() -> None:
    wait_for_jobs(SHUTDOWN_MS, cancel=True)


_installed_on: weakref.ref[QCoreApplication] | None = None


def _install_shutdown() -> None:
    """Make room in the pool, and wait for the jobs when the application is about to quit.

    Done once per application, on the first job.
    """
    global _installed_on
    app = QCoreApplication.instance()
    if app is None or (_installed_on is not None and _installed_on() is app):
        return
    _installed_on = weakref.ref(app)
    app.aboutToQuit.connect(_shutdown)
    pool = QThreadPool.globalInstance()
    pool.setMaxThreadCount(max(pool.maxThreadCount(), MIN_THREADS))


# A job still running when Python finalises would call into a dying interpreter.
atexit.register(_shutdown)
