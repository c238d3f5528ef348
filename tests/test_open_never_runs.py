"""Opening never runs: 10^4 hostile files opened in the window and with ``--screenshot``.

The corpus (``tests/hostile_files.py``) is the hand-written cases of
``tests/test_hostile_recipes.py`` and then generated files, each of which would create its
own canary, and on the way start a process, open a socket or load a C library, if
anything ran it. ``TENSOR_LAB_OPEN_FILES`` is their number, the hand-written ones
included (10,000 by default). What each test covers:

- ``test_the_generated_files_would_run_if_anything_ran_them``: a sample (every action,
  wrapper, disguise and layout, and 100 more) run with plain ``python`` does create its
  canaries: the corpus is not harmless by accident.
- ``test_opening_every_hostile_file_in_the_window_never_runs_it``: one shown window
  opens all of them through ``open_file``, processing Qt events after each. Afterwards
  the document is held or the trust bar shows why the file did not open. Every 500 files
  and at the end: no canary, no audit event naming a hostile file or reaching out
  (process, socket, C library...), no new child process but the lab's kernel.
- ``test_every_other_way_of_opening_never_runs_the_file``: the files that take every
  action, wrapper, disguise and layout once, opened by the menu (``open_path``), drag and
  drop, the command line (``launch.make_window``, then ``save_screenshot`` in process)
  and autosave recovery (on the file, and planted with a marker that names no file),
  with the same checks.
- ``test_screenshot_processes_never_run_the_file``: the same files and a spread of the
  hand-written ones through ``python -m widgets --screenshot OUT.png FILE``, each in its
  own process with a ``sitecustomize`` audit hook that logs to a file. Each must exit by
  itself within 60 s (nothing waits for a click), write its PNG, and leave no canary and
  no event after it read the file.

A process costs 2-3 s, so not all 10^4 go through one: the process sample runs in the
background, on the second core, while the window opens the rest. ``launch`` called in
process is no cheaper (a new window and a 1280x800 grab, 0.3-0.5 s each, and it replaces
the process's Qt message handler); the file-dependent part of the ``--screenshot`` path,
``open_path`` and so ``open_file``, is what the window test runs for every file.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import tests.test_hostile_recipes as hand_written
from tests.hostile_files import (
    KINDS,
    MARKER,
    HostileFile,
    audit_line,
    stratified,
    write_hostile_files,
)

pytestmark = pytest.mark.gui

#: Files in the corpus, the hand-written ones included.
COUNT = int(os.environ.get("TENSOR_LAB_OPEN_FILES", "10000"))
#: The window test opens the files in this many parts, a fresh window for each.
WINDOW_PARTS = 4
#: Seconds a ``--screenshot`` process may take before it counts as waiting for something.
SCREENSHOT_TIMEOUT = 60
#: The window test checks canaries, events and processes this often (in files).
CHECK_EVERY = 500
#: Hand-written cases that also go through a ``--screenshot`` process.
HAND_WRITTEN_PROCESSES = 10
#: Generated files, beyond the stratified ones, that the self-check runs with python.
PROOF_SAMPLE = 100
HERE = Path(__file__).resolve().parent


@dataclass
class Corpus:
    root: Path
    files: list[HostileFile]
    canaries: Path

    def canaries_left(self) -> list[str]:
        return sorted(os.listdir(self.canaries))


def _write_corpus(root: Path, only: set[int] | None = None) -> list[HostileFile]:
    return write_hostile_files(root / "files", root / "canaries", COUNT,
                               corpus=hand_written.CORPUS,
                               corpus_canary=str(hand_written.CANARY), only=only)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("open-never-runs")
    return Corpus(root, _write_corpus(root), root / "canaries")


# -- what a run would leave ----------------------------------------------------------------------
class _Recorder:
    """The in-process audit hook: lines of ``audit_line`` while armed (installed once)."""

    def __init__(self) -> None:
        self.armed = False
        self.lines: list[str] = []
        self.ignored_threads: set[int] = set()  # the screenshot launchers' own Popen
        self.installed = False

    def install(self) -> None:
        if not self.installed:  # an audit hook cannot be removed: it goes inert instead
            sys.addaudithook(self)
            self.installed = True

    def __call__(self, event: str, args: tuple) -> None:
        if not self.armed:
            return
        line = audit_line(event, args)
        if line is not None and threading.get_ident() not in self.ignored_threads:
            self.lines.append(line)


RECORDER = _Recorder()


def _allowed(event: str, detail: str) -> bool:
    """Events the lab itself may cause while it opens a file."""
    if "kernel.__main__" in detail:  # the lab's kernel: python -m kernel's main
        return True
    if event == "ctypes.dlsym" and detail == "(CDLL, 'prctl')":
        return True  # the kernel's reaper (a subreaper that ends with its window), logged
        # by the kernel process too: it inherits this test's sitecustomize
    if "multiprocessing" in detail:  # the training panel's fork server
        return True
    if event == "socket.__new__" and ("AF_UNIX" in detail or detail.startswith("(socket, 1,")):
        return True
    if event in ("socket.bind", "socket.connect") and "/pymp-" in detail:
        return True  # multiprocessing's own Unix socket: the training panel's fork server
    if event == "ctypes.dlopen":  # a library Qt or torch loads late, by its full path
        try:
            name = ast.literal_eval(detail)
        except (ValueError, SyntaxError):
            return False
        name = name[0] if isinstance(name, tuple) and name else name
        if name is None:  # ctypes.CDLL(None): the symbols already loaded (torch's import)
            return True
        return isinstance(name, str) and os.path.isabs(name) and os.path.isfile(name)
    return False


def violations(lines: list[str], *, armed: bool) -> list[str]:
    """The audit lines that say a hostile file ran, or that something reached out.

    A write to a hostile path (a canary), the ``exec`` of a hostile file's code and any
    event naming one count wherever they come. Process, network and C-library events
    count while ``armed``, or else from the first read of a hostile file on (before it,
    the process was starting).
    """
    bad = []
    after = armed
    for line in lines:
        event, _, detail = line.partition("\t")
        if event == "open":
            if detail.startswith("read"):
                after = True
            else:
                bad.append(line)
        elif event == "exec" or MARKER in detail:
            bad.append(line)
        elif after and not _allowed(event, detail):
            bad.append(line)
    return bad


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: pid to (parent pid, command line); {} where there is no /proc."""
    found = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except (OSError, ValueError, IndexError):
            continue  # it ended while we looked
        found[int(entry)] = (ppid, cmdline)
    return found


def descendants(roots: set[int], table: dict[int, tuple[int, str]] | None = None
                ) -> dict[int, str]:
    """The processes below ``roots`` (not the roots), pid to command line."""
    table = _processes() if table is None else table
    children = defaultdict(list)
    for pid, (ppid, _) in table.items():
        children[ppid].append(pid)
    found, stack = {}, list(roots)
    while stack:
        for child in children[stack.pop()]:
            if child not in found:
                found[child] = table[child][1]
                stack.append(child)
    return found


# -- the --screenshot processes, run in the background -------------------------------------------
SITECUSTOMIZE = '''"""Written by tests/test_open_never_runs.py: logs what this process does."""
import importlib.util
import os
import sys
import threading


def _install():
    log = os.environ.get("TENSOR_LAB_AUDIT_LOG")
    module = os.environ.get("TENSOR_LAB_AUDIT_MODULE")
    if not log or not module:
        return
    spec = importlib.util.spec_from_file_location("_tensor_lab_audit", module)
    audit = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = audit  # its dataclasses look their module up there
    spec.loader.exec_module(audit)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    local = threading.local()

    def hook(event, args):
        if getattr(local, "busy", False):
            return
        local.busy = True
        try:
            line = audit.audit_line(event, args)
            if line is not None:
                os.write(fd, (line + "\\n").encode("utf-8", "replace"))
        finally:
            local.busy = False

    sys.addaudithook(hook)


_install()
'''


@dataclass
class Shot:
    """One ``--screenshot`` process and what it left."""

    file: HostileFile
    folder: Path
    returncode: int | None = None
    waited: bool = False  # still running at SCREENSHOT_TIMEOUT, then killed
    seconds: float = 0.0

    @property
    def png(self) -> Path:
        return self.folder / "shot.png"

    @property
    def log(self) -> Path:
        return self.folder / "audit.log"

    def text(self, name: str) -> str:
        path = self.folder / name
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


@dataclass
class ScreenshotBatch:
    """``python -m widgets --screenshot`` on each file, a few at a time, in daemon threads.

    Process-starting events of its own threads are no finding of the window test, and its
    processes (and theirs) are not the window's children: ``lock`` is held while one
    starts, so a process scan never sees one half-registered.
    """

    shots: list[Shot]
    site: Path
    workers: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    pids: set[int] = field(default_factory=set)
    threads: list[threading.Thread] = field(default_factory=list)
    stopping: bool = False
    _next: int = 0

    def start(self) -> None:
        for _ in range(self.workers):
            thread = threading.Thread(target=self._work, daemon=True,
                                      name="tensor-lab-screenshot-batch")
            self.threads.append(thread)
            thread.start()

    def _take(self) -> Shot | None:
        with self.lock:
            if self.stopping or self._next >= len(self.shots):
                return None
            self._next += 1
            return self.shots[self._next - 1]

    def _work(self) -> None:
        RECORDER.ignored_threads.add(threading.get_ident())
        while (shot := self._take()) is not None:
            self._run(shot)

    def _run(self, shot: Shot) -> None:
        folder = shot.folder
        (folder / "cwd").mkdir(parents=True)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(folder),
               "XDG_CONFIG_HOME": str(folder / "config"),
               "TENSOR_LAB_DATA_DIR": str(folder / "data"),
               "TENSOR_LAB_AUDIT_LOG": str(shot.log),
               "TENSOR_LAB_AUDIT_MODULE": str(HERE / "hostile_files.py"),
               "PYTHONPATH": os.pathsep.join(
                   p for p in (str(self.site), os.environ.get("PYTHONPATH")) if p)}
        for name in ("TENSOR_LAB_RESTORE_AUTOSAVE", "TENSOR_LAB_TEST_EDIT"):
            env.pop(name, None)
        command = [sys.executable, "-m", "widgets", "--screenshot", str(shot.png),
                   str(shot.file.path)]
        start = time.monotonic()
        with open(folder / "stdout", "wb") as out, open(folder / "stderr", "wb") as err:
            with self.lock:
                if self.stopping:
                    return
                process = subprocess.Popen(command, cwd=folder / "cwd", env=env,
                                           stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                           start_new_session=True)
                self.pids.add(process.pid)
            try:
                shot.returncode = process.wait(SCREENSHOT_TIMEOUT)
            except subprocess.TimeoutExpired:
                shot.waited = True
                process.kill()
                shot.returncode = process.wait()
        shot.seconds = time.monotonic() - start

    def wait(self) -> list[Shot]:
        for thread in self.threads:
            thread.join(SCREENSHOT_TIMEOUT * len(self.shots) + 60)
        return self.shots

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
        for thread in self.threads:
            thread.join(SCREENSHOT_TIMEOUT + 30)

    def own_processes(self, table: dict[int, tuple[int, str]]) -> set[int]:
        return self.pids | set(descendants(self.pids, table))


def screenshot_sample(files: list[HostileFile]) -> list[HostileFile]:
    """Every action, wrapper, disguise and layout once, and a spread of hand-written ones."""
    written = [f for f in files if not f.proven]
    step = max(1, len(written) // HAND_WRITTEN_PROCESSES)
    return stratified(files) + written[::step][:HAND_WRITTEN_PROCESSES]


@pytest.fixture(scope="module")
def screenshots(corpus: Corpus) -> Iterator[ScreenshotBatch]:
    """The ``--screenshot`` processes, started now, running while the other tests do."""
    site = corpus.root / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    shots = [Shot(f, corpus.root / "shots" / f"{i:03d}")
             for i, f in enumerate(screenshot_sample(corpus.files))]
    workers = max(1, min(2, (os.cpu_count() or 2) - 1))  # one core stays with the window
    batch = ScreenshotBatch(shots, site, workers)
    batch.start()
    yield batch
    batch.stop()


# -- the checks in the window --------------------------------------------------------------------
@dataclass
class Watch:
    """What the window tests look at every ``CHECK_EVERY`` files and at the end."""

    corpus: Corpus
    batch: ScreenshotBatch
    before: set[int]
    since: int = 0  # the first file since the last check

    def check(self, files: list[HostileFile], upto: int) -> None:
        """Fail now if a canary, an event or a process says a file ran."""
        recent = ", ".join(f"{f.path.name} ({f.kind})" for f in files[self.since:upto][:5])
        left = self.corpus.canaries_left()
        assert not left, f"canaries were created: {left[:10]}; files since the last check: " \
                         f"{recent}..."
        bad = violations(RECORDER.lines, armed=True)
        assert not bad, f"audit events: {bad[:10]}; files since the last check: {recent}..."
        with self.batch.lock:
            table = _processes()
            ours = self.batch.own_processes(table)
        new = {pid: cmd for pid, cmd in descendants({os.getpid()}, table).items()
               if pid not in self.before and pid not in ours and "multiprocessing" not in cmd
               and "kernel.__main__" not in cmd}
        assert not new, f"child processes appeared: {new}; files since the last check: {recent}"
        self.since = upto


@contextlib.contextmanager
def watching(corpus: Corpus, batch: ScreenshotBatch) -> Iterator[Watch]:
    RECORDER.install()
    with batch.lock:
        table = _processes()
        before = set(descendants({os.getpid()}, table)) - batch.own_processes(table)
    RECORDER.lines = []
    RECORDER.armed = True
    try:
        yield Watch(corpus, batch, before)
    finally:
        RECORDER.armed = False


def outcome(window, path: str, opened: bool) -> str:
    """``held``, ``refused``, or what is wrong: the trust rule after one open."""
    from widgets.shell.opening import describe

    document, bar = window.document, window.trust_bar
    if opened:
        ran = [r.status for r in document.run.results if r.status in ("ok", "error")]
        if not document.held or document.path != path or ran or document.output:
            return f"opened and not held (held={document.held}, ran={ran[:3]})"
        if bar.isHidden() or bar.run_button.isHidden():
            return "held without the trust bar's Run"
        if "not run" not in describe(window):
            return "held, and --screenshot would not say so"
        return "held"
    if bar.isHidden() or not bar.run_button.isHidden():
        return "refused without the trust bar saying why"
    if os.path.basename(path) not in bar.message.text():
        return f"refused, and the bar names another file: {bar.message.text()[:80]}"
    if document.path == path and (document.problem is None or document.recipe.steps
                                  or not document.held):
        return "refused, yet the document is on the file as a recipe"
    if any(r.status in ("ok", "error") for r in document.run.results) or document.output:
        return "refused, yet something ran"
    return "refused"


def planted_outcome(window, data: bytes) -> str:
    """``held`` or ``refused`` (not a recipe), or what is wrong, after restoring ``data``
    from an autosave whose marker names no file."""
    document, bar = window.document, window.trust_bar
    try:
        restored = document.path is None and document.text == data.decode("utf-8")
    except UnicodeDecodeError:
        restored = False
    ran = [r.status for r in document.run.results if r.status in ("ok", "error")]
    if not restored:
        return "refused, yet something ran" if ran or document.output else "refused"
    if not document.held or ran or document.output:
        return f"restored and not held (held={document.held}, ran={ran[:3]})"
    if bar.isHidden() or bar.run_button.isHidden():
        return "held without the trust bar's Run"
    return "held"


def _summary(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {what}" for what, n in counts.most_common())


def test_the_generated_files_would_run_if_anything_ran_them(corpus: Corpus, tmp_path: Path,
                                                            screenshots: ScreenshotBatch):
    generated = [i for i, f in enumerate(corpus.files) if f.proven]
    sample = set(generated[:KINDS]) | set(random.Random(1).sample(
        generated[KINDS:], min(PROOF_SAMPLE, max(0, len(generated) - KINDS))))
    proof = _write_corpus(tmp_path, only=sample)
    assert [f.kind for f in proof] == [f.kind for f in corpus.files]  # the same files
    files = [proof[i] for i in sorted(sample)]
    driver = tmp_path / "driver.py"
    driver.write_text(
        "import runpy\nimport sys\n\nfor path in sys.argv[1:]:\n    try:\n"
        "        runpy.run_path(path, run_name='__main__')\n"
        "    except BaseException as e:  # an error after the canary, SystemExit: go on\n"
        "        print(path, type(e).__name__, e, file=sys.stderr)\n", encoding="utf-8")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(driver), *(str(f.path) for f in files)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    missing = [f.kind for f in files if not f.canary.exists()]
    assert not missing, f"these files are harmless by accident: {missing}\n{done.stderr[-3000:]}"
    # and as the plain command: `python FILE`, for the ways that depend on being __main__
    head = stratified(proof)
    direct = [f for f in head if "/main_guard/" in f.kind or "/atexit/" in f.kind
              or "/latin1/" in f.kind or f.kind.endswith("/cr")]
    for f in direct:
        f.canary.unlink()
        subprocess.run([sys.executable, str(f.path)], cwd=cwd, env=env, capture_output=True,
                       timeout=120)
        assert f.canary.exists(), f"python {f.path.name} ({f.kind}) left no canary"


@pytest.mark.parametrize("part", range(WINDOW_PARTS))
def test_opening_every_hostile_file_in_the_window_never_runs_it(
        part: int, make_window, corpus: Corpus, screenshots: ScreenshotBatch, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch):
    import shiboken6
    from PySide6.QtWidgets import QApplication

    from widgets.shell.opening import open_file

    window = make_window()
    app = QApplication.instance()
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)  # a relative path in a hostile file would land here
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    crashes: list[str] = []
    files = corpus.files[part::WINDOW_PARTS]  # one window per part: each under a minute
    start = time.monotonic()
    with watching(corpus, screenshots) as watch:
        for n, f in enumerate(files, 1):
            path = str(f.path)
            try:
                opened = open_file(window, path)
                app.processEvents()
            except Exception as e:  # noqa: BLE001 - a crash is a finding, reported below
                crashes.append(f"{f.path.name} ({f.kind}): {type(e).__name__}: {e}"[:300])
                counts["crashed"] += 1
            else:
                result = outcome(window, path, opened)
                counts[result] += 1
                if result not in ("held", "refused"):
                    wrong.append(f"{f.path.name} ({f.kind}): {result}")
            if n % CHECK_EVERY == 0 or n == len(files):
                assert shiboken6.isValid(window) and window.isVisible(), "the window went"
                watch.check(files, n)
    seconds = time.monotonic() - start
    print(f"\nopened {len(files)} files in {seconds:.0f} s "
          f"({1000 * seconds / len(files):.1f} ms each): {_summary(counts)}")
    assert not os.listdir(here), f"files appeared in the working folder: {os.listdir(here)}"
    assert not wrong, f"{len(wrong)} files broke the trust rule: {wrong[:10]}"
    assert not crashes, (f"{len(crashes)} files crashed open_file (nothing ran, but the "
                         f"command line and --screenshot die on them): {crashes}")


def test_every_other_way_of_opening_never_runs_the_file(
        make_window, corpus: Corpus, screenshots: ScreenshotBatch, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch):
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    from app.recipe.autosave import process_alive
    from app.settings import Settings
    from tests.test_window_polish import _drop
    from widgets import launch
    from widgets.common.background import wait_for_jobs
    from widgets.shell.autosave_hook import start_autosave

    window = make_window()
    app = QApplication.instance()
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("TENSOR_LAB_RESTORE_AUTOSAVE", "yes")
    data = tmp_path / "autosave-data"
    dead_pids = (pid for pid in range(2**22 + 1, 2**22 + 10**6) if not process_alive(pid))
    sample = stratified(corpus.files)
    counts: Counter[str] = Counter()
    wrong: list[str] = []

    def note(way: str, f: HostileFile, result: str) -> None:
        counts[f"{way}: {result}"] += 1
        if result not in ("held", "refused"):
            wrong.append(f"{way} {f.path.name} ({f.kind}): {result}")

    with watching(corpus, screenshots) as watch:
        for f in sample:
            path = str(f.path)
            # File > Open and the recent files
            window.document.new()
            note("menu", f, outcome(window, path, window.open_path(path)))
            app.processEvents()
            # drag and drop
            window.document.new()
            window.trust_bar.hide()
            _drop(window, [path])
            app.processEvents()
            note("drop", f, outcome(window, path, window.document.path == path
                                    and window.document.problem is None))
            # the command line, and --screenshot's rendering of it, in this process
            other = launch.make_window(path, restore_layout=False, settings=Settings())
            other.confirm_discard = lambda: True
            try:
                assert launch.save_screenshot(other, str(tmp_path / "shot.png"), (640, 400)) == 0
                opened = other.document.path == path and other.document.problem is None
                note("command line", f, outcome(other, path, opened))
                if not opened and other.document.path != path:  # welcome
                    assert other.document.path is None and not other.document.held
            finally:
                other.close()
                other.deleteLater()
                QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
                wait_for_jobs()  # its gallery scan, say
                gc.collect()  # its garbage now, not in the middle of the next paint
            # autosave recovery: a crashed session's work on this file, and a planted
            # autosave whose marker names no file ("path": null): held all the same
            for marker_path in (path, None):
                pid = next(dead_pids)
                folder = data / "autosave"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"recipe-{pid}.py").write_bytes(f.path.read_bytes())
                (folder / f"session-{pid}.json").write_text(json.dumps(
                    {"pid": pid, "clean_exit": False, "path": marker_path, "saved": 1.0}))
                window.document.new()
                window.trust_bar.hide()
                hook = start_autosave(window, data)
                app.processEvents()
                if marker_path is None:
                    note("autosave, no file", f, planted_outcome(window, f.path.read_bytes()))
                else:
                    restored = window.document.path == path and window.document.problem is None
                    note("autosave", f,
                         outcome(window, path, restored) if restored else "refused")
                hook.finish()
                hook.deleteLater()
        watch.check(sample, len(sample))
    print(f"\n{_summary(counts)}")
    assert not os.listdir(here), f"files appeared in the working folder: {os.listdir(here)}"
    assert not wrong, f"{len(wrong)} openings broke the trust rule: {wrong[:10]}"


def test_screenshot_processes_never_run_the_file(corpus: Corpus,
                                                 screenshots: ScreenshotBatch):
    shots = screenshots.wait()
    problems = []
    for shot in shots:
        f, name = shot.file, f"{shot.file.path.name} ({shot.file.kind})"
        log = shot.text("audit.log").splitlines()
        if shot.waited:
            problems.append(f"{name}: still running after {SCREENSHOT_TIMEOUT} s")
        elif shot.returncode != 0:
            problems.append(f"{name}: exit {shot.returncode}: {shot.text('stderr')[-400:]}")
        elif not shot.png.is_file() or shot.png.stat().st_size == 0:
            problems.append(f"{name}: no PNG")
        elif not shot.text("stdout").startswith(str(shot.png)):
            problems.append(f"{name}: printed {shot.text('stdout')[:200]!r}")
        if f.canary.exists():
            problems.append(f"{name}: RAN: its canary exists")
        if shot.returncode == 0 and f"open\tread\t{f.path}" not in log:
            problems.append(f"{name}: the audit hook did not see the file read (not installed?)")
        bad = violations(log, armed=False)
        if bad:
            problems.append(f"{name}: audit events after reading it: {bad[:5]}")
        left = os.listdir(shot.folder / "cwd")
        if left:
            problems.append(f"{name}: files appeared in its working folder: {left}")
    seconds = sorted(s.seconds for s in shots)
    print(f"\n{len(shots)} --screenshot processes, {seconds[0]:.1f}-{seconds[-1]:.1f} s each, "
          f"{sum(seconds):.0f} s in all")
    assert not corpus.canaries_left()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
