"""The recipe's ``print`` output, per step, in bounded batches: a flood never floods the pipe.

Inside the kernel, ``sys.stdout`` and ``sys.stderr`` become ``Tap`` streams. What they
receive is gathered, and a flusher thread sends it as one ``Output`` message tagged with the
statement that wrote it, ``FLUSH_S`` after the first write it has not sent. The thread starts
at a run's first write (most runs print little, an edit's often nothing), and while nothing
is written (a training loop that prints nothing) it sleeps: a thread that woke to look
would take the GIL from the recipe's loop each time. At most ``LIMIT`` characters wait per
stream: past that the oldest go, and the next message says how many were left out.
"""

from __future__ import annotations

import _thread
import io
from _thread import LockType
from collections import deque
from collections.abc import Callable

from protocol.limits import LIMIT
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: How often gathered output is sent.
FLUSH_S = 0.05


class Tap(io.TextIOBase):
    """A text stream that gathers what is written, for ``Channel`` to send."""

    def __init__(self, name: str, limit: int = LIMIT):
        super().__init__()
        self.name = name
        self.limit = limit  # most characters kept: the last ones
        self.index = -1  # the statement writing now
        #: While a top-level loop runs for the window: its recorder's ``printed``, given
        #: each text as it is written (each iteration keeps its own output).
        self.listener: Callable[[str], None] | None = None
        self._chunks: deque[str] = deque()
        self._size = 0
        self._dropped = 0
        self._lock = _thread.allocate_lock()
        #: Set at each write (``Flusher`` waits for it).
        self.written = Signal()

    @property
    def encoding(self) -> str:  # some libraries ask
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        with self._lock:
            self._chunks.append(text)
            self._size += len(text)
            while self._size > self.limit:
                gone = self._chunks.popleft()
                drop = self._size - self.limit
                if drop < len(gone):  # its tail stays
                    self._chunks.appendleft(gone[drop:])
                    gone = gone[:drop]
                self._size -= len(gone)
                self._dropped += len(gone)
        if self.listener is not None:
            self.listener(text)
        if not self.written.is_set():
            self.written.set()
        return len(text)

    def take(self) -> tuple[int, str, int]:
        """The writing statement, what it wrote since the last take, and how many
        characters were left out."""
        with self._lock:
            text, dropped = "".join(self._chunks), self._dropped
            self._chunks.clear()
            self._size = self._dropped = 0
            return self.index, text, dropped


class Flusher:
    """Sends the taps' output through ``send(index, stream, text, dropped)``, ``FLUSH_S``
    after it is written."""

    def __init__(self, taps: list[Tap], send: Callable[[int, str, str, int], None]):
        self._taps, self._send = taps, send
        self._stop = Signal()
        self._written = _FirstWrite(self._start)
        for tap in taps:
            tap.written = self._written
        self._ended: LockType | None = None  # held while the thread runs
        self._starting = _thread.allocate_lock()

    def _start(self) -> None:
        """The thread, at the first write (a run that prints nothing starts none). A bare
        ``_thread``: ``threading``'s Python start would break where the recipe patched a
        builtin it uses (``builtins.len = None``)."""
        with self._starting:
            if self._ended is None and not self._stop.is_set():
                ended = _thread.allocate_lock()
                ended.acquire()
                try:
                    _thread.start_new_thread(self._run, (ended,))
                except RuntimeError:  # no thread to be had (a recipe at its memory cap):
                    return  # what it prints goes at its statement's end (``flush``)
                self._ended = ended

    def _run(self, ended: LockType) -> None:
        try:
            self._loop()
        finally:
            ended.release()

    def flush(self) -> None:
        """Send what is waiting now (after each statement, so output keeps its step)."""
        for tap in self._taps:
            index, text, dropped = tap.take()
            if text or dropped:
                self._send(index, tap.name, text, dropped)

    def _loop(self) -> None:
        while True:
            self._written.wait()
            if self._stop.wait(FLUSH_S):  # (what was written meanwhile goes with it)
                return
            self._written.clear()
            self.flush()

    def close(self) -> None:
        with self._starting:
            self._stop.set()
            ended = self._ended
        if ended is not None:
            Signal.set(self._written)  # (its own set() would start a thread)
            if ended.acquire(timeout=1.0):
                ended.release()
        self.flush()


class Signal:
    """``threading.Event``'s ``set``, ``clear``, ``is_set`` and ``wait`` on a bare lock,
    released while set: ``threading``'s own runs Python code that a recipe's patched
    builtins break (``len``)."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._lock.acquire()

    def set(self) -> None:
        try:
            self._lock.release()
        except RuntimeError:  # set already
            pass

    def clear(self) -> None:
        self._lock.acquire(False)

    def is_set(self) -> bool:
        return not self._lock.locked()

    def wait(self, timeout: float | None = None) -> bool:
        if not self._lock.acquire(True, -1 if timeout is None else timeout):
            return False
        self.set()  # (as it was; a set meanwhile has let go of it already)
        return True


class _FirstWrite(Signal):
    """The taps' "written" event, which starts the flusher's thread when first set."""

    def __init__(self, start: Callable[[], None]):
        super().__init__()
        self._on_set = start

    def set(self) -> None:
        self._on_set()
        super().set()
