"""Every way a file opens in the window follows the trust rule: a file from elsewhere
shows its steps and no values until its user chooses Run.

The menu and recent files (``open_path``), the command line (``make_window``), drag
and drop, ``--screenshot`` and autosave recovery (``test_autosave``) are covered; they all
go through ``widgets.shell.opening.open_file``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.recipe.reader import read_step

pytestmark = pytest.mark.gui

RECIPE = "import torch\nx = torch.arange(6)\ny = x.view(2, 3)\nprint(y)\n"


@pytest.fixture
def elsewhere(tmp_path):
    path = tmp_path / "from_a_friend.py"
    path.write_text(RECIPE, encoding="utf-8")
    return path


def _held(window) -> bool:
    doc = window.document
    return (doc.held and doc.run.results == [] and doc.output == ""
            and window.trust_bar.isVisible() and window.trust_bar.run_button.isVisible())


def test_a_file_from_elsewhere_opens_held_and_runs_after_run(window, elsewhere):
    assert window.open_path(str(elsewhere))
    assert [s.name for s in window.document.recipe.steps][:2] == ["x", "y"]  # steps show
    assert _held(window)
    assert "from_a_friend.py: this recipe came from elsewhere" in \
        window.trust_bar.message.text()
    # an edit while held does not run either
    window.document.select(1)
    assert window.document.run.results == []
    window.trust_bar.run_button.click()
    window.settle()
    assert not window.document.held and window.document.run.ok
    y = window.document.run.result_for("y").value.output
    assert y.values.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert not window.trust_bar.isVisible()


def test_run_again_is_the_users_choice_to_run_a_held_recipe(window, elsewhere):
    assert window.open_path(str(elsewhere)) and _held(window)
    window.window_actions["edit.run"].trigger()  # Edit > Run Again, Ctrl+R
    window.settle()
    assert not window.document.held and window.document.run.ok
    assert not window.trust_bar.isVisible()


def test_always_run_is_remembered_for_the_next_open(window, elsewhere):
    assert window.open_path(str(elsewhere)) and _held(window)
    window.trust_bar.always_button.click()
    window.settle()
    assert window.document.run.ok and not window.trust_bar.isVisible()
    window.document.new()
    assert window.open_path(str(elsewhere))
    window.settle()
    assert not window.document.held and window.document.run.ok


def test_a_file_this_lab_saved_runs_at_once(window, tmp_path):
    path = tmp_path / "mine.py"
    window.document.save(str(path))
    window.document.new()
    assert window.open_path(str(path)) and not window.document.held


def test_gallery_recipes_run_at_once(window):
    from app.resources import RECIPES_DIR

    assert window.open_path(str(RECIPES_DIR / "tril.py"))
    assert not window.document.held and window.document.run.results


def test_the_command_line_opens_held(qtbot, elsewhere, settle):
    from app.settings import Settings
    from widgets.launch import make_window

    window = make_window(str(elsewhere), restore_layout=False, settings=Settings())
    qtbot.addWidget(window)
    assert window.document.held and window.document.run.results == []
    trusted = make_window(str(elsewhere), restore_layout=False, settings=Settings(),
                          trust=True)
    qtbot.addWidget(trusted)
    settle(trusted.document)
    assert not trusted.document.held and trusted.document.run.ok


def test_a_drop_opens_held(window, elsewhere):
    from tests.test_window_polish import _drop

    assert _drop(window, [str(elsewhere)]) == (True, True)
    assert window.document.path == str(elsewhere)
    assert _held(window)


def _screenshot(tmp_path, *args):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "TENSOR_LAB_DATA_DIR": str(tmp_path / "data")}
    out = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "widgets", "--screenshot", str(out), *args],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=180)
    return done, out


def test_screenshot_of_a_file_from_elsewhere_does_not_run_it_unless_trusted(tmp_path,
                                                                           elsewhere):
    done, out = _screenshot(tmp_path, str(elsewhere))
    assert done.returncode == 0, done.stderr
    assert "not run: from_a_friend.py came from elsewhere; --trust runs it" in done.stdout
    assert out.stat().st_size > 20_000
    done, _ = _screenshot(tmp_path, "--trust", str(elsewhere))
    assert done.returncode == 0 and "not run" not in done.stdout


@pytest.mark.parametrize("content", [b"x = (\n", b"\x00\x01binary", b"import torch\nimport os\n"])
def test_screenshot_of_a_file_that_cannot_open_never_waits_for_a_click(tmp_path, content):
    bad = tmp_path / "bad.py"
    bad.write_bytes(content)
    done, out = _screenshot(tmp_path, str(bad))  # a modal box would hang until the timeout
    assert done.returncode == 0, done.stderr
    assert out.is_file()
    if content.startswith(b"x = ("):
        assert "not run: bad.py cannot be read as Python" in done.stdout


BROKEN = ("import torch\n# my notes, kept\nx = torch.ones(3)\n"
          "for i in range(3)\n    print(i)\n")


def test_a_file_python_cannot_read_shows_its_text_and_why_and_never_runs(window, tmp_path):
    canary = tmp_path / "ran"
    path = tmp_path / "broken.py"
    path.write_bytes((BROKEN + f"open({str(canary)!r}, 'w')\n").encode())
    assert not window.open_path(str(path))  # not opened as a recipe...
    doc = window.document
    assert doc.path == str(path) and doc.held and doc.recipe.steps == ()  # ...but shown
    assert window.code.editor.toPlainText() == path.read_text()
    bar = window.trust_bar
    assert bar.isVisible() and not bar.run_button.isVisible()
    assert "broken.py cannot be read as Python" in bar.message.text()
    assert "Line 4" in bar.message.text() and "expected ':'" in bar.message.text()
    window.window_actions["edit.run"].trigger()  # Ctrl+R: still nothing to run
    assert doc.run.results == [] and doc.output == "" and not canary.exists()
    # the text is the user's: an added step goes after it, and Save keeps every byte
    doc.recipe.append(read_step("y = torch.ones(2)"))
    assert doc.recipe.source.startswith(path.read_text())
    assert doc.recipe.source.endswith("y = torch.ones(2)\n")
    doc.save(tmp_path / "copy.py")
    assert (tmp_path / "copy.py").read_text() == doc.recipe.source
    window.document.new()
    assert not bar.isVisible()  # the bar spoke of the last file



def test_the_bytes_the_trust_rule_judged_are_the_ones_that_open_and_run(
        window, tmp_path, monkeypatch):
    """A symlink that named a gallery lesson when the file was read and judged, then a
    hostile file before anything ran: what opens and runs is the lesson read, never the
    file the link names now (the check and the run read the file once)."""
    import app.trust as trust  # (opening imports its read_file at each open)
    from app.resources import RECIPES_DIR

    canary = tmp_path / "ran"
    hostile = tmp_path / "hostile.py"
    hostile.write_text(f"import torch\nopen({str(canary)!r}, 'w')\nx = torch.ones(1)\n")
    lesson = RECIPES_DIR / "tril.py"
    link = tmp_path / "lesson.py"
    link.symlink_to(lesson)
    judged = trust.read_file

    def read_then_flip(path, store):
        opened = judged(path, store)
        link.unlink()
        link.symlink_to(hostile)  # flipped between the check and anything after it
        return opened

    monkeypatch.setattr(trust, "read_file", read_then_flip)
    assert window.open_path(str(link))
    assert window.document.text == lesson.read_text(encoding="utf-8")
    assert window.code.editor.toPlainText() == window.document.text
    window.settle()
    assert window.document.run.ok and not canary.exists()


def test_saving_a_held_file_is_not_choosing_to_run_it(window, elsewhere, tmp_path):
    from tests.test_window_polish import _drop

    assert window.open_path(str(elsewhere)) and _held(window)
    window.document.select(0)
    window.window_actions["file.save"].trigger()  # Ctrl+S
    assert not window.document.modified and _held(window)  # saved, and still held
    copy = tmp_path / "copy.py"
    assert window._save_to(str(copy)) and _held(window)  # Save As: the same
    for path in (elsewhere, copy):  # opened again, by the menu or a drop: still held
        window.document.new()
        assert window.open_path(str(path)) and _held(window)
        window.document.new()
        window.trust_bar.hide()
        assert _drop(window, [str(path)]) == (True, True) and _held(window)
    window.trust_bar.run_button.click()  # the user's Run, then Save: now it runs
    window.settle()
    window.window_actions["file.save"].trigger()
    window.document.new()
    assert window.open_path(str(copy)) and not window.document.held
