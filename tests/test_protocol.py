"""The protocol between a kernel and its supervisor: every message comes back as it was
sent, binary values travel as raw frames wherever they sit (the codec knows no message by
name), a kernel that speaks another version is ended with a message saying so, and a
message whose frames are not as it says is a corrupted pipe."""

from __future__ import annotations

import math
import os
import struct
import sys
import time
from array import array
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import pytest

from app.link import supervisor
from app.link.session import Ended, KernelSession
from kernel.summary import summarize
from protocol import messages
from protocol.codec import wire_type
from protocol.loop_report import LoopReport, Stride
from protocol.wire import MAGIC, CorruptPipe, Wire
from tests.test_kernel_queries import _events as _until


def _loop_report() -> LoopReport:
    """Three iterations of ``for i in range(3)``, binding ``x`` and ``b`` (every one a
    scalar: one table) and, in iteration 2, a 0-d tensor ``t``."""
    return LoopReport(
        iterations=3, kept=[0, 1, 2], scalar_kinds={"i": "int", "x": "float", "b": "bool"},
        scalar_steps=Stride(0, 1, 3), table=array("d", [0.5, 1, 1.5, 0, math.nan, 1]),
        table_names=["x", "b"], counter="i", counter_values=Stride(0, 1, 3),
        samples={"2": {"t": [0, 2.5]}},
        sample_kinds=[{"type": "Tensor", "shape": [], "dtype": "torch.float32"}],
        plain_names=["i", "x", "b"], plain_rows={"1": [1, 1.5, False], "0": [0, 0.5, True]},
        printed={"0": "zero\n"})


def _examples() -> list[Any]:
    """One of every message, each field away from its default where it has one."""
    return [
        messages.Hello(messages.VERSION),
        messages.RunFile("/r.py", "print(1)\n", ["-v"], 1 << 30, report=True),
        messages.RunSource("/r.py", "x = 1\n", "/tmp", 1 << 20, 3, 7, True,
                           {"0": {"reads": ["a"], "name": "x"}}, [[1, "cells", {"run": 7}]]),
        messages.Warm(["app.explain.queries"]),
        messages.Query(4, "cells", {"run": 7, "name": "x", "rows": [0, 10]}),
        messages.Interrupt(),
        messages.TrainingControl(pause=True, step=True, lr=0.01, nan_pause=False,
                                 histogram="net.0"),
        messages.Shutdown(),
        messages.Ready(1234, messages.VERSION, True, 300 << 20),
        messages.Resumed(2),
        messages.StepStarted(1, 2),
        messages.Output(1, "stderr", "warning: é\n", dropped=5),
        messages.StepDone(1, 2, 0.25, "ValueError", "bad", 3,
                          {"x": {"type": "int", "value": 1}}, _loop_report(),
                          {"inputs": {"a": np.arange(6, dtype=np.float32).reshape(2, 3)},
                           "output": np.eye(2)}),
        messages.Training(1, 2, np.arange(3), np.array([1.0, np.nan, 0.5]),
                          np.array([0.1, 0.1, 0.05]), [0, 2],
                          {"net.0": {"std": [0.5, None], "grad_norm": [1.0, 2.0]}}, "nan",
                          {"extent": [0.0, 1.0, -1.0, 1.0], "grid": np.zeros((4, 4, 2)),
                           "points": [[0.0, 1.0]], "labels": [1]},
                          {"layer": "net.0", "step": 2, "weights": np.ones(5, np.float32),
                           "grads": []}),
        messages.Answer(4, {"cells": np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::2],
                            "shape": [3, 4]}, ""),
        messages.Report({"tensors": {}, "errors": [], "stdout": "1\n"}),
        messages.Done(130, out_of_memory=True),
    ]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape \
            and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    if isinstance(a, array):
        return isinstance(b, array) and a.typecode == b.typecode and \
            a.tobytes() == b.tobytes()
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return isinstance(b, list) and len(a) == len(b) and all(
            map(_same, a, b))
    if hasattr(a, "__dataclass_fields__"):
        return type(a) is type(b) and all(
            _same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return type(a) is type(b) and a == b


def test_every_message_comes_back_field_by_field():
    examples = _examples()
    assert {type(m).__name__ for m in examples} == set(messages.MESSAGES)  # none left out
    for message in examples:
        back = messages.decode(messages.encode(message))
        assert type(back) is type(message)
        for f in fields(message):
            assert _same(getattr(message, f.name), getattr(back, f.name)), (
                type(message).__name__, f.name)


def test_a_numpy_array_comes_back_writable_in_its_own_dtype_and_shape():
    answer = messages.decode(messages.encode(_examples()[-3]))
    cells = answer.data["cells"]
    assert cells.dtype == np.int64 and cells.shape == (3, 2)
    assert cells.tolist() == [[0, 2], [4, 6], [8, 10]]  # a strided view: its values
    cells[0, 0] = 5  # (torch.from_numpy wants a writable array)


@wire_type
@dataclass
class Probe:
    """A message the codec has never heard of, with binary values in odd places."""

    name: str
    values: array
    nested: list[dict[str, Any]] = field(default_factory=list)
    blob: bytes = b""
    part: Stride | None = None


def test_a_new_message_with_binary_fields_travels_without_a_codec_change():
    n = 100_000
    probe = Probe("p", array("d", range(n)),
                  [{"grid": np.arange(4, dtype=np.uint8).reshape(2, 2)}], b"\x00\xff",
                  Stride(1, 2, 3))
    data = messages.encode(probe)
    assert len(data) < 8 * n + 400  # the 10^5 floats as one raw frame, not JSON text
    back = messages.decode(data)
    assert isinstance(back, Probe) and _same(probe, back)
    assert back.part.values() == [1, 3, 5]


def test_a_value_the_codec_cannot_carry_is_refused_as_json_refuses_it():
    with pytest.raises(TypeError, match="set"):
        messages.encode(messages.Answer(1, {"x": {1, 2}}))


def test_a_loop_report_expands_to_what_the_window_reads():
    view = _loop_report().expanded()
    assert view == {
        "iterations": 3, "kept": [0, 1, 2],
        "scalar_kinds": {"i": "int", "x": "float", "b": "bool"},
        "scalars": {"i": [0, 1, 2], "x": [0.5, 1.5, "nan"], "b": [True, False, True]},
        "scalar_steps": [0, 1, 2],
        "samples": {"0": {"i": summarize(0), "x": summarize(0.5), "b": summarize(True)},
                    "1": {"i": summarize(1), "x": summarize(1.5), "b": summarize(False)},
                    "2": {"t": {"type": "Tensor", "shape": [], "dtype": "torch.float32",
                                "values": 2.5}}},
        "printed": {"0": "zero\n"}}
    assert list(view["samples"]) == ["0", "1", "2"]  # by iteration
    sent = messages.decode(messages.encode(messages.StepDone(0, 1, 0.0, loop=_loop_report())))
    assert sent.loop.expanded() == view


def test_a_plain_sample_is_summarized_as_summarize_has_it():
    report = LoopReport(1, [0], {}, Stride(0, 1, 0), plain_names=["a", "b", "c", "d", "e"],
                        plain_rows={"0": [7, True, 0.5, math.inf, 2 ** 70]})
    got = messages.decode(messages.encode(messages.StepDone(0, 1, 0.0, loop=report)))
    assert got.loop.expanded()["samples"]["0"] == {
        name: summarize(v) for name, v in zip("abcde", [7, True, 0.5, math.inf, 2 ** 70],
                                              strict=True)}
    assert Stride(5, -2, 3).values() == [5, 3, 1] and Stride(4, 0, 2).values() == [4, 4]


# -- a message whose frames are not as it says --------------------------------------------
def _packed(head: bytes, *frames: bytes, lengths: list[int] | None = None) -> bytes:
    parts = [head, *frames]
    lengths = lengths if lengths is not None else [len(p) for p in parts]
    return b"".join([b"\x00", struct.pack(f"<I{len(lengths)}Q", len(lengths), *lengths),
                     *parts])


OUTPUT = b'{"type": "Output", "index": 0, "stream": "stdout", "text": "x"}'
FRAMED = b'{"type": "Answer", "id": 1, "data": {"v": {"__frame__": 0, "typecode": "d"}}}'


@pytest.mark.parametrize("data", [
    _packed(OUTPUT, b"\x00" * 8, lengths=[len(OUTPUT), 64]),  # a frame longer than sent
    _packed(OUTPUT, lengths=[len(OUTPUT) - 3]),  # bytes left over
    _packed(OUTPUT, lengths=[len(OUTPUT)] * 3),
    b"\x00" + struct.pack("<I", 1 << 30) + OUTPUT,  # an absurd count of parts
    b"\x00\x01",
    _packed(FRAMED),  # a frame named and not sent
    _packed(FRAMED, b"\x00" * 12),  # 12 bytes of float64
    _packed(OUTPUT, b"\x00" * 8),  # a frame no part of the message names
], ids=["long", "short", "count", "absurd", "header", "missing", "size", "unnamed"])
def test_a_message_whose_frames_are_not_as_it_says_is_a_corrupted_pipe(data):
    assert messages.decode(_packed(FRAMED, b"\x00" * 8)).data["v"] == array("d", [0.0])
    with pytest.raises(CorruptPipe):
        messages.decode(data)


def test_a_message_that_names_no_message_is_refused():
    for data in (b'{"type": "os.system", "command": "true"}',
                 _packed(b'{"type": "Done", "exit_code": {"__type__": "Popen"}}'),
                 _packed(b'{"type": "Done", "exit_code": {"__type__": {}}}'),
                 b'{"type": "Done"}'):  # a field missing
        with pytest.raises(ValueError, match="not a"):
            messages.decode(data)


#: A whole frame of the pipe, well framed, whose message says a part longer than it
#: brings: written into every socket the kernel holds, a second after the step starts.
HOSTILE = f'''\
import os, struct, time
if True:
    time.sleep(1.0)
    message = {OUTPUT!r}
    packed = b"\\x00" + struct.pack("<I2Q", 2, len(message), 64) + message + bytes(8)
    frame = struct.pack("<4sQ", {MAGIC!r}, len(packed)) + packed
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{{name}}").startswith("socket:"):
                os.write(int(name), frame)
        except OSError:
            pass
    while True:
        time.sleep(0.01)
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the recipe finds its pipe in /proc/self/fd")
def test_a_well_framed_message_with_lying_lengths_ends_the_kernel_as_corrupted(tmp_path):
    session = KernelSession(run_timeout=None)
    try:
        run_id = session.run(HOSTILE, str(tmp_path / "hostile.py"), str(tmp_path))
        events = _until(session, lambda e: isinstance(e, Ended) and e.run_id == run_id, 120)
    finally:
        session.close()
    ended = [e for e in events if isinstance(e, Ended)][-1]
    assert ended.reason == "died" and "pipe was corrupted" in ended.message
    assert "packed message" in ended.message


# -- the version ---------------------------------------------------------------------------
def _kernel_of_another_version(conn, parent=None, raised=None) -> None:
    """A stand-in kernel (the kernel process's entry, ``supervisor.KERNEL_ENTRY``) that
    answers the first run with a ``Ready`` of the next version, then reports the run
    done."""
    wire = Wire(conn)
    while True:
        message = messages.receive(wire)
        if isinstance(message, messages.Shutdown):
            return
        if isinstance(message, messages.RunFile | messages.RunSource):
            messages.send(wire, messages.Ready(os.getpid(), messages.VERSION + 1))
            messages.send(wire, messages.Done(0))


@pytest.fixture
def another_version(monkeypatch):
    monkeypatch.setattr(supervisor, "KERNEL_ENTRY",
                        f"{__name__}:{_kernel_of_another_version.__name__}")


def test_a_kernel_of_another_version_is_ended_before_its_run_is_believed(
        another_version, tmp_path):
    kernel = supervisor.Kernel()
    try:
        ending = kernel.run_file(str(tmp_path / "r.py"), "print(1)\n", timeout=60)
        assert ending.reason == "protocol" and ending.exit_code == 1  # not its Done's 0
        assert ending.message == (f"the kernel speaks protocol version "
                                  f"{messages.VERSION + 1}, this side {messages.VERSION}")
        assert kernel.exit_code(10) is not None and not kernel.alive
    finally:
        kernel.close()


def test_the_window_says_the_kernel_was_ended_for_its_version(another_version, tmp_path):
    session = KernelSession(run_timeout=None)
    try:
        run_id = session.run("x = 1\n", str(tmp_path / "r.py"), str(tmp_path))
        events = _until(session, lambda e: isinstance(e, Ended) and e.run_id == run_id, 120)
    finally:
        session.close()
    ended = [e for e in events if isinstance(e, Ended)][-1]
    assert ended.reason == "died"
    assert ended.message == (f"The kernel speaks version {messages.VERSION + 1} of the "
                             f"protocol and this window version {messages.VERSION}, so the "
                             "kernel was ended.")


def test_the_kernel_says_its_version_first(tmp_path):
    kernel = supervisor.Kernel()
    try:
        kernel.run_source(str(tmp_path / "r.py"), "x = 1\n", str(tmp_path))
        deadline, first = time.monotonic() + 120, None
        while first is None and time.monotonic() < deadline:
            first = kernel.receive(0.5)
        assert isinstance(first, messages.Ready) and first.version == messages.VERSION
    finally:
        kernel.close()
