"""The kernel's pipe cannot be wedged by what a recipe writes into it: a half-written frame
ends that kernel with a message, a fresh one is ready, and Stop and the time limit keep
working meanwhile.

Real pipes and real kernels; the recipe finds the pipe as an attacker would, among its
own file descriptors.
"""

from __future__ import annotations

import multiprocessing
import os
import struct
import sys
import time

import pytest

from app.link.session import Ended, KernelReady, KernelSession, RunMessage
from protocol.wire import MAGIC, MAX_FRAME, STALL_S, CorruptPipe, Wire
from tests.test_kernel_queries import _events as _until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the recipe finds its pipe in /proc/self/fd")

#: Two bytes into every socket the kernel holds (its pipe to the window is one), then
#: a loop that sends nothing more: a frame begun and never finished. It waits a second
#: first, so that the kernel's writer thread has sent the step's start: under a loaded
#: machine the two bytes went ahead of it, the pipe was (rightly) found corrupt at once,
#: and the test waited for a start that never came.
HALF_FRAME = '''\
import os, time
if True:
    time.sleep(1.0)
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                os.write(int(name), b"\\x00\\x00")
        except OSError:
            pass
    while True:
        time.sleep(0.01)
'''


def test_a_reader_never_waits_on_half_a_frame_and_names_a_bad_header():
    ours, theirs = multiprocessing.Pipe()
    wire = Wire(ours)
    theirs.send_bytes(b"")  # not ours: multiprocessing's own header, 4 bytes
    start = time.monotonic()
    assert wire.poll(0.2) is False  # half a header: no frame, and no wait past the timeout
    assert time.monotonic() - start < 1.0
    with pytest.raises(CorruptPipe):
        wire.poll(STALL_S + 2)  # it stays half-written
    sender, receiver = multiprocessing.Pipe()
    Wire(sender).send_bytes(b"hello")
    sender.send_bytes(b"not a frame")  # (a multiprocessing frame: a bad magic word)
    received = Wire(receiver)
    assert received.poll(5) and received.recv_bytes() == b"hello"
    with pytest.raises(CorruptPipe):
        received.poll(5)
    a, b = multiprocessing.Pipe()
    os.write(a.fileno(), struct.pack("<4sQ", MAGIC, MAX_FRAME + 1))  # an absurd length
    with pytest.raises(CorruptPipe):
        Wire(b).poll(5)


def _runs_again(service: KernelSession, tmp_path) -> None:
    """A later edit runs and reports, in a fresh kernel."""
    run_id = service.run("x = 6 * 7\n", str(tmp_path / "after.py"), str(tmp_path))
    events = _until(service, lambda e: isinstance(e, Ended) and e.run_id == run_id, 120)
    done = [e.message for e in events if isinstance(e, RunMessage)
            and type(e.message).__name__ == "StepDone"]
    assert done and done[-1].names["x"]["value"] == 42
    assert [e for e in events if isinstance(e, Ended)][-1].reason == ""


@pytest.fixture
def service():
    s = KernelSession(run_timeout=None)
    yield s
    s.close()


def test_half_a_frame_ends_that_kernel_with_a_message_and_a_fresh_one_is_ready(
        service, tmp_path):
    run_id = service.run(HALF_FRAME, str(tmp_path / "half.py"), str(tmp_path))
    events = _until(service, lambda e: isinstance(e, Ended) and e.run_id == run_id,
                    120 + STALL_S)
    ended = [e for e in events if isinstance(e, Ended)][-1]
    assert ended.reason == "died" and "pipe was corrupted" in ended.message
    after = events[events.index(ended):]
    if not any(isinstance(e, KernelReady) for e in after):
        _until(service, lambda e: isinstance(e, KernelReady), 120)  # a fresh kernel
    _runs_again(service, tmp_path)


@pytest.mark.parametrize("how", ["stop", "timeout"])
def test_stop_and_the_time_limit_work_while_half_a_frame_waits(service, tmp_path, how):
    recipe = str(tmp_path / "half.py")
    run_id = service.run(HALF_FRAME, recipe, str(tmp_path),
                         timeout=3.0 if how == "timeout" else None)
    _until(service, lambda e: isinstance(e, RunMessage) and e.run_id == run_id
           and type(e.message).__name__ == "StepStarted" and e.message.index == 1, 120)
    time.sleep(1.5)  # the bytes are in the pipe (a second after the step started)
    if how == "stop":
        service.stop()
    start = time.monotonic()
    events = _until(service, lambda e: isinstance(e, Ended) and e.run_id == run_id,
                    STALL_S - 1)
    print(f"{how}: ended in {time.monotonic() - start:.2f} s")
    ended = [e for e in events if isinstance(e, Ended)][-1]
    assert ended.reason == {"stop": "stopped", "timeout": "timeout"}[how]
    _runs_again(service, tmp_path)
