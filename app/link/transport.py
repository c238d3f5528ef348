"""What a window's kernel session needs of the way to its kernel: the ``Transport``.

``app.link.session.KernelSession`` talks to its kernel only through a ``Transport``:
it sends typed messages (``protocol.messages``), reads them back on its one reader
thread with a blocking ``receive``, and asks the transport to interrupt, end and watch
the kernel. The local transport is a process and its pipe
(``app.link.supervisor.Kernel``: ``python -m kernel`` started as a plain
subprocess, handed a socket and the ``raised`` pipe as descriptors). Another plugs in
by implementing this class and handing ``KernelSession`` a factory
(``KernelSession(transport=...)``), for example:

- **SSH** (``app.link.ssh.SshKernel``): ``ssh host python3 -c BOOT``, the kernel's code
  sent as a zip on its stdin, then frames both ways over ssh's stdin and stdout (a
  ``Wire`` over ``Descriptors``). On the server a watcher (``kernel.remote``) starts the
  kernel as the local supervisor does and passes its frames; ``interrupt``, ``kill``
  and the memory watch become ``protocol.remote.Control`` messages it acts on there,
  and what it tells (a ``KeyboardInterrupt`` raised, the budget passed, the kernel's
  end) comes back as ``Notice`` messages; ``alive`` and ``ended`` follow them and the
  ssh process.
- **Jupyter**: a kernel started by a ``jupyter_client`` kernel manager (or a JupyterHub
  server's), with this protocol's frames carried in a comm; ``interrupt`` is the
  manager's ``interrupt_kernel``, ``kill`` its ``shutdown_kernel(now=True)``.

Every transport keeps the rules a session relies on: ``send`` may be called from any
thread (one message at a time, whole); ``receive`` is called from one thread only and
blocks until a message, the ``timeout``, ``wake`` or the kernel's end (``EOFError``);
the first message a transport sends is ``messages.Hello`` (the kernel checks the
window's ``messages.VERSION`` with it); the first run's ``Ready`` is checked the other
way (``messages.VersionMismatch``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class Transport(ABC):
    """One kernel, wherever it runs, as a session sees it.

    Attributes
    ----------
    memory_budget : int
        Bytes a recipe may use on top of the kernel's size at its first run.
    wakes : bool
        Whether ``wake`` ends a ``receive`` that waits. Where it does not, the reader
        bounds its own waits.
    """

    memory_budget: int = 0
    wakes: bool = True

    @abstractmethod
    def send(self, message: Any) -> None:
        """Send one message (from any thread). ``OSError`` or ``ValueError``: the kernel
        can no longer be reached."""

    @abstractmethod
    def receive(self, timeout: float | None) -> Any | None:
        """The next message, waiting at most ``timeout`` seconds (None: no limit). None
        when none came in time, or ``wake`` was called. ``EOFError`` once the kernel has
        gone and everything it sent has been read; ``wire.CorruptPipe`` when what came is
        not a message; ``messages.VersionMismatch`` when its ``Ready`` speaks another
        version (the kernel is ended then)."""

    @abstractmethod
    def wake(self) -> None:
        """Make a waiting ``receive`` return None now (from another thread)."""

    @abstractmethod
    def warm(self, modules: tuple[str, ...] = ()) -> None:
        """Have the kernel load torch now, then ``modules`` (the window's queries)."""

    @abstractmethod
    def interrupt(self) -> None:
        """Ask the recipe to stop: ``KeyboardInterrupt`` where it runs Python."""

    @property
    @abstractmethod
    def interrupt_raised(self) -> bool:
        """Whether the last ``interrupt`` reached the recipe as a ``KeyboardInterrupt``
        (the local kernel writes a byte into a pipe of its own when it raises one)."""

    @abstractmethod
    def kill(self) -> None:
        """End the kernel and every process it started, now."""

    @abstractmethod
    def close(self) -> None:
        """Shut the kernel down (politely, then not) and let go of the connection."""

    @property
    @abstractmethod
    def alive(self) -> bool:
        """Whether the kernel's process runs."""

    @property
    @abstractmethod
    def pid(self) -> int:
        """The kernel's process id (on its own machine)."""

    @property
    @abstractmethod
    def over_budget(self) -> bool:
        """Whether the kernel grew more than ``memory_budget`` past its size at its first
        run (the transport then ``wake``-s the reader: the session ends the kernel)."""

    def work_folder(self, path: str) -> str:
        """Where the recipe at ``path`` runs on the kernel's machine when that is not
        this one (a server's work folder), or "": it runs where the window says."""
        return ""

    def lost(self) -> str:
        """Why the kernel can no longer be reached when its connection, not the kernel,
        ended (marked English: ``protocol.i18n``), or "" (a local kernel's end is its
        exit code's to tell)."""
        return ""

    @abstractmethod
    def exit_code(self, wait: float = 0.0) -> int | None:
        """The kernel's exit code (minus the signal that ended it), waiting at most
        ``wait`` seconds for it to be known; None while it runs."""
