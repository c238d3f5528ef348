"""The window's link to its kernel: ``KernelSession`` over a ``Transport``, read by one
thread that waits on the transport and never looks at anything on a timer."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.link.events import Answered, Ended, KernelReady, RunMessage
from app.link.session import KernelSession
from app.link.transport import Transport
from protocol import messages
from protocol.wire import Wire

ROOT = Path(__file__).resolve().parent.parent


class _EchoKernel(Transport):
    """A kernel stand-in in this process: it answers a run with a step and its end, and
    a query with its kind; it counts every call the session makes to wait or look."""

    def __init__(self, memory_budget: int | None = None):
        self.memory_budget = memory_budget or 0
        self._said: queue.SimpleQueue = queue.SimpleQueue()
        self.receives = 0
        self.looks = 0  # ``alive`` and ``exit_code``: what a poller would ask
        self.killed = False

    def send(self, message):
        if isinstance(message, messages.RunSource):
            self._said.put(messages.StepStarted(0, 1))
            self._said.put(messages.StepDone(0, 1, 0.001))
            self._said.put(messages.Done(0))
        elif isinstance(message, messages.Query):
            self._said.put(messages.Answer(message.id, {"kind": message.kind}))

    def receive(self, timeout):
        self.receives += 1
        try:
            return self._said.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self):
        self._said.put(None)

    def warm(self, modules=()):
        pass

    def interrupt(self):
        pass

    interrupt_raised = False
    over_budget = False
    pid = 4242

    def kill(self):
        self.killed = True

    def close(self):
        pass

    @property
    def alive(self):
        self.looks += 1
        return not self.killed

    def exit_code(self, wait=0.0):
        self.looks += 1
        return None


def _until(session: KernelSession, predicate, limit: float = 10.0) -> list:
    seen, deadline = [], time.monotonic() + limit
    while time.monotonic() < deadline:
        seen += session.poll(0.01)
        if any(predicate(e) for e in seen):
            return seen
        time.sleep(0.005)
    raise AssertionError(f"not seen in {limit} s: {seen}")


def test_a_session_runs_and_asks_through_any_transport():
    """Everything the session does to its kernel goes through the ``Transport`` it is
    given (the SSH transport plugs in here)."""
    kernels: list[_EchoKernel] = []
    session = KernelSession(transport=lambda budget: kernels.append(_EchoKernel(budget))
                            or kernels[-1])
    try:
        run_id = session.run("x = 1\n", "/r.py")
        seen = _until(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)
        query = session.ask("shape", {"name": "x"})
        seen += _until(session, lambda e: isinstance(e, Answered) and e.query_id == query)
    finally:
        session.close()
    assert len(kernels) == 1
    assert KernelReady(4242) in seen
    steps = [type(e.message).__name__ for e in seen if isinstance(e, RunMessage)]
    assert steps == ["StepStarted", "StepDone", "Done"]
    assert [e for e in seen if isinstance(e, Answered)] == [Answered(query, {"kind": "shape"})]


def test_an_idle_session_waits_on_its_transport_without_looking():
    """Idle, the reader is blocked in one ``receive``: no wake-ups to look for commands
    or at the kernel (the service thread before woke 10 times a second to see whether
    the kernel lived, and 100 times a second while a query was open)."""
    kernel = _EchoKernel()
    session = KernelSession(transport=lambda _budget: kernel)
    try:
        run_id = session.run("x = 1\n", "/r.py")
        _until(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)
        time.sleep(0.1)
        receives, looks = kernel.receives, kernel.looks
        time.sleep(0.5)
        assert (kernel.receives, kernel.looks) == (receives, looks)
        query = session.ask("shape", {"name": "x"})  # a command wakes it at once
        _until(session, lambda e: isinstance(e, Answered) and e.query_id == query, 1.0)
    finally:
        session.close()


def test_a_session_reads_its_kernel_on_one_thread_of_its_own(tmp_path):
    """A real kernel's session adds one thread to the window: its reader, which is also
    the memory budget's watch (a thread of its own measured the kernel before)."""
    before = set(threading.enumerate())
    session = KernelSession(run_timeout=None)
    try:
        run_id = session.run("x = 1\n", str(tmp_path / "r.py"), str(tmp_path))
        _until(session, lambda e: isinstance(e, Ended) and e.run_id == run_id, 120)
        started = [t.name for t in set(threading.enumerate()) - before]
    finally:
        session.close()
    assert started == ["tensor-lab-kernel-reader"]


def test_the_windows_side_of_the_kernel_imports_no_torch():
    """The session, its transport, the protocol and the hook that takes its events: none
    of them brings torch (or numpy) into the window's process."""
    code = ("import sys\n"
            "import app.link.session, app.link.supervisor, app.link.transport\n"
            "import widgets.common.kernel_hook\n"
            "print(sorted({'torch', 'numpy'} & set(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_the_hook_takes_the_kernels_events_when_told_with_no_timer_running(qtbot):
    """The window takes what the reader hands it when the reader says so (a signal
    queued to the GUI thread); idle, none of the hook's timers runs (a 30 ms poll did)."""
    from PySide6.QtCore import QTimer

    from app.recipe.document import Document
    from widgets.common.kernel_hook import KernelHook

    document = Document()
    document.kernel = KernelSession(transport=_EchoKernel)
    taken: list = []
    document.take_kernel_events = taken.extend
    hook = KernelHook(document)
    try:
        hook.warm()
        qtbot.waitUntil(lambda: any(isinstance(e, KernelReady) for e in taken), timeout=5000)
        query = hook.session.ask("shape", {"name": "x"})
        qtbot.waitUntil(lambda: any(isinstance(e, Answered) and e.query_id == query
                                    for e in taken), timeout=2000)
        qtbot.wait(50)
        assert [t for t in hook.findChildren(QTimer) if t.isActive()] == []
    finally:
        hook.close()


class _TwoPipes:
    """A peer's output and input as two descriptors (a process's stdout and stdin)."""

    def __init__(self, read_fd: int, write_fd: int):
        self._read, self._write = read_fd, write_fd

    def fileno(self) -> int:
        return self._read

    def write_fileno(self) -> int:
        return self._write

    def close(self) -> None:
        os.close(self._read)
        os.close(self._write)


@pytest.mark.skipif(sys.platform == "win32", reason="descriptors are polled")
def test_the_wire_frames_two_descriptors_and_wakes_a_waiting_reader():
    """What the SSH transport needs of the wire: frames over a process's stdin and stdout
    (here two pipes), a read that waits with no timeout, ``wake`` from another thread,
    and the end of the peer's process (a descriptor readable once it has ended)."""
    there_r, here_w = os.pipe()  # what this side writes, the peer reads
    here_r, there_w = os.pipe()
    ended_r, ended_w = os.pipe()
    here = Wire(_TwoPipes(here_r, here_w), wakeable=True, ended=ended_r)
    there = Wire(_TwoPipes(there_r, there_w))
    try:
        messages.send(here, messages.Hello(messages.VERSION))
        assert messages.receive(there) == messages.Hello(messages.VERSION)
        messages.send(there, messages.Done(0))
        assert here.poll(None) and messages.receive(here) == messages.Done(0)

        start = time.monotonic()
        waker = threading.Timer(0.2, here.wake)
        waker.start()
        assert here.poll(None) is False and here.woken  # woken, not timed out
        assert 0.15 < time.monotonic() - start < 5
        waker.join(5)  # (its thread may still be returning from wake())

        os.close(ended_w)  # the peer's process ends, with its pipes still open
        with pytest.raises(EOFError):
            here.poll(None)
    finally:
        here.close()
        there.close()



def test_a_kernel_writes_a_heatmaps_plane_whole_while_the_window_reads_it():
    """The kernel's end takes a 1 MB frame (a heatmap's plane) without waiting for the
    window's reader, where the system allows a buffer that large: the kernel goes on to
    the next answer meanwhile. At the socket's default (about 200 kB) it waited."""
    from app.link.supervisor import socket_pair

    cap = Path("/proc/sys/net/core/wmem_max")
    if not cap.exists() or int(cap.read_text()) < 1 << 20:
        pytest.skip("this system caps a socket's send buffer below 1 MB")
    ours, theirs = socket_pair()
    try:
        theirs.setblocking(False)  # a write that would wait raises BlockingIOError
        frame = memoryview(bytes(1 << 20))
        sent = 0
        while sent < len(frame):
            sent += theirs.send(frame[sent:])
        assert ours.recv(16) == bytes(16)  # (and it is there to read)
    finally:
        ours.close()
        theirs.close()
