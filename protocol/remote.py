"""The messages between the window and a kernel's watcher on another machine (SSH).

Over SSH one stream carries everything (the ssh process's stdin and stdout). On the
server a small watcher (``kernel.remote``) sits between it and the kernel: it passes the
kernel's frames both ways untouched, and answers the window's ``Control`` messages
itself, doing there what the local supervisor does with signals and ``/proc``
(``app.link.supervisor``): interrupt, kill, end the recipe's processes, watch memory.
What it has to tell comes as ``Notice`` messages between the kernel's frames. Its first
message, ``Server``, says what the server has before any kernel starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.codec import wire_type
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the codec's

#: The oldest Python a server may have for the kernel.
OLDEST_PYTHON = (3, 10)
#: Where a server keeps the recipes' work folders, under the user's home.
WORK_ROOT = "~/.local/share/tensor-lab/work"
#: The exit code of a boot that found a Python too old (its reason goes to stderr).
OLD_PYTHON_EXIT = 3
#: The start of what a server's python runs (``python3 -c``): ``_take(n)`` reads exactly
#: ``n`` bytes of its stdin. Then ``_boot_text`` (``kernel/boot.py``'s text) is read
#: (``BOOT``) or given (the watcher's kernel, ``kernel.remote``), and run.
TAKE = ("import os, struct\n"
        "def _take(n):\n"
        "    b = b''\n"
        "    while len(b) < n:\n"
        "        c = os.read(0, n - len(b))\n"
        "        if not c:\n"
        "            raise SystemExit(75)\n"
        "        b += c\n"
        "    return b\n")
#: How ``_boot_text`` runs, named as the kernel's modules are (``kernel.boot.ROOT``).
RUN_BOOT = "exec(compile(_boot_text, '/<tensor-lab>/kernel/boot.py', 'exec'))\n"
#: What ssh runs on the server: the boot's text comes first on stdin (its length, then it).
BOOT = TAKE + "_boot_text = _take(struct.unpack('<Q', _take(8))[0])\n" + RUN_BOOT


@wire_type
@dataclass
class Server:
    """What the server has (watcher to window, its first message): its name, its
    python (path and version), torch's version and numpy's ("" where missing), the
    memory a recipe may use there (half its RAM), the work folders' root, and the
    watcher's pid."""

    host: str
    python: str
    python_version: str
    torch: str
    numpy: str
    memory_budget: int
    work_root: str
    pid: int


@wire_type
@dataclass
class Control:
    """The window asks the watcher (window to watcher): ``interrupt`` the recipe
    (SIGINT to the kernel's group), ``kill`` the kernel and everything it started,
    ``end_children`` (keep the kernel), ``budget``: end the kernel when its resident
    size passes ``value`` bytes, or ``ping``: answer ``Notice("pong", value)`` (the
    connection's round trip)."""

    action: str
    value: int = 0


@wire_type
@dataclass
class Notice:
    """The watcher tells (watcher to window): ``raised`` (a Stop's KeyboardInterrupt
    reached the recipe), ``over_budget``, ``stdout`` (what the kernel's process wrote to
    its descriptor 1, ``data``: a ``tensor-lab run``'s output), ``ended`` (the
    kernel's exit code in ``value``: minus the signal that ended it), or ``pong``."""

    kind: str
    value: int = 0
    data: bytes = b""
