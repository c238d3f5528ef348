"""The kernel's pipe as whole frames, read so that nothing written into it can wedge a reader.

A recipe can reach the pipe (it is one of its process's file descriptors) and write half
a frame into it. ``multiprocessing``'s ``recv_bytes`` would then wait forever for the
rest, and with it the window's kernel service: Stop, the time limit and every later edit.
Here each frame is a magic word and a length, then its bytes; a reader takes what has
arrived without waiting for more, hands out whole frames only, and raises ``CorruptPipe``
when a header is not one (a bad magic word, an absurd length) or when a frame begun stays
unfinished for ``STALL_S``. Only C functions (``os.read``, ``os.writev``, ``select.poll``)
and this module's own copy of the builtins do the work, so a recipe that patches builtins
cannot break the kernel's pipe. Where descriptors cannot be polled (Windows), the
``Connection``'s own methods are used.

The window's end also waits on two more handles in the same ``poll``: a wake-up pipe
(``wake``: another thread has something for the reader, which then returns at once) and
the kernel process's own handle (``ended``: a pidfd, readable once it has exited, so a
reader blocked on a pipe that a recipe's stray child keeps open still learns it ended).
A blocked read therefore needs no timeout to notice either.
"""

from __future__ import annotations

import os
import struct
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - what a recipe does to builtins stays its own

try:
    from select import POLLHUP, POLLIN, poll
except ImportError:  # Windows
    poll = None

MAGIC = b"TLk1"
_HEADER = struct.Struct("<4sQ")
#: The largest frame a reader accepts: a length past it is a corrupted header.
MAX_FRAME = 1 << 34
#: How long a frame may stay half-written before its pipe counts as corrupted.
STALL_S = 5.0
_READ, _MOST_READ = 1 << 20, 1 << 26  # bytes one read asks for
_monotonic = time.monotonic
_read, _writev = os.read, getattr(os, "writev", None)


class CorruptPipe(ValueError):
    """What came down the pipe is not a frame, or one stopped half-way."""


class Descriptors:
    """A pipe's end as plain descriptors, for a ``Wire``: frames are read from ``read``
    and written to ``write`` (the same descriptor for a socket: the kernel's end of the
    socket pair its supervisor made; two for a peer's stdout and stdin)."""

    def __init__(self, read: int, write: int | None = None):
        self._read, self._write = read, read if write is None else write

    def fileno(self) -> int:
        return self._read

    def write_fileno(self) -> int:
        return self._write

    def close(self) -> None:
        for fd in {self._read, self._write}:
            try:
                os.close(fd)
            except OSError:  # (closed already)
                pass


class Wire:
    """One end of a kernel's pipe (a socket, ``Descriptors``, or a ``multiprocessing``
    ``Connection``): ``send_bytes``,
    ``poll`` and ``recv_bytes`` as a ``Connection`` has them, framed as above.

    Parameters
    ----------
    conn : Connection or Descriptors or socket
        The pipe's end: any object with ``fileno`` (read from) and ``close``, and a
        ``write_fileno`` where frames are written to another descriptor (a process's
        stdout and stdin: the SSH transport's).
    wakeable : bool
        Keep a wake-up pipe, so that ``wake`` ends a ``poll`` that waits (``wakes``).
    ended : int, optional
        A descriptor readable once the peer's process has exited (a pidfd): a ``poll``
        then raises ``EOFError`` when nothing is left to read.
    """

    def __init__(self, conn: Connection | Descriptors, wakeable: bool = False,
                 ended: int | None = None):
        self.conn = conn
        self._poll = None
        self._wake_r = self._wake_w = self._ended = None
        if poll is not None and _writev is not None:
            self._fd = conn.fileno()
            self._out = conn.write_fileno() if hasattr(conn, "write_fileno") else self._fd
            self._poll = poll()
            self._poll.register(self._fd, POLLIN | POLLHUP)
            if wakeable:
                self._wake_r, self._wake_w = os.pipe()
                os.set_blocking(self._wake_r, False)
                os.set_blocking(self._wake_w, False)
                self._poll.register(self._wake_r, POLLIN)
            if ended is not None:
                self._ended = ended
                self._poll.register(ended, POLLIN | POLLHUP)
        #: Whether ``wake`` ends a waiting ``poll`` (else a waiting reader must bound its
        #: waits itself: where descriptors cannot be polled).
        self.wakes = self._wake_w is not None
        #: Set when a ``poll`` returned because of ``wake`` (its caller clears it).
        self.woken = False
        self._buffer = bytearray()
        self._since = 0.0  # when the buffer last grew
        self._eof = False

    def fileno(self) -> int:
        return self.conn.fileno()

    def close(self) -> None:
        self.conn.close()
        for fd in (self._wake_r, self._wake_w, self._ended):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._wake_r = self._wake_w = self._ended = None

    def wake(self) -> None:
        """End a ``poll`` that waits, in another thread (it returns False), or the next
        one to start; from any thread. Nothing where ``wakes`` is False."""
        fd = self._wake_w
        if fd is not None:
            try:
                os.write(fd, b"!")
            except OSError:  # full (a wake-up is pending anyway), or closed
                pass

    def send_bytes(self, data: bytes) -> None:
        """Write one frame (whole, from one thread at a time)."""
        if self._poll is None:
            return self.conn.send_bytes(data)
        parts = [_HEADER.pack(MAGIC, len(data)), memoryview(data)]
        while parts:
            written = _writev(self._out, parts)
            while parts and written >= len(parts[0]):
                written -= len(parts[0])
                parts.pop(0)
            if parts and written:
                parts[0] = parts[0][written:]
        return None

    def poll(self, timeout: float | None = 0.0) -> bool:
        """Whether a whole frame is here, waiting at most ``timeout`` seconds (None: until
        one is, or until ``wake``). ``EOFError`` when the other end has closed (or its
        process has ended) and no frame is left; ``CorruptPipe`` when what came is not
        one."""
        if self._poll is None:
            return self.conn.poll(timeout)
        deadline = None if timeout is None else _monotonic() + timeout
        while self._whole() is None:
            if self._eof:
                raise EOFError
            left = None if deadline is None else deadline - _monotonic()
            # a wait has a bound only while a frame is half-written (its stall is timed)
            wait = left
            if self._buffer:
                wait = STALL_S if wait is None else min(wait, STALL_S)
            ready = self._poll.poll(None if wait is None else max(0.0, wait) * 1000)
            if not ready:
                if self._buffer and _monotonic() - self._since > STALL_S:
                    raise CorruptPipe(f"a frame stayed half-written ({len(self._buffer)} "
                                      f"bytes) for {STALL_S:g} s")
                if deadline is not None and _monotonic() >= deadline:
                    return False
                continue
            if not any(fd == self._fd for fd, _ in ready):
                if any(fd == self._wake_r for fd, _ in ready):
                    self._drain_wakes()
                    self.woken = True
                    return False
                self._eof = True  # its process has ended, and the pipe holds nothing
                continue
            missing = (self._whole_length() or 0) - len(self._buffer)
            chunk = _read(self._fd, min(max(_READ, missing), _MOST_READ))
            if not chunk:
                self._eof = True
            else:
                self._buffer += chunk
                self._since = _monotonic()
        return True

    def _drain_wakes(self) -> None:
        try:
            while _read(self._wake_r, 4096):
                pass
        except OSError:  # (non-blocking: nothing more to read)
            pass

    def recv_bytes(self) -> bytes | bytearray:
        """The next frame, waiting for it as long as it takes."""
        if self._poll is None:
            return self.conn.recv_bytes()
        self.poll(None)
        end = _HEADER.size + self._whole()
        if len(self._buffer) == end:  # the usual case: the frame, and nothing after it
            frame, self._buffer = self._buffer, bytearray()
            del frame[:_HEADER.size]  # (a bytearray lets go of its front without a copy)
            return frame
        frame = self._buffer[_HEADER.size:end]
        del self._buffer[:end]
        return frame

    def _whole_length(self) -> int | None:
        """The length of the frame in the buffer with its header, once its header is in."""
        if len(self._buffer) < _HEADER.size:
            return None
        magic, size = _HEADER.unpack_from(self._buffer)
        if magic != MAGIC:
            raise CorruptPipe(f"not a frame's header: {bytes(self._buffer[:12])!r}")
        if size > MAX_FRAME:
            raise CorruptPipe(f"a frame of {size} bytes")
        return _HEADER.size + size

    def _whole(self) -> int | None:
        """The length of the first frame when all of it is in the buffer, else None."""
        length = self._whole_length()
        if length is None or len(self._buffer) < length:
            return None
        return length - _HEADER.size
