"""The plain messages between a kernel and its supervisor, and the one place that reads them.

Every message is a small dataclass of plain values, sent as one JSON object with its
``type``. JSON, not pickle: the window never runs code to read what a kernel sends.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from multiprocessing.connection import Connection
from typing import Any


@dataclass
class RunFile:
    """Run a recipe's text as ``python path argv...`` would (supervisor to kernel)."""

    path: str
    source: str
    argv: list[str] = field(default_factory=list)
    memory_budget: int = 0  # bytes; 0 for none


@dataclass
class RunSource:
    """Run a recipe's text for the window, in a fresh namespace, reporting every
    statement and capturing its output (supervisor to kernel); the kernel stays."""

    path: str
    source: str
    cwd: str = ""
    memory_budget: int = 0


@dataclass
class Warm:
    """Import torch now, in the background, so the first run starts warm."""


@dataclass
class Shutdown:
    """Leave at once (supervisor to kernel)."""


@dataclass
class Ready:
    """The kernel runs, in a process group of its own (kernel to supervisor)."""

    pid: int
    memory_limited: bool = False


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


@dataclass
class Done:
    """The run ended with python's exit code (kernel to supervisor)."""

    exit_code: int
    out_of_memory: bool = False


MESSAGES = {cls.__name__: cls for cls in (
    RunFile, RunSource, Warm, Shutdown, Ready, StepStarted, Output, StepDone, Done)}


def encode(message: Any) -> bytes:
    return json.dumps({"type": type(message).__name__, **asdict(message)}).encode("utf-8")


def decode(data: bytes) -> Any:
    """The message in ``data``; ``ValueError`` when it is not one."""
    raw = json.loads(data.decode("utf-8"))
    cls = MESSAGES.get(raw.pop("type", None) if isinstance(raw, dict) else None)
    if cls is None:
        raise ValueError("not a kernel message")
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in raw.items() if k in names})


def send(conn: Connection, message: Any) -> None:
    conn.send_bytes(encode(message))


def receive(conn: Connection) -> Any:
    """The next message; ``EOFError`` when the other side has gone."""
    return decode(conn.recv_bytes())
