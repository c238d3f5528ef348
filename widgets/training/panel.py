"""The training lab: set up an MLP, its data and its training in forms, train it, watch it.

The setup lives in the recipe (``Recipe.training``): every form edit is an undoable
recipe edit, so it is saved with the file. Training runs in a separate process
(``app.training.TrainingRun``); a display-rate ``QTimer`` polls it (never blocking) and
feeds the plots of the visible page. Every run is kept for comparison until deleted.

``TrainingPanel`` holds the forms, the plot pages and the messages; its other parts are
mixed in: ``RunControls`` (``widgets.training.controls``: the controls bar),
``RunLifecycle`` (``widgets.training.runs``: launching and polling the run) and
``RunFiles`` (``widgets.training.files``: checkpoints and exports).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.devices import available_devices
from app.recipe.document import Document
from app.training.runs import RunRecord
from app.training.settings import CONTEXT as SETTINGS_CONTEXT
from app.training.settings import SettingsError, TrainingSettings
from app.training.setup import harmonise, summary_text, with_value
from app.training.worker import TrainingRun, warm_up
from widgets.common.background import Job
from widgets.common.i18n_text import translate_core
from widgets.common.theme import error_style, role_style, set_style_sheet
from widgets.common.undo import push_edit
from widgets.training.controls import RunControls
from widgets.training.files import RunFiles, metrics_columns
from widgets.training.form import SettingsForm
from widgets.training.histogram import HistogramPlots
from widgets.training.plots import LivePlots
from widgets.training.run_compare import RunComparison
from widgets.training.runs import BUSY, FRAME_MS, RunLifecycle

# The window and the tests import these from here.
__all__ = ["BUSY", "TrainingPanel", "metrics_columns"]


# -- the panel -------------------------------------------------------------------------------------
class TrainingPanel(RunControls, RunLifecycle, RunFiles, QWidget):
    """Forms for the recipe's training setup, run controls, live plots and run comparison.

    Parameters
    ----------
    document : Document
        The open recipe; the panel edits ``recipe.training`` through ``undo_stack``.
    undo_stack : QUndoStack, optional
    parent : QWidget, optional

    Attributes
    ----------
    form : SettingsForm
    run : TrainingRun or None
        The current run (the one the controls steer).
    record : RunRecord or None
        The current run's entry in ``compare``.
    plots : LivePlots
    histogram : HistogramPlots
    compare : RunComparison
    frame_timer : QTimer
        Polls the run and refreshes the visible plots at display rate.
    """

    state_changed = Signal(str)
    """Emitted with the current run's new state (``starting``, ``running``, ``paused``...)."""
    run_event = Signal(object)
    """Emitted with every ``app.training.Event`` the training process reports."""
    has_setup_changed = Signal(bool)
    """Emitted when the recipe gains or loses its training setup."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack
        self.run: TrainingRun | None = None
        self.record: RunRecord | None = None
        self._draft: dict[str, Any] | None = None  # edits that do not validate yet
        self._shown: TrainingSettings | None = None
        self._runs = 0
        self._warmed = False
        self._tabs: QTabWidget | None = None
        self._launcher: Job | None = None  # the job starting the training process
        self._pending: list[tuple[str, tuple[Any, ...]]] = []
        self._pages: tuple[LivePlots, HistogramPlots, RunComparison] | None = None
        self._speed_due = 0
        self.frame_timer = QTimer(self)
        self.frame_timer.setInterval(FRAME_MS)
        self.frame_timer.timeout.connect(self._on_frame)
        self._build()
        self._set_model_connected(True)
        self._on_model_recipe_changed()

    # -- construction ----------------------------------------------------------------------------
    def _build(self) -> None:
        controls, live = self._build_controls()

        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setToolTip(self.tr("What the training process reported last"))
        # Its line is kept even when empty: a message appearing as a run starts must not
        # resize the plots, which would redraw every axis for several frames.
        self.message.setMinimumHeight(self.message.fontMetrics().lineSpacing())

        self.form = SettingsForm()
        self.form.edited.connect(self._on_view_field_edited)
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.summary.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.summary.setMinimumHeight(140)
        self.summary.setToolTip(self.tr("print(model), the parameter count and every "
                                        "named_parameters shape"))
        box = QGroupBox(self.tr("Summary"))
        QVBoxLayout(box).addWidget(self.summary)
        self.form.add_to_page(0, box, stretch=1)
        self.device_warning = QLabel()
        self.device_warning.setWordWrap(True)
        self.device_warning.setStyleSheet(role_style("warning"))
        self.device_warning.setToolTip(self.tr("The recipe names a device this machine lacks"))
        self.device_warning.hide()
        self.no_setup = QLabel(self.tr("This recipe has no training setup."))
        self.no_setup.setWordWrap(True)
        left = QWidget()
        left.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 40)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.no_setup)
        left_layout.addWidget(self.form, 1)
        left_layout.addWidget(self.device_warning)

        self.views = QTabWidget()  # the plot pages are made when first needed
        self.views.setDocumentMode(True)
        self.views.currentChanged.connect(lambda _i: self._refresh_views(force=True))
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.views, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([330, 950])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(controls)
        layout.addLayout(live)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)

    def _ensure_pages(self) -> None:
        """Make the plot pages: a dozen plots take a while, so not before they are needed."""
        if self._pages is not None:
            return
        self._pages = (LivePlots(), HistogramPlots(), RunComparison())
        plots, histogram, compare = self._pages
        plots.smoothing = self.smoothing_spin.value()
        histogram.layer_changed.connect(self._on_view_histogram_layer)
        compare.run_deleted.connect(self._on_view_run_deleted)
        with QSignalBlocker(self.views):
            for widget, text, tip in (
                    (plots, self.tr("Live"), self.tr("Loss, learning rate, layer statistics "
                                                     "and decision boundary of the run")),
                    (histogram, self.tr("Histogram"), self.tr("A layer's weights and "
                                                              "gradients over time")),
                    (compare, self.tr("Compare runs"), self.tr("Every run kept, overlaid, "
                                                               "with settings side by side"))):
                self.views.setTabToolTip(self.views.addTab(widget, text), tip)

    @property
    def plots(self) -> LivePlots:
        """The live plots page."""
        self._ensure_pages()
        assert self._pages is not None
        return self._pages[0]

    @property
    def histogram(self) -> HistogramPlots:
        self._ensure_pages()
        assert self._pages is not None
        return self._pages[1]

    @property
    def compare(self) -> RunComparison:
        """The run comparison page (every run kept)."""
        self._ensure_pages()
        assert self._pages is not None
        return self._pages[2]

    # -- the runs kept -----------------------------------------------------------------------------
    def kept_runs(self) -> list[RunRecord]:
        """The runs kept for comparison, oldest first (none before the pages were made)."""
        return list(self._pages[2].runs) if self._pages is not None else []

    def adopt_runs(self, records: list[RunRecord]) -> None:
        """Keep ``records`` (another panel's runs) for comparison; new runs number on after them.

        The records' metrics are plain data that outlive their processes.
        """
        for record in records:
            self.compare.add_run(record)
        self._runs = max([self._runs, *(r.number for r in records)])

    def detach(self) -> None:
        """Stop following the document, for good: the window that shows this retires."""
        self._set_model_connected(False)

    def _set_model_connected(self, connect: bool) -> None:
        signal, slot = self.document.recipe.changed, self._on_model_recipe_changed
        signal.connect(slot) if connect else signal.disconnect(slot)

    def add_to_tabs(self, tabs: QTabWidget) -> int:
        """Be a "Training" tab of ``tabs``, shown while the recipe has a training setup."""
        index = tabs.addTab(self, self.tr("Training"))
        tabs.setTabToolTip(index, self.tr("Train the recipe's MLP and watch it learn: loss, "
                                          "gradients, layer statistics, run comparison"))
        tabs.setTabVisible(index, self.settings is not None)
        if self.settings is not None:
            tabs.setCurrentIndex(index)
        self._tabs = tabs
        self.has_setup_changed.connect(self._on_model_has_setup)
        return index

    def _on_model_has_setup(self, on: bool) -> None:
        tabs = self._tabs
        if tabs is not None:
            tabs.setTabVisible(tabs.indexOf(self), on)
            if on:
                tabs.setCurrentWidget(self)

    # -- the setup ----------------------------------------------------------------------------
    @property
    def settings(self) -> TrainingSettings | None:
        """The recipe's training setup."""
        return self.document.recipe.training

    def add_setup(self, settings: TrainingSettings | None = None) -> None:
        """Give the recipe a training setup (the defaults unless ``settings``), undoably."""
        new = settings or TrainingSettings()
        push_edit(self.undo_stack, self.document.recipe, lambda r: r.set_training(new),
                  self.tr("Add training setup"))

    def _on_model_recipe_changed(self) -> None:
        settings = self.settings
        if settings is self._shown and settings is not None:
            return  # another part of the recipe changed
        had = self._shown is not None
        self._shown, self._draft = settings, None
        self.no_setup.setVisible(settings is None)
        self.form.setVisible(settings is not None)
        if settings is not None:
            self.form.set_settings(settings)
            self.form.set_error(None)
            self.summary.setPlainText(translate_core(SETTINGS_CONTEXT, summary_text(settings)))
            self._show_device_warning(settings)
            if self.run is None or self.run.state not in BUSY + ("paused",):
                self._show_live_controls(settings.optimizer.lr, settings.clip.mode,
                                         settings.clip.value)
        else:
            self.device_warning.hide()
            self.reset()
        if had != (settings is not None):
            self.has_setup_changed.emit(settings is not None)
        self._update_buttons()

    def _show_device_warning(self, settings: TrainingSettings) -> None:
        present = {d.id for d in available_devices()}
        missing = settings.device not in present
        self.device_warning.setVisible(missing)
        if missing:
            self.device_warning.setText(self.tr(
                "{0} is not present on this machine: training runs on the CPU.").format(
                settings.device))

    def _on_view_field_edited(self, name: str, value: Any) -> None:
        label = self.form.label_of(name)
        if isinstance(value, ValueError):
            self.form.set_error(name, self.tr("{0}: {1}").format(label, value))
            return
        base = self._draft or (self.settings or TrainingSettings()).to_literal()
        literal = with_value(base, name, value)
        if name in ("data.kind", "data.classes", "loss"):
            literal = harmonise(literal)
        try:
            new = TrainingSettings.from_literal(literal)
        except SettingsError as e:
            self._draft = literal
            shown = self.form.label_of(e.field) if e.field in self.form.names else e.field
            self.form.set_error(e.field, self.tr("{0}: {1}").format(
                shown, translate_core(SETTINGS_CONTEXT, e.reason)))
            return
        self._draft = None
        self.form.set_error(None)
        push_edit(self.undo_stack, self.document.recipe, lambda r: r.set_training(new),
                  self.tr("Change {0}").format(label), merge_key=("training", name))
        if self._live():
            self._say(self.tr("The run keeps the settings it started with; Reset, then Start "
                              "to train with the new ones."), "muted")

    # -- showing and closing ----------------------------------------------------------------------
    def shutdown(self) -> None:
        """End the training process, if any (the window calls this when it closes)."""
        self._close_run()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        super().closeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._ensure_pages()
        if not self._warmed:  # the first run starts faster with the fork server ready
            self._warmed = True
            warm_up()

    # -- the plot pages' signals -------------------------------------------------------------------
    def _on_view_histogram_layer(self, index: int) -> None:
        if self._live():
            self._command("set_histogram_layer", index)

    def _on_view_run_deleted(self, record: RunRecord) -> None:
        if record is self.record:
            self.reset()
            self.record = None
            self._update_buttons()

    # -- messages ---------------------------------------------------------------------------------
    def _say(self, text: str, role: str) -> None:
        self.message.setText(text)
        set_style_sheet(self.message, error_style() if role == "error" else role_style(role))
        self.message.show()

    def _note(self, text: str) -> None:
        if self.record is not None:
            self.record.notes.append(text)


if __name__ == "__main__":  # a preview: python -m widgets.training.panel [RECIPE]
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.document import RECIPES_DIR

    app = QApplication(sys.argv)
    doc = Document()
    doc.open(sys.argv[1] if len(sys.argv) > 1 else RECIPES_DIR / "training_spirals.py")
    panel = TrainingPanel(doc)
    panel.resize(1280, 800)
    panel.show()
    sys.exit(app.exec())
