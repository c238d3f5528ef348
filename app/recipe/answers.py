"""The views' questions to the window's kernel, and answers that come before they ask.

A view asks about a value of the kernel's run (``Document.ask``). An edit makes a new
run, and the views ask the same again about it: the tensor viewer its plane, the
autograd tab its graph, the Memory tab its storage map. So each run carries, as
``prefetch``, the last question of each such kind asked about the run before; the
kernel answers it as soon as the statement it names is done. The answer waits here
until the view asks (or goes to the view at once if it asked first), and the document
holds an edit's repaint until the answers about the statements done have come: one
repaint shows the result and what the views ask of it.

An answer tells the state as the statements done so far left it. Once a later
statement is done (a ``backward()`` fills in ``.grad``, an ``add_`` changes a tensor),
a kept answer may be stale: a view that asks then is answered by the kernel anew.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: The kinds of question a view asks again after every run.
STANDING = frozenset({"tensor", "tensor_stats", "autograd", "storage"})

Callback = Callable[[dict, str], None]


def _key(kind: str, args: dict) -> str:
    import json  # (the first question comes after the window's first paint)

    return kind + json.dumps(args, sort_keys=True, default=str)


class Answers:
    """Questions in flight (``asked``), and the answers sent with a run (``early``)."""

    def __init__(self) -> None:
        self.asked: dict[int, Callback] = {}
        self._standing: dict[str, dict] = {}  # kind: the last args asked, but the run
        #: Answered before anyone asked: the answer, and the last statement done then.
        self._early: dict[str, tuple[dict, str, int]] = {}
        self._done = -1  # the last statement of the run done
        self._prefetched: dict[int, tuple[str, str, dict]] = {}  # id: key, kind, args
        self._waiting: dict[str, list[Callback]] = {}  # key: views that asked already
        #: Views about to ask (they gather what they ask until their event loop is idle).
        self.coming_questions = 0

    @property
    def busy(self) -> bool:
        """Whether a view waits for an answer, or is about to ask."""
        return bool(self.asked) or any(self._waiting.values()) or self.coming_questions > 0

    def ask(self, kernel: Any, kind: str, args: dict, on_answer: Callback) -> None:
        """Ask ``kernel``, unless the answer came with the run or is on its way."""
        if kind in STANDING and "run" in args:
            self._standing[kind] = {k: v for k, v in args.items() if k != "run"}
        key = _key(kind, args)
        early = self._early.pop(key, None)
        if early is not None and early[2] == self._done:  # no statement done since
            on_answer(early[0], early[1])
        elif key in self._waiting:
            self._waiting[key].append(on_answer)
        else:
            self.asked[kernel.ask(kind, args)] = on_answer

    def prefetch(self, kernel: Any) -> list[tuple[int, str, dict]]:
        """The questions a new run carries (``KernelSession.run``'s ``prefetch``); what
        came for the run before is dropped."""
        self._early.clear()
        self._prefetched.clear()
        self._waiting.clear()
        self._done = -1
        asked, self._standing = self._standing, {}  # a view that stops asking is dropped
        return [(kernel.reserve_query_id(), kind, args) for kind, args in asked.items()]

    def sent(self, run_id: int, prefetch: list[tuple[int, str, dict]]) -> None:
        """The run ``run_id`` went with ``prefetch``: their answers are awaited."""
        for query_id, kind, args in prefetch:
            full = {**args, "run": run_id}
            key = _key(kind, full)
            self._prefetched[query_id] = (key, kind, full)
            self._waiting[key] = []

    def answered(self, query_id: int, data: dict, error: str) -> None:
        """Route the answer to ``query_id``: to the view that asked, or kept for it."""
        early = self._prefetched.pop(query_id, None)
        if early is not None:
            waiting = self._waiting.pop(early[0], [])
            if not waiting:
                self._early[early[0]] = (data, error, self._done)
            for on_answer in waiting:
                on_answer(data, error)
            return
        on_answer = self.asked.pop(query_id, None)
        if on_answer is not None:
            on_answer(data, error)

    def step_done(self, index: int) -> None:
        """Statement ``index`` of the run is done: answers kept from before are stale."""
        self._done = index

    def coming(self, done: int) -> bool:
        """Whether answers about statements up to ``done`` are still on their way."""
        return any(args.get("statement") is not None and args["statement"] <= done
                   for _key_, _kind, args in self._prefetched.values())

    def run_ended(self, kernel: Any) -> None:
        """The run is over: what it never answered is asked again, for the views waiting."""
        for key, kind, args in self._prefetched.values():
            waiting = self._waiting.pop(key, [])
            if waiting and kernel is not None:
                self.asked[kernel.ask(kind, args)] = lambda data, error, w=waiting: [
                    on_answer(data, error) for on_answer in w]
        self._prefetched.clear()
        self._waiting.clear()
