"""The watcher: what a server runs for a window over SSH, between it and the kernel.

``kernel.boot`` calls ``main`` in the python that ssh started. The window's frames come
on descriptor 0 and go back on descriptor 1 (moved off both first: what anything
writes there cannot reach the frames). The watcher:

- says what the server has (``protocol.remote.Server``), and ends there when it lacks
  torch or numpy (the window says which, in one line);
- starts the kernel (``python -m kernel --fd``, as the local supervisor does, from the
  same two texts the window sent, with the work folders' root as its folder), and
  passes the kernel's frames both ways untouched, its own ``Notice`` messages between
  them;
- does what the window's ``Control`` messages ask, as the local supervisor does with
  signals and ``/proc`` (``app.link.supervisor``): interrupt, kill, end the recipe's
  processes, watch the kernel's resident size against its budget;
- sends what the kernel's process writes to its descriptor 1 (``tensor-lab run``'s
  recipe printing) as ``Notice("stdout")``; its descriptor 2 is the watcher's, which
  ssh carries to the window's stderr;
- ends the kernel, and every process it started, when the window's stream ends (the
  connection dropped, the window or its ssh killed): no kernel outlives its connection.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import signal
import socket
import struct
import subprocess
import sys
import threading

from kernel.__main__ import stdio_descriptors
from protocol import messages, reaper
from protocol.budget import default_budget, resident_bytes
from protocol.codec import decode
from protocol.remote import RUN_BOOT, TAKE, WORK_ROOT, Control, Notice, Server
from protocol.wire import Wire

#: How often the watcher looks at the kernel's size and its ``raised`` pipe.
WATCH_INTERVAL_S = 0.1
#: The start of a ``Control`` message's frame as the codec writes it (a plain JSON
#: object whose ``type`` comes first): only frames that start so are decoded here.
_CONTROL = b'{"type": "Control"'
#: The start of a run's frame: its text is kept in its work folder (below).
_RUNS = (b'{"type": "RunFile"', b'{"type": "RunSource"')


def _version(name: str) -> str:
    """A module's version where it can be imported here, without importing it; ""."""
    if importlib.util.find_spec(name) is None:
        return ""
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001 - found, but no metadata: say it is there
        return "?"


def server() -> Server:
    """What this server has, for the window's first look."""
    return Server(platform.node(), sys.executable, platform.python_version(),
                  _version("torch"), _version("numpy"), default_budget(),
                  os.path.expanduser(WORK_ROOT), os.getpid())


class Watcher:
    """One kernel on this server, and the window's stream to it."""

    def __init__(self, window: Wire, boot: bytes, bundle: bytes):
        self.window = window
        self._sending = threading.Lock()
        self._budget: int | None = None
        ours, theirs = socket.socketpair()
        raised_r, raised_w = os.pipe()
        os.set_blocking(raised_r, False)
        os.set_blocking(raised_w, False)
        self.root = root = os.path.expanduser(WORK_ROOT)
        os.makedirs(root, exist_ok=True)
        boot_command = _BOOT.replace("{boot}", repr(boot.decode("utf-8")))
        self.process = subprocess.Popen(
            [sys.executable, "-c", boot_command, "kernel", "--fd", str(theirs.fileno()),
             "--raised", str(raised_w), "--parent", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=root,
            pass_fds=(theirs.fileno(), raised_w))
        theirs.close()
        os.close(raised_w)
        self._raised = raised_r
        self.process.stdin.write(struct.pack("<Q", len(bundle)) + bundle)
        self.process.stdin.close()
        self.kernel = Wire(ours)

    def send(self, message: object) -> None:
        self.send_frame(messages.encode(message))

    def send_frame(self, frame: bytes) -> None:
        with self._sending:
            self.window.send_bytes(frame)

    # -- the kernel's side -------------------------------------------------------------------
    def pass_up(self) -> None:
        """The kernel's frames to the window, as they come (a thread of their own); a
        Stop's KeyboardInterrupt raised is told before the frames sent after it (its
        ``Done``), as the local ``raised`` pipe is read before them."""
        try:
            while True:
                frame = bytes(self.kernel.recv_bytes())
                if self._drain_raised():
                    self.send(Notice("raised"))
                self.send_frame(frame)
        except (EOFError, OSError, ValueError):
            pass

    def pass_stdout(self) -> None:
        """What the kernel's process writes to its descriptor 1, to the window."""
        fd = self.process.stdout.fileno()
        try:
            while chunk := os.read(fd, 1 << 16):
                self.send(Notice("stdout", data=chunk))
        except (OSError, ValueError):
            pass

    # -- the window's side -------------------------------------------------------------------
    def serve(self) -> int:
        """Pass the window's frames to the kernel, acting on its ``Control`` ones, and
        watch the kernel until it ends (its exit code) or the window goes (the kernel is
        ended then)."""
        up = threading.Thread(target=self.pass_up, daemon=True)
        out = threading.Thread(target=self.pass_stdout, daemon=True)
        up.start()
        out.start()
        try:
            while self.process.poll() is None:
                if self.window.poll(WATCH_INTERVAL_S):
                    frame = self.window.recv_bytes()
                    head = bytes(frame[:24])
                    if head.startswith(_CONTROL):
                        self.control(decode(frame))
                        continue
                    if head.startswith(_RUNS):
                        self.keep(decode(frame))
                    self.kernel.send_bytes(frame)
                self.watch()
        except (EOFError, OSError, ValueError):  # the window has gone
            self.kill()
            return 0
        code = self.process.wait()
        up.join(5)  # everything it sent before it ended, first
        out.join(1)
        self.watch()
        self.send(Notice("ended", code))
        return code

    def keep(self, run: messages.RunFile | messages.RunSource) -> None:
        """Write a run's text at its path, inside the work folders only: python reads
        its file for a traceback's lines, ``inspect.getsource`` and a spawned worker's
        ``__mp_main__`` (the text is the window's; the file is rewritten when it
        differs)."""
        path = os.path.normpath(run.path)
        if not path.startswith(os.path.normpath(self.root) + os.sep):
            return
        data = run.source.encode("utf-8")
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    return
        except OSError:
            pass
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        except OSError:  # (the run says what it cannot reach)
            pass

    def control(self, message: Control) -> None:
        pid = self.process.pid
        if message.action == "interrupt":
            self._drain_raised()  # (what a Stop before raised is not this one's)
            try:
                os.killpg(pid, signal.SIGINT)
            except (ProcessLookupError, PermissionError):
                pass
        elif message.action == "kill":
            self.kill()
        elif message.action == "end_children":
            if self.process.poll() is None:
                reaper.end_tree(pid, keep_root=True)
        elif message.action == "budget":
            self._budget = message.value
        elif message.action == "ping":  # (the connection's own round trip, measured)
            self.send(Notice("pong", message.value))

    def watch(self) -> None:
        """Tell the window of a Stop's KeyboardInterrupt raised, and of a kernel past its
        memory budget."""
        if self._drain_raised():
            self.send(Notice("raised"))
        if self._budget is not None and self.process.poll() is None:
            size = resident_bytes(self.process.pid)
            if size is not None and size > self._budget:
                self._budget = None  # (said once: the window ends the kernel)
                self.send(Notice("over_budget", size))

    def _drain_raised(self) -> bool:
        got = False
        try:
            while os.read(self._raised, 64):
                got = True
        except OSError:  # (non-blocking: nothing more to read)
            pass
        return got

    def kill(self) -> None:
        """End the kernel and every process below it, now."""
        pid = self.process.pid
        if self.process.poll() is None:
            reaper.end_tree(pid, pid)  # (the kernel's group is its pid, from its setsid)
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass


#: How the watcher starts the kernel's python: as the window's ``BOOT`` does, with
#: ``kernel.boot``'s text given (``{boot}``) rather than read; the zip comes on stdin.
_BOOT = TAKE + "_boot_text = {boot}.encode('utf-8')\n" + RUN_BOOT


def main(boot: bytes, bundle: bytes) -> None:
    """Serve one window's kernel over this process's stdin and stdout."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a Stop is the kernel's, not ours)
    window = Wire(stdio_descriptors())  # (0 reads nothing now, 1 writes to stderr)
    found = server()
    watcher = None
    try:
        window.send_bytes(messages.encode(found))
        if not found.torch or not found.numpy:
            return
        watcher = Watcher(window, boot, bundle)
        watcher.serve()
    except (OSError, ValueError, EOFError):
        if watcher is not None:
            watcher.kill()
    finally:
        sys.stderr.flush()
        os._exit(0)  # (the kernel's threads and pipes are not waited for)

