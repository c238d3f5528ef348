"""A kernel on another machine, over the user's own OpenSSH: the SSH ``Transport``.

``SshKernel(target)`` starts ``ssh [user@]host python3 -c BOOT`` (``ssh`` on the PATH, or
``TENSOR_LAB_SSH``, such as ``ssh -i KEY -o ...``: the user's ``~/.ssh/config``, keys
and jump hosts apply; no port is opened on either side) and sends on its stdin the
kernel's boot (``kernel/boot.py``) and its code (the ``kernel`` and ``protocol``
packages as a zip, which the server imports from memory: its version is always the
window's, and nothing is installed there). On the server a watcher (``kernel.remote``)
starts the kernel and passes its frames both ways; what the local supervisor does
with signals (Stop, kill, the memory watch) becomes ``protocol.remote.Control``
messages it acts on, and what it tells comes back as ``Notice`` messages.

A recipe runs in its work folder on the server (``protocol.remote.WORK_ROOT``/its
name): ``send`` moves a run's path and folder there. A connection that fails says
why in one line (``Unreachable``): ssh's own last words, or what the server lacks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import posixpath
import shlex
import struct
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

from app.link.address import SshTarget, parse_target  # noqa: F401 - the names' home
from app.link.supervisor import _KERNELS, STOP_GRACE_S, Kernel, _ended_handle
from protocol import messages
from protocol.i18n import QT_TRANSLATE_NOOP, Filled
from protocol.remote import BOOT, OLD_PYTHON_EXIT, Control, Notice, Server
from protocol.wire import Descriptors, Wire

#: How long a connection may take to say what its server has, in seconds.
CONNECT_S = 30.0
#: How long ``kill`` waits for the watcher to end the kernel and leave.
KILL_WAIT_S = 3.0
#: The packages the server imports from the zip: all the kernel runs.
KERNEL_PACKAGES = ("kernel", "protocol")
class Unreachable(OSError):
    """The server could not be reached, or cannot run the kernel: ``str`` says why in
    one line."""


def ssh_program() -> list[str]:
    """The ssh command, as ``TENSOR_LAB_SSH`` gives it (split as a shell would), or
    ``ssh``."""
    return shlex.split(os.environ.get("TENSOR_LAB_SSH", "").strip() or "ssh")


def ssh_command(target: SshTarget) -> list[str]:
    """The command that starts the watcher on ``target``'s server: never a prompt
    (``BatchMode``: a key or an agent, not a password typed into nowhere), no terminal,
    and a connection that stops answering counts as dropped within 15 s."""
    port = ["-p", str(target.port)] if target.port else []
    remote = f"{shlex.quote(target.python)} -c {shlex.quote(BOOT)}"
    return [*ssh_program(), "-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=5",
            "-o", "ServerAliveCountMax=3", *port, "--", target.destination, remote]


_bundle: bytes | None = None


def kernel_bundle() -> tuple[bytes, bytes]:
    """``kernel/boot.py``'s text, and the zip of the kernel's packages' sources (made
    once a process)."""
    global _bundle
    root = Path(__file__).resolve().parents[2]  # where the packages sit, beside app/
    if _bundle is None:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for package in KERNEL_PACKAGES:
                for path in sorted((root / package).rglob("*.py")):
                    z.write(path, path.relative_to(root).as_posix())
        _bundle = out.getvalue()
    return (root / "kernel" / "boot.py").read_bytes(), _bundle


class CountingWire(Wire):
    """A ``Wire`` that counts the bytes of the frames it carries, headers included
    (``sent``, ``received``): what crosses the connection, before ssh's own framing."""

    HEADER = 12  # (``protocol.wire``'s magic word and length)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sent = self.received = 0

    def send_bytes(self, data: bytes) -> None:
        super().send_bytes(data)
        self.sent += len(data) + self.HEADER

    def recv_bytes(self) -> bytes | bytearray:
        frame = super().recv_bytes()
        self.received += len(frame) + self.HEADER
        return frame


class SshKernel(Kernel):
    """A kernel on a server, through its ssh process (a ``Kernel``: the same run, stop
    and budget logic; what acts on the kernel's process is the watcher's there)."""

    def __init__(self, target: SshTarget, memory_budget: int | None = None):
        self.target = target
        self._stderr_tail: list[str] = []
        self._ended_code: int | None = None
        self._pong = 0
        to_r, self._to = os.pipe()
        from_r, from_w = os.pipe()
        try:
            self.process = subprocess.Popen(ssh_command(target), stdin=to_r, stdout=from_w,
                                            stderr=subprocess.PIPE,
                                            start_new_session=True)  # (Ctrl+C is ours)
        except OSError as e:
            for fd in (self._to, from_r):
                os.close(fd)
            raise Unreachable(f"{target}: cannot start {ssh_program()[0]} ({e.strerror or e})"
                              ) from None
        finally:
            os.close(to_r)
            os.close(from_w)
        self._errors = threading.Thread(target=self._pass_stderr, daemon=True)
        self._errors.start()
        self._exited = _ended_handle(self.process.pid)
        self._conn = CountingWire(Descriptors(from_r, self._to), wakeable=True,
                                  ended=_ended_handle(self.process.pid))
        self.wakes = self._conn.wakes
        self._sending = threading.Lock()
        self._raised_pipe = None
        self._raised = False
        self._group: int | None = None
        self.report: dict | None = None
        self._stop_grace = STOP_GRACE_S
        self._over_budget = False
        self._resident_at_start: int | None = None
        self._watched_at = 0.0
        try:
            self.server = self._connect()
        except BaseException:
            self.kill()
            self._close_pipes()
            raise
        self.memory_budget = (self.server.memory_budget if memory_budget is None
                              else memory_budget)
        self.send(messages.Hello(messages.VERSION))
        _KERNELS.add(self)  # (``end_all``: ``tensor-lab run`` ended by a signal)

    # -- connecting ----------------------------------------------------------------------------
    def _connect(self) -> Server:
        boot, bundle = kernel_bundle()
        data = memoryview(struct.pack("<Q", len(boot)) + boot
                          + struct.pack("<Q", len(bundle)) + bundle)
        try:
            while data:
                data = data[os.write(self._to, data):]
        except OSError:  # ssh has gone: it says why on stderr
            pass
        deadline = time.monotonic() + CONNECT_S
        while True:
            try:
                if self._conn.poll(max(0.0, deadline - time.monotonic())):
                    first = messages.receive(self._conn)
                    break
            except (EOFError, OSError, ValueError):
                raise Unreachable(self._why_not()) from None
            if time.monotonic() >= deadline:
                raise Unreachable(f"{self.target}: no answer within {CONNECT_S:g} s")
        if not isinstance(first, Server):
            raise Unreachable(f"{self.target}: the server answered something else")
        missing = [name for name in ("torch", "numpy") if not getattr(first, name)]
        if missing:
            raise Unreachable(f"{self.target}: {first.python} (Python "
                              f"{first.python_version}) has no {' and no '.join(missing)}; "
                              f"install {' '.join(missing)} there, or choose another python")
        return first

    def _why_not(self) -> str:
        """One line for a connection that ended before the server said what it has."""
        code = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            code = self.process.wait(5)
        self._errors.join(2)
        lines = [line for line in self._stderr_tail if line.strip()]
        said = lines[-1].strip() if lines else ""
        if code == OLD_PYTHON_EXIT and said.startswith("tensor-lab: "):
            return f"{self.target}: {said.removeprefix('tensor-lab: ')}"
        if code == 127:
            return f"{self.target}: no {self.target.python} there ({said or 'not found'})"
        return f"{self.target}: {said or f'ssh ended with exit code {code}'}"

    def _pass_stderr(self) -> None:
        """The server's stderr (ssh's words, the kernel's tracebacks) to this process's,
        its last lines kept for ``Unreachable``."""
        for raw in iter(self.process.stderr.readline, b""):
            line = raw.decode("utf-8", "replace")
            self._stderr_tail = (self._stderr_tail + [line])[-20:]
            with contextlib.suppress(OSError, ValueError, AttributeError):
                sys.stderr.write(line)
                sys.stderr.flush()

    # -- talking -------------------------------------------------------------------------------
    def send(self, message: Any) -> None:
        super().send(self._moved(message))

    def _moved(self, message: Any) -> Any:
        """A run's path and folder, moved to its work folder on the server."""
        if not isinstance(message, messages.RunFile | messages.RunSource):
            return message
        name = posixpath.basename(message.path.replace("\\", "/")) or "recipe.py"
        folder = posixpath.join(self.server.work_root,
                                posixpath.splitext(name)[0] or "recipe")
        return dataclasses.replace(message, path=posixpath.join(folder, name), cwd=folder)

    def round_trip(self, timeout: float = 10.0) -> float:
        """Seconds a message takes to the watcher and back, through ssh (no kernel in
        it). For a transport no session reads (it reads the kernel's messages itself,
        dropping them)."""
        self._pong, token = 0, int(time.monotonic_ns() % (1 << 31)) or 1
        start = time.perf_counter()
        self.send(Control("ping", token))
        deadline = time.monotonic() + timeout
        while self._pong != token:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.target}: no answer in {timeout:g} s")
            self.receive(max(0.0, deadline - time.monotonic()))
        return time.perf_counter() - start

    @property
    def traffic(self) -> tuple[int, int]:
        """Bytes sent to the server and received from it so far (the frames, boot and
        code sent first not counted)."""
        return self._conn.sent, self._conn.received

    def work_folder(self, path: str) -> str:
        """The folder on the server where the recipe at ``path`` runs."""
        return self._moved(messages.RunFile(path, "")).cwd

    def receive(self, timeout: float | None) -> Any | None:
        message = super().receive(timeout)
        if isinstance(message, Notice):  # the watcher's, not the kernel's: nothing to hand
            self._noticed(message)  # on (None, as after a wake: every caller goes on)
            return None
        if isinstance(message, messages.Ready) and self.memory_budget:
            with contextlib.suppress(OSError, ValueError):
                self.send(Control("budget", message.resident + self.memory_budget))
        return message

    def _noticed(self, notice: Notice) -> None:
        if notice.kind == "raised":
            self._raised = True
        elif notice.kind == "over_budget":
            self._over_budget = True
        elif notice.kind == "ended":
            self._ended_code = notice.value
        elif notice.kind == "pong":
            self._pong = notice.value
        elif notice.kind == "stdout":
            out = getattr(sys.stdout, "buffer", None)
            with contextlib.suppress(OSError, ValueError, AttributeError):
                out.write(bytes(notice.data))
                out.flush()

    def _watching(self) -> bool:
        return False  # (the watcher measures the kernel, on its machine)

    # -- the kernel's state --------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.process.poll() is None and self._ended_code is None

    @property
    def pid(self) -> int:
        return self._group or 0  # (the kernel's, on the server)

    def exit_code(self, wait: float = 0.0) -> int | None:
        if wait:
            self._join(wait)
        if self._ended_code is None and self.process.poll() is not None:
            self._read_rest()
        if self._ended_code is not None:
            return self._ended_code
        code = self.process.poll()
        return None if code is None else (code if code >= 0 else 1)

    def lost(self) -> str:
        """"The connection to HOST was lost (ssh's last words)." when ssh ended before the
        watcher told of the kernel's end: a dropped connection, a server that went
        down, ssh killed."""
        if self._ended_code is None and self.process.poll() is not None:
            self._read_rest()
        if self._ended_code is not None or self.process.poll() is None:
            return ""
        self._errors.join(1)
        said = next((line.strip() for line in reversed(self._stderr_tail) if line.strip()),
                    "")
        if said:
            return Filled(QT_TRANSLATE_NOOP("Kernel", "The connection to {0} was lost: {1}"),
                          str(self.target), said)
        return Filled(QT_TRANSLATE_NOOP("Kernel", "The connection to {0} was lost."),
                      str(self.target))

    def _read_rest(self) -> None:
        """What the watcher sent before it left (its ``Notice``s), the rest dropped."""
        with contextlib.suppress(EOFError, OSError, ValueError):
            while self._conn.poll(0):
                message = messages.receive(self._conn)
                if isinstance(message, Notice):
                    self._noticed(message)

    @property
    def interrupt_raised(self) -> bool:
        return self._raised

    # -- stopping ------------------------------------------------------------------------------
    def _control(self, action: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.send(Control(action))

    def interrupt(self) -> None:
        if not self.alive or self._group is None:
            return  # (no run has started: no recipe code to interrupt)
        self._raised = False
        self._control("interrupt")

    def kill(self) -> None:
        """End the kernel and what it started (the watcher does, then leaves), and the
        ssh process after it."""
        if self.process.poll() is None:
            self._control("kill")  # (the watcher ends the kernel's tree, then leaves)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(KILL_WAIT_S)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        _KERNELS.discard(self)

    def end_children(self) -> None:
        if self.alive:
            self._control("end_children")

    def close(self) -> None:
        if self.alive:
            self.end_children()
            self._control_shutdown()
            self._join(1.0)
        self.kill()
        self._close_pipes()

    def _control_shutdown(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.send(messages.Shutdown())

    def _close_pipes(self) -> None:
        self._conn.close()
        if self._exited is not None:
            with contextlib.suppress(OSError):
                os.close(self._exited)
            self._exited = None
        self._errors.join(1)  # (ssh has ended: its stderr is at its end)
        if not self._errors.is_alive():
            self.process.stderr.close()


def probe(target: SshTarget) -> Server:
    """Connect to ``target``, read what its server has, and leave (a kernel starts there
    and ends): ``Unreachable`` says in one line what is wrong or missing."""
    kernel = SshKernel(target)
    try:
        return kernel.server
    finally:
        kernel.close()
