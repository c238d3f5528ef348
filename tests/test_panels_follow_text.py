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
