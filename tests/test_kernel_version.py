"""Both sides check the protocol's version: the kernel reads the window's ``Hello`` first,
and a window of another version (or a peer that sends something else) gets the
kernel's ``Ready`` and an ended kernel; over the real pipe, with a real kernel."""

from __future__ import annotations

import os
import subprocess

import pytest

from app.link import supervisor
from protocol import messages
from protocol.wire import Wire


def _bare_kernel():
    """A real kernel process and the window's end of its pipe, with nothing sent yet
    (``supervisor.Kernel`` sends its ``Hello`` as it starts)."""
    launched = supervisor.launch()
    os.close(launched.raised)
    return launched.process, Wire(launched.conn)


def _answer(process: subprocess.Popen, wire: Wire) -> object:
    assert wire.poll(120), "the kernel said nothing"
    answer = messages.receive(wire)
    process.wait(30)
    return answer


def _first(sent: bytes, capfd) -> tuple[object, int, str]:
    process, wire = _bare_kernel()
    try:
        wire.send_bytes(sent)
        answer = _answer(process, wire)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        wire.close()
    return answer, process.returncode, capfd.readouterr().err


@pytest.mark.parametrize("theirs", [messages.VERSION - 1, messages.VERSION + 1])
def test_a_window_of_another_version_gets_the_kernels_version_and_an_ended_kernel(
        theirs, capfd):
    answer, code, err = _first(messages.encode(messages.Hello(theirs)), capfd)
    assert answer == messages.Ready(answer.pid, messages.VERSION)
    assert code == messages.VERSION_EXIT
    assert (f"tensor-lab kernel: the window speaks protocol version {theirs}, this kernel "
            f"{messages.VERSION}, so the kernel ends.") in err


def test_a_window_from_before_hello_is_refused_at_its_first_message(capfd):
    """A version-2 window's first message was ``Warm``: it reads the ``Ready`` that
    answers as a kernel of another version, and says so."""
    answer, code, err = _first(messages.encode(messages.Warm([])), capfd)
    assert isinstance(answer, messages.Ready) and answer.version == messages.VERSION
    assert code == messages.VERSION_EXIT
    assert "the window sent Warm before its Hello" in err


def test_a_first_message_that_is_not_one_ends_the_kernel(capfd):
    answer, code, err = _first(b'{"type": "NoSuchMessage"}', capfd)
    assert isinstance(answer, messages.Ready)
    assert code == messages.VERSION_EXIT
    assert "its first message could not be read" in err


def _records_its_first_message(conn, parent=None, raised=None) -> None:
    """A stand-in kernel that answers a run with what came first."""
    wire = Wire(conn)
    first = messages.receive(wire)
    while not isinstance(message := messages.receive(wire), messages.RunSource):
        pass
    messages.send(wire, messages.Ready(os.getpid(), messages.VERSION))
    messages.send(wire, messages.Output(0, "stdout", repr(first)))
    messages.send(wire, messages.Done(0))
    del message


def test_the_windows_first_message_says_its_version(monkeypatch, tmp_path):
    monkeypatch.setattr(supervisor, "KERNEL_ENTRY",
                        f"{__name__}:{_records_its_first_message.__name__}")
    kernel = supervisor.Kernel()
    try:
        kernel.warm(())
        kernel.run_source(str(tmp_path / "r.py"), "x = 1\n", str(tmp_path))
        said = []
        while not said or not isinstance(said[-1], messages.Done):
            message = kernel.receive(60)
            assert message is not None
            said.append(message)
        assert said[1].text == repr(messages.Hello(messages.VERSION))
    finally:
        kernel.close()
