"""The lesson text (the recipe's docstring) and the output its print steps wrote."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser, QVBoxLayout, QWidget

from app.recipe.document import Document
from app.recipe.lesson_markup import lesson_markdown
from app.recipe.lesson_text import lesson_text
from widgets.common.retranslate import translated

#: The most lines the output pane keeps, and the most characters one update shows: a
#: flood keeps its tail (the document keeps more: ``kernel_results.OUTPUT_LIMIT``).
MAX_LINES = 5_000
TAIL_CHARS = 8 * 1024
#: The console shows new output at most this often, in milliseconds.
REFRESH_MS = 100


class LessonPane(QWidget):
    """Shows the recipe's docstring: its first line as the title, the rest as Markdown
    (or reStructuredText), every character of its code as written
    (``app.recipe.lesson_markup``).

    A lesson written in two languages (``app.recipe.lesson_text``: English, then Simplified
    Chinese) shows the half of ``language``; ``set_language`` switches.
    """

    def __init__(self, document: Document, parent: QWidget | None = None,
                 language: str = "en"):
        super().__init__(parent)
        self._document = document
        self._language = language
        self._shown: str | None = None
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        translated(self, lambda: (
            self.browser.setToolTip(self.tr("The lesson: the recipe's docstring"))))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self._set_model_connected(True)
        self._on_model_changed()
        translated(self, self._on_model_changed, now=False)  # "no lesson text", say

    def detach(self) -> None:
        """Stop following the document, for good: the window that shows this retires."""
        self._set_model_connected(False)

    def _set_model_connected(self, connect: bool) -> None:
        signal = self._document.recipe.changed
        signal.connect(self._on_model_changed) if connect \
            else signal.disconnect(self._on_model_changed)

    def _on_model_changed(self) -> None:
        text = self._document.recipe.docstring.strip()
        if not text:
            self._show(self.tr("*This recipe has no lesson text. A docstring at the top of "
                               "the file becomes its title and lesson.*"))
            return
        self._show(lesson_markdown(lesson_text(text, self._language) or text))

    def _show(self, markdown: str) -> None:
        # Most edits leave the docstring alone: setting the same text again would cost a
        # relayout and scroll the lesson back to its top under the student's eyes.
        if markdown != self._shown:
            self._shown = markdown
            self.browser.setMarkdown(markdown)

    @property
    def language(self) -> str:
        return self._language

    def set_language(self, language: str) -> None:
        """Show the lesson's half for ``language`` (``en``, ``zh_CN``)."""
        if language != self._language:
            self._language = language
            self._on_model_changed()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._set_model_connected(False)
        super().closeEvent(event)


class OutputPane(QWidget):
    """What the recipe's ``print`` steps wrote on the last run, as ``python`` would show it."""

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        translated(self, lambda: self.text.setToolTip(
            self.tr("What the recipe prints, the same as 'python recipe.py'")))
        self.text.setMaximumBlockCount(MAX_LINES)  # a flood keeps its tail
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)
        self._shown: str | None = None
        self._pending: list[str] = []
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self._show_pending)
        self._set_model_connected(True)
        self._on_model_evaluated(document.run)

    def detach(self) -> None:
        """Stop following the document, for good: the window that shows this retires."""
        self._set_model_connected(False)

    def _set_model_connected(self, connect: bool) -> None:
        for signal, slot in ((self._document.evaluated, self._on_model_evaluated),
                             (self._document.output_added, self._on_model_output_added)):
            signal.connect(slot) if connect else signal.disconnect(slot)

    def _on_model_evaluated(self, _run) -> None:
        self._pending.clear()
        if self._document.output != self._shown:
            self._shown = self._document.output
            self.text.setPlainText(self._shown[-TAIL_CHARS * 4:])

    def _on_model_output_added(self, text: str) -> None:
        self._pending.append(text)
        if not self._refresh.isActive():
            self._refresh.start()

    def _show_pending(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        self._shown = self._document.output
        if len(text) >= TAIL_CHARS:  # a flood: only its tail, at once
            self.text.setPlainText(self._shown[-TAIL_CHARS:])
        else:
            cursor = self.text.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(text)
        self.text.verticalScrollBar().setValue(self.text.verticalScrollBar().maximum())

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._set_model_connected(False)
        super().closeEvent(event)
