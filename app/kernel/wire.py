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
"""

from __future__ import annotations

import os
import struct
import time
from multiprocessing.connection import Connection

from app.kernel.sealed import BUILTINS

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


class Wire:
    """One end of a kernel's pipe (a ``multiprocessing`` ``Connection``): ``send_bytes``,
    ``poll`` and ``recv_bytes`` as a ``Connection`` has them, framed as above."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self._poll = None
        if poll is not None and _writev is not None:
            self._fd = conn.fileno()
            self._poll = poll()
            self._poll.register(self._fd, POLLIN | POLLHUP)
        self._buffer = bytearray()
        self._since = 0.0  # when the buffer last grew
        self._eof = False

    def fileno(self) -> int:
        return self.conn.fileno()

    def close(self) -> None:
        self.conn.close()

    def send_bytes(self, data: bytes) -> None:
        """Write one frame (whole, from one thread at a time)."""
        if self._poll is None:
            return self.conn.send_bytes(data)
        parts = [_HEADER.pack(MAGIC, len(data)), memoryview(data)]
        while parts:
            written = _writev(self._fd, parts)
            while parts and written >= len(parts[0]):
                written -= len(parts[0])
                parts.pop(0)
            if parts and written:
                parts[0] = parts[0][written:]
        return None

    def poll(self, timeout: float | None = 0.0) -> bool:
        """Whether a whole frame is here, waiting at most ``timeout`` seconds (None: until
        one is). ``EOFError`` when the other end has closed and no frame is left;
        ``CorruptPipe`` when what came is not one."""
        if self._poll is None:
            return self.conn.poll(timeout)
        deadline = None if timeout is None else _monotonic() + timeout
        while self._whole() is None:
            if self._eof:
                raise EOFError
            left = 1.0 if deadline is None else deadline - _monotonic()
            if not self._poll.poll(max(0.0, min(left, 1.0)) * 1000):
                if self._buffer and _monotonic() - self._since > STALL_S:
                    raise CorruptPipe(f"a frame stayed half-written ({len(self._buffer)} "
                                      f"bytes) for {STALL_S:g} s")
                if deadline is not None and _monotonic() >= deadline:
                    return False
                continue
            missing = (self._whole_length() or 0) - len(self._buffer)
            chunk = _read(self._fd, min(max(_READ, missing), _MOST_READ))
            if not chunk:
                self._eof = True
            else:
                self._buffer += chunk
                self._since = _monotonic()
        return True

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
