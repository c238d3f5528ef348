"""Autosave wired to a window: a timer after each edit, the restore offer at start.

The files and the decision of what to offer live in ``app.recipe.autosave`` (Qt-free); this
module only times the writes on the GUI thread and asks the user.

Environment (for tests and scripted demos):

``TENSOR_LAB_RESTORE_AUTOSAVE``
    ``yes`` or ``no`` answers the restore question without showing it.
``TENSOR_LAB_TEST_EDIT``
    Recipe lines (``z = torch.zeros(2)``) appended as one undoable edit once the window
    is up, so a test can crash a real process that has unsaved work.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from app.identity import data_dir
from app.recipe.autosave import DELAY_S, Autosave, Recovery, find_recovery
from app.recipe.document import Document
from app.recipe.header import IMPORT_LINES
from app.recipe.reader import RecipeError, read_recipe
from app.trust import ELSEWHERE
from widgets.common.doc_links import listen
from widgets.common.undo import push_edit
from widgets.shell.opening import trust_store

RESTORE_VARIABLE = "TENSOR_LAB_RESTORE_AUTOSAVE"
TEST_EDIT_VARIABLE = "TENSOR_LAB_TEST_EDIT"
_HEADER = IMPORT_LINES


def _tr(text: str) -> str:
    # the empty context: where lupdate files a module-level _tr call's text
    return QCoreApplication.translate("", text)


class AutosaveHook(QObject):
    """Writes ``document``'s recipe to ``autosave`` at most ``DELAY_S`` after each edit.

    Parameters
    ----------
    document : Document
        The open recipe. Only unsaved changes are written; saving or opening a file
        removes the autosave.
    autosave : Autosave
        This session's files.
    parent : QObject, optional
        Usually the main window, which the hook lives as long as.
    """

    def __init__(self, document: Document, autosave: Autosave, parent: QObject | None = None):
        super().__init__(parent)
        self._document, self.autosave = document, autosave
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(round(DELAY_S * 1000))
        self.timer.timeout.connect(self.save_now)
        self._connected = False
        self._set_model_connected(True)
        autosave.start()
        if document.modified:  # a restored recipe: it has unsaved changes from the start
            self.timer.start()

    def _set_model_connected(self, connect: bool) -> None:
        """Listen to (or stop listening to) the document: the one place the hook does."""
        if connect == self._connected:
            return
        self._connected = connect
        listen(self, [(self._document.modified_changed, self._on_model_modified),
                      (self._document.held_changed, self._on_model_held)], connect)

    def _on_model_modified(self, modified: bool) -> None:
        if not modified:
            self.timer.stop()
            self.autosave.drop()
        elif not self.timer.isActive():  # later edits ride on the pending write
            self.timer.start()

    def _on_model_held(self, held: bool) -> None:
        if not held and self._document.modified:
            self.save_now()  # the user chose Run: the work runs if it is restored

    def save_now(self) -> None:
        """Write the recipe's text now, if it has unsaved changes; a recipe that runs (not
        held) is also recorded in the trust store, so that only its recovery runs."""
        self.timer.stop()
        document = self._document
        if document.modified:
            text = document.text  # the text on screen, byte for byte
            if not document.held and document.problem is None:
                trust_store().remember_running(text)
            try:
                self.autosave.save(text, document.path)
            except OSError as e:  # a full or read-only disk must not stop the lab
                print(f"tensor-lab: autosave failed: {e.strerror or e}", file=sys.stderr)

    def finish(self) -> None:
        """The lab is closing normally: stop, and mark the session's exit as clean."""
        self.timer.stop()
        self._set_model_connected(False)
        self.autosave.finish()


def restore_box(parent: QWidget | None, recovery: Recovery) -> QMessageBox:
    """The question offering to restore ``recovery`` (Restore is the default button)."""
    where = os.path.basename(recovery.path) if recovery.path else _tr("an unsaved recipe")
    when = time.strftime("%H:%M:%S", time.localtime(recovery.saved))
    box = QMessageBox(QMessageBox.Icon.Question, _tr("Restore unsaved work?"),
                      _tr("Tensor Lab did not close properly last time.\n\n"
                          "Restore the changes to {0}, autosaved at {1}?").format(where, when),
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.button(QMessageBox.StandardButton.Yes).setText(_tr("Restore"))
    box.button(QMessageBox.StandardButton.Yes).setToolTip(
        _tr("Open the autosaved recipe, with its changes not yet saved"))
    box.button(QMessageBox.StandardButton.No).setText(_tr("Discard"))
    box.button(QMessageBox.StandardButton.No).setToolTip(_tr("Forget the autosaved changes"))
    box.setDefaultButton(QMessageBox.StandardButton.Yes)
    return box


def ask_restore(parent: QWidget | None, recovery: Recovery) -> bool:
    """Whether to restore ``recovery``: ``TENSOR_LAB_RESTORE_AUTOSAVE``, or the user says."""
    answer = os.environ.get(RESTORE_VARIABLE, "").strip().lower()
    if answer in ("yes", "no"):
        return answer == "yes"
    return restore_box(parent, recovery).exec() == QMessageBox.StandardButton.Yes


def restore(window: Any, recovery: Recovery) -> bool:
    """Put the recovered text in ``window``'s document, as unsaved changes to its file.

    It runs only if this lab recorded it running (or saved it, or it is a gallery
    lesson's own text): ``TrustStore.reason_to_restore``. Anything else (work on a file
    from elsewhere that never ran, a marker someone else wrote) stays held, whatever the
    marker says and wherever its file went, until the user chooses Run.
    """
    try:
        recipe = recovery.recipe()
    except RecipeError:
        return False
    document = window.document
    runs = trust_store().reason_to_restore(recovery.text, recovery.path) != ELSEWHERE
    opened = False
    if recovery.path and os.path.isfile(recovery.path):
        try:  # the file is the one the work is unsaved changes to; held, it runs nothing
            document.open(recovery.path, run=False)
            opened = True
        except (RecipeError, OSError):
            pass
    if not opened:
        document.new(held=True)
    document.recipe.restore((recipe.steps, recipe.docstring, recovery.text))
    window.undo_stack.clear()
    if runs:
        document.release()
    else:
        window.trust_bar.show_untrusted(document.path)
    return True


def start_autosave(window: Any, folder: str | os.PathLike[str] | None = None) -> AutosaveHook:
    """Offer to restore a crashed session's work in ``window``, then autosave from now on.

    ``window`` is the main window (``document`` and ``undo_stack`` are used). ``folder``
    is the data folder; by default ``TENSOR_LAB_DATA_DIR`` or Qt's app-data location.
    """
    if folder is None:
        folder = data_dir(QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.AppDataLocation))
    recovery = find_recovery(folder)
    if recovery is not None:
        if ask_restore(window, recovery):
            restore(window, recovery)
        recovery.discard()
    hook = AutosaveHook(window.document, Autosave(folder), window)
    edit = os.environ.get(TEST_EDIT_VARIABLE)
    if edit:
        steps = read_recipe(_HEADER + edit.replace("\\n", "\n") + "\n").steps
        push_edit(window.undo_stack, window.document.recipe,
                  lambda r: [r.append(step) for step in steps], _tr("Test edit"))
    return hook
