"""What a top-level loop did, iteration by iteration, bounded (in the spirit of birdseye's
``IterationList``).

Only for the window (``RunSource``): a top-level ``for``/``while`` statement's ``ast`` is
rewritten so that a recorder, bound in ``__main__`` under ``RECORDER`` while the statement
runs, sees the values of the loop's names at the end of each iteration (at the end of the
body, and just before a ``continue`` or a ``break`` of that loop). Nested loops are part of
the body: only the top-level loop's iterations count.

What it keeps:

- full summaries (``app.kernel.summary.summarize``) for iterations 0-99, then an even
  sample (the stride doubles as the loop goes on; about 200 kept in all), and always the
  last iteration;
- plain scalars (int, float, bool; 0-d tensors as floats) for every iteration up to
  ``SCALAR_LIMIT``, then an even sample, as float64 arrays (the kernel sends them as raw
  frames beside the JSON message; ``protocol`` turns them back into lists).

``iterations`` counts the iterations that reached their end (normally, by ``continue`` or
by ``break``): a loop that raises in iteration 5 reports 5.

Cost: a loop whose names all hold plain scalars in iteration 0 records, after iteration
99, through a C call (``deque.insert`` into a bounded ring; the ring, when full, raises
``IndexError``, caught by the inserted code, which empties it); others call a Python hook
each iteration.
"""

from __future__ import annotations

import ast
import copy
import math
from array import array
from collections import deque
from itertools import chain
from typing import Any

#: The recorder's name in ``__main__`` while a loop statement runs.
RECORDER = "__tensor_lab_loop__"
#: Iterations summarized in full from the start.
FIRST = 100
#: Later iterations summarized at most (an even sample, the stride doubling).
LATER = 100
#: Iterations whose scalars are all kept; past it, an even sample.
SCALAR_LIMIT = 100_000
#: Most names a loop reports.
MAX_NAMES = 50
#: Iterations the fast ring holds before it is emptied.
RING = 4096
_BIG = 1 << 62  # deque.insert(_BIG, x) appends: the fast hook's first argument
_PLAIN = (int, float, bool)


class _Missing:
    def __repr__(self) -> str:
        return "<unbound>"


MISSING = _Missing()


# -- the rewrite ---------------------------------------------------------------------------
def is_loop(node: ast.stmt) -> bool:
    return isinstance(node, ast.For | ast.While)


def loop_names(node: ast.For | ast.While) -> list[str]:
    """Names the loop binds in an iteration (its target, then its body), in order."""
    found: list[str] = []

    def add(name: str) -> None:
        if not name.startswith("__") and name not in found:
            found.append(name)

    def visit(n: ast.AST) -> None:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            add(n.id)
        elif isinstance(n, ast.MatchAs | ast.MatchStar) and n.name:
            add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            add(n.rest)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            add(n.name)
            for d in n.decorator_list:
                visit(d)
            return  # its body is a scope of its own
        if isinstance(n, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp |
                      ast.GeneratorExp):
            return
        for child in ast.iter_child_nodes(n):
            visit(child)

    if isinstance(node, ast.For):
        visit(node.target)
    for stmt in node.body:
        visit(stmt)
    return found[:MAX_NAMES]


def instrument(node: ast.For | ast.While) -> tuple[ast.stmt, list[str]]:
    """A copy of the loop statement that calls the recorder at the end of each iteration."""
    names = loop_names(node)
    loop = copy.deepcopy(node)

    def hook(at: ast.stmt) -> ast.stmt:
        rec = ast.Name(RECORDER, ast.Load())
        values = ast.Tuple([ast.Name(n, ast.Load()) for n in names], ast.Load())
        call = ast.Expr(ast.Call(rec, [ast.Constant(_BIG), values], []))
        this = ast.Attribute(ast.Name(RECORDER, ast.Load()), "__self__", ast.Load())
        errors = ast.Attribute(copy.deepcopy(this), "errors", ast.Load())
        recover = ast.Expr(ast.Call(ast.Attribute(this, "overflow", ast.Load()), [], []))
        stmt = ast.Try(body=[call], handlers=[ast.ExceptHandler(errors, None, [recover])],
                       orelse=[], finalbody=[])
        for n in ast.walk(stmt):
            if isinstance(n, ast.stmt | ast.expr | ast.excepthandler):
                n.lineno, n.col_offset = at.lineno, at.col_offset
                n.end_lineno, n.end_col_offset = at.end_lineno, at.end_col_offset
        return stmt

    def block(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            if isinstance(s, ast.Continue | ast.Break):
                out.append(hook(s))
            elif isinstance(s, ast.For | ast.While | ast.AsyncFor):
                s.orelse = block(s.orelse)  # its else's continue/break are the outer loop's
            elif isinstance(s, ast.If):
                s.body, s.orelse = block(s.body), block(s.orelse)
            elif isinstance(s, ast.With | ast.AsyncWith):
                s.body = block(s.body)
            elif isinstance(s, ast.Try | ast.TryStar):
                s.body, s.orelse, s.finalbody = block(s.body), block(s.orelse), block(
                    s.finalbody)
                for h in s.handlers:
                    h.body = block(h.body)
            elif isinstance(s, ast.Match):
                for case in s.cases:
                    case.body = block(case.body)
            out.append(s)
        return out

    body = block(loop.body)
    if not isinstance(loop.body[-1], ast.Continue | ast.Break):
        body.append(hook(loop.body[-1]))
    loop.body = body
    return loop, names


# -- the recorder --------------------------------------------------------------------------
def _scalar_kind(value: Any) -> str | None:
    if type(value) in _PLAIN:
        return type(value).__name__
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor) and value.dim() == 0:
        return "tensor"
    return None


def _torch():
    import sys

    return sys.modules.get("torch")


def _as_float(value: Any) -> float:
    try:
        if type(value) in _PLAIN:
            return float(value)
        torch = _torch()
        if torch is not None and isinstance(value, torch.Tensor) and value.numel() == 1:
            return float(value.item())
    except (TypeError, ValueError, OverflowError, RuntimeError):
        pass
    return math.nan


def _summary(value: Any) -> dict:
    from app.kernel.summary import summarize

    try:
        return summarize(value)
    except Exception as e:  # noqa: BLE001 - an odd value must not break the loop
        return {"type": type(value).__name__, "repr": f"<summary failed: {type(e).__name__}>"}


class LoopRecorder(deque):
    """Sees a loop's names at the end of each iteration; ``report()`` says what it kept.

    Its bound ``record`` (Python) or, once iteration 0 showed only plain scalars and the
    first ``FIRST`` are summarized, its bound ``insert`` (C, into itself as a bounded ring)
    is what ``__main__[RECORDER]`` holds.
    """

    #: What the inserted code catches around the call: a full ring, an unbound name.
    errors = (IndexError, NameError)

    def __init__(self, namespace: dict, names: list[str]):
        super().__init__(maxlen=RING)
        self.namespace = namespace
        self.names = names
        self.count = 0
        self.last: tuple | None = None
        self.kinds: dict[int, str] = {}  # position -> scalar kind, from iteration 0
        self.columns: dict[int, array] = {}
        self.stride = 1  # scalars kept every `stride` iterations
        self.first: dict[int, dict] = {}
        self.later: list[tuple[int, dict]] = []
        self.later_stride = 1
        self.due = 0
        self.fast = False

    # the hooks -------------------------------------------------------------------------
    def record(self, _index: int, values: tuple) -> None:
        """One iteration ended with ``values`` (the Python hook)."""
        n = self.count
        self.count = n + 1
        self.last = values
        if n == 0:
            self._start(values)
        if n % self.stride == 0:
            for j, column in self.columns.items():
                column.append(_as_float(values[j]))
            self._bound()
        if n == self.due:
            self._sample(n, values)
        if n == FIRST - 1 and self.fast and self.namespace.get(RECORDER) == self.record:
            self.namespace[RECORDER] = self.insert

    def overflow(self) -> None:
        """The inserted code caught ``errors``: empty the ring, then record this iteration
        from the namespace (a name may be unbound)."""
        self.drain()
        values = tuple(self.namespace.get(name, MISSING) for name in self.names)
        if MISSING in values and self.namespace.get(RECORDER) == self.insert:
            self.namespace[RECORDER] = self.record  # back to the careful hook
        self.record(_BIG, values)

    # keeping -----------------------------------------------------------------------------
    def _start(self, values: tuple) -> None:
        for j, value in enumerate(values):
            kind = _scalar_kind(value)
            if kind is not None:
                self.kinds[j] = kind
                self.columns[j] = array("d")
        self.fast = bool(values) and all(self.kinds.get(j) in ("int", "float", "bool")
                                         for j in range(len(values)))

    def _sample(self, n: int, values: tuple) -> None:
        summaries = self._summaries(values)
        if n < FIRST:
            self.first[n] = summaries
            self.due = n + 1
            return
        self.later.append((n, summaries))
        if len(self.later) > LATER:
            self.later = self.later[::2]
            self.later_stride *= 2
        self.due = self.later[-1][0] + self.later_stride

    def _summaries(self, values: tuple) -> dict:
        return {name: _summary(v) for name, v in zip(self.names, values, strict=False)
                if v is not MISSING and name in self.namespace}

    def _bound(self) -> None:
        columns = list(self.columns.values())
        if columns and len(columns[0]) > SCALAR_LIMIT:
            for j in self.columns:
                self.columns[j] = self.columns[j][::2]
            self.stride *= 2

    def drain(self) -> None:
        """Move what the fast ring holds into the record."""
        if not self:
            return
        batch = list(self)
        self.clear()
        start, k = self.count, len(self.names)
        self.count += len(batch)
        self.last = batch[-1]
        offset = (-start) % self.stride
        rows = batch[offset::self.stride]
        if rows and self.columns:
            flat = array("d")
            try:
                flat.fromlist(list(chain.from_iterable(rows)))
            except (TypeError, OverflowError):  # a name no longer holds a plain scalar
                flat = array("d", [_as_float(v) for v in chain.from_iterable(rows)])
                if self.namespace.get(RECORDER) == self.insert:
                    self.namespace[RECORDER] = self.record
            for j, column in self.columns.items():
                column.extend(flat[j::k])
            while len(next(iter(self.columns.values()))) > SCALAR_LIMIT:
                for j in self.columns:
                    self.columns[j] = self.columns[j][::2]
                self.stride *= 2
        while start <= self.due < self.count:
            self._sample(self.due, batch[self.due - start])

    # the report ----------------------------------------------------------------------------
    def report(self) -> dict:
        """JSON-ready, but for ``scalars``: float64 ``array``s (``protocol`` sends them as
        raw frames and the other side gets lists)."""
        self.drain()
        samples = {n: s for n, s in self.first.items()}
        samples.update(self.later)
        last = self.count - 1
        if last >= 0 and last not in samples and self.last is not None:
            samples[last] = self._summaries(self.last)
        kept = sorted(samples)
        columns = {self.names[j]: c for j, c in self.columns.items()}
        steps = len(next(iter(columns.values()))) if columns else 0
        return {"iterations": self.count, "kept": kept,
                "samples": {str(n): samples[n] for n in kept},
                "scalars": columns,
                "scalar_kinds": {self.names[j]: k for j, k in self.kinds.items()},
                "scalar_steps": {"start": 0, "step": self.stride, "count": steps}}
