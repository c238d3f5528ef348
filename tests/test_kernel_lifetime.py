"""A kernel never outlives its owner, and a Stop, a time limit, a restart or a closed
window ends every process its recipe started, in sessions of their own too.

Real processes: ``tensor-lab run`` as a user starts it, kernels, and the recipe's own
children; their pids come from a file the recipe writes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.link.session import Ended, KernelSession
from app.link.supervisor import Kernel

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the process tree is read from /proc")

#: What the recipe starts: a child in a session of its own (out of the kernel's group),
#: and a grandchild whose parent exits at once (an orphan, handed to the kernel).
CHILDREN = '''\
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                         start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
orphan = subprocess.run(["sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!"],
                        capture_output=True, text=True, start_new_session=True)
with open({pids!r} + ".part", "w") as f:
    f.write(f"{{os.getpid()}} {{child.pid}} {{orphan.stdout.strip()}}")
os.replace({pids!r} + ".part", {pids!r})
'''
LOOP = "while True:\n    sum(range(1000))\n"


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for a parent that never reaps it
    counts as ended: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2:].split()[0] in (b"Z", b"X")


def _pids(path: Path, timeout: float = 120) -> list[int]:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, "the recipe never wrote its pids"
        time.sleep(0.02)
    return [int(p) for p in path.read_text().split()]


def _all_gone_within(pids: list[int], seconds: float) -> float:
    """Seconds until every one of ``pids`` ended; fails past ``seconds`` (and ends them)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if all(_gone(p) for p in pids):
            return time.monotonic() - start
        time.sleep(0.01)
    alive = [p for p in pids if not _gone(p)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"still running after {seconds} s: {alive}")


def _recipe(tmp_path: Path, tail: str = LOOP) -> tuple[Path, Path]:
    pids = tmp_path / "pids.txt"
    recipe = tmp_path / "forever.py"
    recipe.write_text(CHILDREN.format(pids=str(pids)) + tail)
    return recipe, pids


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["SIGTERM", "SIGHUP", "SIGKILL"])
def test_tensor_lab_run_ended_by_a_signal_ends_its_kernel_and_the_recipes_processes(
        tmp_path, signum):
    recipe, pids = _recipe(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    # (as from a terminal: under nohup SIGHUP is ignored, and ``run`` leaves it so)
    lab = subprocess.Popen([sys.executable, "-m", "app", "run", str(recipe)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    kernel, child, orphan = _pids(pids)
    assert kernel != lab.pid and not _gone(kernel)
    lab.send_signal(signum)
    took = _all_gone_within([kernel, child, orphan], 5.0)
    # it ends as python ends by that signal (a shell shows 128 + n), and says nothing
    _, stderr = lab.communicate(timeout=10)
    assert (lab.returncode, stderr) == (-signum, b"")
    print(f"{signal.Signals(signum).name}: kernel and children gone in {took * 1000:.0f} ms")


def test_a_time_limit_ends_the_recipes_processes_in_new_sessions_too(tmp_path):
    recipe, pids = _recipe(tmp_path)
    kernel = Kernel()
    try:
        ending = kernel.run_file(str(recipe), recipe.read_text(), timeout=3.0)
        assert ending.reason == "timeout"
        _all_gone_within(_pids(pids, 1)[1:], 2.0)
    finally:
        kernel.close()


def test_a_normal_end_leaves_the_recipes_processes_as_python_does(tmp_path):
    recipe, pids = _recipe(tmp_path, tail="")
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    lab = subprocess.run([sys.executable, "-m", "app", "run", str(recipe)], env=env,
                         capture_output=True, timeout=120)
    assert lab.returncode == 0, lab.stderr
    _, child, orphan = _pids(pids, 1)
    try:  # python leaves the processes a script started at its end: so does the kernel
        assert not _gone(child) and not _gone(orphan)
    finally:
        for pid in (child, orphan):
            os.kill(pid, signal.SIGKILL)


def _window_run(session: KernelSession, recipe: Path) -> int:
    return session.run(recipe.read_text(), str(recipe), str(recipe.parent), timeout=None)


def _until_ended(session: KernelSession, run_id: int, timeout: float = 60) -> Ended:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for event in session.poll():
            if isinstance(event, Ended) and event.run_id == run_id:
                return event
        time.sleep(0.01)
    raise AssertionError(f"run {run_id} did not end within {timeout} s")


def test_stop_restart_and_close_in_the_window_end_the_recipes_processes(tmp_path):
    session = KernelSession(run_timeout=None)
    try:
        for how in ("stop", "restart", "close"):
            pids = tmp_path / f"{how}.txt"
            recipe = tmp_path / f"{how}.py"
            # "time.sleep" in the loop: Stop interrupts it, and the kernel stays
            recipe.write_text(CHILDREN.format(pids=str(pids))
                              + "while True:\n    time.sleep(0.01)\n")
            run_id = _window_run(session, recipe)
            kernel, child, orphan = _pids(pids)
            getattr(session, how)()
            if how == "stop":
                ended = _until_ended(session, run_id)
                assert ended.reason == "stopped" and not _gone(kernel)  # kept: interrupted
            _all_gone_within([child, orphan] + ([kernel] if how != "stop" else []), 5.0)
    finally:
        session.close()


def test_a_window_killed_mid_run_leaves_no_kernel_behind(tmp_path):
    """The window's process dies by SIGKILL (nothing of it runs after): its kernel,
    busy in the recipe's loop, notices by itself and ends with what it started."""
    recipe, pids = _recipe(tmp_path)
    window = subprocess.Popen([sys.executable, "-c", f'''
import time
from app.link.session import KernelSession
session = KernelSession(run_timeout=None)
session.run(open({str(recipe)!r}).read(), {str(recipe)!r})
while True:
    session.poll()
    time.sleep(0.05)
'''], cwd=Path(__file__).parent.parent)
    try:
        kernel, child, orphan = _pids(pids)
        window.kill()
        took = _all_gone_within([kernel, child, orphan], 5.0)
        print(f"window SIGKILL: kernel and children gone in {took * 1000:.0f} ms")
    finally:
        window.kill()
        window.wait()
