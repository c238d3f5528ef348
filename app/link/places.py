"""Where the window's recipes run: this computer, or a server over SSH.

``run_on(target)`` chooses for the window's kernels from then on (``tensor-lab --kernel
ssh://...``); ``transport()`` is what a new ``KernelSession`` starts its kernels with
(None: the local process, ``supervisor.Kernel``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.link.address import SshTarget
    from app.link.transport import Transport

_chosen: SshTarget | None = None


def run_on(target: SshTarget | None) -> None:
    """Run the window's recipes on ``target``'s server from now on (None: here)."""
    global _chosen
    _chosen = target


def chosen() -> SshTarget | None:
    """The server the window's recipes run on, or None for this computer."""
    return _chosen


def transport(target: SshTarget | None = None) -> Callable[[int | None], Transport] | None:
    """What starts a kernel on ``target`` (the chosen place by default): a factory for
    ``KernelSession(transport=...)``, or None for a local kernel."""
    target = target or _chosen
    if target is None:
        return None

    def start(memory_budget: int | None) -> Transport:
        from app.link.ssh import SshKernel

        return SshKernel(target, memory_budget)

    return start
