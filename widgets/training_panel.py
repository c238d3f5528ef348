"""The training lab: set up an MLP, its data and its training in forms, train it, watch it.

The setup lives in the recipe (``Recipe.training``): every form edit is an undoable
recipe edit, so it is saved with the file. Training runs in a separate process
(``app.training.TrainingRun``); a display-rate ``QTimer`` polls it (never blocking) and
feeds the plots of the visible page. Every run is kept for comparison until deleted.
"""

from __future__ import annotations

import copy
import os
import threading
from typing import Any

import numpy as np
import torch
from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase, QShowEvent, QUndoStack
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QMenu, QPlainTextEdit, QProgressBar, QPushButton,
                               QSpinBox, QSplitter, QStyle, QTabWidget, QToolButton,
                               QVBoxLayout, QWidget)

from app.devices import available_devices
from app.document import Document
from app.exports import table_csv
from app.training import TrainingRun, warm_up
from app.training import program
from app.training.history import History
from app.training.model import summary
from app.training.settings import (CLASSIFICATION_DATA, CLIPS, REGRESSION_DATA, SettingsError,
                                   TrainingSettings)
from widgets.exports import ask_save_plot, save_plot
from widgets.run_compare import RunComparison, RunRecord
from widgets.theme import error_style, role_style
from widgets.training_form import SettingsForm, number_text, parse_float
from widgets.training_histogram import HistogramPlots
from widgets.training_plots import LivePlots
from widgets.undo import push_edit

#: Milliseconds between frames while a run trains (about 30 Hz), and while it waits.
FRAME_MS, IDLE_MS = 33, 200
#: States in which the training process is working or about to.
BUSY = ("starting", "running")


# -- Qt-free helpers -----------------------------------------------------------------------------
def with_value(literal: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """A deep copy of a settings literal with the dotted field ``name`` set to ``value``."""
    out = copy.deepcopy(literal)
    *path, last = name.split(".")
    target = out
    for part in path:
        target = target[part]
    target[last] = value
    return out


def harmonise(literal: dict[str, Any]) -> dict[str, Any]:
    """The literal with the model's inputs, outputs and loss made to fit its data.

    Used after the data kind, the classes or the loss changed, so that choosing "circles"
    or "sin(x)" gives a setup that trains rather than a list of conflicts.
    """
    out = copy.deepcopy(literal)
    data, model = out["data"], out["model"]
    if data["kind"] in REGRESSION_DATA:
        model["inputs"], model["outputs"], out["loss"] = 1, 1, "mse"
    elif data["kind"] in CLASSIFICATION_DATA:
        model["inputs"] = 2
        if out["loss"] == "mse" and literal["data"]["kind"] in REGRESSION_DATA:
            out["loss"] = "cross_entropy"
        classes = 2 if data["kind"] in ("moons", "xor") else data["classes"]
        if out["loss"] == "cross_entropy" or model["outputs"] not in (1, classes):
            model["outputs"] = classes
    return out


def summary_text(settings: TrainingSettings) -> str:
    """The model's summary, built on the ``meta`` device: no memory, whatever its size."""
    with torch.device("meta"):
        model = program.build_model(settings.to_literal()["model"])
    return summary(model)


def metrics_columns(history: History, layer_names: list[str]) -> dict[str, list[Any]]:
    """A run's metrics as CSV columns, one row per step that has any ("" where none)."""
    series = {"loss": history.loss, "learning_rate": history.lr, "val_loss": history.val_loss}
    steps = np.union1d(history.loss.steps, np.union1d(history.val_loss.steps,
                                                      history.output_std.steps))
    columns: dict[str, list[Any]] = {"step": steps.tolist()}

    def place(at: np.ndarray, values: np.ndarray) -> list[Any]:
        column = np.full(len(steps), "", dtype=object)
        column[np.searchsorted(steps, at)] = values.tolist()
        return column.tolist()

    for name, s in series.items():
        columns[name] = place(s.steps, s.values)
    for prefix, s in (("output_std", history.output_std), ("grad_norm", history.grad_norm)):
        values = s.values
        for i, layer in enumerate(layer_names[: values.shape[1] if values.ndim == 2 else 0]):
            columns[f"{prefix} {layer}"] = place(s.steps, values[:, i])
    return columns


# -- the panel -------------------------------------------------------------------------------------
class TrainingPanel(QWidget):
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
        self._launcher: threading.Thread | None = None
        self._launch_error: str | None = None
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
        self.start_button = self._button(self.tr("Start"), QStyle.StandardPixmap.SP_MediaPlay,
                                         self.tr("Train from the current step on (a new run "
                                                 "when none is paused)"), self.start)
        self.pause_button = self._button(self.tr("Pause"), QStyle.StandardPixmap.SP_MediaPause,
                                         self.tr("Pause after the current chunk of steps"),
                                         self.pause)
        self.step_button = self._button(self.tr("Step"), QStyle.StandardPixmap.SP_MediaSkipForward,
                                        self.tr("Train exactly one step, then pause"),
                                        self.step_once)
        self.stop_button = self._button(self.tr("Stop"), QStyle.StandardPixmap.SP_MediaStop,
                                        self.tr("End the run; it stays in the comparison"),
                                        self.stop)
        self.reset_button = self._button(self.tr("Reset"), QStyle.StandardPixmap.SP_BrowserReload,
                                         self.tr("End the run and clear the live plots; the "
                                                 "next Start begins a new run"), self.reset)
        self.progress = QProgressBar()
        self.progress.setFormat(self.tr("%v / %m steps"))
        self.progress.setToolTip(self.tr("Steps trained of the steps set up"))
        self.speed_label = QLabel()
        self.speed_label.setToolTip(self.tr("Training speed over the latest chunk of steps"))
        self.speed_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("000,000 steps/s"))
        controls = QHBoxLayout()
        for button in (self.start_button, self.pause_button, self.step_button,
                       self.stop_button, self.reset_button):
            controls.addWidget(button)
        controls.addWidget(self.progress, 1)
        controls.addWidget(self.speed_label)

        self.lr_edit = QLineEdit()
        self.lr_edit.setMaximumWidth(90)
        self.lr_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("0.0001") + 16)
        self.lr_edit.setToolTip(self.tr("Learning rate of the run (the schedule scales it); a "
                                        "change takes effect from the next step"))
        self.lr_edit.editingFinished.connect(self._on_view_lr)
        self.clip_combo = QComboBox()
        for key, label in CLIPS.items():
            self.clip_combo.addItem(self.tr(label), key)
        self.clip_combo.setToolTip(self.tr("Gradient clipping of the run, from the next step"))
        self.clip_combo.activated.connect(lambda _i: self._on_view_clip())
        self.clip_edit = QLineEdit()
        self.clip_edit.setMaximumWidth(70)
        self.clip_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("10.0") + 16)
        self.clip_edit.setToolTip(self.tr("The largest gradient value, or the largest total "
                                          "norm, from the next step"))
        self.clip_edit.editingFinished.connect(self._on_view_clip)
        self.smoothing_spin = QSpinBox()
        self.smoothing_spin.setRange(0, 100_000)
        self.smoothing_spin.setSpecialValueText(self.tr("off"))

        self.smoothing_spin.setToolTip(self.tr("Also draw the training loss averaged over this "
                                               "many steps (0: off)"))
        self.smoothing_spin.valueChanged.connect(self._on_view_smoothing)
        self.fit_button = QPushButton(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Fit every plot to its data, and follow the data "
                                           "again after panning or zooming"))
        self.fit_button.clicked.connect(self._on_view_fit)
        self.checkpoint_button = self._menu_button(self.tr("Checkpoint"), self.tr(
            "Save the run's model, optimizer and step, or load them to resume"), (
            (self.tr("Save Checkpoint..."), lambda: self.save_checkpoint()),
            (self.tr("Load Checkpoint..."), lambda: self.load_checkpoint())))
        self.export_button = self._menu_button(self.tr("Export"), self.tr(
            "Save the plots shown as PNG or SVG, or the run's metrics as CSV"), (
            (self.tr("Save Plots as PNG or SVG..."), lambda: self.export_plots()),
            (self.tr("Save Metrics as CSV..."), lambda: self.export_metrics())))
        live = QHBoxLayout()
        for text, widget in ((self.tr("LR"), self.lr_edit), (self.tr("Clip"), self.clip_combo),
                             (None, self.clip_edit), (self.tr("Smooth"), self.smoothing_spin)):
            if text:
                label = QLabel(text)
                label.setBuddy(widget)
                label.setToolTip(widget.toolTip())
                live.addWidget(label)
            live.addWidget(widget)
        live.addWidget(self.fit_button)
        live.addStretch(1)
        live.addWidget(self.checkpoint_button)
        live.addWidget(self.export_button)

        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setToolTip(self.tr("What the training process reported last"))
        self.message.hide()

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

    def _button(self, text: str, icon: QStyle.StandardPixmap, tip: str, slot) -> QPushButton:
        button = QPushButton(self.style().standardIcon(icon), text)
        button.setToolTip(tip)
        button.clicked.connect(lambda _=False: slot())
        return button

    def _menu_button(self, text: str, tip: str, items) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        menu.setToolTipsVisible(True)
        for label, slot in items:
            menu.addAction(label).triggered.connect(lambda _=False, s=slot: s())
        button.setMenu(menu)
        return button

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
            self.summary.setPlainText(summary_text(settings))
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
            self.form.set_error(e.field, self.tr("{0}: {1}").format(shown, e.reason))
            return
        self._draft = None
        self.form.set_error(None)
        push_edit(self.undo_stack, self.document.recipe, lambda r: r.set_training(new),
                  self.tr("Change {0}").format(label), merge_key=("training", name))
        if self._live():
            self._say(self.tr("The run keeps the settings it started with; Reset, then Start "
                              "to train with the new ones."), "muted")

    # -- run controls ---------------------------------------------------------------------------
    @property
    def state(self) -> str:
        """The current run's state (``none`` without one; ``starting`` while it launches)."""
        if self.run is None:
            return "none"
        return "starting" if self._launcher is not None else self.run.state

    def _live(self) -> bool:
        """Whether the current run's process is there (or coming) to take commands."""
        return self.state in BUSY + ("paused",)

    def start(self) -> None:
        """Resume the paused run, or start a new one."""
        if self.settings is None:
            return
        if not self._live():
            self._new_run()
        self._command("start")

    def pause(self) -> None:
        if self.state in BUSY:
            self._command("pause")

    def step_once(self) -> None:
        """Train one step (of a new run when there is none to continue)."""
        if self.settings is None:
            return
        if not self._live():
            self._new_run()
        self._command("step_once")

    def stop(self) -> None:
        """End the run; its process exits and the run stays in the comparison."""
        if self.state not in ("none", "stopped", "error"):
            self._command("stop")

    def reset(self) -> None:
        """End the run and clear the live plots (the run stays in the comparison)."""
        self._close_run()
        self.record = None
        if self._pages is not None:
            self.plots.clear()
            self.histogram.set_run(None)
        self.progress.reset()
        self.speed_label.clear()
        self.message.hide()
        self._update_buttons()

    def set_lr(self, lr: float) -> None:
        """The run's learning rate from its next step (and the control shows it)."""
        with QSignalBlocker(self.lr_edit):
            self.lr_edit.setText(number_text(lr))
        if self._live() and self.run is not None:
            self._command("set_lr", lr)
            self._note(self.tr("lr {0} from step {1}").format(number_text(lr), self.run.step + 1))

    def set_clip(self, mode: str, value: float) -> None:
        """The run's gradient clipping from its next step."""
        self._show_live_controls(None, mode, value)
        if self._live() and self.run is not None:
            self._command("set_clip", mode, value)
            self._note(self.tr("clip {0} {1} from step {2}").format(
                mode, number_text(value), self.run.step + 1))

    def save_checkpoint(self, path: str | None = None) -> None:
        """Save ``{model, optimizer, step}`` of the run (asks where when ``path`` is None)."""
        if self.run is None or not self._live() and not self.run.alive:
            self._say(self.tr("Start or step a run first: a checkpoint saves a run."), "warning")
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, self.tr("Save Checkpoint"),
                os.path.join(os.path.expanduser("~"), f"run{self.record.number}_step"
                                                      f"{self.run.step}.pt"),
                self.tr("PyTorch checkpoints (*.pt);;All files (*)"))
            if not path:
                return
        self._command("save_checkpoint", path)

    def load_checkpoint(self, path: str | None = None) -> None:
        """Load a checkpoint into the run (a new, paused one if needed); Start resumes."""
        if self.settings is None:
            return
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, self.tr("Load Checkpoint"), os.path.expanduser("~"),
                self.tr("PyTorch checkpoints (*.pt);;All files (*)"))
            if not path:
                return
        if not self._live():
            self._new_run()
        self._command("load_checkpoint", path)

    def export_plots(self, path: str | None = None) -> str | None:
        """Save the plots of the page shown as PNG or SVG (by suffix; asks when no path)."""
        page = self.views.currentWidget()
        target = getattr(page, "graphics", page)
        if path is None:
            return ask_save_plot(self, target, "training")
        save_plot(target, path)
        return path

    def export_metrics(self, path: str | None = None) -> str | None:
        """Save the current run's metrics as CSV (asks where when ``path`` is None)."""
        if self.record is None:
            self._say(self.tr("No run yet: there are no metrics to save."), "warning")
            return None
        names = list(self.record.info.layer_names) if self.record.info is not None else []
        text = table_csv(metrics_columns(self.record.history, names))
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, self.tr("Save Metrics"), os.path.join(os.path.expanduser("~"),
                                                            "metrics.csv"),
                self.tr("CSV files (*.csv);;All files (*)"))
            if not path:
                return None
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

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

    # -- runs ---------------------------------------------------------------------------------
    def _new_run(self) -> TrainingRun:
        settings = self.settings
        assert settings is not None
        self._close_run()
        self.run = run = TrainingRun(settings)
        self._runs += 1
        self.record = RunRecord(self._runs, settings, run.history, state="starting")
        self.compare.add_run(self.record)
        self.plots.clear()
        self.histogram.set_run(None)
        self.progress.setRange(0, settings.steps)
        self.progress.setValue(0)
        self.message.hide()
        # The first command starts the process. Until the fork server has imported torch
        # (seconds, the first time) that blocks, so it is sent from a thread; the commands
        # that follow wait in _pending for it.
        self._launch_error = None
        self._launcher = threading.Thread(target=self._launch, args=(
            run, self.histogram.layer or 0), name="tensor-lab-launch", daemon=True)
        self._launcher.start()
        lr, mode, value = self._live_values()
        if lr is not None and lr != settings.optimizer.lr:
            self._command("set_lr", lr)
        if (mode, value) != (settings.clip.mode, settings.clip.value) and value is not None:
            self._command("set_clip", mode, value)
        self._set_state("starting")
        return run

    def _launch(self, run: TrainingRun, layer: int) -> None:
        """(In the launcher thread.) Start the run's process with its first command."""
        try:
            run.set_histogram_layer(layer)
        except Exception as e:  # noqa: BLE001 - shown in the panel by the next frame
            self._launch_error = f"{type(e).__name__}: {e}"

    def _command(self, name: str, *args: Any) -> None:
        """Send a command to the run, or queue it while the process is being launched."""
        if self._launcher is not None:
            self._pending.append((name, args))
        elif self.run is not None:
            getattr(self.run, name)(*args)
        self._arm(FRAME_MS)

    def _launched(self) -> bool:
        """Whether the launch is over; sends the queued commands once it is."""
        launcher = self._launcher
        if launcher is None:
            return True
        if launcher.is_alive():
            return False
        launcher.join()
        self._launcher = None
        pending, self._pending = self._pending, []
        if self._launch_error:
            self._say(self.tr("The training process could not start: {0}").format(
                self._launch_error), "error")
            return True
        for name, args in pending:
            self._command(name, *args)
        return True

    def _close_run(self) -> None:
        run = self.run
        if run is not None:
            if self._launcher is not None:
                self._launcher.join()  # a launch under way ends soon; then close the run
                self._launcher, self._pending = None, []
            self._on_frame()  # the last events before it goes
            finished = run.state == "finished"
            run.close()
            self._set_state("finished" if finished else run.state)
        self.run = None
        self.frame_timer.stop()

    def _arm(self, interval: int) -> None:
        if self.frame_timer.interval() != interval:
            self.frame_timer.setInterval(interval)
        if not self.frame_timer.isActive():
            self.frame_timer.start()

    def _on_frame(self) -> None:
        run = self.run
        if run is None:
            self.frame_timer.stop()
            return
        if not self._launched():
            return
        for event in run.poll():
            self._on_run_event(event)
        self._set_state(run.state)
        self._refresh_views()
        if not run.alive and run.state in ("stopped", "error", "finished"):
            self.frame_timer.stop()
        else:
            self._arm(FRAME_MS if run.state in BUSY else IDLE_MS)

    def _on_run_event(self, event) -> None:
        kind = event.kind
        if kind == "started":
            assert self.record is not None
            self.record.info = event.data
            self.plots.set_run(event.data)
            self.histogram.set_run(event.data)
            self.compare.update_run(self.record)
        elif kind == "warning":
            self._say(event.message, "warning")
        elif kind == "diverged":
            self._say(self.tr("Training paused: {0}").format(event.message), "error")
        elif kind == "error":
            self._say(self.tr("Training stopped with an error: {0}").format(event.message),
                      "error")
        elif kind == "checkpoint_saved":
            self._say(self.tr("Saved a checkpoint at step {0} to {1}").format(
                event.step, event.data), "ok")
        elif kind == "checkpoint_loaded":
            self._say(self.tr("Loaded step {0} from {1}; Start resumes from there").format(
                event.step, event.data), "ok")
            self.plots.set_run(self.record.info if self.record else None)
        elif kind == "finished":
            self._say(self.tr("Finished: {0} steps.").format(event.step), "ok")
        self.run_event.emit(event)

    def _set_state(self, state: str) -> None:
        record = self.record
        if record is not None and record.state != state:
            record.state = state
            self.compare.update_run(record)
            self._update_buttons()
            self._show_progress()
            self.state_changed.emit(state)

    def _refresh_views(self, force: bool = False) -> None:
        if self._pages is None:
            return
        history = self.record.history if self.record is not None else None
        page = self.views.currentWidget()
        if page is self.plots:
            self.plots.refresh(history, force)
        elif page is self.histogram:
            self.histogram.refresh(history, force)
        else:
            self.compare.refresh(force)
        if page is not self.histogram:
            self.histogram.collect(history)  # the bands over time cover the whole run
        self._speed_due -= 1
        if self._speed_due <= 0 or force:
            self._speed_due = 8  # a few times a second is readable, and cheap
            self._show_progress()

    def _show_progress(self) -> None:
        history = self.record.history if self.record is not None else None
        if history is None:
            return
        value = min(history.step, self.progress.maximum())
        if value != self.progress.value():  # (setValue repaints at once)
            self.progress.setValue(value)
        running = self.state == "running"
        self.speed_label.setText(self.tr("{0:,.0f} steps/s").format(
            history.steps_per_second) if running else "")

    def _update_buttons(self) -> None:
        state = self.state
        has = self.settings is not None
        self.start_button.setText(self.tr("Resume") if state == "paused" else self.tr("Start"))
        self.start_button.setEnabled(has and state not in BUSY)
        self.pause_button.setEnabled(state in BUSY)
        self.step_button.setEnabled(has and state not in BUSY)
        self.stop_button.setEnabled(state in BUSY + ("paused", "finished"))
        self.reset_button.setEnabled(self.record is not None)

    # -- live controls --------------------------------------------------------------------------
    def _live_values(self) -> tuple[float | None, str, float | None]:
        try:
            lr: float | None = parse_float(self.lr_edit.text())
        except ValueError:
            lr = None
        try:
            value: float | None = parse_float(self.clip_edit.text())
        except ValueError:
            value = None
        return lr, self.clip_combo.currentData(), value

    def _show_live_controls(self, lr: float | None, mode: str, value: float) -> None:
        with QSignalBlocker(self.lr_edit), QSignalBlocker(self.clip_combo), \
                QSignalBlocker(self.clip_edit):
            if lr is not None:
                self.lr_edit.setText(number_text(lr))
            self.clip_combo.setCurrentIndex(max(0, self.clip_combo.findData(mode)))
            self.clip_edit.setText(number_text(value))

    def _on_view_lr(self) -> None:
        lr, _mode, _value = self._live_values()
        if lr is None or lr <= 0:
            self._say(self.tr("The learning rate must be a number above 0."), "error")
            return
        self.set_lr(lr)

    def _on_view_clip(self) -> None:
        _lr, mode, value = self._live_values()
        if value is None or value <= 0:
            self._say(self.tr("The clipping value must be a number above 0."), "error")
            return
        self.set_clip(mode, value)

    def _on_view_smoothing(self, steps: int) -> None:
        self.plots.smoothing = steps
        self._refresh_views(force=True)

    def _on_view_fit(self) -> None:
        for page in self._pages or ():
            page.fit()

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
        self.message.setStyleSheet(error_style() if role == "error" else role_style(role))
        self.message.show()

    def _note(self, text: str) -> None:
        if self.record is not None:
            self.record.notes.append(text)


if __name__ == "__main__":  # a preview: python -m widgets.training_panel [RECIPE]
    import sys

    from PySide6.QtWidgets import QApplication

    from app.document import RECIPES_DIR

    app = QApplication(sys.argv)
    doc = Document()
    doc.open(sys.argv[1] if len(sys.argv) > 1 else RECIPES_DIR / "training_spirals.py")
    panel = TrainingPanel(doc)
    panel.resize(1280, 800)
    panel.show()
    sys.exit(app.exec())
