"""The code pane replaces only the lines an edit changed, and ends up exactly as a pane
given the whole text afresh: the same text, and every line coloured the same."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtWidgets import QPlainTextEdit

from app.recipe.document import Document
from widgets.common.highlighter import PygmentsHighlighter
from widgets.recipe.code_pane import CodePane

LINES = ["import torch", "x = torch.rand(3, 4)", "y = torch.tril(x, diagonal=1)", "",
         "# 注释: a comment", 's = """', 'done"""', "e = '😀'", "for i in range(3):",
         "    print(i)", "z = x.clamp(min=0.5)"]


def _formats(editor: QPlainTextEdit) -> list[list[tuple[int, int, str]]]:
    out, block = [], editor.document().begin()
    while block.isValid():
        out.append([(r.start, r.length, r.format.foreground().color().name())
                    for r in block.layout().formats()])
        block = block.next()
    return out


def _fresh(text: str) -> QPlainTextEdit:
    editor = QPlainTextEdit()
    highlighter = PygmentsHighlighter(editor.document())
    highlighter.set_text_spans(text)
    editor.setPlainText(text)
    editor.highlighter = highlighter  # kept alive with the editor
    return editor


@settings(max_examples=150, deadline=None,  # the pane is made anew for each example
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(old=st.lists(st.sampled_from(LINES), min_size=1, max_size=8), data=st.data())
def test_an_edit_shows_as_the_whole_text_would(qtbot, old, data):
    new = list(old)
    for _ in range(data.draw(st.integers(1, 3))):
        new[data.draw(st.integers(0, len(new) - 1))] = data.draw(st.sampled_from(LINES))
    if data.draw(st.booleans()):
        new.append(data.draw(st.sampled_from(LINES)))  # a line more: the whole text again
    old_text, new_text = "\n".join(old), "\n".join(new)
    document = Document()
    document.recipe.restore(((), None, old_text))
    pane = CodePane(document)
    assert pane.text() == old_text
    document.recipe.restore(((), None, new_text))
    assert pane.text() == new_text
    assert _formats(pane.editor) == _formats(_fresh(new_text))
    pane.deleteLater()


def test_a_literal_edit_keeps_the_other_lines_blocks(qtbot):
    document = Document()
    document.recipe.restore(((), None, "import torch\nx = torch.rand(3, 4)\n"
                                       "y = torch.tril(x, diagonal=1)\n"))
    pane = CodePane(document)
    qtbot.addWidget(pane)
    first = pane.editor.document().findBlockByNumber(0)
    first.setUserState(7)  # a mark that setPlainText would wipe
    document.recipe.restore(((), None, "import torch\nx = torch.rand(3, 4)\n"
                                       "y = torch.tril(x, diagonal=-2)\n"))
    assert pane.text().endswith("diagonal=-2)\n")
    assert pane.editor.document().findBlockByNumber(0).userState() == 7
