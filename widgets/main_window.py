"""The main window: panels in docks around the tensor viewer, menus, files, settings."""

from __future__ import annotations

import os

import torch
from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QTabWidget, QWidget)

from app import __version__
from app.document import RECIPES_DIR, Document
from app.reader import RecipeError
from widgets.builder_panel import BuilderPanel
from widgets.code_pane import CodePane
from widgets.lesson_pane import LessonPane, OutputPane
from widgets.steps_panel import StepsPanel
from widgets.viewer_panel import ViewerPanel

MAX_RECENT = 8
FILE_FILTER = "Recipes (*.py);;All files (*)"


class MainWindow(QMainWindow):
    """Tensor Lab's window. It owns the document and the undo stack and wires the panels."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document if document is not None else Document()
        self.undo_stack = QUndoStack(self)
        self.setObjectName("MainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)

        self.viewer = ViewerPanel(self.document)
        self.setCentralWidget(self.viewer)
        self.steps = StepsPanel(self.document, self.undo_stack)
        self.builder = BuilderPanel(self.document, self.undo_stack)
        self.code = CodePane(self.document)
        self.output = OutputPane(self.document)
        self.lesson = LessonPane(self.document)

        self.docks: dict[str, QDockWidget] = {}
        self._dock("steps", self.tr("Steps"), self.steps, Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("lesson", self.tr("Lesson"), self.lesson,
                   Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("builder", self.tr("Builder"), self.builder,
                   Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("code", self.tr("Code"), self.code, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._dock("output", self.tr("Output"), self.output,
                   Qt.DockWidgetArea.BottomDockWidgetArea)
        self.tabifyDockWidget(self.docks["code"], self.docks["output"])
        self.docks["code"].raise_()
        self.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas, QTabWidget.TabPosition.North)
        self.resizeDocks([self.docks["steps"], self.docks["builder"]], [300, 340],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["code"]], [230], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["steps"], self.docks["lesson"]], [330, 200],
                         Qt.Orientation.Vertical)
        self._default_state = self.saveState()

        self._build_menus()
        self._build_status_bar()
        self._set_model_connected(True)
        self._update_title()

    # -- construction ------------------------------------------------------------
    def _dock(self, key: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[key] = dock

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip or text.replace("&", "").rstrip("."))
        action.setToolTip(action.statusTip())
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu(self.tr("&File"))
        self._action(file, self.tr("&New"), self.new_recipe, QKeySequence.StandardKey.New,
                     self.tr("Start an empty recipe"))
        self._action(file, self.tr("&Open..."), self.open_dialog, QKeySequence.StandardKey.Open,
                     self.tr("Open a recipe (.py); it is read, never run"))
        self.recent_menu = file.addMenu(self.tr("Open &Recent"))
        self.recent_menu.setToolTipsVisible(True)
        self._action(file, self.tr("Open &Welcome Recipe"), self.document.open_welcome,
                     tip=self.tr("Open the recipe Tensor Lab starts with"))
        file.addSeparator()
        self._action(file, self.tr("&Save"), self.save, QKeySequence.StandardKey.Save,
                     self.tr("Save the recipe as a Python script"))
        self._action(file, self.tr("Save &As..."), self.save_as,
                     QKeySequence.StandardKey.SaveAs, self.tr("Save the recipe under a new name"))
        file.addSeparator()
        self._action(file, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit,
                     self.tr("Close Tensor Lab"))

        edit = bar.addMenu(self.tr("&Edit"))
        undo = self.undo_stack.createUndoAction(self, self.tr("&Undo"))
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self, self.tr("&Redo"))
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit.addActions([undo, redo])
        edit.addSeparator()
        self._action(edit, self.tr("Move Step &Up"), lambda: self.steps.move_selected(-1),
                     "Alt+Up")
        self._action(edit, self.tr("Move Step &Down"), lambda: self.steps.move_selected(1),
                     "Alt+Down")
        self._action(edit, self.tr("&Delete Step"), self.steps.delete_selected,
                     QKeySequence.StandardKey.Delete)

        view = bar.addMenu(self.tr("&View"))
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())
        view.addSeparator()
        self._action(view, self.tr("&Reset Layout"), self.reset_layout,
                     tip=self.tr("Put every panel back where it started"))

        help_ = bar.addMenu(self.tr("&Help"))
        self._action(help_, self.tr("&About Tensor Lab"), self.about)
        self._refresh_recent_menu()

    def _build_status_bar(self) -> None:
        from app.devices import available_devices

        devices = ", ".join(d.id for d in available_devices())
        cuda = f" · CUDA {torch.version.cuda}" if torch.cuda.is_available() else ""
        info = QLabel(self.tr("torch {0}{1} · devices: {2}").format(
            torch.__version__, cuda, devices))
        info.setToolTip(self.tr("The PyTorch build in use and the devices it can reach"))
        self.shape_label = QLabel()
        self.shape_label.setToolTip(self.tr("Shape and dtype of the selected step's tensor"))
        self.statusBar().addPermanentWidget(self.shape_label)
        self.statusBar().addPermanentWidget(info)

    def _set_model_connected(self, connect: bool) -> None:
        doc = self.document
        for signal, slot in ((doc.path_changed, self._on_model_path),
                             (doc.modified_changed, self._on_model_modified),
                             (doc.selection_changed, self._on_model_selection),
                             (doc.evaluated, self._on_model_evaluated)):
            signal.connect(slot) if connect else signal.disconnect(slot)

    # -- files -------------------------------------------------------------------
    def new_recipe(self) -> None:
        if self.confirm_discard():
            self.document.new()
            self.undo_stack.clear()

    def open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        start = os.path.dirname(self.document.path or "") or str(RECIPES_DIR)
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open Recipe"), start, FILE_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Open ``path``; a refused file leaves the current recipe as it was."""
        try:
            self.document.open(path)
        except RecipeError as e:
            self.show_error(self.tr("Not a recipe"),
                            self.tr("{0} was not opened.\n\nLine {1}, column {2}: {3}").format(
                                os.path.basename(path), e.line, e.column, e.reason))
            return False
        except OSError as e:
            self.show_error(self.tr("Cannot open"), f"{path}: {e.strerror or e}")
            return False
        self.undo_stack.clear()
        self._add_recent(path)
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = self.document.path or os.path.join(os.path.expanduser("~"), "recipe.py")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save Recipe"), start, FILE_FILTER)
        return bool(path) and self._save_to(path)

    def _save_to(self, path: str) -> bool:
        try:
            self.document.save(path)
        except OSError as e:
            self.show_error(self.tr("Cannot save"), f"{path}: {e.strerror or e}")
            return False
        self.undo_stack.setClean()
        self._add_recent(path)
        return True

    def confirm_discard(self) -> bool:
        """True when there are no unsaved changes, or the user chose what to do with them."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("The recipe has changes that are not saved. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def show_error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text.splitlines()[0], 8000)
        QMessageBox.warning(self, title, text)

    # -- recent files and layout ---------------------------------------------------
    def recent_files(self) -> list[str]:
        value = QSettings().value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: str) -> None:
        path = os.path.abspath(path)
        recent = [path] + [p for p in self.recent_files() if p != path]
        QSettings().setValue("recent", recent[:MAX_RECENT])
        self._refresh_recent_menu()

    def _refresh_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(os.path.basename(path))
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        self.recent_menu.setEnabled(bool(recent))

    def _open_recent(self, path: str) -> None:
        if self.confirm_discard():
            self.open_path(path)

    def restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        state = settings.value("window/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def save_settings(self) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        for dock in self.docks.values():
            dock.show()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Tensor Lab"), self.tr(
            "<b>Tensor Lab</b> {0}<br>A desktop lab for exploring PyTorch.<br><br>"
            "torch {1}<br>Qt {2}").format(__version__, torch.__version__, _qt_version()))

    # -- model → view ------------------------------------------------------------------
    def _update_title(self) -> None:
        name = os.path.basename(self.document.path) if self.document.path \
            else self.document.recipe.title
        self.setWindowTitle(self.tr("{0}[*] — Tensor Lab").format(name))
        self.setWindowModified(self.document.modified)

    def _on_model_path(self, _path) -> None:
        self._update_title()

    def _on_model_modified(self, _modified: bool) -> None:
        self._update_title()

    def _on_model_evaluated(self, _run) -> None:
        self._on_model_selection(self.document.selected)

    def _on_model_selection(self, index: int | None) -> None:
        text = ""
        if index is not None and index < len(self.document.run.results):
            value = self.document.run.results[index].value
            if isinstance(value, torch.Tensor):
                shape = "×".join(str(s) for s in value.shape) or self.tr("scalar")
                text = f"{shape} · {str(value.dtype).replace('torch.', '')} · {value.device}"
        self.shape_label.setText(text)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.confirm_discard():
            event.ignore()
            return
        self.save_settings()
        self._set_model_connected(False)
        super().closeEvent(event)


def _qt_version() -> str:
    from PySide6 import __version__ as pyside_version

    return pyside_version
