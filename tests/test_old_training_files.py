"""Files of the retired training format (a ``training = dict(...)`` block, then a pasted
engine) open as the plain loop ``convert_old`` makes of them: modified, with a notice,
their path kept, held by the trust rule as any file from elsewhere; Save writes the loop.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.recipe.document import CONVERTED, Document
from app.training.old_format import MARKER
from app.training.write import convert_old

ROOT = Path(__file__).resolve().parent.parent
#: A commit whose recipes still carry the settings block and the engine.
OLD_COMMIT = "9283be0"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@pytest.fixture
def old_text() -> str:
    proc = subprocess.run(["git", "show", f"{OLD_COMMIT}:recipes/training_clip_norm.py"],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"the old recipes are not in this checkout's history: {proc.stderr}")
    assert "training = dict(" in proc.stdout and MARKER in proc.stdout
    return proc.stdout


@pytest.fixture
def old_file(tmp_path, old_text) -> Path:
    path = tmp_path / "old.py"
    path.write_text(old_text, encoding="utf-8")
    return path


def _canary_file(tmp_path: Path) -> tuple[Path, Path]:
    """An old-format file from elsewhere whose statement before the block (kept by the
    conversion) and whose engine (dropped) would each leave a canary if they ran."""
    before, engine = tmp_path / "before.txt", tmp_path / "engine.txt"
    path = tmp_path / "from_a_friend.py"
    path.write_text(f"import torch\nopen({str(before)!r}, 'w').write('ran')\n"
                    "training = dict(steps=3, data=dict(samples=64))\n"
                    f"{MARKER}\nopen({str(engine)!r}, 'w').write('ran')\n", encoding="utf-8")
    return path, before


# -- the document ------------------------------------------------------------------------------
def test_an_old_file_opens_as_the_loop_with_a_notice_held_and_modified(old_file, old_text):
    doc = Document()
    doc.open(old_file, run=False)
    assert doc.recipe.source == convert_old(old_text)
    assert "training = dict(" not in doc.recipe.source and MARKER not in doc.recipe.source
    assert "for step in range(steps):" in doc.recipe.source
    assert doc.file_warnings == (CONVERTED,) and "Save to keep the new form" in CONVERTED
    assert doc.modified and doc.path == str(old_file) and doc.held
    assert doc.run.results == []  # held: nothing of it ran
    assert old_file.read_text(encoding="utf-8") == old_text  # opening writes nothing


def test_a_file_in_the_new_form_opens_as_it_is(tmp_path):
    path = tmp_path / "loop.py"
    path.write_text("import torch\ntraining = 3\nx = torch.ones(2)\n", encoding="utf-8")
    doc = Document()
    doc.open(path, run=False)
    assert doc.recipe.source == path.read_text(encoding="utf-8")
    assert doc.file_warnings == () and not doc.modified


def test_settings_that_do_not_convert_open_as_the_code_they_are(tmp_path):
    path = tmp_path / "bad.py"
    text = f"import torch\ntraining = dict(steps=0)\n{MARKER}\nprint(training)\n"
    path.write_text(text, encoding="utf-8")
    doc = Document()
    doc.open(path, run=False)
    assert doc.recipe.source == text and doc.file_warnings == () and not doc.modified


def test_save_writes_a_loop_that_python_runs_and_reads_back_unchanged(old_file):
    doc = Document()
    doc.open(old_file, run=False)
    loop = doc.recipe.source
    assert "training = dict(" not in loop
    assert doc.save() == str(old_file)
    assert not doc.modified and old_file.read_text(encoding="utf-8") == loop
    proc = subprocess.run([sys.executable, str(old_file)], capture_output=True, text=True,
                          cwd=old_file.parent, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "loss" in proc.stdout
    again = Document()
    again.open(old_file, run=False)
    assert again.recipe.source == loop and again.file_warnings == () and not again.modified


# -- the window --------------------------------------------------------------------------------
@pytest.mark.gui
def test_the_window_shows_the_loop_and_the_notice_and_runs_nothing(make_window, tmp_path):
    window = make_window()
    path, before = _canary_file(tmp_path)
    assert window.open_path(str(path))
    document = window.document
    assert document.held and document.modified and document.path == str(path)
    assert "for step in range(steps):" in document.recipe.source
    assert window.statusBar().currentMessage() == CONVERTED
    assert window.trust_bar.isVisibleTo(window)  # from elsewhere: it waits for Run
    window.settle()
    assert not before.exists() and not (tmp_path / "engine.txt").exists()
    assert document.run.results == []


@pytest.mark.gui
def test_the_notice_is_translated(make_window, tmp_path, chinese):
    window = make_window()
    path, _ = _canary_file(tmp_path)
    assert window.open_path(str(path))
    assert window.statusBar().currentMessage().startswith("此文件使用旧的训练格式")


@pytest.mark.gui
def test_run_runs_the_converted_loop_the_engine_is_gone(make_window, tmp_path, qtbot):
    """The canaries can appear: Run runs what the conversion kept, and only that."""
    window = make_window()
    path, before = _canary_file(tmp_path)
    assert window.open_path(str(path))
    window.trust_bar.run_button.click()
    qtbot.waitUntil(before.exists, timeout=60_000)
    window.settle()
    assert not (tmp_path / "engine.txt").exists()
    assert window.document.run.results and window.document.run.ok


@pytest.mark.gui
def test_autosave_recovery_of_work_on_an_old_file_goes_through_open(make_window, tmp_path,
                                                                      monkeypatch, old_file):
    import widgets.shell.autosave_hook as autosave_hook
    from app.recipe.autosave import Autosave
    from tests.test_autosave import dead_pid

    window = make_window()
    work = convert_old(old_file.read_text(encoding="utf-8")).replace("steps = 100",
                                                                    "steps = 5")
    assert "steps = 5\n" in work
    Autosave(tmp_path, pid=dead_pid()).save(work, str(old_file))
    monkeypatch.setattr(autosave_hook, "ask_restore", lambda parent, r: True)
    hook = autosave_hook.start_autosave(window, tmp_path)
    document = window.document
    assert document.recipe.source == work and document.path == str(old_file)
    assert document.held and document.modified and document.file_warnings == (CONVERTED,)
    window.settle()
    assert document.run.results == []  # a file from elsewhere: nothing ran
    hook.finish()
