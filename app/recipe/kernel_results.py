"""What the kernel reports, applied to the window's run of a recipe.

Every step runs in the kernel: a new run marks them all ``kernel`` (on their way). While
the kernel runs the recipe's text, its reports fill them in: status, torch's message and
the line inside the block, the step's printed output, the names it bound
(``kernel.summary``), a loop's iterations (``kernel.loops``) and a form step's
small values (``kernel.mirror``).
"""

from __future__ import annotations

import bisect
import dataclasses
import time
from dataclasses import dataclass, field

from app.recipe.model import Recipe, Step
from app.recipe.reader import parse
from app.recipe.results import RecipeRun, StepResult
from protocol.source import Statement, statements

#: The most output the console keeps, in characters (a flood keeps its tail).
OUTPUT_LIMIT = 256 * 1024


@dataclass
class KernelValue:
    """A step's value as the kernel described it: ``names`` it bound or changed, with
    their summaries; ``loop``, a top-level loop's report (``LoopReport.expanded()``);
    ``error_line``, where it failed.
    ``statement`` and ``run_id`` name it when a view asks the kernel for more of a value
    (``Document.ask``)."""

    names: dict = field(default_factory=dict)
    loop: dict | None = None
    error_line: int | None = None
    statement: int = -1
    run_id: int = 0
    #: The names the statement bound or changed that its step's text neither binds nor
    #: reads (``optimizer.step()`` moves the parameter an earlier ``for f in
    #: net.parameters()`` left under ``f``): never the step's value, but what they hold.
    through: dict = field(default_factory=dict)
    #: A form step's small values as the kernel sent them (``kernel.mirror``), made
    #: ``inputs`` and ``output`` (``copy_of``) when a view first reads them: a run's
    #: reports are taken without making a copy for each (0.1 to 0.2 s of the GUI thread
    #: in a run of 5,000 statements), and most are never looked at.
    mirror: dict | None = field(default=None, repr=False)
    _inputs: dict | None = field(default=None, repr=False)
    _output: object = field(default=None, repr=False)

    @property
    def inputs(self) -> dict:
        """The step's inputs (name to value, as they were before it ran), as the kernel
        copied them (``app.tensor_copy.TensorCopy``, plain values); a name too large to
        copy is missing."""
        self._take_mirror()
        return self._inputs

    @inputs.setter
    def inputs(self, value: dict) -> None:
        self._take_mirror()
        self._inputs = value

    @property
    def output(self) -> object:
        """The step's value, as the kernel copied it (None when too large to copy)."""
        self._take_mirror()
        return self._output

    @output.setter
    def output(self, value: object) -> None:
        self._take_mirror()
        self._output = value

    def _take_mirror(self) -> None:
        if self._inputs is not None:
            return
        from app.tensor_copy import copy_of  # (a view's first look: after the first paint)

        mirror, self.mirror = self.mirror or {}, None
        self._inputs = {n: copy_of(d) for n, d in (mirror.get("inputs") or {}).items()}
        self._output = copy_of(mirror.get("output")) if mirror else None

    def first_tensor(self) -> str | None:
        """The first name it bound that holds a tensor (what a code step is shown by)."""
        return next((n for n, s in self.names.items() if s.get("type") == "Tensor"), None)

    def first_module(self, preferred: str | None = None) -> str | None:
        """The name it bound that holds an ``nn.Module``: ``preferred`` (the step's own
        name) when it does, else the first such name."""
        names = ([preferred] if preferred in self.names else []) + list(self.names)
        return next((n for n in names if isinstance(self.names.get(n), dict)
                     and self.names[n].get("module")), None)


def kernel_run_id(run: RecipeRun) -> int | None:
    """The kernel run ``run``'s values come from, or None before any came."""
    for r in run.results:
        if isinstance(r.value, KernelValue):
            return r.value.run_id
    return None


def tensor_names(run: RecipeRun) -> set[str]:
    """The names that hold a tensor after ``run``, by what the kernel said of the names
    each step bound (the last binding of a name counts).

    Worked out again only for the steps whose results changed since the last call
    (``RecipeRun.changed_since``): the views ask after every report, and a scan of every
    step each time made a 5,000-statement run quadratic."""
    cached = run.derived.get("tensor_names")
    if cached is not None:
        mark, last, bound = cached
        for i in sorted(run.changed_since(mark)):
            names = _names(run.results[i]) if i < len(run.results) else {}
            if not bound.get(i, set()) <= names.keys():
                cached = None  # a name the step bound is gone: its earlier binding counts
                break
            bound[i] = set(names)
            for name, summary in names.items():
                if last.get(name, (-1,))[0] <= i:
                    last[name] = (i, summary.get("type") == "Tensor")
    if cached is None:
        last, bound = {}, {}
        for i, result in enumerate(run.results):
            names = _names(result)
            bound[i] = set(names)
            for name, summary in names.items():
                last[name] = (i, summary.get("type") == "Tensor")
    run.derived["tensor_names"] = (run.mark, last, bound)
    return {n for n, (_, tensor) in last.items() if tensor}


def _names(result: StepResult) -> dict:
    value = result.value
    if not isinstance(value, KernelValue):
        return {}
    return {**value.through, **value.names} if value.through else value.names


def own_names(step: Step, names: dict) -> tuple[dict, dict]:
    """``names`` (a statement's report) split into the step's own, those its text binds or
    reads, and the rest, changed through another object (a tensor an optimizer holds
    too), which the step's value never is."""
    mine = {step.name} if step.name else set()
    mine.update(step.binds)
    if not names.keys() <= mine:
        mine.update(_reads(step))
    if names.keys() <= mine:
        return names, {}
    return ({n: s for n, s in names.items() if n in mine},
            {n: s for n, s in names.items() if n not in mine})


def tensor_summary(result: StepResult) -> dict | None:
    """The facts of the tensor a step made (``kernel.summary``), as the kernel said
    them of the step's name (a code step's first tensor)."""
    value = result.value
    name = shown_name(result)
    return value.names[name] if name is not None else None


def shown_name(result: StepResult) -> str | None:
    """The name whose tensor a kernel step is shown by: the step's own name, or for a code
    step the first tensor it bound; None when it made no tensor."""
    value = result.value
    if not isinstance(value, KernelValue):
        return None
    name = result.step.name if result.step.name in value.names else value.first_tensor()
    summary = value.names.get(name) if name else None
    return name if summary and summary.get("type") == "Tensor" else None


@dataclass
class Progress:
    """The statement the kernel runs now: its index, first line and text, and when the
    run started (``time.monotonic``)."""

    index: int
    line: int
    text: str
    started: float

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


_PARSED: list = [None, []]  # the last text ``_statements`` read, and its statements
_READS: dict = {}  # (step, the names it reads), by id(step): the steps of the last runs


def _statements(source: str) -> list[Statement]:
    """The top-level statements of ``source`` ([] when it does not parse), read once for
    the runs of one text: Run again reads 5,000 statements in 40 ms, in the window's
    frame."""
    if _PARSED[0] != source:
        try:
            found = statements(source, tree=parse(source))[0]  # the reader's tree
        except SyntaxError:
            found = []
        _PARSED[:] = [source, found]
    return _PARSED[1]


def _reads(step) -> list[str]:
    """``step.reads``, kept for the steps of the last runs (a walk of each step's tree)."""
    kept = _READS.get(id(step))
    if kept is None or kept[0] is not step:
        if len(_READS) > 50_000:
            _READS.clear()
        kept = _READS[id(step)] = (step, list(step.reads))
    return list(kept[1])


class KernelRunState:
    """One run of the recipe's text in the kernel, seen from the window's ``RecipeRun``."""

    def __init__(self, recipe: Recipe, source: str, run: RecipeRun, run_id: int,
                 before: KernelRunState | None = None):
        self.run, self.run_id, self.source = run, run_id, source
        #: The run this one followed: what a resumed run keeps comes from it, or, for the
        #: statements it never reported (it was replaced first), from the one before it.
        self.before = before
        #: The stopped run whose finished statements this one runs again in a fresh
        #: kernel (``restoring``), or None.
        self.restores: int | None = None
        self.started = time.monotonic()
        self.statements: list[Statement] = _statements(source)
        #: For each top-level statement, the steps the kernel gives a result (``kernel``).
        self.steps_of: dict[int, list[int]] = {}
        self._firsts = [s.line for s in self.statements]  # ascending: found by bisection
        lines = recipe.step_lines() if hasattr(recipe, "step_lines") else \
            [step.line for step in recipe.steps]  # where each step is in ``source``
        for i, line in enumerate(lines):
            if i >= len(run.results) or run.results[i].status != "kernel" or line is None:
                continue
            index = self._statement_at(line)
            if index is not None:
                self.steps_of.setdefault(index, []).append(i)
        self.progress: Progress | None = None
        self.output = ""
        #: What each statement printed, by its index (a resumed run keeps the first ones').
        self.printed: dict[int, str] = {}
        #: Output not yet shown: the console appends it.
        self.unread: list[str] = []

    def mirror_requests(self) -> dict[str, dict]:
        """For ``KernelSession.run``: the statements that are one form step each, with
        the names the step reads and the name it binds (None for a bare call)."""
        out = {}
        for index, steps in self.steps_of.items():
            step = self.run.results[steps[0]].step if len(steps) == 1 else None
            if step is None or step.is_code:
                continue
            out[str(index)] = {"reads": _reads(step), "name": step.name}
        return out

    def take_output(self) -> str:
        """The output that came since the last call (its last ``OUTPUT_LIMIT`` characters)."""
        text = "".join(self.unread)[-OUTPUT_LIMIT:]
        self.unread.clear()
        return text

    def _statement_at(self, line: int) -> int | None:
        """The statement whose lines hold ``line`` (each step's, once per run: a scan of
        every statement for each step took 1.3 s for 5,000 of them)."""
        at = bisect.bisect_right(self._firsts, line) - 1
        while at > 0 and self.statements[at - 1].end_line >= line:  # ``a = 1; b = 2``:
            at -= 1  # the first of those that share the line, as a scan finds it
        if at >= 0 and self.statements[at].line <= line <= self.statements[at].end_line:
            return self.statements[at].index
        return None

    def _results(self, index: int) -> list[StepResult]:
        return [self.run.results[i] for i in self.steps_of.get(index, ())]

    def apply(self, message: object) -> bool:
        """Take one kernel message; True when a step's result changed."""
        from protocol import messages  # (its classes: after the first paint, with the kernel)

        if isinstance(message, messages.StepStarted):
            text = self.statements[message.index].first_line \
                if message.index < len(self.statements) else ""
            self.progress = Progress(message.index, message.line, text, self.started)
            return False
        if isinstance(message, messages.Output):
            if self.restores is None:  # a restore prints again what the console has
                self.output = (self.output + message.text)[-OUTPUT_LIMIT:]
                self.unread.append(message.text)
            self.printed[message.index] = (self.printed.get(message.index, "")
                                           + message.text)[-OUTPUT_LIMIT:]
            for result in self._results(message.index):
                result.printed = self.printed[message.index]
            self.run.touch(self.steps_of.get(message.index, ()))
            return False  # output is streamed on its own (``take_output``), never a re-show
        if isinstance(message, messages.StepDone):
            for result in self._results(message.index):
                result.status = "error" if message.error else "ok"
                result.error, result.error_type = message.message, message.error or ""
                names, through = own_names(result.step, message.names)
                loop = message.loop.expanded() if message.loop is not None else None
                result.value = KernelValue(names, loop, message.error_line,
                                           message.index, self.run_id, through=through,
                                           mirror=message.mirror or None)
            self.run.touch(self.steps_of.get(message.index, ()))
            return bool(self.steps_of.get(message.index))
        return False

    def resume(self, start: int, previous: KernelRunState | None) -> None:
        """The kernel goes on from statement ``start``: the steps of the statements before
        it keep what the last run gave them, and the console what they printed."""
        for index in range(start):
            run = previous  # a run replaced before it reported a statement: the one before
            while run is not None and any(r.status == "kernel" for r in run._results(index)):
                run = run.before
            if run is None:
                continue
            for result, before in zip(self._results(index), run._results(index), strict=False):
                result.status, result.error = before.status, before.error
                result.error_type, result.printed = before.error_type, before.printed
                result.warnings = before.warnings
                value = before.value
                if isinstance(value, KernelValue):  # its objects are still in the kernel
                    value = dataclasses.replace(value, run_id=self.run_id)
                result.value = value
            self.run.touch(self.steps_of.get(index, ()))
            if index in run.printed:
                self.printed[index] = run.printed[index]
        kept = "".join(self.printed.get(i, "") for i in range(start))[-OUTPUT_LIMIT:]
        self.output = kept
        self.unread.append(kept)

    def restoring(self, run_id: int, statements: int) -> KernelRunState:
        """The run ``run_id`` of a fresh kernel, which runs this run's first ``statements``
        statements again after Stop (or the time limit) had to end its kernel: their steps
        wait for it (``kernel``), on the same ``RecipeRun``, and show what it reports;
        the stopped step and those after it keep what this run said of them."""
        again = KernelRunState.__new__(KernelRunState)
        again.__dict__.update(self.__dict__)
        again.run_id, again.restores, again.started = run_id, self.run_id, time.monotonic()
        again.progress, again.before, again.unread = None, None, []
        again.printed = {i: text for i, text in self.printed.items() if i >= statements}
        for index in range(statements):
            for result in again._results(index):
                result.status, result.value, result.printed = "kernel", None, ""
                result.error = result.error_type = ""
            self.run.touch(self.steps_of.get(index, ()))
        return again

    def end(self, reason: str = "", message: str = "") -> None:
        """The run is over: steps it never reached were not run. When it ended without a
        word from the statement running (``reason``: Stop or the time limit ended the
        kernel, or the kernel died), that statement's steps are ``stopped``, with
        ``message`` (the ``Ended`` one) as their error and ``reason`` as its type."""
        progress, self.progress = self.progress, None
        self.before = None  # what it did not report, it never will: no chain of old runs
        if reason and progress is not None:
            for result in self._results(progress.index):
                if result.status == "kernel":
                    result.status, result.error, result.error_type = "stopped", message, reason
            self.run.touch(self.steps_of.get(progress.index, ()))
        for i, result in enumerate(self.run.results):
            if result.status == "kernel":
                result.status = "skipped"
                self.run.touch((i,))
