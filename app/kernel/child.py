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
from multiprocessing.connection import Connection

from app.kernel import protocol
from app.kernel.budget import budget_text, is_out_of_memory, limit_memory
from app.kernel.runner import Outcome, Runner

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


def kernel_main(conn: Connection) -> None:
    """Serve one supervisor until it shuts the kernel down or the pipe closes."""
    if hasattr(os, "setsid"):
        os.setsid()
    signal.signal(signal.SIGINT, _on_sigint)
    code = 0
    while True:
        try:
            message = protocol.receive(conn)
        except (EOFError, OSError):
            break
        if isinstance(message, protocol.Shutdown):
            break
        if isinstance(message, protocol.RunFile):
            limited = bool(message.memory_budget) and limit_memory(message.memory_budget)
            protocol.send(conn, protocol.Ready(os.getpid(), limited))
            code = _run_file(conn, message)
            break
    sys.exit(code)  # atexit handlers and non-daemon threads end as under python


def _run_file(conn: Connection, message: protocol.RunFile) -> int:
    runner = Runner(message.path, message.source, message.argv, user_code=_user_code)
    out_of_memory = False

    def after(outcome: Outcome) -> None:
        nonlocal out_of_memory
        if is_out_of_memory(outcome.error, outcome.message):
            out_of_memory = True
            print(f"tensor-lab: the recipe needed more memory than its budget of "
                  f"{budget_text(message.memory_budget)}", file=sys.stderr)
        if message.report:
            s = outcome.statement
            protocol.send(conn, protocol.StepDone(s.index, s.line, outcome.elapsed, outcome.error,
                                                  outcome.message, outcome.error_line))

    code = runner.run(after)
    protocol.send(conn, protocol.Done(code, out_of_memory))
    return code
