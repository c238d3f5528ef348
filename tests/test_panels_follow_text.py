"""The panels show the text on screen, or say plainly that they cannot yet: a paste that
is not Python yet, its colours, and a step a panel cannot show (widget tier)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from app.recipe.document import Document
from tests.test_code_pane import _formats, _fresh
from widgets.recipe.code_pane import CodePane

OLD = 'import torch\nx = torch.ones(16, 2)\nname = "x"\n'
PASTED = ('import torch\ns = """a string\nthat spans lines"""\nfor i in range(3):\n'
          '    y = torch.ones(i\n')  # not Python yet: a bracket left open


def test_a_paste_that_is_not_python_yet_is_coloured_as_its_own_text_at_once(qtbot):
    document = Document()
    document.recipe.restore(((), None, OLD))
    pane = CodePane(document)
    qtbot.addWidget(pane)
    cursor = pane.editor.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(PASTED)  # as a paste over the whole text does
    assert pane.text() == PASTED
    assert _formats(pane.editor) == _formats(_fresh(PASTED))


def _paste(pane: CodePane, text: str) -> None:
    cursor = pane.editor.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(text)
    pane.commit()  # as the pane does half a second after the last key


def test_steps_and_values_say_the_code_is_not_python_yet(qtbot, make_window, tmp_path):
    window = make_window()
    path = tmp_path / "old.py"
    path.write_text(OLD, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.settle()
    window.document.select(0)
    assert not window.steps.note.isVisible() and not window.viewer.note_visible()

    _paste(window.code, PASTED)
    for note in (window.steps.note.text(), window.viewer.note_text()):
        assert "not Python yet" in note and "last text that read as Python" in note
    assert window.steps.note.isVisible() and window.viewer.note_visible()

    _paste(window.code, "import torch\nz = torch.zeros(3)\n")  # Python again: it runs
    window.settle()
    assert not window.steps.note.isVisible() and not window.viewer.note_visible()
    assert window.document.recipe.source == "import torch\nz = torch.zeros(3)\n"
