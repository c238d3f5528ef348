"""The window's kernel: one per window, always ready, and never able to block or end the window.

``KernelSession`` talks to its kernel through a ``Transport`` (``app.link.transport``:
today the local process and its pipe, ``supervisor.Kernel``) and reads it on one thread
of its own, which blocks on the transport until the kernel says something, the window
sends a command (it ``wake``-s the reader), or a run's time limit comes: no loop looks
for messages on a timer (the local transport measures the kernel's memory every
``supervisor.WATCH_INTERVAL_S`` while it waits: the budget's own clock). The window calls
methods that return at once (``run``, ``ask``, ``stop``, ``restart``); the reader puts
plain events in one queue (``events.EventQueue``, which merges an output flood) and tells
the window (``on_events``), which takes them on its own thread with ``poll``. A run is
its ``RunMessage``s, then one ``Ended``; a new run stops the old one first, so nothing of the
old one comes after the new one's first event. Stop interrupts (the namespace kept); a
kernel still busy after ``STOP_GRACE_S`` (a long C++ op) is ended, and a fresh one re-runs
the finished statements (``Restoring``). A kernel that crashes, goes past its memory budget
or is restarted is replaced: ``KernelStarting``, then ``KernelReady``.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import math
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.link.events import (
    Answered,
    Ended,
    Event,
    EventQueue,
    KernelReady,
    KernelStarting,
    Restoring,
    RunMessage,
)
from app.link.supervisor import STOP_GRACE_S, Kernel
from app.link.transport import Transport
from protocol import messages
from protocol.budget import budget_text, is_out_of_memory
from protocol.devices import Device, TorchBuild, cpu_alone, devices_answered, torch_build_answered
from protocol.i18n import QT_TRANSLATE_NOOP, Filled
from protocol.wire import CorruptPipe

# A run's time limit unless the caller gives another, in seconds.
DEFAULT_TIMEOUT_S = 600.0
_RESPAWN_AFTER_S = 5.0  # a kernel dying on its own sooner is not restarted until a run
#: Where a transport cannot be woken (``Transport.wakes``: Windows' pipes), the longest a
#: command waits for the reader.
_UNWOKEN_S = 0.05
_KILLED = -int(getattr(signal, "SIGKILL", 9))  # the exit code of a killed kernel


@dataclass
class _Run:
    run_id: int
    source: str
    path: str
    cwd: str
    stop_before: int
    timeout: float | None
    restores: int | None = None  # the stopped run this one restores
    resume: bool = False  # an edit: go on from the last run's checkpoint if it can
    mirror: dict | None = None  # the form steps whose small values come back copied
    prefetch: list = field(default_factory=list)  # questions answered as the run goes
    deadline: float = math.inf
    finished: int = 0  # statements reported done
    out_of_memory: bool = False
    paused_at: float | None = None  # a paused training loop: its time limit waits too


def _death_text(code: int | None) -> str:
    if code is None:
        return QT_TRANSLATE_NOOP("Kernel", "The kernel ended unexpectedly.")
    if code >= 0:
        return Filled(QT_TRANSLATE_NOOP("Kernel", "The kernel ended with exit code {0}."), code)
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = str(-code)
    return Filled(QT_TRANSLATE_NOOP("Kernel", "The kernel ended with signal {0}."), name)


#: Every session's run ids, from one count.
_RUN_IDS = itertools.count(1)


class KernelSession:
    """The window's one kernel, read by a thread of its own; no method blocks but ``close``.

    Parameters
    ----------
    memory_budget : int, optional
        Bytes a recipe may use (``supervisor.Kernel``; half the RAM by default).
    run_timeout : float or None
        A run's time limit in seconds, unless ``run`` gives one; None for none.
    query_modules : tuple of str
        Modules every kernel loads after torch, to answer the window's own queries
        (``kernel.queries.register``; ``kernel.explain.kernel_queries``).
    transport : callable, optional
        Starts a kernel: ``transport(memory_budget)`` returns its ``Transport`` (a local
        process, ``supervisor.Kernel``, by default; an SSH one for a server).
    """

    def __init__(self, memory_budget: int | None = None,
                 run_timeout: float | None = DEFAULT_TIMEOUT_S,
                 query_modules: tuple[str, ...] = (),
                 transport: Callable[[int | None], Transport] | None = None):
        self.memory_budget = memory_budget
        self.run_timeout = run_timeout
        self.query_modules = tuple(query_modules)
        self._transport = transport
        self._events = EventQueue()
        self._commands: queue.SimpleQueue[tuple] = queue.SimpleQueue()
        self._ids = _RUN_IDS  # (one count for the process: a window that changes its
        # session, Kernel > Run On, never sees a run of the new one under an old one's id)
        self._query_ids = itertools.count(1)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Held by whoever acts on the kernel's state below: the reader thread, except
        #: while it waits for the kernel; ``run`` on the window's thread, for an idle one.
        self._state = threading.Lock()
        self._kernel: Transport | None = None
        self._run: _Run | None = None
        self._born = 0.0  # when the kernel started
        #: Why the last kernel could not start, in one line ("" when it did or no one
        #: said: a server that cannot be reached says, ``app.link.ssh.Unreachable``).
        self.why_not = ""
        self._asked: set[int] = set()  # queries the kernel has not answered yet
        self._devices_query: int | None = None  # asked of each kernel as it starts
        #: The devices of the kernel's machine, as its last kernel said (``devices``).
        self.devices: list[Device] = cpu_alone()
        #: Its torch build, as it said with its devices; None until a kernel has said.
        self.torch: TorchBuild | None = None
        self._on_devices: Callable[[list[Device]], None] | None = None

    # -- the window's side ---------------------------------------------------------------
    def start(self) -> None:
        """Start the kernel in the background and have it load torch (idempotent)."""
        with self._lock:
            if self._thread is not None or self._closed:
                return
            self._thread = threading.Thread(target=self._serve, daemon=True,
                                            name="tensor-lab-kernel-reader")
            self._thread.start()
        atexit.register(self.close)  # before multiprocessing's exit joins the kernel

    def run(self, source: str, path: str, cwd: str = "", stop_before: int | None = None,
            timeout: float | None = None, resume: bool = False,
            mirror: dict | None = None, prefetch: list[tuple[int, str, dict]] = ()) -> int:
        """Run ``source`` (the text of ``path``, in ``cwd``) in a fresh namespace, after
        stopping any run in progress; the new run's id. ``stop_before``: run only the
        statements before it. ``timeout``: seconds (``run_timeout`` when None).
        ``resume``: an edit, which may go on from the first changed statement (a
        ``Resumed`` message says from where). ``mirror``: the form statements whose small
        values come back copied (``messages.RunSource.mirror``). ``prefetch``: questions
        ``(id, kind, args)`` about this run (ids from ``reserve_query_id``), answered as
        it goes, as ``Answered`` events; the new run's id is put in their ``args``."""
        if self._closed:
            raise RuntimeError("the kernel session is closed")
        run_id = next(self._ids)
        queries = [[query_id, kind, {**args, "run": run_id}] for query_id, kind, args in prefetch]
        run = _Run(run_id, source, path, cwd, -1 if stop_before is None else stop_before,
                   self.run_timeout if timeout is None else timeout, resume=resume,
                   mirror=mirror, prefetch=queries)
        if not self._start_at_once(run):  # (a kernel to start, or a run to stop first)
            self._command("run", run, start=True)
        return run_id

    def _start_at_once(self, run: _Run) -> bool:
        """Send ``run`` from the window's thread when the kernel is idle and the reader
        waits: the kernel starts it now, not when the reader next gets the GIL (the
        window's thread keeps it through the rest of an edit's work)."""
        if not self._state.acquire(blocking=False):
            return False  # the reader is busy with the kernel (or starting one)
        try:
            kernel = self._kernel
            if self._run is not None or kernel is None or not self._commands.empty():
                return False
            if not self._send_run(kernel, run):
                return False  # (the reader finds out why, and says so)
        finally:
            self._state.release()
        kernel.wake()  # the reader waits again, until the run's time limit
        return True

    def reserve_query_id(self) -> int:
        """An id for a question sent later, with a run (``run``'s ``prefetch``)."""
        return next(self._query_ids)

    def ask(self, kind: str, args: dict) -> int:
        """Ask the kernel about a value of its last run (``kernel.queries``); the
        answer comes as an ``Answered`` event with the id returned, even mid-run."""
        query_id = next(self._query_ids)
        self._command("ask", messages.Query(query_id, kind, args), start=True)
        return query_id

    def control(self, **changes) -> None:
        """Steer the running training loop: ``pause``, ``step``, ``lr``, ``nan_pause``
        (``messages.TrainingControl``); obeyed at its next ``backward()``."""
        self._command("control", messages.TrainingControl(**changes))

    def stop(self) -> None:
        """Stop the run in progress (``KeyboardInterrupt``, or a kill and a restore)."""
        self._command("stop")

    def work_folder(self, path: str) -> str:
        """The folder the recipe at ``path`` runs in on a server (``Transport.work_folder``),
        or "" where it runs here, or no kernel is connected."""
        kernel = self._kernel
        return kernel.work_folder(path) if kernel is not None else ""

    def restart(self) -> None:
        """End the kernel (and any run) and start a fresh one."""
        self._command("restart")

    def _command(self, *command, start: bool = False) -> None:
        """Hand the reader a command, and wake it (it may be waiting for the kernel);
        ``start``: start the kernel first if none runs yet."""
        self._commands.put(command)
        kernel = self._kernel
        if kernel is not None:
            kernel.wake()
        if start:
            self.start()

    def on_events(self, callback: Callable[[bool], None] | None) -> None:
        """Call ``callback`` (from the reader thread) when events arrive after ``poll``
        emptied the queue: the window can take them at once; ``callback(True)`` when a
        run has ended (its last event)."""
        self._events.on_ready = callback

    def on_devices(self, callback: Callable[[list[Device]], None] | None) -> None:
        """Call ``callback(devices)`` (from the reader thread) each time a kernel says
        what devices its machine has (``kernel.queries``' ``devices``): once a kernel
        starts, and again from each kernel that replaces it. Until then ``devices`` is the
        CPU alone; a kernel that replaces another keeps the last list until it answers."""
        self._on_devices = callback

    def poll(self, max_seconds: float = 0.008) -> list[Event]:
        """The events that came since the last poll, as many as ``max_seconds`` allows."""
        return self._events.take(max_seconds)

    def waiting(self) -> int:
        """How many events ``poll`` has not taken yet."""
        return len(self._events)

    def close(self, timeout: float = 10.0) -> None:
        """End the run, the kernel and the reader thread (waits at most ``timeout``)."""
        with self._lock:
            if self._closed:
                return
            self._closed, thread = True, self._thread
        atexit.unregister(self.close)
        if thread is not None:
            self._command("close")
            thread.join(timeout)

    # -- the reader thread ---------------------------------------------------------------
    def _serve(self) -> None:
        try:
            with self._state:
                self._replace("")
            while self._step():
                pass
        finally:
            with self._state:
                kernel, run = self._kernel, self._run
                if run is not None and kernel is not None:
                    kernel.kill()
                    self._end(run, "stopped", _KILLED)
                if kernel is not None:
                    kernel.close()

    def _step(self) -> bool:
        """Obey the window's commands, then wait for the kernel's next word (or a
        command's ``wake``, or the run's time limit) and act on it."""
        with self._state:
            while True:
                try:
                    command = self._commands.get_nowait()
                except queue.Empty:
                    break
                if not self._obey(command):
                    return False
            kernel, run = self._kernel, self._run
        if kernel is None:  # none runs (it could not start): the next command starts one
            command = self._commands.get()
            with self._state:
                return self._obey(command)
        try:
            message = kernel.receive(self._wait_s(run, kernel))
        except CorruptPipe as e:
            error: BaseException | None = e
        except messages.VersionMismatch as e:
            error = e
        except (EOFError, OSError, ValueError) as e:  # gone, or not a message
            error = e
        else:
            error = None
        with self._state:
            if kernel is not self._kernel:
                return True  # (replaced meanwhile: nothing of the old one matters)
            run = self._run
            if error is not None:
                self._fault(run, kernel, error)
            elif run is None:
                if message is not None:
                    self._forward(None, message)
            else:
                self._follow(run, kernel, message)
        return True

    def _wait_s(self, run: _Run | None, kernel: Transport) -> float | None:
        """How long the reader may wait for the kernel: until the run's time limit, if
        any (a paused loop's waits); else for as long as it takes (a command wakes it)."""
        wait = None
        if run is not None and run.paused_at is None and run.deadline != math.inf:
            wait = max(0.0, run.deadline - time.monotonic())
        if not kernel.wakes:  # where nothing can wake it, a command waits this long
            wait = _UNWOKEN_S if wait is None else min(wait, _UNWOKEN_S)
        return wait

    def _fault(self, run: _Run | None, kernel: Transport, error: BaseException) -> None:
        """What a failed read means: a corrupted pipe, another version, or an end."""
        if run is None:
            return self._lost_while_idle(kernel)
        if isinstance(error, CorruptPipe):
            return self._corrupted(run, error)
        if isinstance(error, messages.VersionMismatch):
            return self._lose(run, "died", self._exit_code(), Filled(QT_TRANSLATE_NOOP(
                "Kernel", "The kernel speaks version {0} of the protocol and this window "
                "version {1}, so the kernel was ended."), str(error.theirs),
                str(messages.VERSION)))
        if kernel.over_budget:
            kernel.kill()
            return self._out_of_memory(run, self._exit_code())
        return self._died(run)

    def _obey(self, command: tuple) -> bool:
        kind, run = command[0], self._run
        if kind == "close":
            return False
        if kind == "run":
            if run is not None:
                self._halt(run, "stopped",
                           QT_TRANSLATE_NOOP("Kernel", "A new run replaced this one."))
            self._start(command[1])
        elif kind == "ask":
            self._send_query(command[1])
        elif kind == "control" and self._kernel is not None and self._kernel.alive:
            with contextlib.suppress(OSError, ValueError):
                self._kernel.send(command[1])
        elif kind == "stop" and run is not None:
            self._halt(run, "stopped", restore=True)
        elif kind == "restart":
            if run is not None and self._kernel is not None:
                self._kernel.kill()
                self._end(run, "stopped", self._exit_code(),
                          QT_TRANSLATE_NOOP("Kernel", "The kernel was restarted."))
            self._replace("restart")
        return True

    def _send_query(self, query: messages.Query) -> None:
        kernel = self._kernel
        if kernel is None or not kernel.alive:
            self._events.put(Answered(query.id, {}, "no kernel runs now"))
            return
        try:
            kernel.send(query)
        except (OSError, ValueError):
            self._events.put(Answered(query.id, {}, "the kernel has gone"))
            return
        self._asked.add(query.id)

    def _start(self, run: _Run) -> None:
        if self._kernel is None:
            self._replace("")
        kernel = self._kernel
        if kernel is None:
            return self._end(run, "died", 1, Filled(QT_TRANSLATE_NOOP(
                "Kernel", "The kernel could not start: {0}"), self.why_not) if self.why_not
                else QT_TRANSLATE_NOOP("Kernel", "The kernel could not start."))
        if not self._send_run(kernel, run):
            self._run = run
            self._died(run)

    def _send_run(self, kernel: Transport, run: _Run) -> bool:
        """Send ``run`` to ``kernel``, which then follows it; False if it could not."""
        self._run = run
        if run.timeout is not None:
            run.deadline = time.monotonic() + run.timeout
        try:
            kernel.send(messages.RunSource(run.path, run.source, run.cwd, kernel.memory_budget,
                                           run.stop_before, run.run_id, run.resume,
                                           run.mirror or {}, run.prefetch))
        except (OSError, ValueError):
            self._run = None
            return False
        return True

    def _follow(self, run: _Run, kernel: Transport, message: object | None) -> None:
        if isinstance(message, messages.Done):
            self._forward(run, message)
            if run.out_of_memory:
                return self._out_of_memory(run, message.exit_code)
            return self._end(run, "", message.exit_code)
        if message is not None:
            self._forward(run, message)
        # the memory watch is the transport's own (RSS past the budget: end the kernel)
        if kernel.over_budget:
            kernel.kill()
            self._out_of_memory(run, self._exit_code())
        elif time.monotonic() > run.deadline and run.paused_at is None:
            self._halt(run, "timeout", Filled(QT_TRANSLATE_NOOP(
                "Kernel", "The run went past its time limit of {0} s."), f"{run.timeout:g}"),
                restore=True)

    def _forward(self, run: _Run | None, message: object) -> None:
        if isinstance(message, messages.Answer):
            self._asked.discard(message.id)
            if message.id == self._devices_query:
                return self._devices_known(message)
            self._events.put(Answered(message.id, message.data, message.error))
            return
        if run is None:
            return  # what a run that is over still sent
        if isinstance(message, messages.Resumed):
            run.finished = message.start  # what a restore after a kill must run again
        if isinstance(message, messages.StepDone):
            if message.loop is not None:
                message.loop.expanded()  # here, not on the GUI thread (then it is kept)
            run.finished += 1
            # past the budget (RLIMIT_AS) fails an allocation; a GPU's own OOM is an error only
            run.out_of_memory |= (is_out_of_memory(message.error, message.message)
                                  and "CUDA" not in message.message)
        if isinstance(message, messages.Training):
            now = time.monotonic()
            if run.paused_at is not None:  # the time it waited is not the recipe's
                run.deadline += now - run.paused_at
            run.paused_at = now if message.paused else None
        if isinstance(message, messages.Resumed | messages.StepStarted | messages.Output
                      | messages.StepDone | messages.Training | messages.Done):
            self._events.put(RunMessage(run.run_id, message))

    def _halt(self, run: _Run, reason: str, message: str | None = None,
              restore: bool = False) -> None:
        """Interrupt ``run``; end the kernel if it has not stopped within the grace."""
        kernel = self._kernel
        assert kernel is not None
        kernel.interrupt()
        deadline = time.monotonic() + STOP_GRACE_S
        while (left := deadline - time.monotonic()) > 0:
            try:
                received = kernel.receive(left)
            except (EOFError, OSError, ValueError):
                break
            if received is None:
                continue  # (a command's wake: it waits for the stop)
            self._forward(run, received)
            if isinstance(received, messages.Done):
                return self._end(run, reason, received.exit_code,
                                 message or QT_TRANSLATE_NOOP("Kernel", "The run was stopped."))
        # what is known of why: the recipe got its KeyboardInterrupt and went on, or it
        # never got it (the main thread stayed inside a call, such as a C++ op)
        went_on = kernel.interrupt_raised
        kernel.kill()
        self._end(run, reason, self._exit_code(), message or Filled(
            QT_TRANSLATE_NOOP("Kernel", "The kernel did not stop within {0} ms of its "
                              "KeyboardInterrupt (the recipe caught it, or went on after "
                              "it), so it was ended.") if went_on else
            QT_TRANSLATE_NOOP("Kernel", "The kernel did not stop within {0} ms (a C++ "
                              "operation cannot be interrupted), so it was ended."),
            round(STOP_GRACE_S * 1000)))
        self._replace(reason)
        if restore and run.finished and run.restores is None:
            again = _Run(next(self._ids), run.source, run.path, run.cwd, run.finished,
                         run.timeout, restores=run.run_id, mirror=run.mirror)
            self._events.put(Restoring(again.run_id, run.run_id, run.finished))
            self._start(again)

    def _corrupted(self, run: _Run, error: CorruptPipe) -> None:
        """Something wrote into the kernel's pipe (the recipe can reach it): nothing more
        it sends can be read, so it is ended, and a fresh kernel started."""
        assert self._kernel is not None
        self._kernel.kill()
        self._lose(run, "died", self._exit_code(), Filled(QT_TRANSLATE_NOOP(
            "Kernel", "The kernel's pipe was corrupted ({0}), so the kernel was replaced."),
            str(error)))

    def _died(self, run: _Run) -> None:
        kernel = self._kernel
        assert kernel is not None
        code = kernel.exit_code(2.0)  # the pipe closes a moment before the status is known
        kernel.kill()  # what it started, too
        self._lose(run, "died", 1 if code is None else code,
                   kernel.lost() or _death_text(code))

    def _out_of_memory(self, run: _Run, exit_code: int) -> None:
        self._lose(run, "memory", exit_code, self._budget_message())

    def _budget_message(self) -> str:
        budget = budget_text(self._kernel.memory_budget if self._kernel else 0)
        return Filled(QT_TRANSLATE_NOOP(
            "Kernel", "The recipe needed more memory than its budget of {0}, so the kernel "
            "was replaced."), budget)

    def _lose(self, run: _Run, reason: str, exit_code: int, message: str) -> None:
        self._end(run, reason, exit_code, message)
        self._replace(reason, message)

    def _lost_while_idle(self, kernel: Transport) -> None:
        kernel.kill()
        text = kernel.lost() or _death_text(kernel.exit_code())
        if time.monotonic() - self._born > _RESPAWN_AFTER_S:
            return self._replace("died", text)
        kernel.close()  # never a loop of kernels that die at once; the next run starts one
        self._kernel = None
        self._events.put(KernelStarting("died", text))

    def _end(self, run: _Run, reason: str, exit_code: int, message: str = "") -> None:
        self._events.put(Ended(run.run_id, reason, exit_code, message))
        self._run = None

    def _exit_code(self) -> int:
        code = self._kernel.exit_code() if self._kernel is not None else None
        return _KILLED if code is None else code

    def _replace(self, cause: str, message: str = "") -> None:
        """End the kernel there is (if any) and start a fresh, warm one."""
        old, self._kernel, self._born = self._kernel, None, time.monotonic()
        if old is not None:
            old.kill()
            old.close()
        for query_id in sorted(self._asked - {self._devices_query}):  # never answered: say so
            self._events.put(Answered(query_id, {}, "the kernel ended before it answered"))
        self._asked.clear()
        self._events.put(KernelStarting(cause, message))
        try:
            kernel = (self._transport or Kernel)(self.memory_budget)
            kernel.warm(self.query_modules)
        except Exception as e:  # noqa: BLE001 - no kernel now; the next run tries again
            self.why_not = str(e) if isinstance(e, OSError) else ""
            return
        self.why_not = ""
        self._kernel = kernel
        self._events.put(KernelReady(kernel.pid))
        self._ask_devices()

    def _ask_devices(self) -> None:
        """Ask the new kernel what devices its machine has (a fresh kernel may be
        elsewhere: the window's menus list what the kernel can use)."""
        self._devices_query = next(self._query_ids)
        self._send_query(messages.Query(self._devices_query, "devices", {}))

    def _devices_known(self, answer: messages.Answer) -> None:
        if answer.error:
            return  # (the list stays as the last kernel said)
        self.torch = torch_build_answered(answer.data) or self.torch
        self.devices = devices_answered(answer.data)
        callback = self._on_devices
        if callback is not None:
            callback(list(self.devices))
