"""The plain messages between a kernel and its supervisor, and the one place that reads them.

Every message is a small dataclass with typed fields, registered with the codec
(``protocol.codec``), which sends it as one JSON object and its binary values (a loop's
scalars, a tensor's cells, a training batch) as raw frames beside it, wherever they sit:
the codec knows no message by name. JSON, not pickle: the window never runs code to read
what a kernel sends. Both sides check the ``VERSION`` of these messages: the window's
first message, ``Hello``, says which it speaks, and a kernel that speaks another answers
with its ``Ready`` and ends; the kernel's ``Ready`` says which it speaks, and the
supervisor ends a kernel that speaks another.

The big summaries (``kernel.summary``: a value's, a ``Report``'s, a query's answer)
are still plain dicts here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from protocol.codec import (  # noqa: F401 - the codec's names, where callers find them
    TYPES,
    decode,
    field_names,
    frames_of,
    packed,
    unpacked,
    wire_type,
)
from protocol.loop_report import LoopReport
from protocol.sealed import BUILTINS

if TYPE_CHECKING:  # (a pipe's type: the import costs the window's start 2.5 ms)
    from multiprocessing.connection import Connection

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the codec's

#: The version of these messages: a change to any of them, or to the codec, adds one.
#: (1 was the last without a number: its ``Ready`` has none, read as 0; 2 the last
#: whose window sent no ``Hello``; 3 the last whose layers had no percentiles; 4 the
#: last whose ``RunFile`` had no folder.)
VERSION = 5


class VersionMismatch(ValueError):
    """A kernel speaks another version of the protocol than this side."""

    def __init__(self, theirs: int):
        super().__init__(f"the kernel speaks protocol version {theirs}, this side {VERSION}")
        self.theirs = theirs


#: A value's summary (``kernel.summary.summarize``): ``type`` and what that type shows.
Summary = dict[str, Any]
#: Numbers in bulk: a numpy array (a raw frame), or a list where a test makes one.
Numbers = Any


class MirrorPlan(TypedDict, total=False):
    """A form step's statement in ``RunSource.mirror``: the names it ``reads``, copied
    before it runs, and the ``name`` it binds, copied after (``kernel.mirror``)."""

    reads: list[str]
    name: str | None


class MirrorValues(TypedDict, total=False):
    """A form step's small values (``StepDone.mirror``): ``inputs`` (name to data, as
    they were before it ran) and its ``output``; numpy arrays travel as raw frames."""

    inputs: dict[str, Any]
    output: Any


class LayerSeries(TypedDict, total=False):
    """A layer's numbers at ``Training.layer_steps`` (None where there was none): its
    output's std, its gradients' norm, and (live) the ``limits.LAYER_PERCENTILES`` of its
    weights and of their gradients (``kernel.watch_quantiles``)."""

    std: list[float | None]
    grad_norm: list[float | None]
    weight_q: list[list[float | None] | None]
    grad_q: list[list[float | None] | None]


class Boundary(TypedDict, total=False):
    """A 2-D classifier's predictions over a grid (``kernel.watch_boundary``): the
    grid's ``extent`` (x0, x1, y0, y1), ``grid`` (GRID x GRID x classes, numpy), and once,
    the training ``points`` and their ``labels``."""

    extent: list[float]
    grid: Any
    points: list[list[float]]
    labels: list[int]


class Histogram(TypedDict):
    """A sample of one layer's weights and gradients (``kernel.watch_histogram``):
    the ``layer`` (its path), the ``step``, and at most ``HISTOGRAM_VALUES`` of each
    (numpy arrays, or an empty list for no gradient)."""

    layer: str
    step: int
    weights: Any
    grads: Any


@wire_type
@dataclass
class Hello:
    """The supervisor's first message: the ``VERSION`` it speaks (supervisor to kernel).
    A kernel that speaks another answers with ``Ready`` (its own version) and exits
    with ``VERSION_EXIT``, before it reads anything else."""

    version: int


#: The exit code of a kernel whose supervisor speaks another version.
VERSION_EXIT = 3


@wire_type
@dataclass
class RunFile:
    """Run a recipe's text as ``python path argv...`` would (supervisor to kernel)."""

    path: str
    source: str
    argv: list[str] = field(default_factory=list)
    memory_budget: int = 0  # bytes; 0 for none
    #: ``tensor-lab run --json``: capture the output and end with a ``Report``.
    report: bool = False
    #: The folder to run in (made if missing: a server's work folder); "" for the
    #: kernel's own, the caller's as under python.
    cwd: str = ""


@wire_type
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
    #: where one can be trusted (``kernel.checkpoints``; ``Resumed`` says where).
    resume: bool = False
    #: The form steps' statements, by index (a string, as JSON keys are): the ``reads``
    #: to copy before it runs and the ``name`` to copy after (``kernel.mirror``).
    mirror: dict[str, MirrorPlan] = field(default_factory=dict)
    #: Questions the window will ask about this run, ``[id, kind, args]`` (a ``Query``'s,
    #: this run named in ``args``): answered once the statement they name is done.
    prefetch: list[list[Any]] = field(default_factory=list)


@wire_type
@dataclass
class Warm:
    """Import torch now, in the background, so the first run starts warm; then the
    ``modules`` that add the window's queries (``kernel.queries.register``)."""

    modules: list[str] = field(default_factory=list)


@wire_type
@dataclass
class Query:
    """A view asks about a value of the last window run (supervisor to kernel); the
    kernel answers on its reader thread, even while the recipe runs
    (``kernel.queries``)."""

    id: int
    kind: str
    args: dict[str, Any] = field(default_factory=dict)


@wire_type
@dataclass
class Interrupt:
    """Raise ``KeyboardInterrupt`` in the recipe (supervisor to kernel): Stop where the
    kernel's process group cannot be signalled (Windows)."""


@wire_type
@dataclass
class TrainingControl:
    """Steer the running training loop (supervisor to kernel; ``watch_live.Controls``):
    ``pause`` (True/False), one ``step`` to the next ``backward()``, a live ``lr`` (0 for
    the recipe's own again) and whether a non-finite loss pauses (``nan_pause``)."""

    pause: bool | None = None
    step: bool = False
    lr: float | None = None
    nan_pause: bool | None = None
    histogram: str | None = None  # the layer (its path) whose values are sampled


@wire_type
@dataclass
class Shutdown:
    """Leave at once (supervisor to kernel)."""


@wire_type
@dataclass
class Ready:
    """The kernel runs, in a process group of its own (kernel to supervisor)."""

    pid: int
    #: The ``VERSION`` the kernel speaks (0: a kernel from before versions).
    version: int = 0
    memory_limited: bool = False
    #: The kernel's resident bytes as its budget starts: the budget is on top of them.
    resident: int = 0


@wire_type
@dataclass
class Resumed:
    """The run goes on from the last run's state after statement ``start - 1``: statements
    before ``start`` keep what they did then (kernel to supervisor, before any step)."""

    start: int


@wire_type
@dataclass
class StepStarted:
    """A top-level statement starts (kernel to supervisor)."""

    index: int
    line: int


@wire_type
@dataclass
class Output:
    """What statement ``index`` wrote to ``stream`` (``stdout``/``stderr``) lately;
    ``dropped`` characters before it were left out of a flood."""

    index: int
    stream: Literal["stdout", "stderr"]
    text: str
    dropped: int = 0


@wire_type
@dataclass
class StepDone:
    """One top-level statement ended (kernel to supervisor), with the names it bound
    or changed and their summaries (``kernel.summary``)."""

    index: int
    line: int
    elapsed: float
    error: str | None = None
    message: str = ""
    error_line: int | None = None
    names: dict[str, Summary] = field(default_factory=dict)
    #: A top-level loop's iterations (``kernel.loops``); the window reads
    #: ``loop.expanded()``.
    loop: LoopReport | None = None
    #: A form step's small values (``kernel.mirror``).
    mirror: MirrorValues | None = None


@wire_type
@dataclass
class Training:
    """A training loop's steps since the last such message (kernel to supervisor), from
    statement ``index`` (first line ``line``): each step's number, ``loss`` and ``lr``
    (numpy arrays, or lists where a test makes one; NaN, or None in a list, where there
    is none or it was not finite: they travel as raw frames, as the boundary's grid and
    the histogram's values do), and for the ``layer_steps``, each
    layer's ``{"std": [...], "grad_norm": [...]}`` by its path. ``paused``: why the loop
    waits now (``pause``, ``nan``), or "" when it runs. ``boundary``: a 2-D classifier's
    predictions over a grid (``kernel.watch_boundary``), now and then;
    ``histogram``: a layer's values (``kernel.watch_histogram``), now and then."""

    index: int
    line: int
    steps: Numbers = field(default_factory=list)
    loss: Numbers = field(default_factory=list)
    lr: Numbers = field(default_factory=list)
    layer_steps: list[int] = field(default_factory=list)
    layers: dict[str, LayerSeries] = field(default_factory=dict)
    paused: Literal["", "pause", "nan"] = ""
    boundary: Boundary | None = None
    histogram: Histogram | None = None


@wire_type
@dataclass
class Report:
    """``tensor-lab run --json``'s report of a finished run (kernel to supervisor):
    ``tensors``, ``values``, ``errors``, ``stdout``, ``stderr`` (``kernel.report``)."""

    report: dict[str, Any]


@wire_type
@dataclass
class Answer:
    """The answer to ``Query`` ``id`` (kernel to supervisor): plain ``data``, where numpy
    arrays travel as raw frames after the message; or why there is none, ``error``."""

    id: int
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""


@wire_type
@dataclass
class Done:
    """The run ended with python's exit code (kernel to supervisor)."""

    exit_code: int
    out_of_memory: bool = False


MESSAGES = {cls.__name__: cls for cls in (
    Hello, RunFile, RunSource, Warm, Query, Interrupt, TrainingControl, Shutdown, Ready, Resumed,
    StepStarted, Output, StepDone, Training, Answer, Report, Done)}


def encode(message: Any) -> bytes:
    """``message`` as the one buffer a pipe carries (``decode`` reads it back)."""
    return packed(frames_of(message))


def send(conn: Connection, message: Any) -> None:
    conn.send_bytes(encode(message))


def receive(conn: Connection) -> Any:
    """The next message; ``EOFError`` when the other side has gone, ``CorruptPipe`` when
    its frames are not as it says."""
    return decode(conn.recv_bytes())
