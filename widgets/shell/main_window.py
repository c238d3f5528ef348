"""The main window: panels in docks around the tensor viewer, menus, files, settings.

What it is made of lives beside it: where the panels go (``widgets.shell.window_layout``),
the recipe files (``widgets.shell.recipe_files``), the actions (``widgets.shell.actions``)
and the texts, which a language switch sets again in place (``widgets.common.retranslate``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QUndoStack
from PySide6.QtWidgets import QMainWindow, QTabWidget, QVBoxLayout, QWidget

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue, tensor_summary
from app.settings import Settings
from widgets.common.kernel_hook import KernelHook
from widgets.common.retranslate import deliver_language_change, translated
from widgets.ops.builder_panel import BuilderPanel
from widgets.recipe.code_pane import CodePane
from widgets.recipe.lesson_pane import LessonPane
from widgets.recipe.steps_panel import StepsPanel
from widgets.shell.actions import RecipeDrop, WindowActions
from widgets.shell.dock_layout import DockTabBarGuard, tidy_tab_bars
from widgets.shell.kernel_status import KernelStatus
from widgets.shell.lazy_panels import LazyPanels
from widgets.shell.opening import TrustGate
from widgets.shell.presenter import PresenterMode
from widgets.shell.recipe_files import FILE_FILTER, RecipeFiles
from widgets.shell.run_on import RunOn
from widgets.shell.settings_store import load_settings, save_settings
from widgets.shell.translators import lesson_language
from widgets.shell.trust_bar import TrustBar
from widgets.shell.window_layout import add_status_labels, add_view_tabs, dock_panels
from widgets.viewer.panel import ViewerPanel

if TYPE_CHECKING:
    from widgets.shell.exports import TensorExports

__all__ = ["FILE_FILTER", "MainWindow"]

#: How much of the screen's free area the window takes on the first launch.
FIRST_SIZE = 0.85


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
        The undo history; the window takes it over. A new one when not given.
    attach_kernel : bool, optional
        False: the document gets its kernel at ``kernel_hook.warm()`` (the launcher's,
        right after the first paint), and its steps wait for it until then.
    """

    def __init__(self, document: Document | None = None, parent: QWidget | None = None,
                 settings: Settings | None = None, undo_stack: QUndoStack | None = None,
                 *, attach_kernel: bool = True):
        super().__init__(parent)
        self.document = document if document is not None else Document()
        self.settings = settings if settings is not None else load_settings()
        if undo_stack is None:
            undo_stack = QUndoStack(self)
        else:
            undo_stack.setParent(self)
        self.undo_stack = undo_stack
        self.setObjectName("MainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)

        # What the first paint shows is built now; the rest when first needed (shown or
        # asked for: ``window.training`` builds it), or right after the first paint.
        self._lazy = LazyPanels(self)
        self.viewer = ViewerPanel(self.document)
        self.views = QTabWidget(self)
        add_view_tabs(self.views, self.viewer, self._lazy, {
            "autograd": self._make_autograd, "op_view": self._make_op_view,
            "storage_view": self._make_storage_view, "training": self._make_training,
            "model": self._make_model})
        self._model_shown_for_step = False  # the Model tab came with a module's step
        self.trust_bar = TrustBar(self)
        self.setCentralWidget(_stacked(self.trust_bar, self.views))
        self.steps = StepsPanel(self.document, self.undo_stack)
        self.builder = BuilderPanel(self.document, self.undo_stack)
        self.code = CodePane(self.document, self.undo_stack)
        self.code.source_fixed.connect(self._on_source_fixed)
        self.lesson = LessonPane(self.document, language=lesson_language(self.settings.language))
        self.docks = dock_panels(self, {
            "steps": self.steps, "lesson": self.lesson, "builder": self.builder,
            "code": self.code}, self._lazy, {
            "ops": self._make_ops, "docs": self._make_docs_panel,
            "gallery": self._make_gallery, "output": self._make_output})
        self._default_state = self.saveState()

        self.presenter = PresenterMode(self, self.settings)
        self._exports: TensorExports | None = None  # (``exports``)
        self.viewer.when_body_built(lambda: self.exports.install_viewer_menus(self.viewer))
        self.window_actions = WindowActions(self)
        self.recent_menu = self.window_actions.recent_menu
        self._files = RecipeFiles(self)
        self._trust = TrustGate(self)
        self.presenter.toggled.connect(self._on_view_presenter_toggled)
        self._drop = RecipeDrop(self)
        self._tab_bars = DockTabBarGuard(self)
        self._files.refresh_recent_menu()
        self.shape_label = add_status_labels(self, self.settings.default_device)
        self.kernel_hook = KernelHook(self.document, self, attach=attach_kernel)
        self.kernel_status = KernelStatus(self.document, self)
        self.run_on = RunOn(self)
        self.statusBar().addWidget(self.kernel_status, 1)  # (the room the line has)
        # Stop is on with the status bar's busy line: an edit's quick run does not flash
        # it (each change of an action lays out the toolbar and the main window again)
        stop = self.window_actions["edit.stop"]
        self.kernel_status.busy_changed.connect(stop.setEnabled)
        stop.setEnabled(self.kernel_status.busy_shown)
        self._set_model_connected(True)
        translated(self, self._update_title)
        translated(self, lambda: self._on_model_selection(self.document.selected))

    def _set_model_connected(self, connect: bool) -> None:
        doc = self.document
        for signal, slot in ((doc.path_changed, self._on_model_path),
                             (doc.modified_changed, self._on_model_modified),
                             (doc.selection_changed, self._on_model_selection),
                             (doc.evaluated, self._on_model_evaluated),
                             (self.settings.events, self._on_model_settings_changed),
                             (self.settings.events.language, self._on_model_language)):
            signal.connect(slot) if connect else signal.disconnect(slot)

    # -- the panels built when first needed ------------------------------------------------
    autograd = property(lambda self: self._lazy.get("autograd"), doc="The autograd graph.")
    op_view = property(lambda self: self._lazy.get("op_view"), doc="Op explained.")
    storage_view = property(lambda self: self._lazy.get("storage_view"), doc="Memory.")
    training = property(lambda self: self._lazy.get("training"), doc="The Training tab.")
    model = property(lambda self: self._lazy.get("model"), doc="The Model tab.")
    ops = property(lambda self: self._lazy.get("ops"), doc="The Ops panel.")
    docs_panel = property(lambda self: self._lazy.get("docs"), doc="The docs panel.")
    gallery = property(lambda self: self._lazy.get("gallery"), doc="The gallery.")
    output = property(lambda self: self._lazy.get("output"), doc="The output pane.")

    @property
    def exports(self) -> TensorExports:
        """Copies and exports of tensors, code and the lesson, made when first used."""
        if self._exports is None:
            from widgets.shell.exports import TensorExports

            self._exports = TensorExports(self)
        return self._exports

    def build_deferred(self) -> None:
        """Build the panels not built yet, and the viewer's heatmap, one per pass of the
        event loop (the launcher calls this right after the first paint)."""
        QTimer.singleShot(0, self.viewer, self.viewer.build_heatmap)
        self._lazy.build_rest()

    def _make_autograd(self) -> QWidget:
        from widgets.autograd.panel import AutogradPanel

        return AutogradPanel(self.document, self.undo_stack)

    def _make_op_view(self) -> QWidget:
        from widgets.explain.op_view import OpView

        return OpView(self.document, self.undo_stack)

    def _make_storage_view(self) -> QWidget:
        from widgets.explain.storage_view import StorageView

        return StorageView(self.document)

    def _make_training(self) -> QWidget:
        from widgets.training.panel import TrainingPanel

        panel = TrainingPanel(self.document, self.undo_stack, language=self.lesson.language)
        panel.open_requested.connect(self.open_from_gallery)
        panel.new_requested.connect(self.new_training)
        return panel

    def _make_model(self) -> QWidget:
        from widgets.model.panel import ModelPanel

        panel = ModelPanel(self.document)
        panel.tensor_chosen.connect(self._on_view_module_tensor)
        return panel

    def _on_view_module_tensor(self, name: str, shape: tuple, dtype: str) -> None:
        """A parameter or buffer chosen in the Model tab: shown in the tensor viewer."""
        self.viewer.show_part(name, shape, dtype)
        self.views.setCurrentWidget(self.viewer)

    def _make_ops(self) -> QWidget:
        from widgets.ops.op_panel import OpPanel

        return OpPanel(self.document, self.undo_stack)

    def _make_docs_panel(self) -> QWidget:
        from widgets.recipe.docs_panel import DocsPanel

        return DocsPanel(self.document, self.builder, self.ops)

    def _make_gallery(self) -> QWidget:
        from widgets.recipe.gallery_panel import GalleryPanel

        panel = GalleryPanel(self.document, language=self.lesson.language)
        panel.open_requested.connect(self.open_from_gallery)
        panel.reset_requested.connect(self.reset_to_original)
        return panel

    def _make_output(self) -> QWidget:
        from widgets.recipe.lesson_pane import OutputPane

        return OutputPane(self.document)

    # -- files: the work is RecipeFiles' ------------------------------------------------
    def new_recipe(self) -> None:
        self._files.new_recipe()

    def new_training(self) -> bool:
        """File > New Training...: the choices, then their recipe as a new one (after
        asking about unsaved changes); False when nothing was made."""
        from widgets.training.new_dialog import NewTrainingDialog

        if not self.confirm_discard():
            return False
        dialog = NewTrainingDialog(self)
        if dialog.exec() != NewTrainingDialog.DialogCode.Accepted:
            return False
        self.start_training(dialog.text())
        return True

    def start_training(self, text: str) -> None:
        """Make ``text`` (a training recipe the lab wrote) a new, unsaved recipe: it runs
        at once, as a new recipe does, and the Training tab shows its loop."""
        self.document.new()
        self.undo_stack.clear()
        self.document.set_source(text)
        self.views.setCurrentWidget(self.training)

    def open_dialog(self) -> None:
        self._files.open_dialog()

    def open_path(self, path: str, *, trust: bool = False) -> bool:
        """Open ``path`` by the trust rule (``widgets.shell.opening``); False for a file
        that is not a recipe: one Python cannot read shows its text, held, and the trust
        bar says why; one that cannot be read at all leaves the current recipe as it was."""
        return self._files.open_path(path, trust=trust)

    def save(self) -> bool:
        return self._files.save()

    def save_as(self) -> bool:
        return self._files.save_as()

    def _save_to(self, path: str) -> bool:
        return self._files.save_to(path)

    def show_gallery(self) -> None:
        """Show the gallery panel, raised, with the keyboard in its search box."""
        self.docks["gallery"].show()
        self.docks["gallery"].raise_()
        self.gallery.ensure_scanned()
        self.gallery.search_edit.setFocus()

    def open_from_gallery(self, path: str) -> bool:
        """Open a lesson picked in the gallery, asking first about unsaved changes."""
        return self.confirm_discard() and self.open_path(path)

    def _on_source_fixed(self) -> None:
        """The code typed made a file Python could not read readable: still held, it
        waits for Run like any file from elsewhere."""
        if self.document.held:
            self.trust_bar.show_untrusted(self.document.path)
        else:
            self.trust_bar.hide()

    def show_run_folder(self) -> bool:
        """Show the folder the recipe runs in (``Document.run_path``) in the file manager."""
        return self._files.show_run_folder()

    def download_from_server(self):
        """File > Download from the Server: the recipe's files there, one saved here."""
        from widgets.shell.downloads import ServerFiles

        dialog = ServerFiles(self, self.document)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.refresh()
        dialog.show()
        return dialog

    def reset_to_original(self) -> bool:
        """Open the recipe's file again, discarding its changes (after asking)."""
        return self._files.reset_to_original()

    def confirm_discard(self) -> bool:
        """True when there are no unsaved changes, or the user chose what to do with them."""
        return self._files.confirm_discard()

    def show_error(self, title: str, text: str) -> None:
        self._files.show_error(title, text)

    def recent_files(self) -> list[str]:
        return self._files.recent_files()

    # -- layout and settings ---------------------------------------------------------------
    def restore_settings(self) -> None:
        """Put the window and its panels where the settings say they were; on the first
        launch, the window takes ``FIRST_SIZE`` of the screen, centred."""
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray(self.settings.window_geometry))
        else:
            self.fit_to_screen(FIRST_SIZE)
        if self.settings.window_state:
            self.restoreState(QByteArray(self.settings.window_state))
            tidy_tab_bars(self)

    def fit_to_screen(self, share: float) -> None:
        """Take ``share`` of the width and height of the screen's free area, centred."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        available = screen.availableGeometry()
        self.resize(round(available.width() * share), round(available.height() * share))
        frame = self.frameGeometry()
        frame.moveCenter(available.center())
        self.move(frame.topLeft())

    def save_settings(self) -> None:
        """Remember the window's layout, and store every setting."""
        with self.settings.events.blocked():
            self.settings.window_geometry = bytes(self.saveGeometry().data())
            # presenter mode's layout is for its while: the one before it is remembered
            self.settings.window_state = self.presenter.state_before \
                or bytes(self.saveState().data())
        save_settings(self.settings)

    def reset_layout(self) -> None:
        self.restoreState(self._default_state)
        for dock in self.docks.values():
            dock.show()
        tidy_tab_bars(self)

    def about(self) -> None:
        from widgets.shell.about import show_about

        show_about(self)

    # -- language: every text is set again, in place --------------------------------------
    def switch_language(self, language: str) -> None:
        """Show the UI in ``language`` (a locale name; ``""`` follows the system) now.

        Installs its translation (``widgets.shell.translators.install_translators``); every
        widget sets its texts again on ``QEvent.LanguageChange``
        (``widgets.common.retranslate``), and everything else stays as it is.
        """
        from widgets.shell.translators import install_translators

        install_translators(language)
        deliver_language_change()

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
        for name in ("gallery", "training"):  # one built later takes the lesson's
            if self._lazy.is_built(name):
                self._lazy.get(name).set_language(self.lesson.language)

    def _on_model_path(self, _path) -> None:
        self._update_title()

    def _on_model_modified(self, _modified: bool) -> None:
        self._update_title()

    def _on_model_evaluated(self, _run) -> None:
        self._on_model_selection(self.document.selected)

    def _on_model_selection(self, index: int | None) -> None:
        self._show_model_tab(index)
        text = ""
        if index is not None and index < len(self.document.run.results):
            summary = tensor_summary(self.document.run.results[index])
            if summary is not None:
                shape = "×".join(str(s) for s in summary["shape"]) or self.tr("scalar")
                text = f"{shape} · {summary['dtype'].replace('torch.', '')} · " \
                       f"{summary['device']}"
        self.shape_label.setText(text)

    def _show_model_tab(self, index: int | None) -> None:
        """A step that made a module, selected from the Tensor tab, shows in the Model
        tab; the next step that makes none brings the Tensor tab back, unless the user
        chose another tab meanwhile."""
        results = self.document.run.results
        value = results[index].value if index is not None and index < len(results) else None
        module = isinstance(value, KernelValue) and value.first_module() is not None
        current = self.views.currentWidget()
        if module and current is self.viewer:
            self.views.setCurrentWidget(self.model)
            self._model_shown_for_step = True
        elif not module and self._model_shown_for_step \
                and self._lazy.is_built("model") and current is self.model:
            self.views.setCurrentWidget(self.viewer)
        if not module:
            self._model_shown_for_step = False

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.confirm_discard():
            event.ignore()
            return
        self.save_settings()
        self._set_model_connected(False)
        if self._lazy.is_built("training"):
            self.training.shutdown()
        if self.kernel_hook is not None:
            self.kernel_hook.close()  # ends the kernel process
        super().closeEvent(event)


def _stacked(bar: QWidget, views: QWidget) -> QWidget:
    """The window's centre: the trust bar (hidden until needed) over the view tabs."""
    centre = QWidget()
    layout = QVBoxLayout(centre)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(bar)
    layout.addWidget(views, 1)
    return centre
