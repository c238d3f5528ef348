"""Code typed or pasted into the code pane becomes the recipe (widget tier, real kernel).

A teacher pastes the notes' examples as written: the text becomes the recipe once it
reads as Python, runs as ``python`` runs it, is undone with the window's undo, and never
runs a file from elsewhere before its user chooses Run.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

pytestmark = pytest.mark.gui

PASTED = ("weights = torch.tensor([0.1, 0.2, 0.7])\n"
          "for _ in range(5):\n"
          "    print(torch.multinomial(weights, 1))\n")


def _end(editor) -> None:
    editor.setFocus()
    editor.moveCursor(QTextCursor.MoveOperation.End)


def _committed(qtbot, window) -> None:
    pane = window.code
    qtbot.waitUntil(lambda: not pane._commit_timer.isActive(), timeout=5000)
    window.settle()


def _python(tmp_path, text: str) -> str:
    path = tmp_path / "as_python.py"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          check=True).stdout


def test_pasted_code_becomes_the_recipe_and_prints_what_python_prints(qtbot, window,
                                                                      tmp_path):
    window.document.new()
    editor = window.code.editor
    _end(editor)
    editor.insertPlainText("\ntorch.manual_seed(0)\n" + PASTED)  # what Paste does
    assert window.code.typing  # not the recipe yet: half a second after the last key
    _committed(qtbot, window)
    text = window.document.recipe.source
    assert text == editor.toPlainText() and text.endswith(PASTED)
    assert [s.label for s in window.document.recipe.steps][-1] == "for _ in range(5):"
    assert window.document.output == _python(tmp_path, text)
    assert window.document.modified and window.undo_stack.undoText() == "Edit code"


def test_typing_keys_runs_once_the_line_reads_as_python(qtbot, window, tmp_path):
    window.document.new()
    editor = window.code.editor
    _end(editor)  # a new recipe is "import torch" and a newline: line 2
    qtbot.keyClicks(editor, "x = torch.arange(4")  # not Python yet
    window.code.commit()
    assert window.code.problem.isVisible()
    assert window.code.problem.text().startswith("Line 2: ")
    assert window.document.recipe.source == "import torch\n"  # the recipe as it was
    assert editor.toPlainText() == "import torch\nx = torch.arange(4"  # nothing lost
    qtbot.keyClicks(editor, ").sum()")
    _committed(qtbot, window)
    assert not window.code.problem.isVisible()
    assert window.document.recipe.source == "import torch\nx = torch.arange(4).sum()"
    x = window.document.run.result_for("x").value.names["x"]
    assert x["values"] == 6 and x["shape"] == []  # 0+1+2+3, a 0-d tensor


def test_undo_in_the_pane_is_the_windows_undo(qtbot, window):
    window.document.new()
    before = window.document.recipe.source
    editor = window.code.editor
    _end(editor)
    editor.insertPlainText("\ny = torch.ones(3)\n")
    _committed(qtbot, window)
    after = window.document.recipe.source
    assert after != before
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.document.recipe.source == before == editor.toPlainText()
    qtbot.keyClick(editor, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.document.recipe.source == after == editor.toPlainText()


def test_typing_in_a_file_from_elsewhere_runs_nothing_until_run(qtbot, window, tmp_path):
    canary = tmp_path / "ran"
    path = tmp_path / "from_a_friend.py"
    path.write_text(f"import pathlib\npathlib.Path({str(canary)!r}).touch()\n")
    assert window.open_path(str(path)) and window.document.held
    editor = window.code.editor
    _end(editor)
    editor.insertPlainText("x = 1\n")
    assert window.code.commit()
    qtbot.wait(500)
    assert window.document.recipe.source.endswith("x = 1\n")
    assert window.document.kernel_run is None and not canary.exists()
    assert window.trust_bar.isVisible()
    window.trust_bar.run_button.click()
    window.settle()
    assert canary.exists()


def test_fixing_a_file_python_cannot_read_offers_run(qtbot, window, tmp_path):
    """The notes' web copies glue 'Copy' to a line: fixed in the pane, the file can run."""
    canary = tmp_path / "ran"
    path = tmp_path / "pasted.py"
    path.write_text(f"import pathlib\npathlib.Path({str(canary)!r}).touch()Copy\n")
    window.open_path(str(path))
    assert window.document.problem is not None and window.document.held
    assert not window.trust_bar.run_button.isVisible()
    editor = window.code.editor
    cursor = editor.document().find("Copy")
    cursor.removeSelectedText()  # the one fix
    assert window.code.commit()
    assert window.document.problem is None and window.document.held
    assert not canary.exists()
    assert window.trust_bar.isVisible() and window.trust_bar.run_button.isVisible()
    window.trust_bar.run_button.click()
    window.settle()
    assert canary.exists()


def test_leaving_code_that_is_not_python_yet_asks_first(qtbot, window, monkeypatch):
    """Closing, New or Open with typed text that does not parse: nothing goes unasked."""
    from PySide6.QtWidgets import QMessageBox

    import widgets.shell.recipe_files as recipe_files

    window.document.new()
    editor = window.code.editor
    _end(editor)
    editor.insertPlainText("x = torch.ones(2")
    asked = []

    def answer(choice):
        def question(_parent, title, text, *_buttons):
            asked.append(text)
            return choice
        return question
    monkeypatch.setattr(recipe_files.QMessageBox, "question",
                        answer(QMessageBox.StandardButton.Cancel))
    assert not window._files.confirm_discard()
    assert "Line 2" in asked[0] and editor.toPlainText().endswith("torch.ones(2")
    monkeypatch.setattr(recipe_files.QMessageBox, "question",
                        answer(QMessageBox.StandardButton.Discard))
    assert window._files.confirm_discard()  # the recipe itself was not changed
    assert len(asked) == 2
    editor.insertPlainText(")\n")  # Python now: it becomes the recipe, and is a change
    monkeypatch.setattr(recipe_files.QMessageBox, "question",
                        answer(QMessageBox.StandardButton.Cancel))
    assert not window._files.confirm_discard()
    assert window.document.recipe.source.endswith("x = torch.ones(2)\n")
    assert "not saved" in asked[-1]


def test_an_edit_elsewhere_never_loses_what_was_typed(qtbot, window):
    """Code that is not Python yet, then a form's edit: the text typed goes to the
    clipboard, and the pane says so."""
    from PySide6.QtGui import QGuiApplication

    from app.recipe.reader import read_step

    window.document.new()
    editor = window.code.editor
    _end(editor)
    editor.insertPlainText("for i in range(3):\n    print(i")
    typed = editor.toPlainText()
    assert not window.code.commit()
    window.document.recipe.append(read_step("z = torch.zeros(2)"))  # a form
    assert window.document.recipe.source == editor.toPlainText() != typed
    assert QGuiApplication.clipboard().text() == typed
    assert window.code.problem.isVisible() and "clipboard" in window.code.problem.text()


def test_delete_in_the_pane_deletes_a_character_not_the_selected_step(qtbot, window):
    """The window's Delete Step shortcut is the Delete key: in the pane it edits text."""
    steps = len(window.document.recipe.steps)
    assert window.document.selected is not None
    editor = window.code.editor
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus, timeout=2000)
    editor.moveCursor(QTextCursor.MoveOperation.Start)
    before = editor.toPlainText()
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    assert editor.toPlainText() == before[1:]
    assert len(window.document.recipe.steps) == steps
