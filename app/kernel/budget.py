"""The kernel's memory budget: a limit the operating system enforces, and a watch on it.

Inside the kernel, ``limit_memory`` caps the address space (``RLIMIT_AS``, where the
system has it) at what the process uses now plus the budget, so an allocation past it
fails in the recipe (torch raises "can't allocate memory", python ``MemoryError``) rather
than the OS killing the desktop session. The supervisor also reads the kernel's resident
size (``resident_bytes``, Linux's ``/proc``) and ends a kernel that grows past the budget
anyway.
"""

from __future__ import annotations

import os

from app.kernel.sealed import BUILTINS

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


def _status_bytes(pid: int | str, field: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def resident_bytes(pid: int) -> int | None:
    """The resident size of process ``pid`` (None where ``/proc`` cannot tell)."""
    return _status_bytes(pid, "VmRSS")


def limit_memory(budget: int) -> bool:
    """Cap this process's address space at its present size plus ``budget``."""
    try:
        import resource
    except ImportError:  # Windows: the supervisor's watch is the only guard
        return False
    now = _status_bytes("self", "VmSize") or 0
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = now + budget
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        return False
    return True


def is_out_of_memory(error: str | None, message: str) -> bool:
    """Whether a recipe's exception says an allocation failed."""
    return error == "MemoryError" or (
        error in ("RuntimeError", "OutOfMemoryError")
        and ("can't allocate memory" in message or "out of memory" in message))
