"""What a window's kernel session reports: plain events, and the queue that holds them.

``app.link.session``'s reader thread puts them and tells the window (``on_ready``); the
window takes them on its own thread with ``KernelSession.poll``. The queue is the one
hand-off between the two threads: output left untaken merges, so a flood stays bounded.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from protocol import messages
from protocol.limits import LIMIT


@dataclass(frozen=True)
class KernelStarting:
    """A kernel is starting; ``cause``: "" (the first), else why the last went ("stopped",
    "timeout", "memory", "died", "restart"), told in ``message``. No ``KernelReady`` after
    it: none could start, or one died at once; the next ``run`` starts one."""

    cause: str = ""
    message: str = ""


@dataclass(frozen=True)
class KernelReady:
    """A kernel runs (process ``pid``) and imports torch in the background."""

    pid: int


@dataclass(frozen=True)
class RunMessage:
    """A ``protocol`` StepStarted, Output, StepDone or Done of run ``run_id``. Output left
    unpolled merges, keeping its last ``limits.LIMIT`` characters (``dropped``: the rest)."""

    run_id: int
    message: (messages.Resumed | messages.StepStarted | messages.Output | messages.StepDone
              | messages.Done)


@dataclass(frozen=True)
class Restoring:
    """A fresh kernel re-runs, as run ``run_id``, the first ``statements`` statements of run
    ``stopped_run``, whose kernel Stop (or the time limit) had to end."""

    run_id: int
    stopped_run: int
    statements: int


@dataclass(frozen=True)
class Ended:
    """Run ``run_id`` is over (its last event). ``reason``: "" (ran to its end or an error),
    "stopped", "timeout", "memory", "died"; ``exit_code``: python's, or minus the signal
    that ended the kernel; ``message``: marked English (``Filled`` with values), or ""."""

    run_id: int
    reason: str
    exit_code: int
    message: str = ""


@dataclass(frozen=True)
class Answered:
    """The kernel's answer to query ``query_id`` (``KernelSession.ask``): ``data``, or why
    there is none (``error``: the kernel's message, or that the kernel ended)."""

    query_id: int
    data: dict
    error: str = ""


Event = KernelStarting | KernelReady | RunMessage | Restoring | Ended | Answered


class EventQueue:
    """A thread-safe FIFO of events; output left unpolled merges, so it stays bounded."""

    def __init__(self):
        self._lock, self._items = threading.Lock(), deque[Event]()
        #: Called (from the putting thread) when an event arrives in an empty queue: the
        #: window drains at once instead of at its next poll; and when a run's ``Ended``
        #: arrives (its argument True): nothing more of the run will come.
        self.on_ready: Callable[[bool], None] | None = None

    def put(self, event: Event) -> None:
        on_ready = self.on_ready
        ended = isinstance(event, Ended)
        if (self._put(event) or ended) and on_ready is not None:
            try:
                on_ready(ended)
            except RuntimeError:  # its window has gone (a deleted Qt object): poll only
                self.on_ready = None

    def _put(self, event: Event) -> bool:
        """Queue ``event``; True when the queue was empty."""
        with self._lock:
            if isinstance(event, RunMessage) and isinstance(event.message, messages.Output):
                for back in (-1, -2):  # stdout and stderr interleave
                    last = self._items[back] if len(self._items) >= -back else None
                    if not (isinstance(last, RunMessage) and last.run_id == event.run_id
                            and isinstance(last.message, messages.Output)
                            and last.message.index == event.message.index):
                        break
                    if last.message.stream == event.message.stream:
                        merged = joined(last.message, event.message)
                        self._items[back] = RunMessage(event.run_id, merged)
                        return False
            self._items.append(event)
            return len(self._items) == 1

    def __len__(self) -> int:
        return len(self._items)

    def take(self, max_seconds: float) -> list[Event]:
        deadline, taken = time.monotonic() + max_seconds, []
        while True:
            with self._lock:
                taken.extend(self._items.popleft() for _ in range(min(64, len(self._items))))
                if not self._items or time.monotonic() >= deadline:
                    return taken


def joined(first: messages.Output, then: messages.Output) -> messages.Output:
    if then.dropped:  # a gap before ``then``: everything before it counts as dropped
        return replace(then, dropped=first.dropped + len(first.text) + then.dropped)
    text, dropped = first.text + then.text, first.dropped
    if len(text) > LIMIT:
        dropped, text = dropped + len(text) - LIMIT, text[-LIMIT:]
    return replace(then, text=text, dropped=dropped)
