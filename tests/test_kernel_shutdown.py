"""A kernel shut down while it is still warming (importing torch and the window's query
modules on its warm thread) ends cleanly: exit code 0 and nothing on its stderr, not a
C++ ``terminate called without an active exception`` from torch's threads torn down by
the interpreter's finalization."""

from __future__ import annotations

import os
import time

import pytest

from app.link import supervisor
from protocol import messages
from protocol.wire import Wire

VIEW_QUERIES = ["kernel.explain.kernel_queries", "kernel.explain.provenance_query",
                "kernel.explain.inner_step_query"]


@pytest.mark.parametrize("after_s", [0.0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.4])
def test_a_kernel_shut_down_while_warming_ends_with_code_0_and_a_quiet_stderr(
        after_s, capfd):
    launched = supervisor.launch()
    process = launched.process
    wire = Wire(launched.conn)
    try:
        wire.send_bytes(messages.encode(messages.Hello(messages.VERSION)))
        wire.send_bytes(messages.encode(messages.Warm(VIEW_QUERIES)))
        time.sleep(after_s)
        wire.send_bytes(messages.encode(messages.Shutdown()))
        code = process.wait(60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        wire.close()
        os.close(launched.raised)
    err = capfd.readouterr().err
    assert "terminate called" not in err
    assert code == 0, (code, err)
