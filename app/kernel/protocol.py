"""The plain messages between a kernel and its supervisor, and the one place that reads them.

Every message is a small dataclass of plain values, sent as one JSON object with its
``type``. JSON, not pickle: the window never runs code to read what a kernel sends.
Numbers in bulk (a loop's scalars, a tensor's cells, a training batch) travel as raw
frames beside it, in the same buffer (``packed``): one write per message, so the
kernel's writer thread takes the GIL once for it, not once per frame.
"""

from __future__ import annotations

import math
import struct
from array import array
from dataclasses import dataclass, field, fields
from multiprocessing.connection import Connection
from typing import Any

from app.kernel.sealed import BUILTINS, dumps, loads
from app.kernel.summary import summarize

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the codec's


@dataclass
class RunFile:
    """Run a recipe's text as ``python path argv...`` would (supervisor to kernel)."""

    path: str
    source: str
    argv: list[str] = field(default_factory=list)
    memory_budget: int = 0  # bytes; 0 for none
    #: ``tensor-lab run --json``: capture the output and end with a ``Report``.
    report: bool = False


@dataclass
class RunSource:
    """Run a recipe's text for the window, in a fresh namespace, reporting every
    statement and capturing its output (supervisor to kernel); the kernel stays."""

    path: str
    source: str
    cwd: str = ""
    memory_budget: int = 0
    stop_before: int = -1  # run only statements [0, stop_before); -1 for all of them
    run_id: int = 0  # what ``Query`` names to ask about this run's values
    #: An edit: go on from the last run's checkpoint before the first changed statement
    #: where one can be trusted (``app.kernel.checkpoints``; ``Resumed`` says where).
    resume: bool = False
    #: The form steps' statements, by index (a string, as JSON keys are): the ``reads``
    #: to copy before it runs and the ``name`` to copy after (``app.kernel.mirror``).
    mirror: dict = field(default_factory=dict)
    #: Questions the window will ask about this run, ``[id, kind, args]`` (a ``Query``'s,
    #: this run named in ``args``): answered once the statement they name is done.
    prefetch: list = field(default_factory=list)


@dataclass
class Warm:
    """Import torch now, in the background, so the first run starts warm; then the
    ``modules`` that add the window's queries (``app.kernel.queries.register``)."""

    modules: list[str] = field(default_factory=list)


@dataclass
class Query:
    """A view asks about a value of the last window run (supervisor to kernel); the
    kernel answers on its reader thread, even while the recipe runs
    (``app.kernel.queries``)."""

    id: int
    kind: str
    args: dict = field(default_factory=dict)


@dataclass
class Interrupt:
    """Raise ``KeyboardInterrupt`` in the recipe (supervisor to kernel): Stop where the
    kernel's process group cannot be signalled (Windows)."""


@dataclass
class TrainingControl:
    """Steer the running training loop (supervisor to kernel; ``training_live.Controls``):
    ``pause`` (True/False), one ``step`` to the next ``backward()``, a live ``lr`` (0 for
    the recipe's own again) and whether a non-finite loss pauses (``nan_pause``)."""

    pause: bool | None = None
    step: bool = False
    lr: float | None = None
    nan_pause: bool | None = None
    histogram: str | None = None  # the layer (its path) whose values are sampled


@dataclass
class Shutdown:
    """Leave at once (supervisor to kernel)."""


@dataclass
class Ready:
    """The kernel runs, in a process group of its own (kernel to supervisor)."""

    pid: int
    memory_limited: bool = False
    #: The kernel's resident bytes as its budget starts: the budget is on top of them.
    resident: int = 0


@dataclass
class Resumed:
    """The run goes on from the last run's state after statement ``start - 1``: statements
    before ``start`` keep what they did then (kernel to supervisor, before any step)."""

    start: int


@dataclass
class StepStarted:
    """A top-level statement starts (kernel to supervisor)."""

    index: int
    line: int


@dataclass
class Output:
    """What statement ``index`` wrote to ``stream`` (``stdout``/``stderr``) lately;
    ``dropped`` characters before it were left out of a flood."""

    index: int
    stream: str
    text: str
    dropped: int = 0


@dataclass
class StepDone:
    """One top-level statement ended (kernel to supervisor), with the names it bound
    or changed and their summaries (``app.kernel.summary``)."""

    index: int
    line: int
    elapsed: float
    error: str | None = None
    message: str = ""
    error_line: int | None = None
    names: dict = field(default_factory=dict)
    #: A top-level loop's iterations (``app.kernel.loops``): ``iterations``, ``kept`` (the
    #: iterations summarized), ``samples`` (``{"<iteration>": {name: summary}}``),
    #: ``scalars`` (``{name: [value per kept step]}``, NaN/inf as strings),
    #: ``scalar_kinds`` and ``scalar_steps`` (the iterations the scalars are from).
    loop: dict | None = None
    #: A form step's small values (``app.kernel.mirror``): ``inputs`` (name to data, as
    #: they were before it ran) and ``output``; numpy arrays travel as raw frames.
    mirror: dict | None = None


@dataclass
class Training:
    """A training loop's steps since the last such message (kernel to supervisor), from
    statement ``index`` (first line ``line``): each step's number, ``loss`` and ``lr``
    (numpy arrays, or lists where a test makes one; NaN, or None in a list, where there
    is none or it was not finite: they travel as raw frames, as the boundary's grid and
    the histogram's values do), and for the ``layer_steps``, each
    layer's ``{"std": [...], "grad_norm": [...]}`` by its path. ``paused``: why the loop
    waits now (``pause``, ``nan``), or "" when it runs. ``boundary``: a 2-D classifier's
    predictions over a grid (``app.kernel.training_boundary``), now and then;
    ``histogram``: a layer's values (``app.kernel.training_histogram``), now and then."""

    index: int
    line: int
    steps: list = field(default_factory=list)
    loss: list = field(default_factory=list)
    lr: list = field(default_factory=list)
    layer_steps: list = field(default_factory=list)
    layers: dict = field(default_factory=dict)
    paused: str = ""
    boundary: dict | None = None
    #: Now and then, a sample of one layer's weights and gradients: ``layer`` (its
    #: path), ``step``, ``weights`` and ``grads`` (at most ``HISTOGRAM_VALUES`` each).
    histogram: dict | None = None


@dataclass
class Report:
    """``tensor-lab run --json``'s report of a finished run (kernel to supervisor):
    ``tensors``, ``values``, ``errors``, ``stdout``, ``stderr`` (``app.kernel.report``)."""

    report: dict


@dataclass
class Answer:
    """The answer to ``Query`` ``id`` (kernel to supervisor): plain ``data``, where numpy
    arrays travel as raw frames after the message; or why there is none, ``error``."""

    id: int
    data: dict = field(default_factory=dict)
    error: str = ""


@dataclass
class Done:
    """The run ended with python's exit code (kernel to supervisor)."""

    exit_code: int
    out_of_memory: bool = False


MESSAGES = {cls.__name__: cls for cls in (
    RunFile, RunSource, Warm, Query, Interrupt, TrainingControl, Shutdown, Ready, Resumed,
    StepStarted, Output, StepDone, Training, Answer, Report, Done)}


def field_names(cls: type) -> tuple[str, ...]:
    """A message class's field names, looked up once (``dataclasses.fields`` took 35 us
    a message: two of them a statement, on both sides of the pipe)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def encode(message: Any) -> bytes:
    # the fields as they are (``asdict`` would deep-copy a training batch's lists first:
    # a tenth of a small loop's time)
    plain = {name: getattr(message, name) for name in field_names(type(message))}
    return dumps({"type": type(message).__name__, **plain}).encode("utf-8")


def _encode_step(message: StepDone) -> tuple[bytes, list[bytes]]:
    """A ``StepDone`` whose loop scalars (float64 ``array``s) travel as raw frames after it
    (a JSON list of 10^5 floats costs ~20 ms to write; a frame, a copy): its
    ``scalar_table`` (every name, iteration after iteration) and its ``scalars`` columns.
    A ``scalar_range`` (a ``range`` counter) travels as its start, step and count. The
    mirror's arrays come after them; ``frames`` counts them all."""
    frames: list[bytes] = []
    raw = {name: getattr(message, name) for name in field_names(StepDone)}  # no deep copy
    if message.loop is not None:
        raw["loop"] = _encode_loop(message.loop, frames)
    if message.mirror is not None:
        raw["mirror"] = _pack_arrays(message.mirror, frames)
    raw["frames"] = len(frames)
    return dumps({"type": "StepDone", **raw}).encode("utf-8"), frames


def _encode_loop(loop: dict, frames: list[bytes]) -> dict:
    loop = dict(loop)
    if "scalar_table" in loop:
        table = loop["scalar_table"]
        frames.append(table["values"].tobytes())
        loop["scalar_table"] = {"names": table["names"], "frame": 0}
    placed = {}
    for name, column in (loop.get("scalars") or {}).items():
        placed[name] = {"frame": len(frames), "length": len(column)}
        frames.append(column.tobytes())
    loop["scalars"] = placed
    return loop


def _read_frames(message: StepDone, frames: list[bytes]) -> None:
    if message.mirror is not None:
        message.mirror = _unpack_arrays(message.mirror, frames)
    loop = message.loop
    if not loop or "scalars" not in loop:
        return
    kinds = loop.get("scalar_kinds", {})
    columns: dict[str, Any] = {}
    if "scalar_table" in loop:  # one frame, iteration after iteration: split it here
        table = loop.pop("scalar_table")
        values = array("d")
        values.frombytes(frames[table["frame"]])
        names = table["names"]
        columns = {name: values[j::len(names)] for j, name in enumerate(names)}
    for name, place in loop.get("scalars", {}).items():
        columns[name] = array("d")
        columns[name].frombytes(frames[place["frame"]])
    scalars = {name: _scalar_values(column, kinds.get(name, "float"))
               for name, column in columns.items()}
    counter = loop.pop("scalar_range", None)
    if counter:  # first, as the loop's target comes first
        scalars = {counter["name"]: list(range(counter["start"], counter["start"] + counter[
            "count"] * counter["step"], counter["step"]))[:counter["count"]], **scalars}
    loop["scalars"] = scalars
    kinds = loop.pop("sample_kinds", None)
    if kinds:  # a 0-d tensor's sample as [kind, value] (``loops._packed``): its summary
        for sample in (loop.get("samples") or {}).values():
            for name, s in sample.items():
                if type(s) is list:
                    sample[name] = {**kinds[s[0]], "values": s[1]}
    plain = loop.pop("plain_samples", None)
    if plain:  # rows of plain scalars: their summaries, as ``summary.summarize`` has them
        samples = loop.get("samples") or {}
        names = plain["names"]
        for n, row in plain["rows"].items():
            samples[n] = {name: summarize(v) for name, v in zip(names, row, strict=False)}
        loop["samples"] = dict(sorted(samples.items(), key=lambda item: int(item[0])))
    steps = loop.get("scalar_steps")
    if isinstance(steps, dict):
        loop["scalar_steps"] = list(range(steps["start"], steps["start"] + steps["count"]
                                          * steps["step"], steps["step"]))


def _scalar_values(column: array, kind: str) -> list:
    values = column.tolist()
    finite = math.isfinite(sum(values)) if values else True
    if kind in ("int", "bool"):
        cast = int if kind == "int" else bool
        if finite:
            return list(map(cast, values))
        return [cast(v) if math.isfinite(v) else None for v in values]  # nan: unbound
    if finite:
        return values
    from app.json_values import plain

    return plain(values)


def decode(data: bytes) -> Any:
    """The message in ``data``; ``ValueError`` when it is not one."""
    return _message(loads(data.decode("utf-8")))


def _message(raw: Any) -> Any:
    cls = MESSAGES.get(raw.pop("type", None) if isinstance(raw, dict) else None)
    if cls is None:
        raise ValueError("not a kernel message")
    names = field_names(cls)
    return cls(**{k: v for k, v in raw.items() if k in names})


def _pack_arrays(value: Any, frames: list[bytes]) -> Any:
    """``value`` with each numpy array replaced by its place among ``frames``."""
    if isinstance(value, dict):
        return {k: _pack_arrays(v, frames) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_pack_arrays(v, frames) for v in value]
    if type(value).__module__ == "numpy" and hasattr(value, "tobytes") \
            and hasattr(value, "shape"):
        array = value if value.flags.c_contiguous else value.copy()
        frames.append(array.tobytes())
        return {"__frame__": len(frames) - 1, "dtype": array.dtype.str,
                "shape": list(array.shape)}
    return value


def _unpack_arrays(value: Any, frames: list[bytes]) -> Any:
    if isinstance(value, dict):
        if "__frame__" in value:
            import numpy as np

            data = bytearray(frames[value["__frame__"]])  # writable, for torch.from_numpy
            return np.frombuffer(data, dtype=np.dtype(value["dtype"])).reshape(value["shape"])
        return {k: _unpack_arrays(v, frames) for k, v in value.items()}
    if isinstance(value, list):
        return [_unpack_arrays(v, frames) for v in value]
    return value


def frames_of(message: Any) -> list[bytes]:
    """What ``send`` writes for ``message``: its JSON, then any raw frames."""
    if isinstance(message, Answer):
        frames: list[bytes] = []
        data = _pack_arrays(message.data, frames)
        head = dumps({"type": "Answer", "id": message.id, "data": data,
                           "error": message.error, "frames": len(frames)}).encode("utf-8")
        return [head, *frames]
    if isinstance(message, StepDone) and (message.loop is not None
                                          or message.mirror is not None):
        head, frames = _encode_step(message)
        return [head, *frames]
    if isinstance(message, Training):  # its numbers as numpy arrays: raw frames
        frames = []
        raw = {f.name: _pack_arrays(getattr(message, f.name), frames)
               for f in fields(message)}
        head = dumps({"type": "Training", **raw, "frames": len(frames)})
        return [head.encode("utf-8"), *frames]
    return [encode(message)]


#: A message with raw frames is one buffer: this byte, the count of its parts and each
#: one's length (little-endian), then its JSON and its frames. JSON never starts so.
_PACKED = b"\x00"


def packed(frames: list[bytes]) -> bytes:
    """``frames_of(message)`` as the one buffer ``send`` writes."""
    if len(frames) == 1:
        return frames[0]
    lengths = struct.pack(f"<I{len(frames)}Q", len(frames), *map(len, frames))
    return b"".join([_PACKED, lengths, *frames])


def unpacked(data: bytes) -> tuple[bytes, list[memoryview]]:
    """A ``packed`` buffer's JSON and frames (views of it, not copies)."""
    if data[:1] != _PACKED:
        return data, []
    (count,) = struct.unpack_from("<I", data, 1)
    lengths = struct.unpack_from(f"<{count}Q", data, 5)
    view, parts, at = memoryview(data), [], 5 + 8 * count
    for length in lengths:
        parts.append(view[at:at + length])
        at += length
    return bytes(parts[0]), parts[1:]


def send(conn: Connection, message: Any) -> None:
    conn.send_bytes(packed(frames_of(message)))


def receive(conn: Connection) -> Any:
    """The next message; ``EOFError`` when the other side has gone."""
    head, frames = unpacked(conn.recv_bytes())
    raw = loads(head.decode("utf-8"))
    count = raw.get("frames", 0) if isinstance(raw, dict) \
        and raw.get("type") in ("Answer", "StepDone", "Training") else 0
    if len(frames) != int(count):
        raise ValueError(f"a message said {count} frames and brought {len(frames)}")
    message = _message(raw)
    if isinstance(message, StepDone):
        _read_frames(message, frames)
    elif isinstance(message, Answer):
        message.data = _unpack_arrays(message.data, frames)
    elif isinstance(message, Training) and frames:
        for f in fields(message):
            setattr(message, f.name, _unpack_arrays(getattr(message, f.name), frames))
    return message
