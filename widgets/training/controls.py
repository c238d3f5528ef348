"""The training panel's controls bar, and the run controls behind it.

``RunControls`` is mixed into ``TrainingPanel``. It builds the two rows above the plots:
Start, Pause, Step, Stop and Reset with the progress and the speed; then the run's live
learning rate, clipping and loss smoothing, Fit, and the Checkpoint and Export menus. It
holds the public controls those buttons call (``start``, ``pause``, ``step_once``,
``stop``, ``reset``, ``set_lr``, ``set_clip``) and keeps the buttons, the progress and
the live fields in line with the run. Its texts keep the ``TrainingPanel`` translation
context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QStyle,
    QToolButton,
)

from app.training.settings import CLIPS
from widgets.training.form import number_text, parse_float
from widgets.training.runs import BUSY


class RunControls:
    """Run buttons, progress and live settings of ``TrainingPanel``, and what they do."""

    # -- construction ----------------------------------------------------------------------------
    def _build_controls(self) -> tuple[QHBoxLayout, QHBoxLayout]:
        """The run row (buttons, progress, speed) and the live row (lr, clip, smoothing...)."""
        self.start_button = self._button(
            QCoreApplication.translate("TrainingPanel", "Start"),
            QStyle.StandardPixmap.SP_MediaPlay,
            QCoreApplication.translate("TrainingPanel", "Train from the current step on (a new "
                                                        "run when none is paused)"), self.start)
        self.pause_button = self._button(
            QCoreApplication.translate("TrainingPanel", "Pause"),
            QStyle.StandardPixmap.SP_MediaPause,
            QCoreApplication.translate("TrainingPanel",
                                       "Pause after the current chunk of steps"), self.pause)
        self.step_button = self._button(
            QCoreApplication.translate("TrainingPanel", "Step"),
            QStyle.StandardPixmap.SP_MediaSkipForward,
            QCoreApplication.translate("TrainingPanel", "Train exactly one step, then pause"),
            self.step_once)
        self.stop_button = self._button(
            QCoreApplication.translate("TrainingPanel", "Stop"),
            QStyle.StandardPixmap.SP_MediaStop,
            QCoreApplication.translate("TrainingPanel",
                                       "End the run; it stays in the comparison"), self.stop)
        self.reset_button = self._button(
            QCoreApplication.translate("TrainingPanel", "Reset"),
            QStyle.StandardPixmap.SP_BrowserReload,
            QCoreApplication.translate("TrainingPanel", "End the run and clear the live plots; "
                                                        "the next Start begins a new run"),
            self.reset)
        self.progress = QProgressBar()
        self.progress.setFormat(QCoreApplication.translate("TrainingPanel", "%v / %m steps"))
        self.progress.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Steps trained of the steps set up"))
        self.speed_label = QLabel()
        self.speed_label.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Training speed over the latest chunk of steps"))
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
        self.lr_edit.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Learning rate of the run (the schedule scales it); a change "
                             "takes effect from the next step"))
        self.lr_edit.editingFinished.connect(self._on_view_lr)
        self.clip_combo = QComboBox()
        for key, label in CLIPS.items():
            self.clip_combo.addItem(QCoreApplication.translate("TrainingSettings", label), key)
        self.clip_combo.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Gradient clipping of the run, from the next step"))
        self.clip_combo.activated.connect(lambda _i: self._on_view_clip())
        self.clip_edit = QLineEdit()
        self.clip_edit.setMaximumWidth(70)
        self.clip_edit.setMinimumWidth(self.fontMetrics().horizontalAdvance("10.0") + 16)
        self.clip_edit.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "The largest gradient value, or the largest total norm, from the "
                             "next step"))
        self.clip_edit.editingFinished.connect(self._on_view_clip)
        self.smoothing_spin = QSpinBox()
        self.smoothing_spin.setRange(0, 100_000)
        self.smoothing_spin.setSpecialValueText(QCoreApplication.translate("TrainingPanel", "off"))

        self.smoothing_spin.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Also draw the training loss averaged over this many steps (0: off)"))
        self.smoothing_spin.valueChanged.connect(self._on_view_smoothing)
        self.fit_button = QPushButton(QCoreApplication.translate("TrainingPanel", "Fit"))
        self.fit_button.setToolTip(QCoreApplication.translate(
            "TrainingPanel", "Fit every plot to its data, and follow the data again after "
                             "panning or zooming"))
        self.fit_button.clicked.connect(self._on_view_fit)
        self.checkpoint_button = self._menu_button(
            QCoreApplication.translate("TrainingPanel", "Checkpoint"),
            QCoreApplication.translate("TrainingPanel", "Save the run's model, optimizer and "
                                                        "step, or load them to resume"),
            ((QCoreApplication.translate("TrainingPanel", "Save Checkpoint..."),
              lambda: self.save_checkpoint()),
             (QCoreApplication.translate("TrainingPanel", "Load Checkpoint..."),
              lambda: self.load_checkpoint())))
        self.export_button = self._menu_button(
            QCoreApplication.translate("TrainingPanel", "Export"),
            QCoreApplication.translate("TrainingPanel", "Save the plots shown as PNG or SVG, or "
                                                        "the run's metrics as CSV"),
            ((QCoreApplication.translate("TrainingPanel", "Save Plots as PNG or SVG..."),
              lambda: self.export_plots()),
             (QCoreApplication.translate("TrainingPanel", "Save Metrics as CSV..."),
              lambda: self.export_metrics())))
        live = QHBoxLayout()
        for text, widget in ((QCoreApplication.translate("TrainingPanel", "LR"), self.lr_edit),
                             (QCoreApplication.translate("TrainingPanel", "Clip"),
                              self.clip_combo),
                             (None, self.clip_edit),
                             (QCoreApplication.translate("TrainingPanel", "Smooth"),
                              self.smoothing_spin)):
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
        return controls, live

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

    # -- run controls ---------------------------------------------------------------------------
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
        self.message.clear()
        self._update_buttons()

    def set_lr(self, lr: float) -> None:
        """The run's learning rate from its next step (and the control shows it)."""
        with QSignalBlocker(self.lr_edit):
            self.lr_edit.setText(number_text(lr))
        if self._live() and self.run is not None:
            self._command("set_lr", lr)
            self._note(QCoreApplication.translate("TrainingPanel", "lr {0} from step {1}").format(
                number_text(lr), self.run.step + 1))

    def set_clip(self, mode: str, value: float) -> None:
        """The run's gradient clipping from its next step."""
        self._show_live_controls(None, mode, value)
        if self._live() and self.run is not None:
            self._command("set_clip", mode, value)
            self._note(QCoreApplication.translate(
                "TrainingPanel", "clip {0} {1} from step {2}").format(
                mode, number_text(value), self.run.step + 1))

    # -- buttons and progress -------------------------------------------------------------------
    def _show_progress(self) -> None:
        history = self.record.history if self.record is not None else None
        if history is None:
            return
        value = min(history.step, self.progress.maximum())
        if value != self.progress.value():  # (setValue repaints at once)
            self.progress.setValue(value)
        running = self.state == "running"
        self.speed_label.setText(QCoreApplication.translate(
            "TrainingPanel", "{0:,.0f} steps/s").format(
            history.steps_per_second) if running else "")

    def _update_buttons(self) -> None:
        state = self.state
        has = self.settings is not None
        self.start_button.setText(QCoreApplication.translate("TrainingPanel", "Resume")
                                  if state == "paused"
                                  else QCoreApplication.translate("TrainingPanel", "Start"))
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
            self._say(QCoreApplication.translate(
                "TrainingPanel", "The learning rate must be a number above 0."), "error")
            return
        self.set_lr(lr)

    def _on_view_clip(self) -> None:
        _lr, mode, value = self._live_values()
        if value is None or value <= 0:
            self._say(QCoreApplication.translate(
                "TrainingPanel", "The clipping value must be a number above 0."), "error")
            return
        self.set_clip(mode, value)

    def _on_view_smoothing(self, steps: int) -> None:
        self.plots.smoothing = steps
        self._refresh_views(force=True)

    def _on_view_fit(self) -> None:
        for page in self._pages or ():
            page.fit()
