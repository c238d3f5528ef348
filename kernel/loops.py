"""What a top-level loop did, iteration by iteration, bounded (in the spirit of birdseye's
``IterationList``).

Only for the window (``RunSource``): a top-level ``for``/``while`` statement's ``ast`` is
rewritten so that the values of the loop's names are taken at the end of each iteration (at
the end of the body, and just before a ``continue`` or a ``break`` of that loop). Nested
loops are part of the body: only the top-level loop's iterations count.

What it keeps:

- full summaries (``kernel.summary.summarize``) for iterations 0-99, then an even
  sample (the stride doubles as the loop goes on; about 200 kept in all), and always the
  last iteration;
- plain scalars (int, float, bool; 0-d tensors as floats) for every iteration up to
  ``SCALAR_LIMIT``, then an even sample, as float64 arrays (the kernel sends them as raw
  frames beside the JSON message; ``LoopReport.expanded`` turns them back into lists).

``iterations`` counts the iterations that reached their end (normally, by ``continue`` or
by ``break``): a loop that raises in iteration 5 reports 5.

Cost: no Python call per iteration. The inserted code appends the values to a list
(``list.append`` by name, which the interpreter does inline); a ``global`` statement for
the names read has them read through ``LOAD_GLOBAL``'s cache (at module level it changes
nothing else: the namespace is both locals and globals). The loop's iterator (``for``) or
condition (``while``) goes through ``itertools`` objects that call the recorder, from C,
after iteration 0 and then every ``CHUNK`` iterations, to turn the values into float64
(``struct.pack``, in one call) and summaries.

Off the fast path (a name holds a tensor, or anything else that is not a plain scalar:
it may be big, or change in place), ``CAPTURE`` is a ``_Taker``: one Python call per
value, which takes it as a number there and then (a 0-d CPU tensor's ``item()``; NaN for
what is not a number), and summarizes the values of a sampled iteration as it ends. So
the recorder holds no iteration's tensors (a training loop's loss keeps its autograd
graph: held by the hundred, and with a call after every iteration, they cost a fast loop
several percent), and a tensor changed in place later is never read wrong. A number read
already, by the training watch at ``backward()`` (``Known``), is not read again.
"""

from __future__ import annotations

import ast
import copy
import math
import struct
import weakref
from array import array
from functools import partial
from itertools import chain, islice, repeat
from typing import Any

from kernel.summary import loaded_torch
from protocol.loop_report import LoopReport, Stride
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The ``LoopRecorder``'s name in ``__main__`` while a loop statement runs.
RECORDER = "__tensor_lab_loop__"
#: The name of the callable that takes one iteration's values, meanwhile.
CAPTURE = "__tensor_lab_row__"
#: Iterations summarized in full from the start.
FIRST = 100
#: Later iterations summarized at most (an even sample, the stride doubling).
LATER = 100
#: Iterations whose scalars are all kept; past it, an even sample.
SCALAR_LIMIT = 100_000
#: Most names a loop reports.
MAX_NAMES = 50
#: Iterations whose values the fast path holds before it makes them columns.
CHUNK = 1024
#: Most characters of one iteration's output kept (its last ones).
ITERATION_OUTPUT = 8192
_PLAIN = (int, float, bool)
_PLAIN_TYPES = frozenset(_PLAIN)


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


def _located(new: ast.AST, at: ast.AST, keep: ast.AST | None = None) -> ast.AST:
    """``new`` placed where ``at`` is, but for the user's own ``keep`` inside it."""
    todo = [new]
    while todo:
        n = todo.pop()
        if n is keep:
            continue
        if isinstance(n, ast.stmt | ast.expr | ast.excepthandler):
            n.lineno, n.col_offset = at.lineno, at.col_offset
            n.end_lineno, n.end_col_offset = at.end_lineno, at.end_col_offset
        todo.extend(ast.iter_child_nodes(n))
    return new


def _recorder(attribute: str, *args: ast.expr) -> ast.expr:
    """``RECORDER.attribute(*args)``"""
    method = ast.Attribute(ast.Name(RECORDER, ast.Load()), attribute, ast.Load())
    return ast.Call(method, list(args), [])


def range_counter(node: ast.For | ast.While) -> str | None:
    """The target of ``for NAME in range(...)`` whose body never binds NAME: its value in
    iteration n is the range's n-th item, so the recorder need not take it each time."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name)
            and node.iter.func.id == "range" and not node.iter.keywords
            and not any(isinstance(a, ast.Starred) for a in node.iter.args)):
        return None
    name = node.target.id
    for stmt in node.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
                return None
            if isinstance(n, ast.Global | ast.Nonlocal) and name in n.names:
                return None
    return name


def instrument(node: ast.For | ast.While) -> tuple[list[ast.stmt], list[str], str | None]:
    """A copy of the loop statement that hands its names' values to ``CAPTURE`` at the end
    of each iteration, its iterator or condition passing through the recorder; and before
    it, a ``global`` statement for those names and the recorder's.

    At module level the namespace is both locals and globals, so ``global`` changes no
    meaning: it only has the names read with ``LOAD_GLOBAL``, whose cache skips the dict
    lookups ``LOAD_NAME`` does each time (the capture reads every name, every iteration).

    Also returns the loop's names, and its ``range_counter`` (not captured: the recorder
    works its values out from the range).
    """
    names = loop_names(node)
    counter = range_counter(node)
    captured = [n for n in names if n != counter]
    loop = copy.deepcopy(node)

    def capture(at: ast.stmt) -> ast.stmt:
        # try: CAPTURE.append(a); CAPTURE.append(b)... except NameError: RECORDER.unbound()
        # (list.append by name: the interpreter appends inline, without a call)
        values = [ast.Name(n, ast.Load()) for n in captured] or [ast.Constant(0)]
        appends = [ast.Expr(ast.Call(ast.Attribute(ast.Name(CAPTURE, ast.Load()), "append",
                                                   ast.Load()), [v], [])) for v in values]
        recover = ast.Expr(_recorder("unbound"))
        handler = ast.ExceptHandler(ast.Name("NameError", ast.Load()), None, [recover])
        return _located(ast.Try(body=appends, handlers=[handler], orelse=[], finalbody=[]),
                        at)

    def block(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            if isinstance(s, ast.Continue | ast.Break):
                out.append(capture(s))
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
        body.append(capture(loop.body[-1]))
    loop.body = body
    if isinstance(loop, ast.For):  # for T in RECORDER.iterate(ITER), placed as GET_ITER is
        loop.iter = _located(_recorder("iterate", loop.iter), node, loop.iter)
        start = ast.Pass(lineno=node.lineno, col_offset=node.col_offset,
                         end_lineno=node.lineno, end_col_offset=node.col_offset)
        _located(loop.iter.func, start, loop.iter)  # else the call would sit on its line
    else:  # while RECORDER.tick() or TEST (tick() is None)
        loop.test = _located(ast.BoolOp(ast.Or(), [_recorder("tick"), loop.test]),
                             loop.test, loop.test)
    declared = _located(ast.Global([RECORDER, CAPTURE, *names]), node)
    return [declared, loop], names, counter


# -- values --------------------------------------------------------------------------------
def _scalar_kind(value: Any) -> str | None:
    if type(value) in _PLAIN:
        return type(value).__name__
    torch = loaded_torch()
    if torch is not None and isinstance(value, torch.Tensor) and value.dim() == 0:
        return "tensor"
    return None


def _as_float(value: Any) -> float:
    try:
        if type(value) in _PLAIN:
            return float(value)
        if _tensor_type is not None and isinstance(value, _tensor_type):
            return float(value.item()) if value.numel() == 1 else math.nan
        torch = loaded_torch()  # the first tensor seen: torch's Tensor, looked up once
        if torch is not None and isinstance(value, torch.Tensor):
            _remember_tensor(torch.Tensor)
            return float(value.item()) if value.numel() == 1 else math.nan
    except (TypeError, ValueError, OverflowError, RuntimeError):
        pass
    return math.nan


_tensor_type: type | None = None
_NOTHING = object()


class Known:
    """A tensor's number that was read already: the training watch reads each loss at its
    ``backward()``, and the taker uses that number for the same tensor at the iteration's
    end, while its ``_version`` says it is unchanged (a second ``item()`` of every loss
    cost a fast training loop about 2%)."""

    __slots__ = ("tensor", "version", "value")

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        self.tensor: Any = _NOTHING  # (not None: a loop's name may hold None)
        self.version = -1
        self.value = math.nan


class _Taker:
    """``CAPTURE`` off the fast path (a loop whose names hold tensors, say): its ``append``
    takes each value as a number as it comes (a 0-d CPU tensor's ``item()``, NaN for
    what is not one; ``_as_float``), so no iteration's tensor is held (a training loop's
    loss, with its autograd graph: held by the hundred, they cost a fast loop a few
    percent), and nothing changed in place later is read wrong. ``raw`` holds the last
    values given, as they were, a tensor by a weak reference (``_Held``: one held into
    the next iteration keeps its autograd graph alive through that iteration's
    ``backward()``, which cost a small MLP's step 3-5 us, about 1%); when the value at
    ``due`` in ``rows`` is given (the last of an iteration that is sampled), the recorder
    summarizes that iteration's, there and then (``held``)."""

    __slots__ = ("append", "raw", "due")

    def __init__(self, recorder: LoopRecorder) -> None:
        rows, width, known = recorder.rows, recorder.width, recorder.known
        raw = self.raw = [MISSING] * width
        self.due = -1
        torch = loaded_torch()
        if torch is not None:  # (its samples' 0-d tensors are summed up the quick way)
            _remember_tensor(torch.Tensor)
        put, count, plain = rows.append, len, _PLAIN_TYPES
        tensor, number = (torch.Tensor if torch is not None else _NoTensor), _as_float
        nothing, weak = _NOTHING, _Held
        taker, sampled = self, recorder._sampled

        def append(value: Any) -> None:
            at = count(rows)
            if value is known.tensor and value._version == known.version:
                raw[at % width] = weak(value)
                put(known.value)
                known.tensor = nothing  # (not held past the iteration)
            elif (kind := type(value)) is tensor and not value.dim() and value.is_cpu:
                raw[at % width] = weak(value)
                try:
                    put(value.item())
                except RuntimeError:
                    put(math.nan)
            else:
                raw[at % width] = weak(value) if issubclass(kind, tensor) else value
                put(value if kind in plain else number(value))
            if at == taker.due:
                sampled(at)

        self.append = append


class _Held(weakref.ref):
    """A tensor the taker was given, weakly: ``held`` gives it back while it lives."""

    __slots__ = ()


class _NoTensor:
    """What no value is an instance of (torch not loaded: no tensor to hold weakly)."""


def held(raw: list | tuple) -> tuple:
    """The values the taker holds, as they were given: a tensor no longer alive (a name
    bound again after the iteration, by a ``Stop`` or an error in the next one, or the
    loop's ``else``) is ``MISSING``: the iteration's number for it is kept, its
    summary is not."""
    return tuple((v() if v() is not None else MISSING) if type(v) is _Held else v
                 for v in raw)


def _weakly(values: list) -> tuple:
    """``values``, each tensor among them held weakly (``_Held``), as the taker holds them."""
    torch = loaded_torch()
    kind = torch.Tensor if torch is not None else _NoTensor
    return tuple(_Held(v) if issubclass(type(v), kind) else v for v in values)


def _remember_tensor(kind: type) -> None:
    global _tensor_type
    _tensor_type = kind


def _summary(value: Any, number: Any = None) -> dict | _Scalar:
    """``value``'s summary (a 0-d tensor's is a ``_Scalar`` until the report)."""
    kind = type(value)
    if kind is int or kind is bool:  # as summarize() has them, without its detour
        return {"type": kind.__name__, "value": value}
    if kind is float:
        return {"type": "float", "value": value if math.isfinite(value) else repr(value)}
    if kind is _tensor_type and not value.dim():  # a 0-d tensor: a loop's loss, say
        return _scalar_tensor(value, number)
    from kernel.summary import summarize

    try:
        return summarize(value)
    except Exception as e:  # noqa: BLE001 - an odd value must not break the loop
        return {"type": type(value).__name__, "repr": f"<summary failed: {type(e).__name__}>"}


def _scalar_tensor(value: Any, number: Any = None) -> dict | _Scalar:
    """``summarize(value)`` of a 0-d tensor, to be: the summary of the first one of its
    kind (dtype, device, grad, grad_fn and storage offset) and its number (a loop's loss
    is sampled at hundreds of its iterations, each sample a pause in the loop). ``number``:
    its value as the taker read it, used when it is a float of a floating tensor
    (``item()``'s)."""
    fn, dtype = value.grad_fn, value.dtype
    key = (dtype, value.device, value.requires_grad, type(fn), value.storage_offset())
    if key not in _SCALAR_TENSORS:
        from kernel.summary import summarize

        if len(_SCALAR_TENSORS) >= SCALAR_KINDS:  # (``x[i]``: an offset each; kept
            return summarize(value)  # whole, past a bound, and never forgotten: a report
        _SCALAR_TENSORS[key] = {k: v for k, v in summarize(value).items()  # looks them up)
                                if k != "values"}
    if type(number) is not float or not dtype.is_floating_point:
        number = value.item()
    if type(number) not in _PLAIN:  # complex
        from kernel.summary import summarize

        return summarize(value)
    return _Scalar(key, number)


class _Scalar:
    """A sampled 0-d tensor's summary, to be: its kind's (``_SCALAR_TENSORS[key]``) with
    its number (``_packed``)."""

    __slots__ = ("key", "number")

    def __init__(self, key: tuple, number: int | float | bool) -> None:
        self.key, self.number = key, number

    def value(self) -> int | float | bool | str:
        """Its number as summaries have it (a non-finite float as text)."""
        number = self.number
        return number if type(number) is not float or math.isfinite(number) \
            else plain_float(number)


def _packed(summaries: dict, kinds: dict[tuple, int]) -> dict:
    """A sample's summaries as they travel: each ``_Scalar`` as ``[kind, value]``, its
    kind's summary (without the value) listed once in ``kinds`` (``LoopReport`` makes it
    a summary again: 200 samples of a loss were 48 KB of JSON, each the same but for its
    value)."""
    out = {}
    for name, s in summaries.items():
        if type(s) is _Scalar:
            out[name] = [kinds.setdefault(s.key, len(kinds)), s.value()]
        else:
            out[name] = s
    return out


_SCALAR_TENSORS: dict[tuple, dict] = {}
#: Most kinds of 0-d tensor summarized the short way.
SCALAR_KINDS = 4096


def plain_float(value: float) -> str:
    """A non-finite float as summaries have it ("nan", "inf", "-inf")."""
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


# -- the recorder --------------------------------------------------------------------------
class LoopRecorder:
    """Sees a loop's names at the end of each iteration; ``report()`` says what it kept.

    ``bind()`` puts it (``RECORDER``) and its ``rows`` (``CAPTURE``) in the namespace,
    ``unbind()`` takes them out. The inserted code appends each iteration's values to
    ``rows`` (off the fast path, through a ``_Taker``); ``drain()`` turns them into
    columns and summaries every ``CHUNK`` iterations.
    """

    def __init__(self, namespace: dict, names: list[str], counter: str | None = None,
                 known: Known | None = None):
        self.namespace = namespace
        self.known = known or Known()  # numbers read already (the training watch's)
        #: The loop's names the inserted code takes (the ``range`` counter is worked out).
        self.names = [n for n in names if n != counter]
        #: ``range_counter``: while the loop runs over a real ``range``, its value in
        #: iteration n is ``counter_range[n]``; else its items are kept as they come.
        self.counter = counter
        self.counter_range: range | None = None
        self.counter_items: list | None = None
        self.width = max(1, len(self.names))  # values per iteration in `rows`
        self.rows: list = []  # iterations not yet drained, flat
        self.count = 0
        self.last: tuple | None = None
        self.kinds: dict[int, str] = {}  # position -> scalar kind, from iteration 0
        self.columns: dict[int, array] = {}
        #: While every name is a scalar and every iteration is kept: all of them, one
        #: iteration after another (split into ``columns`` once, at the end or the bound).
        self.interleaved: array | None = None
        self.stride = 1  # scalars kept every `stride` iterations
        self.first: dict[int, tuple | dict] = {}  # values, or their summaries
        self.later: list[tuple[int, tuple | dict]] = []
        self.later_stride = 1
        self.due = 0
        self.fast = True  # every name held a plain scalar so far
        self.started = False
        self.exhausted = False
        #: ``CAPTURE`` once the fast path is left (else ``rows`` itself).
        self.taker: _Taker | None = None
        self.tick = chain.from_iterable(iter(self._ticks, None)).__next__  # while: None
        #: What iterations printed (``printed``): those that may be sampled, and the
        #: latest, each as its chunks of text.
        self.texts: dict[int, list[str]] = {}
        self._latest = -1
        self._kept: list[str] = []  # the latest's chunks, and their length
        self._kept_size = 0

    def bind(self) -> None:
        self.namespace[RECORDER] = self
        self.namespace[CAPTURE] = self.rows

    def unbind(self) -> None:
        self.namespace.pop(RECORDER, None)
        self.namespace.pop(CAPTURE, None)

    # the hooks -------------------------------------------------------------------------
    def iterate(self, iterable: Any) -> Any:
        """``iterable``'s items in chunks, the recorder called (from C) between two. When
        it has a length, the later samples are that many iterations apart that about
        ``LATER`` of them span it (no sample taken only to be dropped later)."""
        try:
            total = len(iterable)
        except Exception:  # noqa: BLE001 - no length (a generator), or a broken one
            total = 0
        if isinstance(total, int) and total > FIRST + LATER:
            self.later_stride = -(-(total - FIRST) // LATER)
        if self.counter is not None:
            if type(iterable) is range:
                self.counter_range = iterable
            else:  # ``range`` is not the builtin here: keep the items themselves
                self.counter_items = []
                iterable = map(self._counted, iterable)
        items = chain(iter(iterable), iter(self._end, None))  # _end() runs once it is done
        return chain.from_iterable(iter(partial(self._chunk, items), None))

    def _end(self) -> None:
        self.exhausted = True

    def _counted(self, item: Any) -> Any:
        self.counter_items.append(item)  # type: ignore[union-attr]
        return item

    def _chunk(self, items: Any) -> Any:
        return None if self.exhausted else islice(items, self._between())

    def _ticks(self) -> Any:
        return repeat(None, self._between())

    def _between(self) -> int:
        """Called before iteration 0, after it, then every ``CHUNK`` iterations: how many
        iterations until the next call."""
        if not self.started:
            self.started = True
            return 1
        self.drain()
        if self.counter_range is not None and self.count:  # between two iterations: did
            now = self.namespace.get(self.counter, MISSING)  # the body (an exec) rebind it?
            if type(now) is not int or now != self.counter_range[self.count - 1]:
                self.counter_range = self.counter = None  # then it is not told
        if not self.fast and self.taker is None:
            self.taker = _Taker(self)
            self.namespace[CAPTURE] = self.taker
        self._aim()
        return CHUNK

    def _aim(self) -> None:
        """Tell the taker where in ``rows`` the next sampled iteration ends."""
        if self.taker is not None:
            self.taker.due = (self.due - self.count + 1) * self.width - 1

    def _sampled(self, at: int) -> None:
        """The taker was given the last value of a sampled iteration (at ``at`` in
        ``rows``): summarize its values as they are now."""
        width = self.width  # (the taker has read each value as a number already)
        self._sample(self.count + at // width, held(self.taker.raw),
                     self.rows[at - width + 1:at + 1])
        self._aim()

    def unbound(self) -> None:
        """The inserted code met an unbound name: take this iteration from the namespace."""
        rows = self.rows
        del rows[len(rows) - len(rows) % self.width:]  # what this iteration appended
        take = (self.taker or rows).append
        for name in self.names:
            take(self.namespace.get(name, MISSING))

    def printed(self, text: str) -> None:
        """``text`` was written in the iteration running now (a ``Tap``'s listener): kept
        for it while it may be a sample (``_may_be_kept``) or is the latest to print."""
        n = self.count + len(self.rows) // self.width  # iterations ended so far
        if n != self._latest:
            self._new_printer(n)
        kept = self._kept
        kept.append(text)
        self._kept_size += len(text)
        if self._kept_size > 2 * ITERATION_OUTPUT:  # its last ones, trimmed now and then
            tail = "".join(kept)[-ITERATION_OUTPUT:]
            kept[:] = [tail]
            self._kept_size = len(tail)

    def _new_printer(self, n: int) -> None:
        latest = self._latest
        if latest >= 0 and not self._may_be_kept(latest):
            self.texts.pop(latest, None)  # a later one printed: it was not the last
        kept = self.texts.get(n)
        if kept is None:
            kept = self.texts[n] = []
        self._latest, self._kept, self._kept_size = n, kept, sum(map(len, kept))

    def _may_be_kept(self, n: int) -> bool:
        """Whether iteration ``n`` is among those ``_sample`` may keep, as far as is known
        now: the sample's stride only doubles (which keeps every other one), so this
        errs on the side of keeping; ``report`` keeps only the sampled iterations'."""
        if n < FIRST:
            return True
        for m, _ in reversed(self.later):  # sampled already (the taker's, as it ends)
            if m <= n:
                if m == n:
                    return True
                break
        base = max(self.due, FIRST)
        return n >= base and (n - base) % self.later_stride == 0

    def _printed_report(self, kept: list[int]) -> dict[str, str]:
        out = {}
        for n in kept:
            chunks = self.texts.get(n)
            if chunks is not None:
                out[str(n)] = "".join(chunks)[-ITERATION_OUTPUT:]
        return out

    # keeping -----------------------------------------------------------------------------
    def _start(self, values: tuple) -> None:
        for j, value in enumerate(values[:len(self.names)]):
            kind = _scalar_kind(value)
            if kind is not None:
                self.kinds[j] = kind
                self.columns[j] = array("d")
        self.fast = all(type(v) in _PLAIN or v is MISSING for v in values)

    def drain(self) -> None:
        """Turn the values taken into columns and summaries."""
        rows = self.rows
        if not rows:
            return
        width, start = self.width, self.count
        n, torn = divmod(len(rows), width)
        if torn:  # an iteration cut short while its values were taken (Stop)
            del rows[-torn:]
        if not n:
            return
        self.count = start + n
        # (a tensor held weakly still: it is read at the report, if the loop left it alive)
        self.last = _weakly(rows[-width:]) if self.taker is None else tuple(self.taker.raw)
        if start == 0:
            self._start(tuple(rows[:width]))
        if self.columns:
            self._keep_scalars(rows, start, n, width)
        if self.fast and any(type(v) not in _PLAIN and v is not MISSING for v in self.last):
            self.fast = False  # a number-like object, say a 1-element tensor, converts too
        while start <= self.due < self.count:
            r = (self.due - start) * width
            self._sample(self.due, tuple(rows[r:r + width]))
        rows.clear()
        if len(self.texts) > FIRST + LATER:
            self._prune_texts()

    def _prune_texts(self) -> None:
        """Only the output of iterations sampled, the latest's, and any still running."""
        keep = {*self.first, *(n for n, _ in self.later), self._latest}
        count = self.count
        for n in [n for n in self.texts if n < count and n not in keep]:
            del self.texts[n]

    def _keep_scalars(self, rows: list, start: int, n: int, width: int) -> None:
        offset = (-start) % self.stride  # the first of these rows that is kept
        if offset >= n:
            return
        if self.stride == 1 and len(self.columns) == width:  # all of them: one C call
            if self.interleaved is None:
                self.interleaved = array("d")
            self._extend(self.interleaved, rows)
            if len(self.interleaved) > SCALAR_LIMIT * width:
                self._split()
        else:
            self._split()
            step = self.stride * width
            for j, column in self.columns.items():
                self._extend(column, rows[offset * width + j::step])
        self._bound()

    def _extend(self, column: array, values: list) -> None:
        """Append ``values`` to ``column`` as float64 (NaN where one is not a number).

        On the fast path the values are plain numbers, converted in C. Checking every
        value's type costs as much as the conversion, so only the chunk's first and last
        iterations are checked (a 0-d tensor there would convert too, through a warning
        about its grad, and could change in place later: the taker takes those); a
        value C cannot convert sends the chunk the slow way. The taker's are numbers."""
        edge = self.width
        if self.taker is not None or self.fast \
                and _PLAIN_TYPES.issuperset(map(type, values[:edge])) \
                and _PLAIN_TYPES.issuperset(map(type, values[-edge:])):
            try:  # (struct converts a list of floats five times as fast as fromlist)
                column.frombytes(struct.pack(f"{len(values)}d", *values))
                return
            except (OverflowError, TypeError, ValueError, RuntimeError, struct.error):
                pass  # an int too big for a float, a tensor of several elements...
        if self.fast and any(type(v) not in _PLAIN and v is not MISSING for v in values):
            self.fast = False  # may be big, or change in place: the taker takes them
        column.extend(map(_as_float, values))

    def _sample(self, n: int, values: tuple, numbers: list | None = None) -> None:
        # Plain scalars cannot change: summarized at the report, only if still kept then.
        plain = all(type(v) in _PLAIN for v in values)
        summaries = values if plain else self._summaries(values, numbers)
        if n < FIRST:
            self.first[n] = summaries
            self.due = n + 1
            return
        self.later.append((n, summaries))
        if len(self.later) > LATER:
            self.later = self.later[::2]
            self.later_stride *= 2
        self.due = self.later[-1][0] + self.later_stride

    def _summaries(self, values: tuple | dict, numbers: list | None = None) -> dict:
        if isinstance(values, dict):
            return values
        numbers = numbers or [None] * len(values)
        return {name: _summary(v, number)
                for name, v, number in zip(self.names, values, numbers, strict=False)
                if v is not MISSING}

    def _split(self) -> None:
        """Turn the interleaved values into one column per name."""
        flat, self.interleaved = self.interleaved, None
        if flat is not None:
            for j, column in self.columns.items():
                column.extend(flat if self.width == 1 else flat[j::self.width])

    def _bound(self) -> None:
        while self.columns and len(next(iter(self.columns.values()))) > SCALAR_LIMIT:
            for j in self.columns:
                self.columns[j] = self.columns[j][::2]
            self.stride *= 2

    # the report ----------------------------------------------------------------------------
    def report(self) -> LoopReport:
        """What the loop did, as it travels (``protocol.loop_report``): the scalars as
        float64 ``array``s (raw frames), the samples of plain scalars as rows of values
        (the other side makes them summaries)."""
        self.drain()
        found: dict[int, tuple | dict] = {**self.first, **dict(self.later)}
        last = self.count - 1
        if last >= 0 and last not in found and self.last is not None:
            found[last] = held(self.last)
        kept = sorted(found)
        report = LoopReport(self.count, kept,
                            {self.names[j]: k for j, k in self.kinds.items()},
                            Stride(0, 1, 0))
        if self.interleaved is not None:  # every name a scalar, every iteration kept
            report.table, report.table_names = self.interleaved, list(self.names)
            steps = len(self.interleaved) // self.width
        else:
            report.scalars = {self.names[j]: c for j, c in self.columns.items()}
            while not self.columns and -(-self.count // self.stride) > SCALAR_LIMIT:
                self.stride *= 2  # no scalar kept: the counter's are, as many as theirs
            steps = len(next(iter(self.columns.values()))) if self.columns else (
                -(-self.count // self.stride))
        report.scalar_steps = Stride(0, self.stride, steps)
        counter_at = self._report_counter(report, steps)
        names = ([self.counter] if counter_at else []) + self.names
        plain, samples, kinds = {}, {}, {}
        for n in kept:
            values = found[n]
            row = ((counter_at(n),) if counter_at else ()) + (
                values if isinstance(values, tuple) else ())
            if isinstance(values, tuple) and all(type(v) in _PLAIN for v in row):
                plain[str(n)] = list(row)
            else:
                head = {self.counter: _summary(row[0])} if counter_at else {}
                samples[str(n)] = _packed({**head, **self._summaries(values)}, kinds)
        report.samples = samples
        report.sample_kinds = [_SCALAR_TENSORS[key] for key in kinds]
        report.plain_names, report.plain_rows = names, plain
        report.printed = self._printed_report(kept)
        return report

    def _report_counter(self, report: LoopReport, steps: int) -> Any:
        """The counter's values among the scalars; what gives its value in iteration n."""
        name = self.counter
        if name is None:
            return None
        if self.counter_range is not None:
            r = self.counter_range
            report.counter = name
            report.counter_values = Stride(r.start, r.step * self.stride, steps)
            report.scalar_kinds[name] = "int"
            return r.__getitem__
        items = self.counter_items or []
        kept = items[::self.stride][:steps]
        kind = _scalar_kind(kept[0]) if kept else None
        if kind is not None:
            report.scalar_kinds[name] = kind
            column = report.scalars[name] = array("d")
            self._extend(column, kept)
        return items.__getitem__
