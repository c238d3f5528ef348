"""The kernel process's main loop: the one place where a recipe's code runs.

Started with ``spawn`` (never ``fork``: the window's threads and Qt state must not be
copied), it first makes a process group of its own, so that Stop reaches every process
the recipe starts; then SIGINT raises ``KeyboardInterrupt`` only while user code runs,
as in marimo's kernel. Its memory is capped at the budget it is given.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import traceback
from multiprocessing.connection import Connection

from app.kernel import protocol
from app.kernel.budget import budget_text, is_out_of_memory, limit_memory
from app.kernel.capture import Flusher, Tap
from app.kernel.report import RunReport
from app.kernel.runner import Outcome, Runner
from app.kernel.summary import changed, summarize, user_names

#: Most names one statement reports (a loop that binds a thousand names reports these).
MAX_NAMES = 100

_in_user_code = False


def _on_sigint(_signum, _frame) -> None:
    if _in_user_code:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _user_code():
    """While the recipe's own code runs: the only time SIGINT interrupts."""
    global _in_user_code
    _in_user_code = True
    try:
        yield
    finally:
        _in_user_code = False


class Channel:
    """The pipe to the supervisor; sends from the main thread and the output flusher."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self._lock = threading.Lock()

    def send(self, message: object) -> None:
        with self._lock:
            protocol.send(self.conn, message)


def kernel_main(conn: Connection) -> None:
    """Serve one supervisor until it shuts the kernel down or the pipe closes."""
    if hasattr(os, "setsid"):
        os.setsid()
    signal.signal(signal.SIGINT, _on_sigint)
    channel = Channel(conn)
    code, limited = 0, None
    while True:
        try:
            message = protocol.receive(conn)
        except (EOFError, OSError):
            break
        if isinstance(message, protocol.Shutdown):
            break
        if isinstance(message, protocol.Warm):
            threading.Thread(target=_import_torch, name="tensor-lab-warm", daemon=True).start()
            continue
        if isinstance(message, protocol.RunFile | protocol.RunSource):
            if limited is None:
                limited = bool(message.memory_budget) and limit_memory(message.memory_budget)
                channel.send(protocol.Ready(os.getpid(), limited))
            if isinstance(message, protocol.RunFile):
                code = _run_file(conn, message)
                break
            _run_source(channel, message)
    sys.exit(code)  # atexit handlers and non-daemon threads end as under python


def _import_torch() -> None:
    try:
        import torch  # noqa: F401 - warm: the first run does not wait for it
    except ImportError:
        pass


def _run_source(channel: Channel, message: protocol.RunSource) -> None:
    """Run a recipe for the window: every statement reported, its output captured."""
    runner = Runner(message.path, message.source, user_code=_user_code)
    if message.cwd:
        os.chdir(message.cwd)
    taps = [Tap("stdout"), Tap("stderr")]
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = taps
    flusher = Flusher(taps, lambda i, stream, text, dropped: channel.send(
        protocol.Output(i, stream, text, dropped)))
    code = 0
    try:
        try:
            runner.prepare()
        except SyntaxError as e:
            traceback.print_exception(type(e), e, None)
            code = 1
        else:
            code = _run_statements(channel, runner, taps, flusher, message.stop_before)
    finally:
        flusher.close()
        sys.stdout, sys.stderr = real
    channel.send(protocol.Done(code))


def _run_statements(channel: Channel, runner: Runner, taps: list[Tap], flusher,
                    stop_before: int = -1) -> int:
    # stop_before: a fresh kernel re-runs only the statements a killed one had finished
    count = len(runner.statements) if stop_before < 0 else stop_before
    for i, statement in enumerate(runner.statements[:count]):
        for tap in taps:
            tap.index = i
        channel.send(protocol.StepStarted(i, statement.line))
        before = user_names(runner.namespace)
        outcome = runner.run_statement(i, record_loops=True)
        flusher.flush()
        names = {name: summarize(runner.namespace[name])
                 for name in changed(before, runner.namespace)[:MAX_NAMES]}
        channel.send(protocol.StepDone(i, statement.line, outcome.elapsed, outcome.error,
                                       outcome.message, outcome.error_line, names,
                                       outcome.loop))
        if outcome.exit_code is not None:
            return outcome.exit_code
    return 0


def _run_file(conn: Connection, message: protocol.RunFile) -> int:
    runner = Runner(message.path, message.source, message.argv, user_code=_user_code)
    out_of_memory = False
    report = RunReport() if message.report else None

    def after(outcome: Outcome) -> None:
        nonlocal out_of_memory
        if report is not None:
            report.add(outcome)
        if is_out_of_memory(outcome.error, outcome.message):
            out_of_memory = True
            print(f"tensor-lab: the recipe needed more memory than its budget of "
                  f"{budget_text(message.memory_budget)}", file=sys.stderr)

    if report is None:
        code = runner.run(after)
    else:
        with report.capture():
            code = runner.run(after)
        protocol.send(conn, protocol.Report(report.finish(runner.namespace)))
    protocol.send(conn, protocol.Done(code, out_of_memory))
    return code
