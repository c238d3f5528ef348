"""The kernel's memory budget: a limit the operating system enforces, and a watch on it.

The budget is what the recipe may allocate on top of what the kernel holds when its
first run starts (the window's kernel has loaded torch by then; ``tensor-lab run``'s
has not, and the recipe loads torch itself). Inside the kernel,
``limit_memory`` caps the process's data (``RLIMIT_DATA``: its heap and private
writable mappings, where the system has it) at what it holds now plus the budget, so an
allocation past it fails in the recipe (torch raises "can't allocate memory", python
``MemoryError``) rather than the OS killing the desktop session. (Not the address space:
torch's libraries map 0.6 GiB of it, a quarter resident, and under a budget of 0.5 GiB
loading torch failed in ``tensor-lab run``.) The supervisor also reads the kernel's
resident memory (``resident_bytes``, Linux's ``/proc``) and ends a kernel that grows more
than the budget past its size at that start anyway.
"""

from __future__ import annotations

import os

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

GIB = 1 << 30


def physical_memory() -> int | None:
    """Bytes of RAM in this machine, where the system says."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def default_budget() -> int:
    """Half the machine's memory (4 GiB when unknown): room for the window and the rest."""
    total = physical_memory()
    return total // 2 if total else 4 * GIB


def budget_text(budget: int) -> str:
    return f"{budget / GIB:.1f} GiB"


def _status_bytes(pid: int | str, *fields: str) -> int | None:
    """The sum of these size fields of ``/proc/PID/status`` (None when one is missing)."""
    found: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                name, _, value = line.partition(":")
                if name in fields:
                    found[name] = int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return sum(found.values()) if len(found) == len(fields) else None


def resident_bytes(pid: int) -> int | None:
    """The memory process ``pid`` holds resident, its files' pages left out (the system
    can drop those, and loading torch brings 130 MB of them): its anonymous and shared
    pages, what the data cap of ``limit_memory`` counts, or near it. None where ``/proc``
    cannot tell."""
    size = _status_bytes(pid, "RssAnon", "RssShmem")
    return size if size is not None else _status_bytes(pid, "VmRSS")  # (before Linux 4.5)


def limit_memory(budget: int) -> bool:
    """Cap this process's data (heap and private writable mappings) at its present
    size plus ``budget``."""
    try:
        import resource
    except ImportError:  # Windows: the supervisor's watch is the only guard
        return False
    now = _status_bytes("self", "VmData") or 0
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        limit = now + budget
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ValueError, OSError):
        return False
    return True


def is_out_of_memory(error: str | None, message: str) -> bool:
    """Whether a recipe's exception says an allocation failed."""
    return error == "MemoryError" or (
        error in ("RuntimeError", "OutOfMemoryError")
        and ("can't allocate memory" in message or "out of memory" in message))
