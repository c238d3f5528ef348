"""One kernel process, seen from outside: start it, talk to it, stop it, and never hang.

The supervisor owns the kill path and the budgets, in one place:

- **Stop** signals the kernel's process group with SIGINT, and the recipe gets a
  ``KeyboardInterrupt``. Where there are no process groups (Windows) it sends
  ``Interrupt``, and the kernel's reader thread raises it in the recipe
  (``_thread.interrupt_main``).
  A running C++ op cannot be interrupted (a 6000x6000 matmul took 2.2 s to notice), so
  if the kernel has not stopped within ``STOP_GRACE_S`` it ends the whole group.
- **Time**: ``wait(timeout)`` stops a run that goes past its time.
- **Memory**: the budget is on top of the kernel's size when its first run starts: the
  kernel caps its own data there (``app.kernel.budget``), and a watch here also ends a
  kernel whose resident size grows more than the budget past its size then
  (``Ready.resident``): ``receive`` measures it every ``WATCH_INTERVAL_S`` while it
  waits (the reader that waits on the kernel is the watch; no thread of its own).
- **Protocol**: the first message the kernel gets is ``Hello`` with this side's
  ``protocol.VERSION`` (a kernel of another version answers ``Ready`` and exits); a
  kernel whose ``Ready`` speaks another version is ended (``VersionMismatch``), before
  any of its other messages is read.

``Kernel`` is the window's ``Transport`` (``app.kernel.transport``) to a kernel on this
machine: a reader blocked in ``receive`` wakes for a message, for ``wake``, for the
kernel's exit (its pidfd, where Linux has one), and for the memory watch's look.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from app.kernel import protocol, reaper
from app.kernel.budget import default_budget, resident_bytes
from app.kernel.transport import Transport
from app.kernel.wire import Wire

#: How long Stop waits for ``KeyboardInterrupt`` before it ends the kernel's processes.
STOP_GRACE_S = 0.2
#: How long a run that reports (``tensor-lab run --json``) has to make its report when a
#: time limit stops it (the report may import torch: seconds on a busy machine).
REPORT_GRACE_S = 10.0
#: How often the memory watch looks at the kernel's size.
WATCH_INTERVAL_S = 0.1


def _start_kernel(conn, parent: int | None = None, raised=None) -> None:  # the spawned
    from app.kernel.child import kernel_main  # process's target; imports nothing of Qt

    kernel_main(conn, parent, raised)


#: The kernels this process has started and not yet ended (``end_all``).
_KERNELS: weakref.WeakSet[Kernel] = weakref.WeakSet()


def end_all() -> None:
    """End every kernel this process started, and what they started (this process is
    going: ``tensor-lab run`` got SIGTERM or SIGHUP)."""
    for kernel in list(_KERNELS):
        kernel.kill()


@dataclass
class Ending:
    """How a run ended, as the supervisor saw it."""

    exit_code: int
    reason: str = ""  # "", "timeout", "stopped", "memory", "died", "protocol"
    out_of_memory: bool = False  # the recipe's allocation failed, and the kernel said so
    report: dict | None = None  # ``run_file(report=True)``: the kernel's ``Report``
    message: str = ""  # why, where the reason alone does not say it


def _ended_handle(pid: int | None) -> int | None:
    """A descriptor readable once process ``pid`` has exited (Linux's pidfd), or None."""
    if pid is None or not hasattr(os, "pidfd_open"):
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


class Kernel(Transport):
    """A kernel process and the pipe to it: the local ``Transport``.

    Parameters
    ----------
    memory_budget : int, optional
        Bytes the recipe may use on top of the kernel's own start (half the RAM by default).
    """

    def __init__(self, memory_budget: int | None = None):
        self.memory_budget = default_budget() if memory_budget is None else memory_budget
        context = multiprocessing.get_context("spawn")
        conn, child_conn = context.Pipe()
        self._raised = context.Value("b", 0, lock=False)  # see ``interrupt_raised``
        self.process = context.Process(target=_start_kernel,
                                       args=(child_conn, os.getpid(), self._raised),
                                       name="tensor-lab-kernel", daemon=False)
        self.process.start()
        child_conn.close()
        # whole frames, or CorruptPipe: never a wedged read; woken by ``wake`` and the end
        self._conn = Wire(conn, wakeable=True, ended=_ended_handle(self.process.pid))
        self.wakes = self._conn.wakes
        self._sending = threading.Lock()  # (a whole frame at a time, from any thread)
        _KERNELS.add(self)
        self.send(protocol.Hello(protocol.VERSION))
        self._group: int | None = None
        #: The last ``Report`` the kernel sent (``run_file(report=True)``), even one
        #: that came while a time limit stopped the run.
        self.report: dict | None = None
        self._stop_grace = STOP_GRACE_S
        self._over_budget = False
        #: The kernel's resident bytes when its budget started (its ``Ready``): until
        #: then no recipe code has run, and the watch has nothing to measure from.
        self._resident_at_start: int | None = None
        self._watched_at = 0.0  # when the watch last measured the kernel

    # -- talking -----------------------------------------------------------------------------
    def send(self, message: Any) -> None:
        data = protocol.encode(message)
        with self._sending:
            self._conn.send_bytes(data)

    def wake(self) -> None:
        self._conn.wake()

    @property
    def pid(self) -> int:
        return self.process.pid or 0

    @property
    def over_budget(self) -> bool:
        return self._over_budget

    def exit_code(self, wait: float = 0.0) -> int | None:
        if wait:
            self.process.join(wait)
        return self.process.exitcode

    def receive(self, timeout: float | None) -> Any | None:
        """The next message, or None when none came within ``timeout`` seconds or ``wake``
        was called. ``EOFError`` once the kernel has ended and nothing is left to read.
        ``VersionMismatch`` when the kernel's ``Ready`` says it speaks another version of
        the protocol: the kernel is ended then, and nothing more is read from it. While
        it waits, it watches the kernel's memory: past the budget, ``over_budget`` is
        True and it returns None."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._watch_memory():
                return None
            wait = self._next_watch_s()
            if deadline is not None:
                left = max(0.0, deadline - time.monotonic())
                wait = left if wait is None else min(wait, left)
            self._conn.woken = False
            if self._conn.poll(wait):
                break
            if self._conn.woken or deadline is not None and time.monotonic() >= deadline:
                return None
        message = protocol.receive(self._conn)
        if isinstance(message, protocol.Ready):
            if message.version != protocol.VERSION:  # its messages may mean other things
                self.kill()
                raise protocol.VersionMismatch(message.version)
            self._group = message.pid if hasattr(os, "killpg") else None
            self._resident_at_start = message.resident
        elif isinstance(message, protocol.Report):
            self.report = message.report
        return message

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    # -- stopping ----------------------------------------------------------------------------
    @property
    def interrupt_raised(self) -> bool:
        """Whether the last ``interrupt`` reached the recipe's code as a
        ``KeyboardInterrupt`` (its SIGINT handler ran). False while the main thread stays
        inside a call that Python cannot interrupt, such as a C++ op."""
        return bool(self._raised.value)

    def interrupt(self) -> None:
        """Ask the recipe to stop: ``KeyboardInterrupt`` where it runs Python."""
        if not self.alive:
            return
        self._raised.value = 0
        if hasattr(os, "killpg") and self._group is None:
            return  # no run has started, so no recipe code runs: a signal would only end
            # the process as it starts (python's "Fatal Python error" on its stderr)
        if self._group is not None:
            try:
                os.killpg(self._group, signal.SIGINT)
                return
            except (ProcessLookupError, PermissionError):
                pass
        if sys.platform != "win32" and self.process.pid:
            os.kill(self.process.pid, signal.SIGINT)
        else:  # no process group to signal: the kernel's reader thread interrupts it
            try:
                self.send(protocol.Interrupt())
            except (OSError, ValueError):
                pass

    def kill(self) -> None:
        """End the kernel, every process of its group, and every process below it (in
        a session of its own too, where ``/proc`` shows them) now."""
        pid = self.process.pid
        if pid and self.process.is_alive() and hasattr(os, "killpg"):
            reaper.end_tree(pid, pid)  # (the kernel's group is its pid, from its setsid)
        elif self._group is not None and hasattr(os, "killpg"):
            try:
                os.killpg(self._group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        _KERNELS.discard(self)

    def end_children(self) -> None:
        """End every process the kernel's recipes started, and keep the kernel."""
        pid = self.process.pid
        if pid and self.process.is_alive() and hasattr(os, "killpg"):
            reaper.end_tree(pid, keep_root=True)

    def stop(self, grace: float | None = None) -> bool:
        """Interrupt, and end the processes if that has not worked within ``grace``
        (``STOP_GRACE_S``; longer for a run that reports: its report is made then).

        True when the kernel stopped by itself (its namespace would be kept). What it
        sends meanwhile is read (a ``Report`` is kept), so that it never waits on a full
        pipe.
        """
        self.interrupt()
        deadline = time.monotonic() + (self._stop_grace if grace is None else grace)
        while self.process.is_alive() and (left := deadline - time.monotonic()) > 0:
            try:
                self.receive(min(left, 0.05))
            except (EOFError, OSError, ValueError):
                self.process.join(left)
        with contextlib.suppress(EOFError, OSError, ValueError):
            while not self.process.is_alive() and self.receive(0) is not None:
                pass  # what it sent before it ended (its report)
        if self.process.is_alive():
            self.kill()
            return False
        return True

    def close(self) -> None:
        """Shut the kernel down (politely, then not), with every process it started."""
        if self.alive:
            self.end_children()
            try:
                self.send(protocol.Shutdown())
            except (OSError, ValueError):
                pass
            self.process.join(1.0)
        if self.alive:
            self.kill()
        self._conn.close()
        _KERNELS.discard(self)

    # -- running for the window ---------------------------------------------------------------
    def warm(self, modules: tuple[str, ...] = ()) -> None:
        """Have the kernel import torch now, while the window opens, then ``modules``."""
        self.send(protocol.Warm(list(modules)))

    def run_source(self, path: str, source: str, cwd: str = "") -> None:
        """Start running ``source`` in a fresh namespace; messages follow until ``Done``."""
        self.send(protocol.RunSource(path, source, cwd, self.memory_budget))

    # -- running a whole file (tensor-lab run) ------------------------------------------------
    def run_file(self, path: str, source: str, argv: list[str] | None = None,
                 timeout: float | None = None, report: bool = False) -> Ending:
        """Run ``source`` as ``python path argv`` would; wait at most ``timeout`` seconds.

        With ``report``, the output is captured and the ending carries the JSON report.
        """
        self.send(protocol.RunFile(path, source, list(argv or []),
                                   memory_budget=self.memory_budget, report=report))
        if report:  # stopped, it reports what it gathered: that takes a moment
            self._stop_grace = max(STOP_GRACE_S, REPORT_GRACE_S)
        got: dict | None = None
        deadline = None if timeout is None else time.monotonic() + timeout
        done: protocol.Done | None = None
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                if done is None and self.stop():
                    return Ending(self._exit_code(1), "timeout")
                self.kill()  # (after Done, only the recipe's threads are left: no interrupt)
                return Ending(1, "timeout")
            if self._over_budget:  # (the kernel said nothing: the caller says why)
                self.kill()
                return Ending(1, "memory")
            if done is not None:  # as python, wait for its threads and atexit, in the time
                self.process.join(min(left, WATCH_INTERVAL_S) if left is not None
                                  else WATCH_INTERVAL_S)
                self._watch_memory()
                if not self.alive:
                    return Ending(self._exit_code(done.exit_code),
                                  "memory" if done.out_of_memory else "", done.out_of_memory, got)
                continue
            try:
                message = self.receive(min(left, 0.1) if left is not None else 0.1)
            except protocol.VersionMismatch as e:
                return Ending(1, "protocol", message=str(e))
            except (EOFError, OSError):
                return self._ended()
            if isinstance(message, protocol.Report):
                got = message.report
            if isinstance(message, protocol.Done):
                done = message
            if message is None and not self.alive:
                return self._ended()

    def _exit_code(self, reported: int) -> int:
        self.process.join(30)
        code = self.process.exitcode
        return reported if code is None else code

    def _ended(self) -> Ending:
        self.process.join(5)
        code = self.process.exitcode  # negative: the signal that ended it
        return Ending(code if code is not None else 1, "" if code == 0 else "died")

    def _watching(self) -> bool:
        return self._resident_at_start is not None and not self._over_budget

    def _next_watch_s(self) -> float | None:
        """How long until the watch measures again (None: it has nothing to measure)."""
        if not self._watching():
            return None
        return max(0.0, self._watched_at + WATCH_INTERVAL_S - time.monotonic())

    def _watch_memory(self) -> bool:
        """Measure the kernel, if ``WATCH_INTERVAL_S`` has passed since the last time;
        True when it has grown past its budget (``over_budget``)."""
        if not self._watching() or self._next_watch_s():
            return self._over_budget
        self._watched_at = time.monotonic()
        size = resident_bytes(self.process.pid) if self.process.pid else None
        if size is not None and size - self._resident_at_start > self.memory_budget:
            self._over_budget = True
        return self._over_budget
