"""The kernel process's main loop: the one place where a recipe's code runs.

Started as a fresh python (``python -m kernel``, never ``fork``: the window's
threads and Qt state must not be copied), it first makes a process group of its own, so
that Stop reaches every process the recipe starts; then SIGINT raises
``KeyboardInterrupt`` only while user code runs, as in marimo's kernel. Its memory is
capped at the budget it is given.
"""

from __future__ import annotations

import _thread
import builtins
import contextlib
import importlib
import io
import os
import queue
import signal
import sys
import threading
import traceback
import types
from collections.abc import Callable

from kernel import attention, checkpoints, queries
from kernel.capture import Flusher, Tap
from kernel.mirror import encode as copy_value
from kernel.mirror import snapshot as copy_values
from kernel.mirror import stamp
from kernel.namespace_watch import NamespaceWatch
from kernel.report import run_with_report
from kernel.runner import Outcome, Runner
from kernel.summary import loaded_torch, summarize
from kernel.watch import TrainingWatch
from kernel.watch_live import Controls, LiveFeed
from protocol import messages, reaper
from protocol.budget import budget_text, is_out_of_memory, limit_memory, resident_bytes
from protocol.sealed import BUILTINS
from protocol.source import statements as source_statements
from protocol.wire import Descriptors, Wire

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Most names one statement reports (a loop that binds a thousand names reports these).
MAX_NAMES = 100

_in_user_code = False
#: The window's hand on a running training loop (set by the reader thread).
_controls = Controls()
#: A Stop that came between two statements (after one reported, before the next ran):
#: the next statement starts with its KeyboardInterrupt.
_interrupt_pending = False
#: A Stop came during this run: what the recipe started ends with it (``_end_children_if_stopped``).
_stop_asked = False
#: A pipe to the supervisor (``Kernel.interrupt_raised``): a byte goes into it when a
#: Stop's KeyboardInterrupt is raised in the recipe's code. A recipe that does not stop
#: then went on by itself (it caught the exception); one that never got it was inside a
#: call Python cannot interrupt (a C++ op).
_raised: int | None = None


def _on_sigint(_signum, _frame) -> None:
    global _interrupt_pending, _stop_asked
    _stop_asked = True
    if _in_user_code:
        _note_raised()
        raise KeyboardInterrupt
    _interrupt_pending = True


def _note_raised() -> None:
    if _raised is not None:
        try:
            os.write(_raised, b"!")
        except OSError:  # full (the supervisor knows already), or gone
            pass


def _interrupt_later() -> None:
    global _interrupt_pending, _stop_asked
    _interrupt_pending = _stop_asked = True


def _forget_interrupt() -> None:
    """A new run starts: a Stop meant for the one before is not for it."""
    global _interrupt_pending, _stop_asked
    _interrupt_pending = _stop_asked = False


def _fresh_builtins() -> None:
    """A run from the top starts as python starts: with the builtins a run before may
    have patched (``builtins.len = None``) as they were."""
    current = vars(builtins)
    for name in [name for name in current if name not in BUILTINS]:
        del current[name]
    for name, value in BUILTINS.items():
        if current.get(name) is not value:
            current[name] = value


def _end_children_if_stopped() -> None:
    """After a Stop (or a time limit), the processes the recipe started end too, those
    in sessions of their own included (python leaves them at a normal end, and so does
    the kernel)."""
    if _stop_asked and hasattr(os, "killpg"):
        reaper.end_tree(os.getpid(), keep_root=True)


def _end_everything() -> None:
    """The supervisor has gone (its pipe closed, or the parent process changed): end
    every process the recipe started, then this one, even while the main thread is
    inside a C++ op."""
    if hasattr(os, "killpg"):
        reaper.end_tree(os.getpid(), os.getpgrp())
    os._exit(1)


def _watch_parent(parent: int | None) -> None:
    """End with the parent, however it ends (SIGKILL included): Linux tells the kernel
    (``PR_SET_PDEATHSIG``); the reader thread also watches the pipe and the parent's pid."""
    if parent is None:
        return
    reaper.become_subreaper()
    signum = getattr(signal, "SIGRTMIN", None)
    if signum is not None and reaper.signal_on_parent_death(signum):
        signal.signal(signum, lambda _s, _f: _end_everything()
                      if os.getppid() != parent else None)
    if os.getppid() != parent:  # it died before the kernel asked
        _end_everything()


@contextlib.contextmanager
def _user_code():
    """While the recipe's own code runs: the only time SIGINT interrupts (one that came
    just before is raised as it starts)."""
    global _in_user_code, _interrupt_pending
    _in_user_code = True
    try:
        if _interrupt_pending:
            _interrupt_pending = False
            _note_raised()
            raise KeyboardInterrupt
        yield
    finally:
        _in_user_code = False


class Channel:
    """The pipe to the supervisor, written by a thread of its own.

    ``send`` encodes the message in the caller's thread and returns: the recipe goes on
    while a loop's report of 10^5 scalars crosses the pipe (the write lets go of the GIL).
    Messages leave in the order they were sent, from any thread; ``flush`` waits until
    every one has gone (before ``Done`` is the last word, and before the kernel exits).
    """

    def __init__(self, conn: Wire):
        self.conn = conn
        # C's queue and locks: nothing in them a recipe's patched builtins can reach
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._broken = False
        threading.Thread(target=self._write, daemon=True, name="tensor-lab-kernel-writer"
                         ).start()

    def send(self, message: object) -> None:
        self._queue.put(messages.frames_of(message))

    def flush(self) -> None:
        done = _thread.allocate_lock()
        done.acquire()
        self._queue.put(done)  # the writer lets go of it when it gets there
        done.acquire()

    def _write(self) -> None:
        while True:
            frames = self._queue.get()
            if not isinstance(frames, list):
                frames.release()  # a flush waits for this
                continue
            try:
                if not self._broken:
                    self.conn.send_bytes(messages.packed(frames))
            except (OSError, ValueError):
                self._broken = True  # the supervisor has gone; the reader ends the kernel
            except Exception:  # noqa: BLE001, S110 - one message lost, never the writer
                pass


def kernel_main(conn: Descriptors, parent: int | None = None,
                raised: int | None = None) -> None:
    """Serve one supervisor (process ``parent``) until it shuts the kernel down, or the
    pipe closes, or the parent ends: then the kernel ends, with what it started.

    A reader thread takes every message off the pipe: it answers ``Query`` at once (a
    view may ask while the recipe runs), turns ``Interrupt`` into ``KeyboardInterrupt``,
    and hands the rest to the main thread, which runs the recipe. ``raised``: a pipe's
    write end, where the SIGINT handler writes a byte when it raises in the recipe.
    """
    global _raised
    _raised = raised
    if hasattr(os, "setsid"):
        os.setsid()
    signal.signal(signal.SIGINT, _on_sigint)
    _watch_parent(parent)
    _as_a_main_process()
    conn = Wire(conn)  # (what a recipe writes into it cannot wedge the reader)
    if not _same_version(conn):
        os._exit(messages.VERSION_EXIT)  # nothing of the window's to finish: it is not ours
    channel = Channel(conn)
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    values = queries.Values()
    window = WindowRuns()
    threading.Thread(target=_read, args=(conn, channel, inbox, values, parent),
                     daemon=True, name="tensor-lab-kernel-reader").start()
    code, limited = 0, None
    warming: threading.Thread | None = None
    while True:
        message = inbox.get()
        if message is None or isinstance(message, messages.Shutdown):
            break
        if isinstance(message, messages.Warm):
            if message.modules:
                queries.loaded.clear()  # a query waits for the modules that answer it
            warming = threading.Thread(target=_warm, args=(message.modules,),
                                       name="tensor-lab-warm", daemon=True)
            warming.start()
            continue
        if isinstance(message, messages.RunFile | messages.RunSource):
            if limited is None:
                if warming is not None:  # torch's libraries mapped before the cap is set
                    warming.join()  # (the budget is on top of the kernel's own size)
                limited = bool(message.memory_budget) and limit_memory(message.memory_budget)
                channel.send(messages.Ready(os.getpid(), messages.VERSION, limited,
                                            resident_bytes(os.getpid()) or 0))
            if isinstance(message, messages.RunFile):
                code = _run_file(channel, message)
                break
            _run_source(channel, message, values, window)
    channel.flush()
    if warming is not None and warming.is_alive():  # no recipe ran: nothing of its to end
        os._exit(code)  # (finalizing under torch's import in C++ aborts: 'terminate called')
    _fresh_builtins()  # (atexit handlers, in Python, read them: isinstance...)
    sys.exit(code)  # atexit handlers and non-daemon threads end as under python


def _same_version(conn: Wire) -> bool:
    """Whether the supervisor's first message is ``Hello`` with this kernel's
    ``messages.VERSION``. Else the kernel answers with its ``Ready`` (which an older
    window reads as a version mismatch too), says why on its stderr, and must end: what
    the window sends may mean other things to it."""
    try:
        first = messages.receive(conn)
    except (EOFError, OSError):
        return False  # the supervisor has gone before it said anything
    except ValueError as e:  # not a message of this version, or not a message at all
        first, why = None, f"its first message could not be read ({e})"
    else:
        theirs = first.version if isinstance(first, messages.Hello) else 0
        if theirs == messages.VERSION:
            return True
        why = (f"the window speaks protocol version {theirs}, this kernel "
               f"{messages.VERSION}" if isinstance(first, messages.Hello) else
               f"the window sent {type(first).__name__} before its Hello (protocol "
               f"version {messages.VERSION} or later)")
    print(f"tensor-lab kernel: {why}, so the kernel ends.", file=sys.__stderr__, flush=True)
    try:
        messages.send(conn, messages.Ready(os.getpid(), messages.VERSION))
    except (OSError, ValueError):
        pass
    return False


def _as_a_main_process() -> None:
    """A process the recipe forks prints as python's would. (``multiprocessing`` needs
    nothing: the kernel is a plain python process, ``python -m kernel``, so its
    default start method and its process's name are python's, and a ``DataLoader``'s
    workers fork as under python, where a ``spawn`` kernel had spawned them and re-run a
    recipe without an ``if __name__ == "__main__":`` guard.)"""
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_untapped)


def _untapped() -> None:
    """In a process the recipe forks (a ``DataLoader`` worker), the window's output taps
    would keep what it prints (their threads stay in the kernel, and a lock one held
    could hang it): it prints to the kernel's own stdout and stderr instead."""
    for name in ("stdout", "stderr"):
        if isinstance(getattr(sys, name), Tap):
            setattr(sys, name, getattr(sys, f"__{name}__"))


def _callers_stdin() -> None:
    """``sys.stdin`` as python's own, on the caller's standard input: the kernel
    inherited descriptor 0 from ``tensor-lab run``, and its entry point
    (``kernel.__main__``) only put ``/dev/null`` in ``sys.stdin``'s place. The
    window's kernel keeps ``/dev/null``."""
    old = sys.__stdin__
    try:
        os.fstat(0)
        buffer = open(0, "rb", closefd=False)  # noqa: SIM115 - the process's own stdin
    except OSError:
        return  # none to be had (closed, or not inherited where there is no fork)
    buffer.raw.name = "<stdin>"
    stream = io.TextIOWrapper(buffer, encoding=getattr(old, "encoding", None),
                              errors=getattr(old, "errors", None),
                              newline=None if os.name == "nt" else "\n",
                              line_buffering=getattr(old, "line_buffering", False))
    stream.mode = "r"
    sys.stdin = sys.__stdin__ = stream


#: How often the reader thread looks at the parent's pid while no message comes.
PARENT_WATCH_S = 0.5


def _read(conn: Wire, channel: Channel, inbox: queue.SimpleQueue,
          values: queries.Values, parent: int | None = None) -> None:
    while True:
        try:
            if not conn.poll(PARENT_WATCH_S):
                if parent is not None and os.getppid() != parent:
                    _end_everything()  # a new parent: the supervisor has gone
                continue
            message = messages.receive(conn)
        except (EOFError, OSError, ValueError):
            _end_everything()  # the supervisor has gone: so does the kernel
            return
        if isinstance(message, messages.Query):
            _answer(channel, values, message)
        elif isinstance(message, messages.TrainingControl):
            _controls.apply(message)
        elif isinstance(message, messages.Interrupt):
            if _in_user_code:
                _thread.interrupt_main()
            else:
                _interrupt_later()  # between statements: the next one starts with it
        else:
            inbox.put(message)


def _answer(channel: Channel, values: queries.Values, query: messages.Query) -> None:
    try:
        data, error = queries.answer(values, query.kind, query.args), ""
    except queries.QueryError as e:
        data, error = {}, str(e)
    except Exception as e:  # noqa: BLE001 - an odd value must not end the kernel
        data, error = {}, f"{type(e).__name__}: {e}"
    try:
        channel.send(messages.Answer(query.id, data, error))
    except (TypeError, ValueError) as e:  # data JSON cannot carry
        channel.send(messages.Answer(query.id, {}, f"{type(e).__name__}: {e}"))


class Prefetch:
    """The window's questions about a run (``messages.RunSource.prefetch``), answered as
    soon as the statement each names is done: they come back with its report, so the
    views show an edit's result and what they ask of it in one repaint. A question that
    names no statement (the storage map) is answered at the end."""

    def __init__(self, channel: Channel, values: queries.Values, asked: list) -> None:
        self._channel, self._values = channel, values
        self._pending = [messages.Query(int(i), str(kind), dict(args)) for i, kind, args in asked]

    def answer(self, done: Callable[[int | None], bool]) -> None:
        """Answer the questions whose statement ``done`` says is done (None: a question
        that names none)."""
        ready = [q for q in self._pending if done(q.args.get("statement"))]
        if not ready:
            return
        with _one_thread():
            for query in ready:
                self._pending.remove(query)
                _answer(self._channel, self._values, query)


@contextlib.contextmanager
def _one_thread():
    """torch on one thread meanwhile: the window's own questions (a tensor's statistics,
    its plane) are answered while the window repaints on the other core, where a second
    thread of each reduction would wait for it (a 10^6-element tensor's statistics took
    1.6 ms so, 0.4 ms alone). Only between statements, on the main thread: the recipe's
    own threads are as it set them."""
    torch = loaded_torch()
    threads = torch.get_num_threads() if torch is not None else 1
    if threads > 1:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if threads > 1:
            torch.set_num_threads(threads)


def _warm(modules: list[str]) -> None:
    try:
        import torch  # noqa: F401 - warm: the first run does not wait for it
    except ImportError:
        pass
    try:
        for name in modules:  # the window's own code, never the recipe's
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - their queries then answer "no such query"
                traceback.print_exc(file=sys.__stderr__)
    finally:
        queries.loaded.set()


class WindowRuns:
    """What the window's runs leave in the kernel: the last run's ``__main__`` module and
    its checkpoints, for an edit to go on from the first changed statement."""

    def __init__(self) -> None:
        self.module: types.ModuleType | None = None
        self.marks = checkpoints.Checkpoints()


def _run_source(channel: Channel, message: messages.RunSource, values: queries.Values,
                window: WindowRuns) -> None:
    """Run a recipe for the window: every statement reported, its output captured, and
    what each bound kept for the views to ask about (``values``); an edit goes on from
    the last run's checkpoint where one can be trusted (``kernel.checkpoints``)."""
    _forget_interrupt()
    _enter(message.cwd)
    start, parsed = 0, None
    if message.resume and window.module is not None and message.stop_before < 0:
        try:
            parsed = source_statements(message.source, os.path.abspath(message.path))
            start = window.marks.resume_point(os.path.abspath(message.path), parsed[0])
        except SyntaxError:
            start = 0
    if not start:
        _fresh_builtins()
    runner = Runner(message.path, message.source, user_code=_user_code,
                    module=window.module if start else None, parsed=parsed)
    values.start(message.run_id, keep_before=start, source=message.source)
    attention.start(start)
    taps = runner.taps = [Tap("stdout"), Tap("stderr")]
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = taps
    flusher = Flusher(taps, lambda i, stream, text, dropped: channel.send(
        messages.Output(i, stream, text, dropped)))
    code = 0
    prefetch = Prefetch(channel, values, message.prefetch)
    try:
        try:
            runner.prepare()
        except SyntaxError as e:
            traceback.print_exception(type(e), e, None)
            code = 1
        else:
            if start:
                runner.flags = window.marks.restore(start, runner.namespace)
                channel.send(messages.Resumed(start))
            else:
                window.marks.clear(runner.filename)
            window.module = runner.module
            values.namespace = runner.namespace
            prefetch.answer(lambda statement: statement is not None and statement < start)
            runner.compile_loops(start)
            _controls.new_run()
            watch = TrainingWatch(runner.namespace, LiveFeed(channel.send), _controls)
            try:
                code = _run_statements(channel, runner, taps, flusher, values, window.marks,
                                       start, message.stop_before, message.mirror, prefetch,
                                       watch)
            finally:
                watch.uninstall()
    finally:
        flusher.close()
        sys.stdout, sys.stderr = real
        prefetch.answer(lambda statement: True)  # the rest, at the end (or why not)
    _end_children_if_stopped()
    channel.send(messages.Done(code))
    channel.flush()


def _run_statements(channel: Channel, runner: Runner, taps: list[Tap], flusher,
                    values: queries.Values, marks: checkpoints.Checkpoints, start: int = 0,
                    stop_before: int = -1, mirror: dict | None = None,
                    prefetch: Prefetch | None = None,
                    watch: TrainingWatch | None = None) -> int:
    # stop_before: a fresh kernel re-runs only the statements a killed one had finished
    count = len(runner.statements) if stop_before < 0 else stop_before
    mirror = mirror or {}
    seen = NamespaceWatch(runner.namespace)  # what each statement bound or changed
    for i in range(start, count):
        statement = runner.statements[i]
        for tap in taps:
            tap.index = i
        channel.send(messages.StepStarted(i, statement.line))
        form = mirror.get(str(i))
        large: dict[str, tuple] = {}  # too large to copy now: stamped, for Op explained
        inputs = copy_values(runner.namespace, form.get("reads", []), large) if form \
            else None
        if watch is not None:
            watch.begin(i, statement.line)
        outcome = runner.run_statement(i, record_loops=True,
                                       keep_value=bool(form) and not form.get("name"),
                                       known=watch.known if watch is not None else None)
        flusher.flush()
        if watch is not None:
            watch.end()  # the loop's last steps come before its statement's report
        bound = seen.changed()[:MAX_NAMES]
        values.keep(i, runner.namespace, bound)
        names = {name: summarize(runner.namespace[name]) for name in bound}
        copied = None
        if form:  # the value it bound, or a bare call's (``x.add_(1)``)
            name = form.get("name")
            output = outcome.value if not name else runner.namespace.get(name)
            copied = {"inputs": inputs,
                      "output": copy_value(output) if outcome.error is None else None}
            values.keep_large(i, large, stamp(output) if copied["output"] is None
                              and outcome.error is None else None)
            outcome.value = None  # python keeps no bare value, nor does the kernel
            del output
        channel.send(messages.StepDone(i, statement.line, outcome.elapsed, outcome.error,
                                       outcome.message, outcome.error_line, names,
                                       outcome.loop, copied))
        if prefetch is not None and i < count - 1:  # (the last one's go with Done: one
            prefetch.answer(lambda statement, done=i: statement == done)  # repaint shows both)
        if outcome.exit_code is not None:
            return outcome.exit_code
        marks.keep(statement, runner.namespace, runner.flags)
    return 0


def _enter(folder: str) -> None:
    """Run in ``folder`` (made if missing: a server's work folder); "" stays. ``chdir``
    first, a C call: ``os.makedirs`` is Python that calls the builtins, which a recipe
    may have patched (the folder is there, but for a server's first run)."""
    if not folder:
        return
    try:
        os.chdir(folder)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        os.chdir(folder)


def _run_file(channel: Channel, message: messages.RunFile) -> int:
    _callers_stdin()
    _enter(message.cwd)
    runner = Runner(message.path, message.source, message.argv, user_code=_user_code)
    out_of_memory = False

    def after(outcome: Outcome) -> None:
        nonlocal out_of_memory
        if is_out_of_memory(outcome.error, outcome.message):
            out_of_memory = True
            print(f"tensor-lab: the recipe needed more memory than its budget of "
                  f"{budget_text(message.memory_budget)}", file=sys.stderr)

    if not message.report:
        code = runner.run(after)
    else:
        code, report = run_with_report(runner, after)
        channel.send(messages.Report(report))
    _end_children_if_stopped()
    channel.send(messages.Done(code, out_of_memory))
    channel.flush()
    return code
