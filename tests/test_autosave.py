"""Autosave and crash recovery: the files (core), the timer and the offer (widgets), and a
real app process killed with SIGKILL and started again (end to end)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.identity import data_dir
from app.recipe.autosave import DELAY_S, Autosave, find_recovery, process_alive
from app.recipe.document import Document
from app.recipe.reader import read_recipe
from app.recipe.text_recipe import new_text

ROOT = Path(__file__).resolve().parent.parent
RECIPE = "import torch\n\nx = torch.arange(6)\ny = x.view(2, 3)\n"
EDIT = "z = torch.zeros(2, 2)"


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


# -- core: the files -----------------------------------------------------------------------------
def test_data_dir_follows_the_environment_then_the_default(tmp_path, monkeypatch):
    assert data_dir() == Path(os.environ["TENSOR_LAB_DATA_DIR"])  # conftest sets it
    monkeypatch.delenv("TENSOR_LAB_DATA_DIR")
    assert data_dir(tmp_path / "qt") == tmp_path / "qt"
    assert data_dir().name == "Tensor Lab"


def test_saves_atomically_and_a_clean_exit_leaves_nothing_to_restore(tmp_path):
    session = Autosave(tmp_path, pid=dead_pid())
    session.start()
    session.save(RECIPE, "/somewhere/mine.py")
    assert session.recipe_file.read_text(encoding="utf-8") == RECIPE
    assert not [p for p in session.folder.iterdir() if p.suffix == ".tmp"]
    marker = json.loads(session.marker_file.read_text(encoding="utf-8"))
    assert marker["clean_exit"] is False and marker["path"] == "/somewhere/mine.py"
    session.finish()
    assert not session.recipe_file.exists()
    assert json.loads(session.marker_file.read_text(encoding="utf-8"))["clean_exit"] is True
    assert find_recovery(tmp_path) is None
    assert not session.marker_file.exists()  # tidied away


def test_a_failed_write_keeps_the_previous_autosave(tmp_path, monkeypatch):
    session = Autosave(tmp_path, pid=dead_pid())
    session.save(RECIPE)

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        session.save(RECIPE + "w = x\n")
    monkeypatch.undo()
    assert session.recipe_file.read_text(encoding="utf-8") == RECIPE
    assert not [p for p in session.folder.iterdir() if p.suffix == ".tmp"]


def test_recovery_is_offered_for_a_crashed_session_only(tmp_path):
    crashed = Autosave(tmp_path, pid=dead_pid())
    crashed.start()
    crashed.save(RECIPE, None)
    running = Autosave(tmp_path, pid=os.getppid())  # alive: another window of the lab
    running.start()
    running.save(RECIPE + "w = x\n")
    empty = Autosave(tmp_path, pid=dead_pid())  # crashed before any edit
    empty.start()

    recovery = find_recovery(tmp_path)
    assert recovery is not None and recovery.pid == crashed.pid
    assert recovery.recipe() == read_recipe(RECIPE)
    assert not empty.marker_file.exists()
    recovery.discard()
    assert find_recovery(tmp_path) is None
    assert running.recipe_file.exists()  # never touched while its session runs
    assert process_alive(os.getpid()) and not process_alive(crashed.pid)


def test_the_newest_of_two_crashed_sessions_is_offered(tmp_path):
    older, newer = Autosave(tmp_path, pid=dead_pid()), Autosave(tmp_path, pid=dead_pid())
    older.save(RECIPE)
    newer.save(RECIPE + "w = x\n")
    marker = json.loads(older.marker_file.read_text(encoding="utf-8"))
    marker["saved"] -= 60
    older.marker_file.write_text(json.dumps(marker), encoding="utf-8")
    assert find_recovery(tmp_path).pid == newer.pid


# -- widgets: the timer and the offer --------------------------------------------------------------
@pytest.fixture
def host(qtbot, run_in_kernel):
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QWidget

    from widgets.shell.opening import TrustGate
    from widgets.shell.trust_bar import TrustBar

    host = QWidget()  # stands in for the main window: a document, an undo stack, a bar
    qtbot.addWidget(host)
    host.document = run_in_kernel(Document(read_recipe(RECIPE)))
    host.undo_stack = QUndoStack(host)
    host.trust_bar = TrustBar(host)
    TrustGate(host)
    return host


def edit(win, line: str = EDIT) -> None:
    from widgets.common.undo import push_edit

    step = read_recipe("import torch\n" + line + "\n").steps[0]
    push_edit(win.undo_stack, win.document.recipe, lambda r: r.append(step), "edit")


def test_an_edit_is_autosaved_within_two_seconds_and_a_save_removes_it(qtbot, host, tmp_path):
    from widgets.shell.autosave_hook import AutosaveHook

    hook = AutosaveHook(host.document, Autosave(tmp_path), host)
    assert hook.timer.isSingleShot() and hook.timer.interval() <= 2000 and DELAY_S <= 2
    edit(host)
    assert hook.timer.isActive()
    first = hook.timer.remainingTime()
    edit(host, "w = torch.ones(1)")  # a second edit does not push the write back
    assert hook.timer.remainingTime() <= first
    with qtbot.waitSignal(hook.timer.timeout, timeout=10_000):
        pass
    saved = read_recipe(hook.autosave.recipe_file.read_text(encoding="utf-8"))
    assert saved == host.document.recipe

    host.document.save(str(tmp_path / "mine.py"))
    assert not hook.autosave.recipe_file.exists() and not hook.timer.isActive()
    hook.finish()
    assert find_recovery(tmp_path) is None


def crashed_session(qtbot, folder, path, text: str, *, run: bool) -> Autosave:
    """A session that opened ``path`` (held unless ``run``), typed ``text``, autosaved
    it, and died: its hook never finished, and its process is gone."""
    from PySide6.QtWidgets import QWidget

    from widgets.shell.autosave_hook import AutosaveHook

    parent = QWidget()
    qtbot.addWidget(parent)
    document = Document()
    document.open(str(path), run=run)
    hook = AutosaveHook(document, Autosave(folder, pid=dead_pid()), parent)
    document.set_source(text)
    hook.save_now()
    hook.timer.stop()
    return hook.autosave


def test_start_offers_the_crashed_work_and_restores_it(qtbot, host, tmp_path, monkeypatch):
    import widgets.shell.autosave_hook as autosave_hook

    original = tmp_path / "lesson.py"
    original.write_text(RECIPE, encoding="utf-8")
    edited = RECIPE + "# my note, kept\n" + EDIT + "\n"
    crashed = crashed_session(qtbot, tmp_path, original, edited, run=True)  # it ran there
    asked = []
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: asked.append(r) or True)
    hook = autosave_hook.start_autosave(host, tmp_path)
    assert len(asked) == 1 and asked[0].path == str(original)
    assert host.document.recipe == read_recipe(edited) and host.document.text == edited
    assert host.document.path == str(original) and host.document.modified
    host.document.settle()
    assert not host.document.held and host.document.run.ok  # it ran, edit and all
    assert not crashed.recipe_file.exists()  # offered once
    assert hook.timer.isActive()  # the restored work is autosaved again by this session
    hook.finish()


def test_recovered_work_on_a_file_from_elsewhere_is_held(qtbot, host, tmp_path, monkeypatch):
    import widgets.shell.autosave_hook as autosave_hook

    original = tmp_path / "from_a_friend.py"
    original.write_text(RECIPE, encoding="utf-8")
    crashed = Autosave(tmp_path, pid=dead_pid())
    crashed.save(new_text(read_recipe(RECIPE + EDIT + "\n")), str(original))
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: True)
    hook = autosave_hook.start_autosave(host, tmp_path)
    assert host.document.recipe == read_recipe(RECIPE + EDIT + "\n")  # the work is back
    assert host.document.held and host.document.run.results == []  # and nothing ran
    assert host.trust_bar.isVisibleTo(host) and host.trust_bar.run_button.isVisibleTo(host)
    host.trust_bar.run_button.click()
    host.document.settle()
    assert not host.document.held and host.document.run.ok and host.document.run.results
    hook.finish()


CANARY = "import torch\nopen({path!r}, 'w').write('ran')\nx = torch.ones(2)\n"


def _restored_held(host, canary) -> bool:
    document = host.document
    return (document.held and document.run.results == [] and document.kernel_run is None
            and host.trust_bar.isVisibleTo(host) and host.trust_bar.run_button.isVisibleTo(host)
            and not canary.exists())


def test_work_on_a_held_file_stays_held_when_its_file_went_away(qtbot, host, tmp_path,
                                                                  monkeypatch):
    import widgets.shell.autosave_hook as autosave_hook

    canary = tmp_path / "ran"
    original = tmp_path / "usb" / "from_a_friend.py"
    original.parent.mkdir()
    original.write_text(RECIPE, encoding="utf-8")
    work = CANARY.format(path=str(canary))
    crashed_session(qtbot, tmp_path / "data", original, work, run=False)  # held there
    original.rename(tmp_path / "unplugged.py")  # the USB stick went
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: True)  # Restore
    hook = autosave_hook.start_autosave(host, tmp_path / "data")
    assert host.document.text == work and host.document.path is None  # the work is back
    assert _restored_held(host, canary)  # and nothing of it ran
    assert "did not come from this lab" in host.trust_bar.message.text()
    assert not host.trust_bar.always_button.isVisibleTo(host)  # no file to always run
    hook.finish()


def test_work_on_a_held_file_runs_when_restored_once_its_user_chose_run(
        qtbot, host, tmp_path, monkeypatch):
    import widgets.shell.autosave_hook as autosave_hook
    from widgets.shell.autosave_hook import AutosaveHook

    original = tmp_path / "from_a_friend.py"
    original.write_text(RECIPE, encoding="utf-8")
    document = Document()  # the crashed session: opened held, edited, then Run
    document.open(str(original), run=False)
    hook = AutosaveHook(document, Autosave(tmp_path / "data", pid=dead_pid()), host)
    document.set_source(RECIPE + EDIT + "\n")
    hook.save_now()
    document.release()  # the user chose Run: what is autosaved now may run
    hook.timer.stop()
    original.unlink()
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: True)
    again = autosave_hook.start_autosave(host, tmp_path / "data")
    assert host.document.text == RECIPE + EDIT + "\n"
    host.document.settle()
    assert not host.document.held and host.document.run.ok and host.document.run.results
    again.finish()


@pytest.mark.parametrize("marker_path", ["none", "gallery", "always run", "saved original"])
def test_a_planted_autosave_never_runs_on_restore(qtbot, host, tmp_path, monkeypatch,
                                                 marker_path):
    """Whatever a marker written by someone else says the text came from, a text this
    lab did not record running stays held on Restore."""
    import widgets.shell.autosave_hook as autosave_hook
    from app.resources import RECIPES_DIR
    from widgets.shell.opening import trust_store

    canary = tmp_path / "ran"
    mine = tmp_path / "mine.py"
    mine.write_text(RECIPE, encoding="utf-8")
    if marker_path == "always run":
        trust_store().always_run(str(mine))
    if marker_path == "saved original":
        trust_store().remember_saved(mine.read_bytes())
    path = {"none": None, "gallery": str(RECIPES_DIR / "tril.py")}.get(marker_path, str(mine))
    pid = dead_pid()
    folder = tmp_path / "data" / "autosave"
    folder.mkdir(parents=True)
    (folder / f"recipe-{pid}.py").write_text(CANARY.format(path=str(canary)))
    (folder / f"session-{pid}.json").write_text(json.dumps(
        {"pid": pid, "clean_exit": False, "path": path, "saved": 1.0}))
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: True)  # Restore
    hook = autosave_hook.start_autosave(host, tmp_path / "data")
    assert host.document.text == CANARY.format(path=str(canary))
    assert _restored_held(host, canary)
    host.trust_bar.run_button.click()  # only the user's Run runs it
    host.document.settle()
    assert canary.exists()
    hook.finish()


def test_declining_discards_the_crashed_work(qtbot, host, tmp_path, monkeypatch):
    import widgets.shell.autosave_hook as autosave_hook

    crashed = Autosave(tmp_path, pid=dead_pid())
    crashed.save(RECIPE + EDIT + "\n")
    monkeypatch.setenv("TENSOR_LAB_RESTORE_AUTOSAVE", "no")
    hook = autosave_hook.start_autosave(host, tmp_path)
    assert host.document.recipe == read_recipe(RECIPE)
    assert find_recovery(tmp_path) is None
    hook.finish()


# -- end to end: kill -9 a real process ------------------------------------------------------------
def _start_app(data: Path, recipe: Path, **env: str) -> subprocess.Popen:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
                   "TENSOR_LAB_DATA_DIR": str(data), **env}
    log = open(data.parent / f"app-{len(list(data.parent.glob('app-*')))}.log", "w+b")
    process = subprocess.Popen([sys.executable, "-m", "widgets", str(recipe)], cwd=ROOT,
                               env=environment, stdout=log, stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]
    return process


def _wait_for(condition, process: subprocess.Popen, timeout: float = 180.0) -> None:
    """Poll ``condition`` while ``process`` runs (a start takes seconds on a busy machine)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process.poll() is not None:
            process.log.seek(0)
            output = process.log.read().decode(errors="replace")
            process.log.close()
            raise AssertionError(f"the app exited with {process.returncode}: {output[-2000:]}")
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            process.log.close()
            raise AssertionError("timed out waiting for the app")
        time.sleep(0.1)


def _kill(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    process.log.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs kill -9")
def test_a_killed_app_offers_its_work_on_the_next_start(tmp_path):
    data, recipe = tmp_path / "data", tmp_path / "lesson.py"
    recipe.write_text(RECIPE, encoding="utf-8")
    expected = read_recipe(RECIPE + EDIT + "\n")

    first = _start_app(data, recipe, TENSOR_LAB_TEST_EDIT=EDIT)
    autosaved = data / "autosave" / f"recipe-{first.pid}.py"
    _wait_for(autosaved.exists, first)
    _kill(first)
    recovery = find_recovery(data)
    assert recovery is not None and recovery.pid == first.pid
    assert recovery.path == str(recipe) and recovery.recipe() == expected

    second = _start_app(data, recipe, TENSOR_LAB_RESTORE_AUTOSAVE="yes")
    again = data / "autosave" / f"recipe-{second.pid}.py"
    _wait_for(again.exists, second)  # restored: unsaved work, so autosaved again
    _kill(second)
    assert read_recipe(again.read_text(encoding="utf-8")) == expected
    assert not autosaved.exists()  # the first session's files were consumed by the offer
    assert read_recipe(recipe.read_text(encoding="utf-8")) == read_recipe(RECIPE)
