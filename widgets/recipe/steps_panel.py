"""The steps panel: the recipe's steps in order, with their status; select, rename, reorder."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSignalBlocker,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QBrush, QUndoStack
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.recipe.document import Document
from app.recipe.model import Recipe, check_name
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import translate_core
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, qcolour, theme_notifier
from widgets.common.undo import push_edit

#: The palette role (``app.palette``) that colours each step status; the marks below
#: tell the statuses apart without colour.
STATUS_ROLES = {"ok": "ok", "error": "error", "skipped": "muted",
                "kernel": "muted", "stopped": "warning"}
_STATUS_MARK = {"ok": "●", "error": "✖", "skipped": "○", "kernel": "◌", "stopped": "■"}


#: A row's (text, status, tooltip, editable), to leave a row that has not changed alone.
_ROW_ROLE = Qt.ItemDataRole.UserRole + 1
#: The most rows written at once beyond those on screen (a few milliseconds' work).
ROW_CHUNK = 200


class _RowSize(QStyledItemDelegate):
    """Every row as high as one line and as wide as the widest row (``widest``): the
    list lays its rows out with uniform sizes, so a row whose mark changes costs a
    repaint of that row, where a list of rows of their own sizes lays out every row
    again (40 ms for 5,000 of them, at each report of a run)."""

    def __init__(self, parent) -> None:
        super().__init__(parent)
        self.widest = None  # the widest row's QModelIndex (persistent), or None

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt override
        widest = self.widest
        if widest is not None and widest.isValid():
            index = widest.sibling(widest.row(), 0)
        return super().sizeHint(option, index)


class _StepList(QListWidget):
    """The list of steps: when it is resized (presenter mode, a dock dragged smaller),
    the selected step stays in view if it was."""

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        current = self.currentItem()
        old = event.oldSize()
        was_seen = current is not None and old.isValid() and self.visualItemRect(
            current).intersects(QRect(QPoint(0, 0), old))
        super().resizeEvent(event)
        if was_seen:
            self.scrollToItem(current)


class StepsPanel(FollowsDocument, QWidget):
    """Lists the steps; selecting one selects it in the document."""

    def __init__(self, document: Document, undo_stack: QUndoStack,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self.list = _StepList(self)
        translated(self, lambda: (
            self.list.setToolTip(self.tr("The recipe's steps, in order. Click one to see its "
                                         "result; double-click a name to rename it."))))
        self.list.setEditTriggers(QListWidget.EditTrigger.DoubleClicked
                                  | QListWidget.EditTrigger.EditKeyPressed)
        self._sizes = _RowSize(self.list)
        self.list.setItemDelegate(self._sizes)
        self.list.setUniformItemSizes(True)
        self._widths: list[int] = []  # each row's text width, to find the widest
        self._rows: list = []  # each row's (text, status, tooltip, editable), as written
        self._widest = -1  # the widest row, or -1 for none
        #: The run, its steps and its number of changes the rows last showed: a report
        #: redraws only the rows of the steps it changed.
        self._shown: tuple = (None, None, 0)
        self._texts: dict[int, tuple] = {}  # a step's code as the text has it, by id(step)
        self._later: set[int] = set()  # rows to write after this frame (``ROW_CHUNK``)
        self._later_timer = QTimer(self, singleShot=True, interval=0)
        self._later_timer.timeout.connect(self._on_view_later)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setStyleSheet(error_style())
        self.message.hide()
        self.note = QLabel("", self)
        translated(self, lambda: (
            self.note.setText(self.tr("The code is not Python yet: these are the steps of the "
                                       "last text that read as Python."))))
        self.note.setWordWrap(True)
        self.note.setStyleSheet(error_style())
        self.note.setVisible(document.unparsed is not None)

        buttons = QHBoxLayout()
        self.up_button = self._button(
            "▲", lambda: self.tr("Move the selected step up (Alt+Up)"),
            lambda: self.move_selected(-1))
        self.down_button = self._button(
            "▼", lambda: self.tr("Move the selected step down (Alt+Down)"),
            lambda: self.move_selected(1))
        self.delete_button = self._button(
            "✕", lambda: self.tr("Delete the selected step (Del); steps that read it will "
                                 "show an error"), self.delete_selected)
        for b in (self.up_button, self.down_button, self.delete_button):
            buttons.addWidget(b)
        buttons.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.message)
        layout.addLayout(buttons)

        self.list.currentRowChanged.connect(self._on_view_row)
        self.list.itemChanged.connect(self._on_view_item_edited)
        theme_notifier().changed.connect(self._on_view_theme_changed)
        self._set_model_connected(True)
        self._on_model_evaluated(document.run)
        translated(self, lambda: self._on_model_evaluated(self._document.run), now=False)

    def _button(self, text: str, tip: Callable[[], str], slot) -> QToolButton:
        b = QToolButton(self)
        b.setText(text)
        translated(b, lambda: b.setToolTip(tip()))
        b.setAutoRaise(True)
        b.clicked.connect(slot)
        return b

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection),
                (doc.unparsed_changed, self._on_model_unparsed))

    def _on_model_unparsed(self, reason: str | None) -> None:
        self.note.setVisible(reason is not None)

    # -- actions ---------------------------------------------------------------
    def move_selected(self, delta: int) -> None:
        i = self._document.selected
        n = len(self._document.recipe.steps)
        if i is None or not 0 <= i + delta < n:
            return
        push_edit(self._stack, self._document.recipe, lambda r: r.move(i, i + delta),
                  self.tr("Move step"))
        self._document.select(i + delta)

    def delete_selected(self) -> None:
        i = self._document.selected
        if i is None:
            return
        push_edit(self._stack, self._document.recipe, lambda r: r.remove(i),
                  self.tr("Delete step"))
        self._document.select(min(i, len(self._document.recipe.steps) - 1))

    def rename(self, index: int, new_name: str) -> str | None:
        """Rename step ``index``; returns the reason when the name is refused."""
        recipe = self._document.recipe
        step = recipe.steps[index]
        if step.name is None or new_name == step.name:
            return None
        taken = set(recipe.names()) - {step.name}
        reason = check_name(new_name, taken)
        if reason is None:
            push_edit(self._stack, recipe, lambda r: r.rename(index, new_name),
                      self.tr("Rename step"))
        return reason

    # -- model → view ------------------------------------------------------------
    def _on_model_evaluated(self, run) -> None:
        """Each step's row: its mark, text, colour and tooltip. Rows already there are
        changed only where they differ (an edit's run changes one or two): a list cleared
        and filled again lays out and paints every row. Past ``ROW_CHUNK`` rows to write
        (a new run of 5,000 steps), those on screen are written now and the rest in chunks
        after (``_on_view_later``), so the window keeps its frames."""
        recipe: Recipe = self._document.recipe
        steps = recipe.steps
        shown_run, shown_steps, mark = self._shown
        if run is shown_run and steps is shown_steps and self.list.count() == len(steps):
            fresh = {i for i in run.changed_since(mark) if i < len(steps)}
        else:  # another run or other steps: every row (the written steps kept)
            fresh, self._later = set(range(len(steps))), set()
            self._texts = {}  # (each step's text is the document's, asked for as shown)
        self._shown = (run, steps, run.mark)
        widest = self._widest_size()
        laid_out = False
        with QSignalBlocker(self.list):
            if self.list.count() != len(steps):
                self.list.clear()
                for _ in steps:
                    self.list.addItem(QListWidgetItem())
                self._widths, self._widest = [0] * len(steps), -1
                self._rows = [None] * len(steps)
                laid_out = True
            rows = fresh | self._later
            now = rows
            if len(rows) > ROW_CHUNK:  # on screen first, then this report's, then the rest
                first, last = self._rows_on_screen()
                on_screen = {i for i in rows if first <= i <= last}
                rest = sorted(fresh - on_screen) + sorted(self._later - fresh - on_screen)
                now = on_screen | set(rest[:ROW_CHUNK])
            self._later = rows - now
            self._write_rows(sorted(now), run, steps)
            if self._document.selected is not None:
                self.list.setCurrentRow(self._document.selected)
        if self._later:
            self._later_timer.start()
        if laid_out or self._widest_size() != widest:  # laid out now, not on the list's own
            self._lay_out()  # timer after this frame: one paint, with the others
        elif self.list.count() <= ROW_CHUNK:  # a rewritten row leaves the list a delayed
            # layout of every row: a short list's done now, not as a second frame after
            # this one (an edit's); a long run's list keeps it for its own timer, one a
            # frame, not one a report
            self.list.executeDelayedItemsLayout()
        self._update_buttons()

    def _on_view_later(self) -> None:
        """The next ``ROW_CHUNK`` rows a run changed that were left for later."""
        run, steps, _mark = self._shown
        if run is not self._document.run or steps is not self._document.recipe.steps:
            return  # (the evaluated that replaced them writes them)
        widest = self._widest_size()
        rest = sorted(self._later)
        self._later = set(rest[ROW_CHUNK:])
        with QSignalBlocker(self.list):
            self._write_rows([i for i in rest[:ROW_CHUNK] if i < self.list.count()], run,
                             steps)
        if self._later:
            self._later_timer.start()
        if self._widest_size() != widest:
            self._lay_out()

    def _rows_on_screen(self) -> tuple[int, int]:
        viewport = self.list.viewport()
        first = self.list.indexAt(QPoint(1, 1)).row()
        last = self.list.indexAt(QPoint(1, viewport.height() - 1)).row()
        first = max(first, 0)
        return first, last if last >= 0 else first + ROW_CHUNK

    def _write_rows(self, indices, run, steps) -> None:
        # (Qt's enums, brushes and a row's data read back cost more than the row's own
        # work: 10,000 rows a run of 5,000 statements)
        metrics, results, rows = self.list.fontMetrics(), run.results, self._rows
        brushes: dict[str, QBrush] = {}
        editable_flag, index_role = Qt.ItemFlag.ItemIsEditable, Qt.ItemDataRole.UserRole
        flags: dict[bool, Qt.ItemFlag] = {}  # every row's flags but that one are the same
        for i in indices:
            row = self._row(i, steps[i], results[i] if i < len(results) else None)
            if rows[i] == row:
                continue
            rows[i] = row
            item = self.list.item(i)
            text, status, tip, editable = row
            brush = brushes.get(status)
            if brush is None:
                brush = brushes[status] = QBrush(qcolour(STATUS_ROLES[status]))
            item.setText(text)
            item.setData(index_role, i)
            item.setData(_ROW_ROLE, row)
            item.setForeground(brush)
            item.setToolTip(tip)
            if not flags:
                flags[False] = item.flags() & ~editable_flag
                flags[True] = flags[False] | editable_flag
            item.setFlags(flags[editable])
            self._set_width(i, metrics.horizontalAdvance(text))

    def _lay_out(self) -> None:
        """Every row as wide as the widest, laid out now."""
        self._sizes.widest = QPersistentModelIndex(self.list.model().index(
            self._widest, 0)) if self._widest >= 0 else None
        self.list.doItemsLayout()

    def _widest_size(self) -> tuple[int, int]:
        return self._widest, self._widths[self._widest] if self._widest >= 0 else 0

    def _set_width(self, row: int, width: int) -> None:
        """Row ``row`` is ``width`` wide now: the widest row (``_RowSize``) follows."""
        widths, widest = self._widths, self._widest
        shrunk = row == widest and width < widths[row]
        widths[row] = width
        if shrunk:  # (rarely: a step's mark or text got narrower) look again
            self._widest = max(range(len(widths)), key=widths.__getitem__)
        elif widest < 0 or width > widths[widest]:
            self._widest = row

    def _row(self, i: int, step, result) -> tuple[str, str, str, bool]:
        """Step ``i``'s row: (text, status, tooltip, editable)."""
        status = result.status if result else "skipped"
        kept, source = self._texts.get(id(step)), self._document.text
        if kept is None or kept[0] is not step or kept[1] is not source:
            kept = self._texts[id(step)] = (step, source, self._document.step_text(i)
                                            if not step.is_code else step.code_text)
        written = kept[2]  # as the text has it: ``torch.long``, never the writer's int64
        text = f"{_STATUS_MARK[status]}  {step.label}" if step.is_code \
            else f"{_STATUS_MARK[status]}  {' '.join(written.split())}"
        tip = written
        if result and result.status == "error":
            tip += "\n\n" + result.error
        elif result and result.status == "stopped":  # the kernel's marked English
            tip += "\n\n" + translate_core("Kernel", result.error)
        elif result and result.status == "kernel":
            tip += "\n\n" + self.tr("Code: the kernel runs it, as python does.")
        return text, status, tip, bool(step.name)

    def _on_model_selection(self, index: int | None) -> None:
        with QSignalBlocker(self.list):
            self.list.setCurrentRow(-1 if index is None else index)
        self._update_buttons()

    def _on_view_theme_changed(self, _palette) -> None:
        self.list.clear()  # every row's colour anew
        self._shown = (None, None, 0)
        self._on_model_evaluated(self._document.run)

    def _update_buttons(self) -> None:
        i, n = self._document.selected, len(self._document.recipe.steps)
        self.up_button.setEnabled(i is not None and i > 0)
        self.down_button.setEnabled(i is not None and i < n - 1)
        self.delete_button.setEnabled(i is not None)

    # -- view → model ------------------------------------------------------------
    def _on_view_row(self, row: int) -> None:
        self._document.select(None if row < 0 else row)

    def _on_view_item_edited(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        text = item.text().split("  ", 1)[-1]
        new_name = text.split("=", 1)[0].strip()
        reason = self.rename(index, new_name)
        if reason:
            self.message.setText(reason)
            self.message.show()
        else:
            self.message.hide()
        # Re-render from the model either way, so a refused edit leaves no trace.
        self._shown = (None, None, 0)
        self._on_model_evaluated(self._document.run)


