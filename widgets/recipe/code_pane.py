"""The code pane: the recipe as Python, highlighted, following every edit, and editable.

What the user types or pastes becomes the recipe once it reads as Python: half a second
after the last key (or when the pane loses the keyboard), the text is read with ``ast``
and, if it parses, replaces the recipe as one undoable edit, so the recipe runs again
from the first statement that changed. Text that does not parse stays as typed, with
the reason under it; nothing runs until it parses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QFontDatabase,
    QGuiApplication,
    QKeySequence,
    QPalette,
    QTextCursor,
    QTextFormat,
    QUndoStack,
)
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from app.recipe.document import Document
from app.recipe.reader import RecipeError, read_recipe
from widgets.common.bounded_text import bounded
from widgets.common.doc_links import FollowsDocument
from widgets.common.highlighter import PygmentsHighlighter
from widgets.common.retranslate import translated
from widgets.common.theme import error_style
from widgets.common.undo import push_edit

#: Milliseconds from the last key to the text becoming the recipe.
COMMIT_DELAY_MS = 500
#: Above this many characters the colours follow at the commit, not at every key, and
#: are worked out off the GUI thread (Pygments lexes about 50,000 characters a second:
#: a recipe of 5,000 lines froze the window for a second at each key, and when opened).
LIVE_COLOUR_CHARS = 20_000


class _Editor(QPlainTextEdit):
    """The pane's text: undo and redo are the window's, and leaving it commits."""

    left = Signal()
    undo_asked = Signal(bool)  # True: redo

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        for key, redo in ((QKeySequence.StandardKey.Undo, False),
                          (QKeySequence.StandardKey.Redo, True)):
            if event.matches(key):
                self.undo_asked.emit(redo)
                return
        super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.left.emit()
        super().focusOutEvent(event)


class CodePane(FollowsDocument, QWidget):
    """Highlighted Python for the whole recipe, the selected step marked; typing edits it.

    ``undo_stack`` takes each edit typed (None: the recipe changes with no undo).
    ``source_fixed`` is emitted when typing made a file Python could not read readable.
    """

    source_fixed = Signal()

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._undo_stack = undo_stack
        self._step_lines: list[int] = []
        self._applying = False  # the document's text going in: not the user's typing
        self._shown = ""  # the recipe's text as the pane last had it
        self.editor = _Editor(self)
        self.editor.setUndoRedoEnabled(False)  # the recipe's own undo is the stack's
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        translated(self, lambda: self.editor.setToolTip(self.tr(
            "The recipe as Python: exactly what Save writes, and it runs with plain "
            "'python'. Type or paste code here: the recipe runs again once the text reads "
            "as Python.")))
        self._highlighter = PygmentsHighlighter(self.editor.document())
        self._pasted = False  # the last change typed was more than one key (a paste)
        self.editor.document().contentsChange.connect(self._on_view_contents_change)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setStyleSheet(error_style())
        self.problem.setContentsMargins(4, 2, 4, 2)  # off the dock's edge
        translated(self, lambda: (
            self.problem.setToolTip(self.tr("Why the text typed is not the recipe yet: it runs "
                                            "once Python can read it"))))
        self.problem.hide()
        self._commit_timer = QTimer(self, singleShot=True, interval=COMMIT_DELAY_MS)
        self._commit_timer.timeout.connect(self.commit)
        self.editor.textChanged.connect(self._on_typed)
        self.editor.left.connect(self.commit)
        self.editor.undo_asked.connect(self._on_undo_asked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        layout.addWidget(self.problem)
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

    # -- typing ------------------------------------------------------------------------
    @property
    def typing(self) -> bool:
        """Whether the pane holds text that is not the recipe yet (waiting, or not Python)."""
        return self.editor.toPlainText() != self._document.recipe.source

    def _on_view_contents_change(self, _position: int, removed: int, added: int) -> None:
        if not self._applying:
            self._pasted = self._pasted or removed + added > 1

    def _on_typed(self) -> None:
        if self._applying:
            return
        text = self.editor.toPlainText()
        pasted, self._pasted = self._pasted, False
        if len(text) <= LIVE_COLOUR_CHARS:  # the typed line in its colours at once
            self._highlighter.set_text_spans(text)
            with self._not_typing():  # colouring a block tells textChanged again
                if pasted:  # a paste: every line in the new text's colours, not the old's
                    self._highlighter.rehighlight()
                else:
                    self._highlighter.rehighlightBlock(self.editor.textCursor().block())
        self._commit_timer.start()

    @contextlib.contextmanager
    def _not_typing(self) -> Iterator[None]:
        """Changes to the editor meanwhile are the pane's own, not the user's typing."""
        self._applying = True
        try:
            yield
        finally:
            self._applying = False

    def commit(self) -> bool:
        """Make the typed text the recipe if it reads as Python (one undoable edit); else
        say why under it and keep it. True when the pane and the recipe agree now."""
        self._commit_timer.stop()
        text, document = self.editor.toPlainText(), self._document
        if text == document.recipe.source:
            self.problem.hide()
            document.set_unparsed(None)
            return True
        try:
            loaded = read_recipe(text)
        except RecipeError as e:
            where = self.tr("Line {0}: ").format(e.line) if e.line else ""
            self.problem.setText(bounded(self.tr("{0}{1}. Nothing runs until the code reads "
                                                 "as Python.").format(where, e.reason), 4))
            self.problem.show()
            document.set_unparsed(f"{where}{e.reason}")
            return False
        self.problem.hide()
        document.set_unparsed(None)
        fixed = document.problem is not None
        self._shown = text
        push_edit(self._undo_stack, document.recipe,
                  lambda r: r.restore((loaded.steps, loaded.docstring, text)),
                  self.tr("Edit code"))
        if fixed:
            document.problem = None
            self.source_fixed.emit()
        if len(text) <= LIVE_COLOUR_CHARS:
            with self._not_typing():  # a string opened or closed colours more lines
                self._highlighter.rehighlight()
        return True

    def _on_undo_asked(self, redo: bool) -> None:
        if self._undo_stack is None:
            return
        if self.typing and not redo and not self.commit():
            self._on_model_changed()  # undo what does not parse: back to the recipe
            return
        (self._undo_stack.redo if redo else self._undo_stack.undo)()

    # -- the document's text -------------------------------------------------------------
    def _on_model_changed(self) -> None:
        recipe = self._document.recipe
        text = recipe.source
        self._step_lines = [line - 1 for line in recipe.step_lines()]
        self._commit_timer.stop()
        typed = self.editor.toPlainText()
        if typed not in (self._shown, text):  # typing that was not Python yet, replaced
            QGuiApplication.clipboard().setText(typed)  # by an edit elsewhere: kept there
            self.problem.setText(self.tr(
                "An edit elsewhere replaced the code you were typing, which was not Python "
                "yet. What you typed is on the clipboard."))
            self.problem.show()
        else:
            self.problem.hide()
        self._document.set_unparsed(None)  # the pane shows the recipe's own text again
        self._shown = text
        before = self._highlighter.spans
        later = len(text) > LIVE_COLOUR_CHARS
        if later:  # coloured off the GUI thread, soon after
            self._highlighter.colour_later(text)
        else:
            self._highlighter.set_text_spans(text)
        with self._not_typing():
            if not self._replace_changed_lines(text, before):
                if later:  # another text: no colours of the last one's lines meanwhile
                    self._highlighter.set_text_spans("")
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
        if not self.editor.hasFocus():  # the caret of someone typing stays where it is
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
