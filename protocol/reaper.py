"""A kernel's process tree: it ends with its owner, and a kill ends all of it.

A recipe may start processes of its own (a ``DataLoader``'s workers, a ``Popen``), some
in new sessions, out of the kernel's process group. On Linux the kernel becomes a *child
subreaper* (``PR_SET_CHILD_SUBREAPER``), so that a process whose parent exits is handed
to the kernel rather than to init, and ``descendants`` finds every one of them by walking
``/proc``. The kernel also asks to be told when its parent dies
(``PR_SET_PDEATHSIG``); elsewhere its reader thread watches the pipe and the parent's pid.
"""

from __future__ import annotations

import os
import signal
import sys

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Have orphans of this process's descendants handed to it (Linux only)."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def signal_on_parent_death(signum: int) -> bool:
    """Have the OS send ``signum`` to this process when its parent ends (Linux only)."""
    return _prctl(_PR_SET_PDEATHSIG, int(signum))


def _parents() -> dict[int, int]:
    """Every process's parent, as ``/proc`` shows them now ({} where there is none)."""
    found = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            found[int(name)] = int(fields[1])
    return found


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (children, theirs, ...), as ``/proc`` shows them."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def end_tree(pid: int, group: int | None = None, keep_root: bool = False,
             rounds: int = 4) -> None:
    """SIGKILL process ``pid`` (unless ``keep_root``), every process below it, and
    process group ``group``.

    Each one is stopped first, so that none can start another meanwhile; a few rounds
    catch what was forked between the walk and the stop. Called by ``pid`` itself, it
    ends itself last.
    """
    me = os.getpid()
    stopped: list[int] = []
    if not keep_root and pid != me:
        _signal_all([pid], signal.SIGSTOP)
    for _ in range(rounds):
        found = [p for p in descendants(pid) if p not in stopped and p != me]
        if not found:
            break
        _signal_all(found, signal.SIGSTOP)
        stopped += found
    _signal_all(stopped, signal.SIGKILL)
    if group is not None and hasattr(os, "killpg") and not (keep_root and group == pid):
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if not keep_root:
        _signal_all([pid], signal.SIGKILL)
