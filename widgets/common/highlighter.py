"""Python highlighted with Pygments, for every view that shows code (the code pane, the
gallery's preview, New training's recipe)."""

from __future__ import annotations

import weakref

import shiboken6
from pygments.lexers import PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

# Token colours chosen to stay readable on light and dark backgrounds.
_STYLE = {
    Keyword: ("#8959a8", True), Name.Builtin: ("#3e999f", False),
    Name.Function: ("#4271ae", False), String: ("#718c00", False),
    String.Doc: ("#8e908c", False), Number: ("#f5871f", False),
    Comment: ("#8e908c", False), Operator: ("#3e999f", False),
}


#: Highlighters that show plain text until ``lexer_ready``: Pygments compiles its Python
#: lexer's 87 expressions on the first use (30-60 ms here), which the window's first paint
#: need not wait for. None: each colours at once.
_waiting: list[weakref.ref] | None = None


def colour_after_first_paint() -> None:
    """Code shown from now on stays plain until ``lexer_ready()`` (the launcher calls it
    right after the window's first paint), then takes its colours."""
    global _waiting
    if _waiting is None:
        _waiting = []


def lexer_ready() -> None:
    """Colour the code shown plain since ``colour_after_first_paint``; from now on every
    highlighter colours at once."""
    global _waiting
    waiting, _waiting = _waiting or [], None
    for ref in waiting:
        highlighter = ref()
        if highlighter is not None and shiboken6.isValid(highlighter):
            highlighter.colour_again()


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


def _tokens(lexer: PythonLexer, text: str) -> list:
    """(A background job.) Pygments' tokens of ``text``."""
    return list(lexer.get_tokens(text))


class PygmentsHighlighter(QSyntaxHighlighter):
    """Highlights Python with Pygments, lexing the whole text once per change.

    Lexing whole text (not per block) keeps multi-line docstrings right.
    """

    def __init__(self, document: QTextDocument):
        super().__init__(document)
        self._lexer: PythonLexer | None = None  # made when first needed (see _waiting)
        self._spans: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
        self._formats: dict[object, QTextCharFormat | None] = {}
        self._lexing: str | None = None  # the text ``colour_later`` lexes now

    @property
    def lexer(self) -> PythonLexer:
        if self._lexer is None:
            self._lexer = PythonLexer()
        return self._lexer

    def set_text_spans(self, text: str) -> None:
        """Work out formats for ``text`` (call before ``setPlainText``)."""
        if text and _waiting is not None:  # plain until the first paint is done
            self._spans = {}
            if not any(ref() is self for ref in _waiting):
                _waiting.append(weakref.ref(self))
            return
        self._spans = self._spans_of(self.lexer.get_tokens(text)) if text else {}

    def colour_again(self) -> None:
        """Colour the document's text now. Its signals are held meanwhile: its views
        take the formats, but nothing reads this as an edit of the text."""
        document = self.document()
        if document is None:
            return
        self._spans = self._spans_of(self.lexer.get_tokens(document.toPlainText()))
        blocked = document.blockSignals(True)
        try:
            self.rehighlight()
        finally:
            document.blockSignals(blocked)

    def colour_later(self, text: str) -> None:
        """Work out the formats for ``text`` off the GUI thread (Pygments takes about a
        second for 5,000 lines), then colour the document again, if it still holds
        ``text``; the spans there are meanwhile stay (a long recipe's lines keep their
        colours while it is lexed again)."""
        from widgets.common.background import start_job  # (the first is after the first paint)

        self._lexing = text
        start_job(_tokens, self.lexer, text, on_done=self._on_lexed, key=text)

    def _on_lexed(self, text: object, tokens: object) -> None:
        from widgets.common.background import JobError

        if text is not self._lexing or isinstance(tokens, JobError) \
                or self.document() is None or self.document().toPlainText() != text:
            return  # another text came since (or Pygments failed: no colours)
        self._lexing = None
        self._spans = self._spans_of(tokens)  # type: ignore[arg-type]
        self.rehighlight()

    def _spans_of(self, tokens) -> dict[int, list[tuple[int, int, QTextCharFormat]]]:
        spans: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
        line, col = 0, 0
        for token, value in tokens:
            if token not in self._formats:
                self._formats[token] = _format_for(token)
            fmt = self._formats[token]
            for i, part in enumerate(value.split("\n")):
                if i:
                    line, col = line + 1, 0
                if fmt is not None and part:
                    spans.setdefault(line, []).append((col, len(part), fmt))
                col += len(part)
        return spans

    @property
    def spans(self) -> dict[int, list[tuple[int, int, QTextCharFormat]]]:
        """Each line's (column, length, format) runs, from the last ``set_text_spans``."""
        return self._spans

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        for start, length, fmt in self._spans.get(self.currentBlock().blockNumber(), ()):
            self.setFormat(start, length, fmt)
