"""The code pane: the recipe printed as Python, highlighted, following every edit."""

from __future__ import annotations

from PySide6.QtGui import (
    QFontDatabase,
    QPalette,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from app.recipe.document import Document
from widgets.common.doc_links import FollowsDocument
from widgets.common.highlighter import PygmentsHighlighter


class CodePane(FollowsDocument, QWidget):
    """Read-only, highlighted Python for the whole recipe; the selected step is marked."""

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._step_lines: list[int] = []
        self.editor = QPlainTextEdit(self)
        self.editor.setReadOnly(True)
        self.editor.setUndoRedoEnabled(False)  # the recipe's own undo is the stack's
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setToolTip(self.tr("The recipe as Python: exactly what Save writes. "
                                       "It runs with plain 'python'."))
        self._highlighter = PygmentsHighlighter(self.editor.document())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        self._set_model_connected(True)
        self._on_model_changed()

    def _model_links(self):
        recipe, doc = self._document.recipe, self._document
        return ((recipe.changed, self._on_model_changed),
                (doc.selection_changed, self._on_model_selection))

    def text(self) -> str:
        return self.editor.toPlainText()

    def step_line(self, index: int) -> int:
        """0-based line where step ``index`` starts in the pane."""
        return self._step_lines[index]

    def _on_model_changed(self) -> None:
        recipe = self._document.recipe
        text = recipe.source
        self._step_lines = [line - 1 for line in recipe.step_lines()]
        before = self._highlighter.spans
        self._highlighter.set_text_spans(text)
        if not self._replace_changed_lines(text, before):
            self.editor.setPlainText(text)
        self._on_model_selection(self._document.selected)

    def _replace_changed_lines(self, text: str, spans_before: dict) -> bool:
        """Put ``text`` in the pane by replacing only the lines that changed (a form's
        edit changes one literal): the rest keeps its layout and highlighting, where
        ``setPlainText`` lays out and highlights the whole recipe again. Only when the
        line count and every other line's highlighting stay the same; else False."""
        old = self.editor.toPlainText()
        before, after = old.split("\n"), text.split("\n")
        if not old or "\r" in text or len(before) != len(after):
            return False
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        if not changed:
            return True
        first, last = changed[0], changed[-1]
        spans = self._highlighter.spans
        if any(spans_before.get(i) != spans.get(i) for i in range(len(after))
               if not first <= i <= last):
            return False  # a string opened or closed: more lines colour anew
        document = self.editor.document()
        cursor = QTextCursor(document.findBlockByNumber(first))
        end = document.findBlockByNumber(last)
        cursor.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText("\n".join(after[first:last + 1]))
        return True

    def _on_model_selection(self, index: int | None) -> None:
        if index is None or index >= len(self._step_lines):
            self.editor.setExtraSelections([])
            return
        block = self.editor.document().findBlockByNumber(self._step_lines[index])
        cursor = QTextCursor(block)
        sel = QTextEdit.ExtraSelection()
        sel.cursor = cursor
        colour = self.palette().color(QPalette.ColorRole.Highlight)
        colour.setAlpha(60)
        sel.format.setBackground(colour)
        sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        self.editor.setExtraSelections([sel])
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()


if __name__ == "__main__":
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    doc = Document()
    doc.open_welcome()
    pane = CodePane(doc)
    pane.resize(640, 480)
    pane.show()
    app.exec()
