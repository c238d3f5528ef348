"""The window's recipe files: new, open, save, the recent files and the questions around them.

``MainWindow``'s file methods (``open_path``, ``save``, ``confirm_discard``...) hand their
work to ``RecipeFiles``. Their texts keep the ``MainWindow`` translation context.
"""

from __future__ import annotations

import os
import posixpath
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject, QUrl
from PySide6.QtGui import QDesktopServices, QUndoStack
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QStatusBar, QWidget

from app.link.places import chosen
from app.recipe.document import RECIPES_DIR, Document
from app.resources import is_gallery
from app.settings import Settings
from widgets.common.i18n_text import translate_core
from widgets.shell.opening import open_file


class FilesHost(Protocol):
    """What ``RecipeFiles`` needs of its window (``MainWindow`` is one): its parts, and
    the file methods it calls back, so that what stands in for one of them (a test's
    answer to a question) is what runs."""

    document: Document
    undo_stack: QUndoStack
    settings: Settings
    recent_menu: QMenu
    code: QWidget  # the code pane: commit(), problem, editor

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def open_path(self, path: str, *, trust: bool = False) -> bool: ...
    def save(self) -> bool: ...
    def save_as(self) -> bool: ...
    def confirm_discard(self) -> bool: ...
    def show_error(self, title: str, text: str) -> None: ...


FILE_FILTER = "Recipes (*.py);;All files (*)"


class RecipeFiles(QObject):
    """Opens and saves ``window``'s recipe, asks about unsaved changes, keeps the recent files.

    It calls the window's own ``open_path``, ``save``, ``confirm_discard`` and
    ``show_error`` where one step leads to another, so what replaces those on the window
    (a test's stand-in for a question) is what runs.

    Parameters
    ----------
    window : FilesHost (a QWidget)
        Its ``document``, ``undo_stack``, ``settings`` and ``recent_menu``; also the Qt parent.
    """

    def __init__(self, window: FilesHost):
        super().__init__(window)
        self._window = window
        self._document = window.document

    # -- files ---------------------------------------------------------------------------
    def new_recipe(self) -> None:
        if self._window.confirm_discard():
            self._document.new()
            self._window.undo_stack.clear()

    def open_dialog(self) -> None:
        window = self._window
        if not window.confirm_discard():
            return
        start = os.path.dirname(self._document.path or "") or str(RECIPES_DIR)
        path, _ = QFileDialog.getOpenFileName(window, QCoreApplication.translate(
            "MainWindow", "Open Recipe"), start, FILE_FILTER)
        if path:
            window.open_path(path)

    def open_path(self, path: str, *, trust: bool = False) -> bool:
        """Open ``path`` by the trust rule; False (the bar says why) when it did not open."""
        opened = open_file(self._window, path, trust=trust)
        if self._document.path == path:  # shown, as a recipe or as text Python cannot read
            self._window.undo_stack.clear()
        if not opened:
            return False
        self._add_recent(path)
        if self._document.file_warnings:
            self._window.statusBar().showMessage("  ".join(
                translate_core("Document", w) for w in self._document.file_warnings), 20_000)
        return True

    def save(self) -> bool:
        """Save to the recipe's file; an unsaved recipe or a gallery lesson asks where
        (a lesson stays as the lab ships it, and the copy is the user's own)."""
        path = self._document.path
        if path is None or is_gallery(path):
            return self._window.save_as()
        return self.save_to(path)

    def save_as(self) -> bool:
        start = self._document.path
        if start is None or is_gallery(start):  # offered in the user's home folder
            start = os.path.join(os.path.expanduser("~"), os.path.basename(start or "recipe.py"))
        path, _ = QFileDialog.getSaveFileName(self._window, QCoreApplication.translate(
            "MainWindow", "Save Recipe"), start, FILE_FILTER)
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the recipe to ``path``; False, after saying why, when it could not."""
        try:
            self._document.save(path)
        except OSError as e:
            self._window.show_error(QCoreApplication.translate("MainWindow", "Cannot save"),
                                    f"{path}: {e.strerror or e}")
            return False
        self._window.undo_stack.setClean()
        self._add_recent(path)
        return True

    def show_run_folder(self) -> bool:
        """Open the recipe's working folder (``run_path`` makes the work folder) in the
        system's file manager; False, with the folder named, when it cannot be shown."""
        path, folder = self._document.run_path()
        server = chosen()
        if server is not None:  # on a server: its folder named, its files a download away
            from protocol.remote import WORK_ROOT

            there = self._window.kernel_hook.session.work_folder(path) or posixpath.join(
                WORK_ROOT, os.path.splitext(os.path.basename(path))[0])
            self._window.statusBar().showMessage(QCoreApplication.translate(
                "MainWindow", "The recipe runs on {0}, in {1}; File > Download from the "
                "Server fetches its files").format(server, there), 30_000)
            return False
        if QDesktopServices.openUrl(QUrl.fromLocalFile(folder)):
            return True
        self._window.statusBar().showMessage(QCoreApplication.translate(  # no file manager
            "MainWindow", "The recipe runs in {0}").format(folder), 20_000)
        return False

    def reset_to_original(self) -> bool:
        """Open the recipe's file again, discarding its changes (after asking)."""
        window, path = self._window, self._document.path
        if path is None:
            window.statusBar().showMessage(QCoreApplication.translate(
                "MainWindow", "This recipe has no file to go back to."), 8000)
            return False
        if self._document.modified and QMessageBox.question(
                window, QCoreApplication.translate("MainWindow", "Reset to the original"),
                QCoreApplication.translate(
                    "MainWindow", "Discard every change made to {0} and open the file as it "
                    "was saved?").format(os.path.basename(path)),
                QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel) != QMessageBox.StandardButton.Reset:
            return False
        return window.open_path(path)

    def confirm_discard(self) -> bool:
        """True when there are no unsaved changes, or the user chose what to do with them
        (code typed that is not Python yet included: it is not in the recipe)."""
        code = self._window.code
        if not code.commit() and QMessageBox.question(
                self._window, QCoreApplication.translate("MainWindow", "Code that is not "
                                                         "Python yet"),
                QCoreApplication.translate(
                    "MainWindow", "The code typed in the Code pane does not read as Python "
                    "yet, so it is not part of the recipe: {0}\n\nDiscard what was typed?"
                ).format(code.problem.text()),
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel) != QMessageBox.StandardButton.Discard:
            code.editor.setFocus()
            return False
        if not self._document.modified:
            return True
        answer = QMessageBox.question(
            self._window, QCoreApplication.translate("MainWindow", "Unsaved changes"),
            QCoreApplication.translate(
                "MainWindow", "The recipe has changes that are not saved. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self._window.save()
        return answer == QMessageBox.StandardButton.Discard

    def show_error(self, title: str, text: str) -> None:
        self._window.statusBar().showMessage(text.splitlines()[0], 8000)
        QMessageBox.warning(self._window, title, text)

    # -- recent files ------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        return list(self._window.settings.recent_recipes)

    def _add_recent(self, path: str) -> None:
        self._window.settings.add_recent(os.path.abspath(path))
        self.refresh_recent_menu()

    def refresh_recent_menu(self) -> None:
        """List the recent files in File > Open Recent (``window.recent_menu``)."""
        menu = self._window.recent_menu
        menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = menu.addAction(os.path.basename(path))
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        menu.setEnabled(bool(recent))

    def _open_recent(self, path: str) -> None:
        if self._window.confirm_discard():
            self._window.open_path(path)
