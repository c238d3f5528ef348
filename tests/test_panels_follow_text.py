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


GATHER = ("import torch\na = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n"
          "i = torch.tensor([[0, 0], [1, 0]])\ng = torch.gather(a, 1, i)\n")


def _on_gather(qtbot, panel_class):
    """A document of ``GATHER``, ``panel_class`` on it, and one on a new document (the
    panel as a new window has it)."""
    from PySide6.QtGui import QUndoStack

    document = Document()
    document.set_source(GATHER)
    panel, fresh = (panel_class(doc, QUndoStack()) for doc in (document, Document()))
    qtbot.addWidget(panel)
    qtbot.addWidget(fresh)
    return document, panel, fresh


def test_the_builder_never_shows_a_step_it_cannot_show_as_the_selected_one(qtbot):
    from widgets.ops.builder_panel import BuilderPanel

    document, panel, fresh = _on_gather(qtbot, BuilderPanel)
    labels = [s.label for s in document.recipe.steps]
    document.select(labels.index("a"))
    assert panel.preview.text() == "a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])"
    document.select(labels.index("g"))  # gather: no creation function to show
    assert "[[1.0, 2.0], [3.0, 4.0]]" not in panel.preview.text()
    assert "torch.gather" in panel.status.text() and panel.status.isVisibleTo(panel)
    document.select(labels.index("a"))
    document.new()  # File > New: the form starts afresh, as a new window's does
    assert panel.preview.text() == fresh.preview.text()
    assert panel.function_combo.currentText() == fresh.function_combo.currentText()


def test_the_ops_panel_starts_afresh_for_a_new_recipe(qtbot):
    from widgets.ops.op_panel import OpPanel

    document, panel, fresh = _on_gather(qtbot, OpPanel)
    document.select([s.label for s in document.recipe.steps].index("g"))
    assert panel.preview.text() == "g = torch.gather(a, 1, i)"
    document.new()  # File > New: nothing of the gather step, its names or values stays
    assert (panel.title.text(), panel.preview.text()) == (fresh.title.text(),
                                                          fresh.preview.text())

    def offered(p: OpPanel) -> list[str]:
        return [p.input_combo.itemText(i) for i in range(p.input_combo.count())]
    assert offered(panel) == offered(fresh)  # no tensor of the old recipe offered
