"""The code pane: the recipe printed as Python, highlighted, following every edit."""

from __future__ import annotations

from pygments.lexers import PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from app.recipe.document import Document
from widgets.common.doc_links import FollowsDocument

# Token colours chosen to stay readable on light and dark backgrounds.
_STYLE = {
    Keyword: ("#8959a8", True), Name.Builtin: ("#3e999f", False),
    Name.Function: ("#4271ae", False), String: ("#718c00", False),
    String.Doc: ("#8e908c", False), Number: ("#f5871f", False),
    Comment: ("#8e908c", False), Operator: ("#3e999f", False),
}


def _format_for(token: object) -> QTextCharFormat | None:
    while token is not Token and token is not None:
        if token in _STYLE:
            colour, bold = _STYLE[token]
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            if bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            return fmt
        token = token.parent  # type: ignore[attr-defined]
    return None


class PygmentsHighlighter(QSyntaxHighlighter):
    """Highlights Python with Pygments, lexing the whole text once per change.

    Lexing whole text (not per block) keeps multi-line docstrings right.
    """

    def __init__(self, document: QTextDocument):
        super().__init__(document)
        self._lexer = PythonLexer()
        self._spans: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
        self._formats: dict[object, QTextCharFormat | None] = {}

    def set_text_spans(self, text: str) -> None:
        """Work out formats for ``text`` (call before ``setPlainText``)."""
        spans: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
        line, col = 0, 0
        for token, value in self._lexer.get_tokens(text):
            if token not in self._formats:
                self._formats[token] = _format_for(token)
            fmt = self._formats[token]
            for i, part in enumerate(value.split("\n")):
                if i:
                    line, col = line + 1, 0
                if fmt is not None and part:
                    spans.setdefault(line, []).append((col, len(part), fmt))
                col += len(part)
        self._spans = spans

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        for start, length, fmt in self._spans.get(self.currentBlock().blockNumber(), ()):
            self.setFormat(start, length, fmt)


class CodePane(FollowsDocument, QWidget):
    """Read-only, highlighted Python for the whole recipe; the selected step is marked."""

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._step_lines: list[int] = []
        self.editor = QPlainTextEdit(self)
        self.editor.setReadOnly(True)
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
        self._highlighter.set_text_spans(text)
        self.editor.setPlainText(text)
        self._on_model_selection(self._document.selected)

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
