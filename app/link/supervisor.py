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
  kernel caps its own data there (``protocol.budget``), and a watch here also ends a
  kernel whose resident size grows more than the budget past its size then
  (``Ready.resident``): ``receive`` measures it every ``WATCH_INTERVAL_S`` while it
  waits (the reader that waits on the kernel is the watch; no thread of its own).
- **Protocol**: the first message the kernel gets is ``Hello`` with this side's
  ``messages.VERSION`` (a kernel of another version answers ``Ready`` and exits); a
  kernel whose ``Ready`` speaks another version is ended (``VersionMismatch``), before
  any of its other messages is read.

``Kernel`` is the window's ``Transport`` (``app.link.transport``) to a kernel on this
machine, a plain python process (``python -m kernel``, ``launch``) that this module
names only by its entry point: the window imports nothing the kernel runs. A reader
blocked in ``receive`` wakes for a message, for ``wake``, for the kernel's exit (its
pidfd, where Linux has one), and for the memory watch's look.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from app.link.transport import Transport
from protocol import messages, reaper
from protocol.budget import default_budget, resident_bytes
from protocol.wire import Wire

#: How long Stop waits for ``KeyboardInterrupt`` before it ends the kernel's processes.
STOP_GRACE_S = 0.2
#: How long a run that reports (``tensor-lab run --json``) has to make its report when a
#: time limit stops it (the report may load torch: seconds on a busy machine).
REPORT_GRACE_S = 10.0
#: How often the memory watch looks at the kernel's size.
WATCH_INTERVAL_S = 0.1


#: What the kernel's python calls in place of the kernel's own main loop
#: (``module:function``, given the kernel's end of its pipe, this process's pid and the
#: ``raised`` pipe): a test's stand-in kernel. None: the kernel.
KERNEL_ENTRY: str | None = None
#: The kernel's python finds this process's modules where this process does (its
#: ``sys.path``, as ``multiprocessing``'s spawn passed it), then runs the entry point.
_BOOT = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
         "from kernel.__main__ import main; main(sys.argv[2:])")


@dataclass
class Launched:
    """A kernel process just started, and this side's ends of its pipes."""

    process: subprocess.Popen
    conn: socket.socket  # frames both ways (``Wire``)
    raised: int  # readable: a byte for each ``KeyboardInterrupt`` raised in the recipe


#: Each end's send buffer, in bytes, where the system allows it (Linux caps it at
#: ``net.core.wmem_max``): a heatmap's plane (1 MB) or a grid's is written whole while
#: the window reads it, and the kernel goes on to the statistics asked next; at the
#: default (about 200 kB) it waited for the window's reader, five times for 1 MB.
SOCKET_BUFFER = 8 << 20


def socket_pair() -> tuple[socket.socket, socket.socket]:
    """The window's end and the kernel's of a new socket pair, their buffers widened."""
    ours, theirs = socket.socketpair()
    for end in (ours, theirs):
        with contextlib.suppress(OSError):  # (a platform that refuses keeps its default)
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
    return ours, theirs


def launch(entry: str | None = None) -> Launched:
    """Start a kernel process (``python -m kernel``'s ``main``) with nothing sent yet:
    the same python, its flags, this process's ``sys.path``, and a socket pair and a pipe
    passed as descriptors. Its standard streams are this process's."""
    ours, theirs = socket_pair()
    raised_r, raised_w = os.pipe()
    os.set_blocking(raised_r, False)
    os.set_blocking(raised_w, False)  # (a signal handler writes it: never wait)
    try:
        command = [sys.executable, *subprocess._args_from_interpreter_flags(),  # noqa: SLF001
                   "-c", _BOOT, json.dumps(sys.path), "--fd", str(theirs.fileno()),
                   "--raised", str(raised_w), "--parent", str(os.getpid())]
        if entry or KERNEL_ENTRY:
            command += ["--entry", entry or KERNEL_ENTRY]
        process = subprocess.Popen(command, pass_fds=(theirs.fileno(), raised_w))
    except BaseException:
        ours.close()
        os.close(raised_r)
        raise
    finally:
        theirs.close()
        os.close(raised_w)
    return Launched(process, ours, raised_r)


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
        launched = launch()
        self.process = launched.process
        self._raised_pipe = launched.raised  # see ``interrupt_raised``
        self._raised = False
        # whole frames, or CorruptPipe: never a wedged read; woken by ``wake`` and the end
        self._conn = Wire(launched.conn, wakeable=True,
                          ended=_ended_handle(self.process.pid))
        self._exited = _ended_handle(self.process.pid)  # ``_join``'s own, where Linux has one
        self.wakes = self._conn.wakes
        self._sending = threading.Lock()  # (a whole frame at a time, from any thread)
        _KERNELS.add(self)
        self.send(messages.Hello(messages.VERSION))
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
        data = messages.encode(message)
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
            self._join(wait)
        return self.process.poll()

    def _join(self, timeout: float | None) -> None:
        """Wait at most ``timeout`` seconds for the kernel's process to end (woken by its
        pidfd as it ends, where there is one: ``Popen.wait`` would look every 50 ms)."""
        if self._exited is not None and self.process.returncode is None:
            waiting = select.poll()
            waiting.register(self._exited, select.POLLIN)
            waiting.poll(None if timeout is None else max(0.0, timeout) * 1000)
            self.process.poll()
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout)

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
        message = messages.receive(self._conn)
        if isinstance(message, messages.Ready):
            if message.version != messages.VERSION:  # its messages may mean other things
                self.kill()
                raise messages.VersionMismatch(message.version)
            self._group = message.pid if hasattr(os, "killpg") else None
            self._resident_at_start = message.resident
        elif isinstance(message, messages.Report):
            self.report = message.report
        return message

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    # -- stopping ----------------------------------------------------------------------------
    @property
    def interrupt_raised(self) -> bool:
        """Whether the last ``interrupt`` reached the recipe's code as a
        ``KeyboardInterrupt`` (its SIGINT handler ran). False while the main thread stays
        inside a call that Python cannot interrupt, such as a C++ op."""
        if self._drain_raised():
            self._raised = True
        return self._raised

    def _drain_raised(self) -> bool:
        """Whether the kernel wrote into the ``raised`` pipe since the last look."""
        got = False
        if self._raised_pipe is None:  # (closed)
            return got
        with contextlib.suppress(OSError):  # (non-blocking: nothing more to read)
            while os.read(self._raised_pipe, 64):
                got = True
        return got

    def interrupt(self) -> None:
        """Ask the recipe to stop: ``KeyboardInterrupt`` where it runs Python."""
        if not self.alive:
            return
        self._drain_raised()  # (what a Stop before raised is not this one's)
        self._raised = False
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
            self.process.send_signal(signal.SIGINT)
        else:  # no process group to signal: the kernel's reader thread interrupts it
            try:
                self.send(messages.Interrupt())
            except (OSError, ValueError):
                pass

    def kill(self) -> None:
        """End the kernel, every process of its group, and every process below it (in
        a session of its own too, where ``/proc`` shows them) now."""
        pid = self.process.pid
        if pid and self.alive and hasattr(os, "killpg"):
            reaper.end_tree(pid, pid)  # (the kernel's group is its pid, from its setsid)
        elif self._group is not None and hasattr(os, "killpg"):
            try:
                os.killpg(self._group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.alive:
            self.process.kill()
        self._join(5)
        _KERNELS.discard(self)

    def end_children(self) -> None:
        """End every process the kernel's recipes started, and keep the kernel."""
        pid = self.process.pid
        if pid and self.alive and hasattr(os, "killpg"):
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
        while self.alive and (left := deadline - time.monotonic()) > 0:
            try:
                self.receive(min(left, 0.05))
            except (EOFError, OSError, ValueError):
                self._join(left)
        with contextlib.suppress(EOFError, OSError, ValueError):
            while not self.alive and self.receive(0) is not None:
                pass  # what it sent before it ended (its report)
        if self.alive:
            self.kill()
            return False
        return True

    def close(self) -> None:
        """Shut the kernel down (politely, then not), with every process it started."""
        if self.alive:
            self.end_children()
            try:
                self.send(messages.Shutdown())
            except (OSError, ValueError):
                pass
            self._join(1.0)
        if self.alive:
            self.kill()
        self._conn.close()
        for fd in (self._raised_pipe, self._exited):
            if fd is not None:
                os.close(fd)
        self._raised_pipe = self._exited = None
        _KERNELS.discard(self)

    # -- running for the window ---------------------------------------------------------------
    def warm(self, modules: tuple[str, ...] = ()) -> None:
        """Have the kernel load torch now, while the window opens, then ``modules``."""
        self.send(messages.Warm(list(modules)))

    def run_source(self, path: str, source: str, cwd: str = "") -> None:
        """Start running ``source`` in a fresh namespace; messages follow until ``Done``."""
        self.send(messages.RunSource(path, source, cwd, self.memory_budget))

    # -- running a whole file (tensor-lab run) ------------------------------------------------
    def run_file(self, path: str, source: str, argv: list[str] | None = None,
                 timeout: float | None = None, report: bool = False) -> Ending:
        """Run ``source`` as ``python path argv`` would; wait at most ``timeout`` seconds.

        With ``report``, the output is captured and the ending carries the JSON report.
        """
        self.send(messages.RunFile(path, source, list(argv or []),
                                   memory_budget=self.memory_budget, report=report))
        if report:  # stopped, it reports what it gathered: that takes a moment
            self._stop_grace = max(STOP_GRACE_S, REPORT_GRACE_S)
        got: dict | None = None
        deadline = None if timeout is None else time.monotonic() + timeout
        done: messages.Done | None = None
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
                self._join(min(left, WATCH_INTERVAL_S) if left is not None
                           else WATCH_INTERVAL_S)
                self._watch_memory()
                if not self.alive:
                    return Ending(self._exit_code(done.exit_code),
                                  "memory" if done.out_of_memory else "", done.out_of_memory, got)
                continue
            try:
                message = self.receive(min(left, 0.1) if left is not None else 0.1)
            except messages.VersionMismatch as e:
                return Ending(1, "protocol", message=str(e))
            except (EOFError, OSError):
                return self._ended()
            if isinstance(message, messages.Report):
                got = message.report
            if isinstance(message, messages.Done):
                done = message
            if message is None and not self.alive:
                return self._ended()

    def _exit_code(self, reported: int) -> int:
        code = self.exit_code(30)
        return reported if code is None else code

    def _ended(self) -> Ending:
        code = self.exit_code(5)  # negative: the signal that ended it
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
