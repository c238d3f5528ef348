"""The Training tab's controls: run, pause, step and stop the recipe's loop, its live
learning rate, the NaN pause and the device, and a line saying where the loop is.

``LoopBar`` only shows and asks: ``TrainingPanel`` connects its signals to the document
and its kernel, and calls ``show_state`` when the loop reports.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from protocol.devices import Device
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import translated
from widgets.training.knobs import KnobsButton


class LoopBar(QWidget):
    """Run, Pause, Step, Stop; learning rate, NaN pause, device; the loop's state."""

    run_clicked = Signal()
    pause_toggled = Signal(bool)
    step_clicked = Signal()
    stop_clicked = Signal()
    lr_edited = Signal(float)
    nan_pause_toggled = Signal(bool)
    device_chosen = Signal(str)
    loop_chosen = Signal(int)
    extra_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        play = QStyle.StandardPixmap
        self.run_button = self._button(
            lambda: self.tr("Run"), play.SP_MediaPlay,
            lambda: self.tr("Run the recipe again from the top: its loop trains afresh"),
            self.run_clicked.emit)
        self.pause_button = self._button(
            lambda: self.tr("Pause"), play.SP_MediaPause,
            lambda: self.tr("Pause the loop at its next backward(); click again to go on"))
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self.pause_toggled.emit)
        self.step_button = self._button(
            lambda: self.tr("Step"), play.SP_MediaSkipForward,
            lambda: self.tr("Train one step: on to the next backward(), then pause again"),
            self.step_clicked.emit)
        self.stop_button = self._button(
            lambda: self.tr("Stop"), play.SP_MediaStop,
            lambda: self.tr("Stop the run (KeyboardInterrupt in the recipe, as Ctrl+C under "
                            "python)"), self.stop_clicked.emit)
        self.loops = QComboBox()
        translated(self, lambda: (
            self.loops.setToolTip(self.tr("The recipe has more than one training loop: the one "
                                          "the plots show"))))
        self.loops.activated.connect(lambda i: self.loop_chosen.emit(self.loops.itemData(i)))
        self.lr = QDoubleSpinBox()
        self.lr.setDecimals(6)
        self.lr.setRange(0.0, 100.0)
        self.lr.setSpecialValueText("—")  # 0: no learning rate known (no optimizer)
        self.lr.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
        self.lr.setKeyboardTracking(False)
        translated(self, lambda: (
            self.lr.setToolTip(self.tr("Learning rate: while the loop trains, every optimizer it "
                                       "steps takes it at its next step; the recipe's lr= is "
                                       "rewritten for the next run"))))
        self.lr.valueChanged.connect(lambda lr: lr > 0 and self.lr_edited.emit(lr))
        self.lr_label = QLabel()
        translated(self, lambda: self.lr_label.setText(self.tr("lr")))
        self.lr_label.setBuddy(self.lr)
        self.nan_pause = QCheckBox()
        translated(self, lambda: self.nan_pause.setText(self.tr("Pause at NaN")))
        self.nan_pause.setChecked(True)
        translated(self, lambda: (
            self.nan_pause.setToolTip(self.tr("Pause before the first backward() whose loss is "
                                              "NaN or infinite, so you can look at why"))))
        self.nan_pause.toggled.connect(self.nan_pause_toggled.emit)
        self.device = QComboBox()
        self._add_devices(kernel_devices().devices)  # the CPU alone until the kernel says
        kernel_devices().changed.connect(self._on_kernel_devices_changed)
        translated(self, lambda: (
            self.device.setToolTip(self.tr("Where the loop trains: rewrites the recipe's "
                                           "device = ... line, so the saved file says so"))))
        self.device.activated.connect(lambda i: self.device_chosen.emit(
            self.device.itemData(i)))
        self.state = QLabel()
        translated(self, lambda: (
            self.state.setToolTip(self.tr("The loop's step, loss and learning rate now"))))
        # beside the buttons, where the row has room, and wrapped when it has not: never
        # cut ("lr 0.0…"), and never widening the window
        self.state.setWordWrap(True)
        self.state.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        device_label = QLabel()
        translated(self, lambda device_label=device_label: device_label.setText(self.tr("Device")))
        device_label.setBuddy(self.device)
        # two rows, each narrower than the views: the bar never widens the window
        runs, knobs = QHBoxLayout(), QHBoxLayout()
        for widget in (self.run_button, self.pause_button, self.step_button, self.stop_button,
                       self.loops):
            runs.addWidget(widget)
        runs.addSpacing(8)
        runs.addWidget(self.state, 1)
        self.knobs = KnobsButton()
        self.extra = QComboBox()
        translated(self, lambda: (
            self.extra.setToolTip(self.tr("Plot a number the loop binds (val_loss, acc...) beside "
                                          "the loss: its value at every iteration, once the loop "
                                          "has run"))))
        self.extra.activated.connect(lambda i: self.extra_chosen.emit(
            self.extra.itemData(i) or ""))
        self.extra.hide()
        for widget in (self.lr_label, self.lr, self.nan_pause, device_label, self.device,
                       self.knobs, self.extra):
            knobs.addWidget(widget)
        knobs.addSpacing(8)
        knobs.addStretch(0)  # (a note, when there is one, takes the room: ``add_note``)
        self._knobs_row = knobs
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(runs)
        layout.addLayout(knobs)

    def add_note(self, note: QLabel) -> None:
        """Show ``note`` (what the loop is doing) at the end of the second row, wrapped:
        a line of its own would take a row of plot from a small screen."""
        note.setWordWrap(True)
        self._knobs_row.insertWidget(self._knobs_row.count() - 1, note, 1)

    def _add_devices(self, devices: list[Device]) -> None:
        for device in devices:
            if self.device.findData(device.id) < 0:
                self.device.addItem(device.id, device.id)
                self.device.setItemData(self.device.count() - 1, device.name,
                                        Qt.ItemDataRole.ToolTipRole)

    def _on_kernel_devices_changed(self) -> None:
        current = self.device.currentData()
        with QSignalBlocker(self.device):
            self.device.clear()
            self._add_devices(kernel_devices().devices)
            if current is not None:
                self._select_device(current)

    def _select_device(self, device: str) -> None:
        index = self.device.findData(device)
        if index < 0:  # a device the kernel lacks: shown, as the recipe says
            self.device.addItem(device, device)
            index = self.device.count() - 1
        self.device.setCurrentIndex(index)

    def _button(self, text: Callable[[], str], icon: QStyle.StandardPixmap,
                tip: Callable[[], str], slot=None) -> QPushButton:
        button = QPushButton(self.style().standardIcon(icon), "")
        translated(button, lambda: (button.setText(text()), button.setToolTip(tip())))
        if slot is not None:
            button.clicked.connect(slot)
        return button

    def show_state(self, *, runnable: bool, running: bool, paused: str, text: str,
                   lr: float | None, lr_editable: bool, device: str | None) -> None:
        """Enable what can be done now and show the loop's state."""
        self.run_button.setEnabled(runnable)
        self.pause_button.setEnabled(running)
        with QSignalBlocker(self.pause_button):
            self.pause_button.setChecked(bool(paused))
        self.pause_button.setText(self.tr("Go on") if paused else self.tr("Pause"))
        self.step_button.setEnabled(running and bool(paused))
        self.stop_button.setEnabled(running)
        self.state.setText(text)
        self.lr.setEnabled(lr_editable)
        if not self.lr.hasFocus():
            with QSignalBlocker(self.lr):
                self.lr.setValue(lr if lr is not None else 0.0)
        self.device.setEnabled(device is not None)
        if device is not None:
            with QSignalBlocker(self.device):
                self._select_device(device)

    def show_extras(self, names: list[str], current: str) -> None:
        """The numbers the loop bound that can be plotted; hidden without any."""
        with QSignalBlocker(self.extra):
            self.extra.clear()
            self.extra.addItem(self.tr("No extra curve"), "")
            for name in names:
                self.extra.addItem(self.tr("Also plot {0}").format(name), name)
            self.extra.setCurrentIndex(max(0, self.extra.findData(current)))
        self.extra.setVisible(bool(names))

    def show_loops(self, loops: list[tuple[int, str]], current: int | None) -> None:
        """The loops to pick from, ``(statement index, label)``; hidden with one or none."""
        with QSignalBlocker(self.loops):
            self.loops.clear()
            for index, label in loops:
                self.loops.addItem(label, index)
            if current is not None:
                self.loops.setCurrentIndex(max(0, self.loops.findData(current)))
        self.loops.setVisible(len(loops) > 1)
