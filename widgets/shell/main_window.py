"""The main window: panels in docks around the tensor viewer, menus, files, settings."""

from __future__ import annotations

import functools
import os

import torch
from PySide6.QtCore import QByteArray, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QUndoStack
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from app.recipe.document import RECIPES_DIR, Document
from app.recipe.reader import RecipeError
from app.settings import Settings
from widgets.autograd.panel import AutogradPanel
from widgets.common.scale import display_scale
from widgets.explain.op_view import OpView
from widgets.explain.storage_view import StorageView
from widgets.ops.builder_panel import BuilderPanel
from widgets.ops.op_panel import OpPanel
from widgets.recipe.code_pane import CodePane
from widgets.recipe.docs_panel import DocsPanel
from widgets.recipe.gallery_panel import GalleryPanel, lesson_language
from widgets.recipe.lesson_pane import LessonPane, OutputPane
from widgets.recipe.steps_panel import StepsPanel
from widgets.shell.actions import RecipeDrop, WindowActions, show_about
from widgets.shell.autosave_hook import AutosaveHook
from widgets.shell.dock_layout import DockTabBarGuard, tidy_tab_bars
from widgets.shell.exports import TensorExports
from widgets.shell.presenter import PresenterMode
from widgets.shell.settings_store import load_settings, save_settings
from widgets.training.panel import BUSY, TrainingPanel
from widgets.viewer.panel import ViewerPanel

FILE_FILTER = "Recipes (*.py);;All files (*)"
#: Training states with a process that a rebuild of the window would end.
_LIVE_RUN = (*BUSY, "paused")
#: Windows made by ``MainWindow.rebuild``. Python owns a top-level widget, so something must
#: hold each one until Qt destroys it (napari's ``_QtMainWindow._instances`` does the same).
_REBUILT: list[MainWindow] = []


class MainWindow(QMainWindow):
    """Tensor Lab's window. It owns the document and the undo stack and wires the panels.

    Parameters
    ----------
    document : Document, optional
        The recipe to show; a new empty one when not given.
    parent : QWidget, optional
    settings : Settings, optional
        Read from ``QSettings`` when not given.
    undo_stack : QUndoStack, optional
        The undo history, when it comes from a window this one replaces (``rebuild``);
        the window takes it over. A new one when not given.
    """

    replaced = Signal(object)
    """Emitted with the window that takes this one's place (``rebuild``: a language switch)."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None,
                 settings: Settings | None = None, undo_stack: QUndoStack | None = None):
        super().__init__(parent)
        self.document = document if document is not None else Document()
        self.settings = settings if settings is not None else load_settings()
        if undo_stack is None:
            undo_stack = QUndoStack(self)
        else:
            undo_stack.setParent(self)  # it outlives the window it came from
        self.undo_stack = undo_stack
        #: The language the texts were made in, and one waiting for a training run to end.
        self.language = self.settings.language
        self._pending_language: str | None = None
        self.setObjectName("MainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)

        self.viewer = ViewerPanel(self.document)
        self.autograd = AutogradPanel(self.document, self.undo_stack)
        self.views = QTabWidget(self)
        self.views.setDocumentMode(True)
        self.views.addTab(self.viewer, self.tr("Tensor"))
        self.views.addTab(self.autograd, self.tr("Autograd graph"))
        self.views.setTabToolTip(0, self.tr("The selected step's tensor: facts, statistics, "
                                            "every value"))
        self.views.setTabToolTip(1, self.tr("The backward graph of the selected tensor: "
                                            "grad_fn nodes, leaves and their gradients"))
        self.op_view = OpView(self.document, self.undo_stack)
        self.storage_view = StorageView(self.document)
        self.views.setTabToolTip(self.views.addTab(self.op_view, self.tr("Op explained")),
                                 self.tr("The selected step's inputs and output side by side; "
                                         "hover an output cell to see where it came from"))
        self.views.setTabToolTip(self.views.addTab(self.storage_view, self.tr("Memory")),
                                 self.tr("Which tensors share memory: views versus copies, "
                                         "with data_ptr, offset and strides"))
        self.training = TrainingPanel(self.document, self.undo_stack)
        self.training.add_to_tabs(self.views)  # shown while the recipe has a training setup
        self.setCentralWidget(self.views)
        self.steps = StepsPanel(self.document, self.undo_stack)
        self.builder = BuilderPanel(self.document, self.undo_stack)
        self.ops = OpPanel(self.document, self.undo_stack)
        self.code = CodePane(self.document)
        self.output = OutputPane(self.document)
        self.lesson = LessonPane(self.document, language=lesson_language(self.settings.language))
        self.gallery = GalleryPanel(self.document, language=self.lesson.language)
        self.docs_panel = DocsPanel(self.document, self.builder, self.ops)

        self.docks: dict[str, QDockWidget] = {}
        self._dock("steps", self.tr("Steps"), self.steps, Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("lesson", self.tr("Lesson"), self.lesson,
                   Qt.DockWidgetArea.LeftDockWidgetArea)
        self._dock("builder", self.tr("Builder"), self.builder,
                   Qt.DockWidgetArea.RightDockWidgetArea)
        self._dock("ops", self.tr("Ops"), self.ops, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.docks["builder"], self.docks["ops"])
        self._dock("docs", self.tr("Docs"), self.docs_panel,
                   Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.docks["ops"], self.docks["docs"])
        self._dock("gallery", self.tr("Gallery"), self.gallery,
                   Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.docks["docs"], self.docks["gallery"])
        self.docks["builder"].raise_()
        self._dock("code", self.tr("Code"), self.code, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._dock("output", self.tr("Output"), self.output,
                   Qt.DockWidgetArea.BottomDockWidgetArea)
        self.tabifyDockWidget(self.docks["code"], self.docks["output"])
        self.docks["code"].raise_()
        self.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas, QTabWidget.TabPosition.North)
        # The builder and op forms need the height more than the code pane needs the width.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.resizeDocks([self.docks["steps"], self.docks["builder"]], [300, 340],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["code"]], [230], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["steps"], self.docks["lesson"]], [330, 200],
                         Qt.Orientation.Vertical)
        self._default_state = self.saveState()

        self.presenter = PresenterMode(self, self.settings)
        self.exports = TensorExports(self)
        self.exports.install_viewer_menus(self.viewer)
        self.window_actions = WindowActions(self)
        self.recent_menu = self.window_actions.recent_menu
        self.presenter.toggled.connect(self._on_view_presenter_toggled)
        self.training.state_changed.connect(self._on_view_training_state)
        self._drop = RecipeDrop(self)
        self._tab_bars = DockTabBarGuard(self)
        self._refresh_recent_menu()
        self._build_status_bar()
        self._set_model_connected(True)
        self._update_title()
        self._on_model_selection(self.document.selected)

    # -- construction ------------------------------------------------------------
    def _dock(self, key: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[key] = dock

    def _build_status_bar(self) -> None:
        from app.devices import available_devices

        devices = ", ".join(d.id for d in available_devices())
        cuda = f" · CUDA {torch.version.cuda}" if torch.cuda.is_available() else ""
        info = QLabel(self.tr("│  torch {0}{1} · default device: {2} · devices: {3}").format(
            torch.__version__, cuda, self.settings.default_device, devices))
        info.setToolTip(self.tr("The default device, the PyTorch build in use and the "
                                "devices it can reach"))
        self.shape_label = QLabel()
        self.shape_label.setToolTip(self.tr("Shape and dtype of the selected step's tensor"))
        self.statusBar().addPermanentWidget(self.shape_label)
        self.statusBar().addPermanentWidget(info)

    def _set_model_connected(self, connect: bool) -> None:
        doc = self.document
        for signal, slot in ((doc.path_changed, self._on_model_path),
                             (doc.modified_changed, self._on_model_modified),
                             (doc.selection_changed, self._on_model_selection),
                             (doc.evaluated, self._on_model_evaluated),
                             (self.gallery.open_requested, self.open_from_gallery),
                             (self.gallery.reset_requested, self.reset_to_original),
                             (self.settings.events, self._on_model_settings_changed),
                             (self.settings.events.language, self._on_model_language)):
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
        if self.document.file_warnings:
            self.statusBar().showMessage("  ".join(self.document.file_warnings), 20_000)
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

    def show_gallery(self) -> None:
        """Show the gallery panel, raised, with the keyboard in its search box."""
        self.docks["gallery"].show()
        self.docks["gallery"].raise_()
        self.gallery.ensure_scanned()
        self.gallery.search_edit.setFocus()

    def open_from_gallery(self, path: str) -> bool:
        """Open a lesson picked in the gallery, asking first about unsaved changes."""
        return self.confirm_discard() and self.open_path(path)

    def reset_to_original(self) -> bool:
        """Open the recipe's file again, discarding its changes (after asking)."""
        path = self.document.path
        if path is None:
            self.statusBar().showMessage(self.tr("This recipe has no file to go back to."), 8000)
            return False
        if self.document.modified and QMessageBox.question(
                self, self.tr("Reset to the original"),
                self.tr("Discard every change made to {0} and open the file as it "
                        "was saved?").format(os.path.basename(path)),
                QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel) != QMessageBox.StandardButton.Reset:
            return False
        return self.open_path(path)

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
        return list(self.settings.recent_recipes)

    def _add_recent(self, path: str) -> None:
        self.settings.add_recent(os.path.abspath(path))
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
        """Put the window and its panels where the settings say they were."""
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray(self.settings.window_geometry))
        if self.settings.window_state:
            self.restoreState(QByteArray(self.settings.window_state))
            tidy_tab_bars(self)

    def save_settings(self) -> None:
        """Remember the window's layout, and store every setting."""
        with self.settings.events.blocked():
            self.settings.window_geometry = bytes(self.saveGeometry().data())
            self.settings.window_state = bytes(self.saveState().data())
        save_settings(self.settings)

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        for dock in self.docks.values():
            dock.show()
        tidy_tab_bars(self)

    def about(self) -> None:
        show_about(self)

    # -- language: the window is made again in it --------------------------------------
    def switch_language(self, language: str) -> MainWindow | None:
        """Show the UI in ``language`` (a locale name; ``""`` follows the system) now.

        Installs its translation (``widgets.shell.translators.install_translators``) and
        ``rebuild``-s the window. A training run under way or paused would end with the old
        window, so then the switch waits until the run ends, and says so in the status bar.
        Returns the new window, or None while the switch waits.
        """
        if self.training.state in _LIVE_RUN:
            self._pending_language = None if language == self.language else language
            self.statusBar().showMessage(
                self.tr("The language changes when the training run ends: Stop or Reset "
                        "the run to switch now.") if self._pending_language is not None
                else "")
            return None
        from widgets.shell.translators import install_translators

        self._pending_language = None
        install_translators(language)
        return self.rebuild()

    def rebuild(self) -> MainWindow:
        """Make this window again, with the translation installed now, and take its place.

        The new window shares the document, the undo stack (the undo history survives) and
        the settings, and gets this one's geometry, panel layout, view tab, presenter mode,
        zoom, autosave and the training runs kept for comparison. This window is then hidden
        and deleted without asking about unsaved changes: they live on in the document.
        ``replaced`` is emitted with the new window, which is also returned.
        """
        presenting = self.presenter.enabled
        if presenting:  # leave it first: the layout and scale before it are the ones to keep
            self.presenter.set_enabled(False)
        new = MainWindow(self.document, settings=self.settings, undo_stack=self.undo_stack)
        _REBUILT.append(new)
        new.destroyed.connect(functools.partial(_forget_window, id(new)))
        new.restoreGeometry(self.saveGeometry())  # the screen, maximized or full screen
        if not self.windowState() & (Qt.WindowState.WindowMaximized
                                     | Qt.WindowState.WindowFullScreen):
            new.setGeometry(self.geometry())  # exactly, even where it overhangs the screen
        new.restoreState(self.saveState())
        tidy_tab_bars(new)
        new.views.setCurrentIndex(self.views.currentIndex())
        new._adopt_training_runs(self.training)
        for hook in self.findChildren(AutosaveHook,
                                      options=Qt.FindChildOption.FindDirectChildrenOnly):
            hook.setParent(new)
        if self.isVisible():
            new.show()  # before this one hides: the application is never without a window
        if presenting:
            new.presenter.set_enabled(True)
        elif display_scale().value != 1.0:
            display_scale().reapply()  # the zoom, for the new widgets' own fonts and plots
        self._retire()
        # views made after the step was selected are told of it, as they would be of a click
        self.document.selection_changed.emit(self.document.selected)
        self.replaced.emit(new)
        return new

    def _adopt_training_runs(self, old: TrainingPanel) -> None:
        """Keep the runs of ``old`` in this window's comparison: their metrics are plain data."""
        records = old.kept_runs()
        if records:
            self.training.adopt_runs(records)

    def _retire(self) -> None:
        """Leave quietly after ``rebuild``: let go of the shared models, hide, be deleted.

        No "save changes?" question, no settings written, no autosave side effects (the
        autosave hook already moved to the new window).
        """
        self._set_model_connected(False)
        for child in self.findChildren(QWidget):  # every panel wires in one method
            wire = getattr(child, "_set_model_connected", None)
            if callable(wire):
                wire(False)
        self.training.shutdown()
        self.hide()
        self.deleteLater()

    def _on_view_training_state(self, state: str) -> None:
        if self._pending_language is not None and state not in _LIVE_RUN:
            QTimer.singleShot(0, self._switch_to_pending_language)  # after the panel's update

    def _switch_to_pending_language(self) -> None:
        language = self._pending_language
        if language is None or self.training.state in _LIVE_RUN:
            return
        new = self.switch_language(language)
        if new is not None:
            new.statusBar().showMessage(
                self.tr("The training run ended, so the window now shows the language chosen."),
                8000)

    # -- model → view ------------------------------------------------------------------
    def _update_title(self) -> None:
        name = os.path.basename(self.document.path) if self.document.path \
            else self.document.recipe.title
        self.setWindowTitle(self.tr("{0}[*] — Tensor Lab").format(name))
        self.setWindowModified(self.document.modified)

    def _on_model_settings_changed(self, *_: object) -> None:
        save_settings(self.settings)

    def _on_view_presenter_toggled(self, on: bool) -> None:
        self.window_actions.update_presenter_keys(on)
        with QSignalBlocker(self.window_actions["view.presenter"]):
            self.window_actions["view.presenter"].setChecked(on)

    def _on_model_language(self, language: str) -> None:
        self.lesson.set_language(lesson_language(language))
        self.gallery.set_language(self.lesson.language)

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
        self.training.shutdown()  # ends the training process, if one runs
        super().closeEvent(event)


def _forget_window(key: int) -> None:
    _REBUILT[:] = [w for w in _REBUILT if id(w) != key]
