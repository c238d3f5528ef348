"""The code's colours may come right after the window's first paint: Pygments compiles
its Python lexer on first use (``widgets.common.highlighter``)."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument

from widgets.common import highlighter as hl


def test_code_stays_plain_until_the_lexer_is_ready_then_takes_its_colours(qapp):
    document = QTextDocument()
    colours = hl.PygmentsHighlighter(document)
    edits = []
    document.contentsChanged.connect(lambda: edits.append(1))
    hl.colour_after_first_paint()
    try:
        colours.set_text_spans("x = 1  # one")
        document.setPlainText("x = 1  # one")
        assert colours.spans == {}
        edits.clear()
    finally:
        hl.lexer_ready()
    assert colours.spans[0]  # the number and the comment
    assert edits == []  # coloured, not edited
    assert hl._waiting is None  # from now on, colours at once
    colours.set_text_spans("y = 2")
    assert colours.spans[0]
