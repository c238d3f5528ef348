"""``tensor-lab run``: run a recipe headless, in a kernel process, with no Qt imported.

``tensor-lab run RECIPE.py [ARGS...]`` (also ``python -m app RECIPE.py``) runs the file
with CPython in a kernel process, statement by statement, exactly as ``python RECIPE.py``
would: the same output and the same exit code, in the caller's working folder. The user
asked for it, as with ``python FILE``. ``--timeout`` and ``--memory`` bound it; ending
on one of them exits 1 with a message. ``--json`` prints one report of the recipe's
tensors and errors.
The window's command line, which hands ``run`` here, is ``widgets.launch.main``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterator

#: Exit codes of ``tensor-lab run --json``; a plain run exits as python would.
EXIT_OK, EXIT_STEP_FAILED, EXIT_REFUSED = 0, 1, 2
#: The exit code of a run whose server cannot be reached (ssh's own).
EXIT_UNREACHABLE = 255
#: Seconds a ``tensor-lab run`` may take by default.
DEFAULT_TIMEOUT_S = 600.0


def main(argv: list[str] | None = None) -> int:
    """``python -m app [run] RECIPE.py [--json]``: the same as ``tensor-lab run``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    return run_main(argv[1:] if argv[:1] == ["run"] else argv)


def run_main(argv: list[str]) -> int:
    """Run a recipe headless; print what ``python RECIPE.py`` prints, or JSON."""
    parser = argparse.ArgumentParser(
        prog="tensor-lab run",
        description="Run a recipe without the window, as python would, in a kernel process.")
    parser.add_argument("recipe", help="the recipe file (.py); other arguments after it "
                        "reach the recipe as its sys.argv[1:]")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object with every tensor and every error")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                        help=f"stop the recipe after this long (default {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument("--memory", type=float, metavar="GIB",
                        help="the recipe's memory budget in GiB (default: half the RAM)")
    parser.add_argument("--kernel", metavar="ssh://[USER@]HOST[:PORT][?python=PATH]",
                        default="", help="run on a server over SSH (its python needs torch; "
                        "the recipe runs in ~/.local/share/tensor-lab/work/NAME there; "
                        f"exit {EXIT_UNREACHABLE} when it cannot be reached); default: "
                        "this computer")
    args, args.args = parser.parse_known_args(argv)
    if args.kernel:
        from app.link.ssh import parse_target

        try:
            args.target = parse_target(args.kernel)
        except ValueError as e:
            parser.error(str(e))
    else:
        args.target = None
    with _kernels_end_on(getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)):
        if args.json:
            return _run_json(args.recipe, args.timeout, args.memory, args.target)
        return _run_in_kernel(args)


@contextlib.contextmanager
def _kernels_end_on(*signals: int | None) -> Iterator[None]:
    """On these signals (a ``kill``, a closed terminal, a cancelled CI job), end the
    kernel and what its recipe started, then end as the signal ends python (a shell
    shows 128 + n). Where this process dies otherwise (SIGKILL), the kernel sees its
    pipe close and ends itself (``kernel.child``)."""
    def end(signum: int, _frame: object) -> None:
        supervisor = sys.modules.get("app.link.supervisor")
        if supervisor is not None:
            supervisor.end_all()
        raise SystemExit(_end_by_signal(signum))  # (returns only where it cannot die so)

    handled = [s for s in signals if s is not None
               and threading.current_thread() is threading.main_thread()
               and signal.getsignal(s) is signal.SIG_DFL]  # (nohup's SIG_IGN stays)
    for signum in handled:
        signal.signal(signum, end)
    try:
        yield
    finally:
        for signum in handled:
            signal.signal(signum, signal.SIG_DFL)


def start_kernel(target, memory_budget: int | None):
    """A kernel on this computer (``target`` None) or on a server over SSH
    (``app.link.ssh.SshTarget``); ``app.link.ssh.Unreachable`` says why not."""
    if target is None:
        from app.link.supervisor import Kernel

        return Kernel(memory_budget=memory_budget)
    from app.link.ssh import SshKernel

    return SshKernel(target, memory_budget)


def _run_in_kernel(args: argparse.Namespace) -> int:
    from app.link.ssh import Unreachable
    from protocol.budget import GIB
    from protocol.source import decode

    try:
        with open(args.recipe, "rb") as f:
            data = f.read()
    except OSError as e:
        # python's own words and exit code for a file it cannot open
        print(f"{sys.executable}: can't open file {os.path.abspath(args.recipe)!r}: "
              f"[Errno {e.errno}] {e.strerror}", file=sys.stderr)
        return 2
    try:
        source = decode(data, os.path.abspath(args.recipe))
    except SyntaxError as e:  # bytes python cannot read either: its SyntaxError, exit 1
        traceback.print_exception(type(e), e, None)
        return 1
    budget = int(args.memory * GIB) if args.memory else None
    try:
        kernel = start_kernel(args.target, budget)
    except Unreachable as e:
        print(f"tensor-lab: {e}", file=sys.stderr)
        return EXIT_UNREACHABLE
    try:
        ending = kernel.run_file(args.recipe, source, args.args, timeout=args.timeout)
    except KeyboardInterrupt:  # Ctrl+C here reaches the kernel's own process group
        kernel.stop()
        return 130
    finally:
        kernel.close()
    sys.stdout.flush()
    why = _why_stopped(args.recipe, ending, args.timeout, kernel.memory_budget)
    if why:
        print(why, file=sys.stderr)
        return 1
    if ending.exit_code < 0:
        return _end_by_signal(-ending.exit_code)
    return ending.exit_code


def _end_by_signal(signum: int) -> int:
    """End this process by signal ``signum`` (the one that ended the recipe's process,
    or the one this process got), so that the caller sees what ``python FILE`` would
    have shown (a shell: 128 + n) and nothing more on stderr (python prints nothing);
    128 + n where this process cannot die of it."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, RuntimeError):  # (RuntimeError: a signal came
            pass  # while the main thread was writing to it)
    if hasattr(os, "kill") and sys.platform != "win32":
        try:
            signal.signal(signum, signal.SIG_DFL)  # python ignores SIGPIPE, say
        except (OSError, ValueError):
            pass  # SIGKILL and SIGSTOP have no handler: they act as they are
        os.kill(os.getpid(), signum)
    return 128 + signum


def _why_stopped(recipe: str, ending, timeout: float, budget: int) -> str:
    """What ``tensor-lab run`` says when it stopped the recipe (its time or memory
    budget), or "" when the recipe ended by itself."""
    from protocol.budget import budget_text

    if ending.reason == "timeout":
        return (f"tensor-lab: {recipe} ran longer than its timeout of {timeout:g} s "
                "and was stopped (--timeout SECONDS sets it)")
    if ending.reason == "protocol":
        return f"tensor-lab: {recipe} was not run: {ending.message}"
    if ending.reason == "memory" and not ending.out_of_memory:
        return (f"tensor-lab: {recipe} used more memory than its budget of "
                f"{budget_text(budget)} and was stopped (--memory GIB sets it)")
    return ""


def _kernel_report(path: str, timeout: float = DEFAULT_TIMEOUT_S,
                   memory: float | None = None, target=None) -> tuple[dict, int]:
    """The JSON report of a run in a kernel process, as ``python`` runs the file, and
    the exit code it means. Stopped by its ``timeout`` (seconds) or ``memory`` budget
    (GiB), it says so on stderr as a plain run does, and the report keeps what the run
    gathered, with an error that says why it ended."""
    from app.link.ssh import Unreachable
    from protocol.budget import GIB

    with open(path, "rb") as f:
        source = f.read().decode("utf-8-sig")
    try:
        kernel = start_kernel(target, int(memory * GIB) if memory else None)
    except Unreachable as e:
        print(f"tensor-lab: {e}", file=sys.stderr)
        return {"tensors": {}, "errors": [{"line": 0, "step": None, "type": "KernelError",
                                           "message": str(e)}]}, EXIT_UNREACHABLE
    try:
        ending = kernel.run_file(path, source, timeout=timeout, report=True)
    finally:
        kernel.close()
    why = _why_stopped(path, ending, timeout, kernel.memory_budget)
    report = ending.report or kernel.report
    if report is None or why:
        report = report or {"tensors": {}, "errors": []}
        report["errors"].append({"line": 0, "step": None, "type": "KernelError", "message":
                                 why or f"the run ended: {ending.reason or 'died'}"})
    if why:
        print(why, file=sys.stderr)
        return report, EXIT_STEP_FAILED
    return report, EXIT_OK if ending.exit_code == 0 else EXIT_STEP_FAILED


def _run_json(path: str, timeout: float = DEFAULT_TIMEOUT_S,
              memory: float | None = None, target=None) -> int:
    """The JSON report of a run in a kernel, as python runs the file (its ``"training"``
    key: what the kernel's watch saw of its loops, ``kernel.watch``)."""
    from app.recipe.reader import RecipeError, read_recipe_file

    try:
        read_recipe_file(path)  # refused here when it is no recipe
    except OSError as e:
        print(f"tensor-lab: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return EXIT_REFUSED
    except RecipeError as e:
        print(json.dumps({"tensors": {}, "errors": [
            {"line": e.line, "column": e.column, "step": None, "message": e.reason}],
            "refused": True}))
        print(f"tensor-lab: {path}: refused: {e}", file=sys.stderr)
        return EXIT_REFUSED
    report, code = _kernel_report(path, timeout, memory, target)  # as python runs it
    print(json.dumps(report))
    return code
