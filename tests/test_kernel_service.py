"""The window's kernel service: runs never block the caller, every run ends with one
``Ended``, and a recipe that hangs, floods, eats memory or crashes leaves a ready kernel.

Core tests: no QApplication; real spawned kernels, shared where a test leaves one ready.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from app.link.session import (
    Ended,
    KernelReady,
    KernelSession,
    KernelStarting,
    Restoring,
    RunMessage,
)
from protocol import messages
from protocol.budget import GIB
from protocol.limits import LIMIT

# Stop's grace is 200 ms; the margin covers a loaded two-core machine.
STOP_LIMIT_S = 1.0


class Watcher:
    """Polls a session as the window's timer would, and keeps every event."""

    def __init__(self, session: KernelSession):
        self.session = session
        self.events: list = []
        self.longest_poll = 0.0
        self._seen = 0  # events before this one were looked at by ``until``

    def poll(self) -> list:
        start = time.perf_counter()
        got = self.session.poll()
        self.longest_poll = max(self.longest_poll, time.perf_counter() - start)
        self.events.extend(got)
        return got

    def until(self, predicate, timeout: float = 120):
        """Poll until an event satisfies ``predicate`` (seen already or new); that event."""
        deadline = time.monotonic() + timeout
        found = next((e for e in self.events[self._seen:] if predicate(e)), None)
        while found is None and time.monotonic() < deadline:
            time.sleep(0.005)
            found = next((e for e in self.poll() if predicate(e)), None)
        if found is None:
            raise AssertionError(f"not within {timeout} s: {self.events[-6:]}")
        self._seen = next(i for i in range(len(self.events) - 1, -1, -1)
                          if self.events[i] is found) + 1
        return found

    def ended(self, run_id: int, timeout: float = 120) -> Ended:
        return self.until(lambda e: isinstance(e, Ended) and e.run_id == run_id, timeout)

    def started(self, run_id: int, line: int, timeout: float = 120) -> None:
        self.until(lambda e: isinstance(e, RunMessage) and e.run_id == run_id
                   and isinstance(e.message, messages.StepStarted) and e.message.line == line,
                   timeout)

    def messages(self, run_id: int, kind=object) -> list:
        return [e.message for e in self.events if isinstance(e, RunMessage)
                and e.run_id == run_id and isinstance(e.message, kind)]

    @property
    def pid(self) -> int:
        return [e.pid for e in self.events if isinstance(e, KernelReady)][-1]


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture(scope="module")
def watcher():
    session = KernelSession(run_timeout=120)
    session.start()
    w = Watcher(session)
    w.until(lambda e: isinstance(e, KernelReady))
    yield w
    pids = {e.pid for e in w.events if isinstance(e, KernelReady)}
    session.close()
    assert all(_gone(pid) for pid in pids)


RECIPE = '''\
import torch
x = torch.arange(6).view(2, 3)
for i in range(3):
    print("step", i)
y = x * 2
'''


def test_a_run_reports_each_statement_in_order_then_ends(watcher, tmp_path):
    start = len(watcher.events)
    run_id = watcher.session.run(RECIPE, str(tmp_path / "r.py"), str(tmp_path))
    ended = watcher.ended(run_id)
    assert (ended.reason, ended.exit_code, ended.message) == ("", 0, "")
    mine = [e for e in watcher.events[start:] if getattr(e, "run_id", run_id) == run_id]
    assert all(isinstance(e, RunMessage | Ended) for e in mine)
    kinds = [(type(e.message).__name__, getattr(e.message, "index", None))
             for e in mine if isinstance(e, RunMessage) and
             not isinstance(e.message, messages.Output)]
    assert kinds == [(kind, i) for i in range(4) for kind in ("StepStarted", "StepDone")] + [
        ("Done", None)]
    printed = watcher.messages(run_id, messages.Output)
    assert "".join(m.text for m in printed) == "step 0\nstep 1\nstep 2\n"
    assert {m.index for m in printed} == {2}
    assert watcher.messages(run_id, messages.StepDone)[3].names["y"]["shape"] == [2, 3]
    assert isinstance(mine[-1], Ended)


def test_stop_interrupts_python_and_keeps_the_kernel(watcher, tmp_path):
    pid = watcher.pid
    # import torch waits for the kernel's own import of it, in the background since it
    # started: the loop then runs alone, as a recipe's code does
    run_id = watcher.session.run("import torch\nx = 1\nwhile True:\n    pass\n",
                                 str(tmp_path / "r.py"))
    watcher.started(run_id, line=3)
    time.sleep(0.2)
    start = time.monotonic()
    watcher.session.stop()
    ended = watcher.ended(run_id, timeout=10)
    assert time.monotonic() - start < STOP_LIMIT_S
    assert (ended.reason, ended.exit_code) == ("stopped", 130) and ended.message
    assert watcher.messages(run_id, messages.StepDone)[-1].error == "KeyboardInterrupt"
    time.sleep(0.3)
    watcher.poll()
    assert watcher.pid == pid and not [e for e in watcher.events[-5:]
                                       if isinstance(e, KernelStarting)]
    assert not _gone(pid)


def test_a_run_past_its_time_limit_ends_with_a_message(watcher, tmp_path):
    start = time.monotonic()
    run_id = watcher.session.run("while True:\n    pass\n", str(tmp_path / "r.py"), timeout=1)
    ended = watcher.ended(run_id, timeout=20)
    assert 1 <= time.monotonic() - start < 1 + 10
    assert ended.reason == "timeout" and "time limit of 1 s" in ended.message


def test_an_output_flood_never_slows_poll_and_stays_bounded(watcher, tmp_path):
    run_id = watcher.session.run("while True:\n    print(1)\n", str(tmp_path / "r.py"))
    watcher.started(run_id, line=1)
    watcher.longest_poll = 0.0
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        watcher.poll()
        time.sleep(0.016)  # the window's timer
    time.sleep(1.0)  # a window too busy to poll: what waits meanwhile is merged, bounded
    piled = watcher.poll()
    assert len(piled) < 20
    watcher.session.stop()
    ended = watcher.ended(run_id, timeout=10)
    assert watcher.longest_poll < 0.05, watcher.longest_poll
    outputs = watcher.messages(run_id, messages.Output)
    assert sum(len(m.text) for m in outputs) > 10_000
    assert max(len(m.text) for m in outputs) <= LIMIT
    assert ended.reason == "stopped"


def test_a_second_run_stops_the_first_and_nothing_of_it_follows(watcher, tmp_path):
    first = watcher.session.run("import time\nwhile True:\n    print('one')\n"
                                "    time.sleep(0.001)\n", str(tmp_path / "one.py"))
    watcher.started(first, line=2)
    time.sleep(0.2)
    start = len(watcher.events)
    second = watcher.session.run("print('two')\n", str(tmp_path / "two.py"))
    assert second > first
    ended = watcher.ended(second)
    assert ended.reason == "" and ended.exit_code == 0
    later = watcher.events[start:]
    ids = [e.run_id for e in later if isinstance(e, RunMessage | Ended)]
    assert Ended in {type(e) for e in later if getattr(e, "run_id", 0) == first}
    assert ids == sorted(ids), ids  # every event of run 1, then only run 2's
    assert [m.text for m in watcher.messages(second, messages.Output)] == ["two\n"]


CALIBRATED_MATMUL = '''\
import time
import torch
a = torch.randn(1000, 1000)
torch.mm(a, a)
start = time.perf_counter(); torch.mm(a, a); seconds = time.perf_counter() - start
n = min(12000, int(1000 * (2.0 / seconds) ** (1 / 3)))
b = torch.randn(n, n)
for _ in range(100):
    torch.mm(b, b)
'''


def test_stop_during_a_long_cpp_op_ends_the_kernel_and_restores(watcher, tmp_path):
    """One product of ``b`` takes about 2 s here: KeyboardInterrupt cannot come in time."""
    pid = watcher.pid
    run_id = watcher.session.run(CALIBRATED_MATMUL, str(tmp_path / "mm.py"))
    watcher.started(run_id, line=8)
    time.sleep(0.5)
    start = time.monotonic()
    watcher.session.stop()
    ended = watcher.ended(run_id, timeout=10)
    assert time.monotonic() - start < STOP_LIMIT_S + 1  # a kill also joins the process
    assert ended.reason == "stopped" and ended.exit_code == -signal.SIGKILL
    assert "did not stop within 200 ms (a C++ operation cannot be interrupted)" in \
        ended.message  # the KeyboardInterrupt never came: the product held the thread
    restoring = watcher.until(lambda e: isinstance(e, Restoring))
    assert (restoring.stopped_run, restoring.statements) == (run_id, 9)
    assert watcher.pid != pid and _gone(pid)
    restored = watcher.ended(restoring.run_id)
    assert (restored.reason, restored.exit_code) == ("", 0)
    done = watcher.messages(restoring.run_id, messages.StepDone)
    assert [m.index for m in done] == list(range(9))
    n = done[7].names["n"]["value"]
    assert done[8].names["b"]["shape"] == [n, n]


SWALLOWS = """\
import time
while True:
    try:
        time.sleep(0.1)
    except KeyboardInterrupt:
        pass
"""


def test_stop_of_a_loop_that_catches_keyboardinterrupt_says_so_not_cpp(watcher, tmp_path):
    """The recipe got its KeyboardInterrupt and went on: the status says that, not that a
    C++ operation could not be interrupted."""
    run_id = watcher.session.run(SWALLOWS, str(tmp_path / "swallow.py"))
    watcher.started(run_id, line=2)
    time.sleep(0.3)
    watcher.session.stop()
    ended = watcher.ended(run_id, timeout=10)
    assert ended.reason == "stopped" and ended.exit_code == -signal.SIGKILL
    assert "did not stop within 200 ms of its KeyboardInterrupt (the recipe caught it" in \
        ended.message
    assert "C++" not in ended.message
    restoring = watcher.until(lambda e: isinstance(e, Restoring))
    assert watcher.ended(restoring.run_id).reason == ""  # "import time" again: ready


DEATHS = {
    "segfault": ("import ctypes\nctypes.string_at(0)\n", -signal.SIGSEGV,
                 "The kernel ended with signal SIGSEGV."),
    "exit": ("import os\nos._exit(3)\n", 3, "The kernel ended with exit code 3."),
    "abort": ("import os\nos.abort()\n", -signal.SIGABRT,
              "The kernel ended with signal SIGABRT."),
    "killed": ("import time\nwhile True:\n    time.sleep(0.01)\n", -signal.SIGKILL,
               "The kernel ended with signal SIGKILL."),
}


@pytest.mark.parametrize("death", list(DEATHS))
def test_a_kernel_that_dies_is_reported_and_replaced(watcher, tmp_path, death):
    source, code, message = DEATHS[death]
    pid = watcher.pid
    run_id = watcher.session.run(source, str(tmp_path / "r.py"))
    if death == "killed":
        watcher.started(run_id, line=2)
        os.kill(pid, signal.SIGKILL)
    ended = watcher.ended(run_id)
    assert (ended.reason, ended.exit_code, ended.message) == ("died", code, message)
    watcher.until(lambda e: isinstance(e, KernelReady))
    assert KernelStarting("died", message) in watcher.events[-3:]
    assert watcher.pid != pid and _gone(pid)
    # "import torch" first: it waits for the fresh kernel's warm import of torch to end
    # (a name bound while that import is half done trips kernel.summary's torch check)
    again = watcher.session.run("import torch\nx = 1\n", str(tmp_path / "again.py"))
    assert watcher.ended(again).exit_code == 0


def test_a_memory_bomb_ends_with_the_budget_named_and_a_fresh_kernel(tmp_path):
    session = KernelSession(memory_budget=int(1.5 * GIB))
    watcher = Watcher(session)
    try:
        run_id = session.run("import torch\nxs = []\nwhile True:\n"
                             "    xs.append(torch.ones(10**6))\n", str(tmp_path / "bomb.py"))
        ended = watcher.ended(run_id)
        assert ended.reason == "memory" and "1.5 GiB" in ended.message
        watcher.until(lambda e: isinstance(e, KernelStarting) and e.cause == "memory")
        watcher.until(lambda e: isinstance(e, KernelReady))
        first, last = [e.pid for e in watcher.events if isinstance(e, KernelReady)][:2]
        assert first != last and _gone(first)
    finally:
        session.close()


def test_close_ends_the_run_the_kernel_and_the_thread(tmp_path):
    threads = len([t for t in threading.enumerate() if t.name == "tensor-lab-kernel-session"])
    session = KernelSession()
    watcher = Watcher(session)
    run_id = session.run("while True:\n    pass\n", str(tmp_path / "r.py"))
    watcher.started(run_id, line=1)
    start = time.monotonic()
    session.close()
    assert time.monotonic() - start < 5
    assert _gone(watcher.pid)
    assert len([t for t in threading.enumerate()
                if t.name == "tensor-lab-kernel-session"]) == threads
    watcher.poll()
    assert isinstance(watcher.events[-1], Ended) and watcher.events[-1].reason == "stopped"
    with pytest.raises(RuntimeError):
        session.run("x = 1\n", "r.py")


def test_a_run_replaced_while_its_kernel_starts_leaves_no_fatal_error(tmp_path, capfd):
    """Edits while a C++ op runs: the first edit's run ends the kernel (the op cannot be
    interrupted) and starts on a fresh one; the next edit replaces that run while its
    kernel still starts. The starting kernel is ended, never interrupted mid-start (which
    made python print "Fatal Python error" and a KeyboardInterrupt to the terminal)."""
    session = KernelSession()
    watcher = Watcher(session)
    path = str(tmp_path / "mm.py")
    try:
        first = session.run(CALIBRATED_MATMUL, path)
        watcher.started(first, line=8)
        time.sleep(0.3)
        session.run("x = 2\n", path)  # ends the kernel; this run waits for a fresh one
        watcher.until(lambda e: isinstance(e, Ended) and e.run_id == first, timeout=10)
        third = session.run("x = 3\n", path)  # while the fresh kernel starts
        assert watcher.ended(third).reason == ""
    finally:
        session.close()
    err = capfd.readouterr().err
    assert "Fatal Python error" not in err and "KeyboardInterrupt" not in err, err


def test_a_stop_between_two_statements_interrupts_the_next_one():
    """SIGINT after one statement reported and before the next runs is kept: the next
    statement starts with its KeyboardInterrupt (the kernel is never left running on); a
    new run forgets a Stop meant for the one before."""
    from kernel import child

    child._on_sigint(signal.SIGINT, None)  # outside the recipe's code: nothing raised now
    with pytest.raises(KeyboardInterrupt):
        with child._user_code():
            pass  # the statement never starts
    with child._user_code():
        pass  # taken once
    child._on_sigint(signal.SIGINT, None)
    child._forget_interrupt()  # a new run
    with child._user_code():
        pass


def test_a_small_budget_is_set_once_torch_is_in(tmp_path):
    """The first run caps the kernel's data at its size plus the budget. The kernel
    imports torch on a thread as it starts: a cap set before that import was done left
    torch no room, and the first run of a window with a small budget failed at
    ``import torch``. 150 MiB: below the data torch's import takes (about 210 MB)."""
    session = KernelSession(memory_budget=150 * 2**20)
    watcher = Watcher(session)
    try:
        session.start()  # the warm import starts; the run follows at once
        run_id = session.run("import torch\nx = torch.ones(3).sum().item()\nprint(x)\n",
                             str(tmp_path / "first.py"))
        assert watcher.ended(run_id).exit_code == 0
        printed = "".join(m.text for m in watcher.messages(run_id, messages.Output))
        assert printed == "3.0\n"
    finally:
        session.close()


def test_a_run_for_an_idle_kernel_is_on_its_way_when_run_returns(watcher, tmp_path):
    """The window's thread sends an edit's run to an idle kernel itself, before it goes
    on with its own work (handed to the reader thread, the run would wait for the GIL,
    which the window's thread keeps through the code pane's and the steps list's
    updates, and the kernel would start later)."""
    first = watcher.session.run("x = 1\n", str(tmp_path / "r.py"), str(tmp_path))
    watcher.ended(first)
    time.sleep(0.05)  # the reader thread back to waiting for the kernel
    for _ in range(3):
        run_id = watcher.session.run("y = 2\n", str(tmp_path / "r.py"), str(tmp_path))
        sent = watcher.session._run  # the kernel's run: set when it is sent
        assert sent is not None and sent.run_id == run_id
        watcher.ended(run_id)
        time.sleep(0.05)
