"""Run a recipe's statements one by one, in a ``__main__`` module, as ``python FILE`` would.

This runs inside the kernel process only: it executes user code. ``__name__`` is
``"__main__"``, ``__file__`` the file's absolute path, ``sys.argv[0]`` the path as given,
``sys.path[0]`` the file's folder, and ``from __future__`` imports reach the statements
after them. An uncaught exception prints python's own traceback (the runner's frames
left out) and ends the run, with python's exit code.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import linecache
import os
import sys
import time
import traceback
import types
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import CodeType, TracebackType
from typing import Any

from kernel import loops
from protocol.loop_report import LoopReport
from protocol.sealed import BUILTINS
from protocol.source import (
    Statement,
    compile_statement,
    docstring,
    future_flags,
    source_lines,
    statements,
)

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Frames of the kernel's own code never show in a recipe's traceback.
_KERNEL_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


@dataclass
class Outcome:
    """How one statement ended.

    ``error`` is None when it ran to its end; else the exception's type name, and
    ``message`` its ``str``; ``error_line`` is the line in the file where it was raised
    (the deepest frame in the file). ``exit_code`` is set when the run ends here.
    """

    statement: Statement
    elapsed: float = 0.0
    error: str | None = None
    message: str = ""
    error_line: int | None = None
    exit_code: int | None = None
    loop: LoopReport | None = None  # a recorded top-level loop's report
    value: Any = None  # an expression statement's value, when asked for (``keep_value``)


class Runner:
    """A recipe about to run, statement by statement.

    Parameters
    ----------
    path : str
        The file's path as the user gave it (``sys.argv[0]``).
    source : str
        Its text (read by the caller, so an unsaved recipe runs the same way).
    argv : list of str
        Further command-line arguments (``sys.argv[1:]``).
    user_code : callable
        A context manager around each statement's own code (the kernel lets Stop
        interrupt only there).
    module : module, optional
        The ``__main__`` module to run in: the last run's, when a run goes on from a
        checkpoint (its functions' globals are that module's namespace); a new one if not.
    """

    def __init__(self, path: str, source: str, argv: list[str] | None = None,
                 user_code: Callable[[], AbstractContextManager] = contextlib.nullcontext,
                 module: types.ModuleType | None = None,
                 parsed: tuple[list[Statement], list[ast.stmt]] | None = None):
        self.path = path
        self.user_code = user_code
        self.filename = os.path.abspath(path)
        self.source = source
        self.argv = [path, *(argv or [])]
        self.module = module if module is not None else types.ModuleType("__main__")
        self.namespace = self.module.__dict__
        self.statements: list[Statement] = []
        self._nodes: list[ast.stmt] = []
        self._parsed = parsed  # ``statements(source, filename)``, when the caller has it
        #: The compiler flags ``from __future__`` statements turned on so far.
        self.flags = 0
        #: Loop statements compiled ahead (``compile_loops``), by (index, flags).
        self._loops: dict[tuple[int, int], tuple[CodeType, list[str], str | None]] = {}
        #: The window's output taps (``kernel.capture.Tap``): while a recorded loop
        #: runs, each tells the loop's recorder what is written, for its iteration.
        self.taps: list = []

    def prepare(self) -> None:
        """Parse the file and set up ``__main__``; raises ``SyntaxError`` as python does."""
        lines = source_lines(self.source)  # as python numbers them, for tracebacks
        linecache.cache[self.filename] = (len(self.source), None, lines, self.filename)
        self.statements, self._nodes = self._parsed or statements(self.source, self.filename)
        self.namespace.update(__file__=self.filename, __builtins__=builtins,
                              __doc__=docstring(self._nodes), __cached__=None)
        sys.modules["__main__"] = self.module
        sys.argv = list(self.argv)
        folder = os.path.dirname(self.filename)
        if sys.path and sys.path[0] != folder:
            sys.path[0] = folder

    def run_statement(self, i: int, record_loops: bool = False,
                      keep_value: bool = False, known: loops.Known | None = None) -> Outcome:
        """Run statement ``i``; exceptions become the ``Outcome`` (python's traceback printed).

        With ``record_loops``, a top-level ``for``/``while`` also reports its iterations
        (``Outcome.loop``; the window's runs only, never ``tensor-lab run``). With
        ``keep_value``, an expression statement's value is kept in ``Outcome.value``
        (python drops it; the window shows what ``x.add_(1)`` made). ``known``: numbers
        the training watch read already, for the loop's recorder.
        """
        statement, node = self.statements[i], self._nodes[i]
        outcome = Outcome(statement)
        start = time.perf_counter()
        recorder = None
        expression = keep_value and isinstance(node, ast.Expr)
        if record_loops and loops.is_loop(node):
            code, names, counter = self._loops.pop((i, self.flags), None) \
                or self._instrumented(node, self.flags)
            recorder = loops.LoopRecorder(self.namespace, names, counter, known)
        elif expression:
            code = compile(ast.Expression(node.value), self.filename,  # type: ignore[attr-defined]
                           "eval", flags=self.flags, dont_inherit=True)
        else:
            code = compile_statement(node, self.filename, self.flags)
        try:
            with self.user_code():
                if expression:
                    outcome.value = eval(code, self.namespace)  # noqa: S307 - the user's code
                elif recorder is None:
                    exec(code, self.namespace)
                else:
                    try:
                        recorder.bind()
                        for tap in self.taps:
                            tap.listener = recorder.printed
                        exec(code, self.namespace)
                    finally:
                        for tap in self.taps:
                            tap.listener = None
                        recorder.unbind()
        except SystemExit as e:
            outcome.exit_code = exit_code_of(e)
            outcome.error, outcome.message = "SystemExit", str(e.code)
        except BaseException as e:  # noqa: BLE001 - the user's exception, reported as python does
            self.report(e)
            outcome.error, outcome.message = type(e).__name__, str(e)
            outcome.error_line = self.line_of(e.__traceback__)
            outcome.exit_code = 130 if isinstance(e, KeyboardInterrupt) else 1
        if recorder is not None:
            outcome.loop = self._loop_report(recorder)
        outcome.elapsed = time.perf_counter() - start
        self.flags |= future_flags(node)
        return outcome

    def compile_loops(self, start: int = 0) -> None:
        """Rewrite and compile the loop statements from ``start`` on for ``record_loops``
        now, before the run: python compiles a whole file before it runs any of it, and
        a loop's rewrite and compile (a third of a millisecond) would otherwise come in
        the recipe's own time, between two of its statements. (One that fails is left to
        fail as it runs.)"""
        flags = self.flags
        for i in range(start, len(self._nodes)):
            node = self._nodes[i]
            if loops.is_loop(node):
                try:
                    self._loops[(i, flags)] = self._instrumented(node, flags)
                except Exception:  # noqa: BLE001, S112 - it fails the same way when it runs
                    continue
            flags |= future_flags(node)

    def _instrumented(self, node: ast.stmt, flags: int
                      ) -> tuple[CodeType, list[str], str | None]:
        rewritten, names, counter = loops.instrument(node)  # type: ignore[arg-type]
        code = compile(ast.Module(body=rewritten, type_ignores=[]), self.filename, "exec",
                       flags=flags, dont_inherit=True)
        return code, names, counter

    @staticmethod
    def _loop_report(recorder: loops.LoopRecorder) -> LoopReport | None:
        try:
            return recorder.report()
        except Exception:  # noqa: BLE001 - a report that fails is left out, never the run's
            return None

    def run(self, after: Callable[[Outcome], None] | None = None,
            before: Callable[[int], None] | None = None) -> int:
        """Run every statement until one ends the run; the exit code python would give.
        ``before(i)`` and ``after(outcome)`` are called around statement ``i``."""
        try:
            self.prepare()
        except SyntaxError as e:
            traceback.print_exception(type(e), e, None)
            return 1
        for i in range(len(self.statements)):
            if before is not None:
                before(i)
            outcome = self.run_statement(i)
            if after is not None:
                after(outcome)
            if outcome.exit_code is not None:
                return outcome.exit_code
        return 0

    def report(self, e: BaseException) -> None:
        """Print ``e`` through ``sys.excepthook``, as python's top level does.

        The traceback starts at the file's first frame and leaves out the kernel's own
        (the signal handler that turns Stop into ``KeyboardInterrupt``). A hook that is
        missing or raises, and a stderr the recipe closed, are dealt with as python's
        ``PyErr_Print`` deals with them: the kernel's own code never fails here.
        """
        flush(sys.stdout)
        tb = self.user_traceback(e.__traceback__)
        e = e.with_traceback(tb)
        hook = getattr(sys, "excepthook", _MISSING)
        if hook is _MISSING:
            _display("sys.excepthook is missing\n", e)
        else:
            try:
                hook(type(e), e, tb)
            except BaseException as broken:  # noqa: BLE001 - python shows both, as here
                broken = broken.with_traceback(self.user_traceback(broken.__traceback__))
                if broken.__context__ is e:  # (python calls the hook outside any except)
                    broken.__context__ = None
                _display("Error in sys.excepthook:\n", broken)
                _display("\nOriginal exception was:\n", e)
        flush(sys.stderr)

    def user_traceback(self, tb: TracebackType | None) -> TracebackType | None:
        frames = []
        while tb is not None:
            frames.append(tb)
            tb = tb.tb_next
        start = next((i for i, f in enumerate(frames)
                      if f.tb_frame.f_code.co_filename == self.filename), 0)
        kept = [f for f in frames[start:]
                if not f.tb_frame.f_code.co_filename.startswith(_KERNEL_DIR)]
        chain = None
        for f in reversed(kept):
            chain = TracebackType(chain, f.tb_frame, f.tb_lasti, f.tb_lineno)
        return chain

    def line_of(self, tb: TracebackType | None) -> int | None:
        """The line of the deepest frame in the file (inside a loop, a def, a class...)."""
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        return line


_MISSING = object()


def _display(heading: str, e: BaseException) -> None:
    """``heading`` and ``e``'s traceback on stderr, as python's ``PyErr_Display``: where
    stderr cannot take them (closed, None), nothing."""
    try:
        sys.stderr.write(heading)
        traceback.print_exception(type(e), e, e.__traceback__, file=sys.stderr)
    except Exception:  # noqa: BLE001, S110 - python drops them too
        pass


def flush(stream: Any) -> None:
    """Flush a stream of the recipe's, as python does before and after a traceback: one
    the recipe closed, replaced or set to None is left as it is."""
    try:
        stream.flush()
    except Exception:  # noqa: BLE001, S110 - python ignores these too
        pass


def exit_code_of(e: SystemExit) -> int:
    """The exit status python gives for ``SystemExit(code)``, printing a message code."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    print(e.code, file=sys.stderr)
    return 1
