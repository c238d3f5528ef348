"""The status bar's kernel line: the statement running, the time, Stop, and how a run
ended (the kernel itself is the document's: ``widgets.common.kernel_hook``)."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QToolButton, QWidget
from superqt import QElidingLabel

from app.link.places import chosen
from widgets.common.doc_links import listen
from widgets.common.i18n_text import translate_core
from widgets.common.icons import icon
from widgets.common.retranslate import translated

#: A run shows its busy line once it has lasted this long, in seconds.
SHOW_AFTER_S = 0.25


class KernelStatus(QWidget):
    """The status bar's kernel line: a busy bar, what runs and for how long, and Stop.

    ``busy_changed`` says when the busy line comes and goes (the window's Stop action
    follows it: an edit's quick run flashes neither)."""

    busy_changed = Signal(bool)

    def __init__(self, document: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)  # busy: a statement has no known end
        self.busy.setMaximumWidth(80)
        self.busy.setMaximumHeight(14)
        self.busy.setTextVisible(False)
        translated(self, lambda: self.busy.setToolTip(QCoreApplication.translate(
            "KernelStatus", "The kernel is running the recipe's code")))
        # a long ending (a kill, then the restore) is cut with "…" at the status bar's
        # edge, never mid-word without a sign; the tooltip holds it whole
        self.label = QElidingLabel()
        self._about = ""
        self.stop_button = QToolButton()
        self.stop_button.setIcon(icon("stop"))
        translated(self, lambda: self.stop_button.setToolTip(QCoreApplication.translate(
            "KernelStatus", "Stop the run (Ctrl+.): the recipe gets a KeyboardInterrupt; the "
            "values of finished steps stay")))
        self.stop_button.clicked.connect(document.stop)
        # a kernel that died or a connection lost: the steps run again in a fresh one
        self.again_button = QToolButton()
        self.again_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.again_button.clicked.connect(document.run_again)
        self.again_button.hide()
        for w in (self.busy, self.label, self.stop_button):
            policy = w.sizePolicy()  # hidden, they keep their room: the status bar keeps
            policy.setRetainSizeWhenHidden(True)  # its height, and the views above theirs
            w.setSizePolicy(policy)
            layout.addWidget(w)
        layout.addWidget(self.again_button)
        self._tick = QTimer(self)
        self._tick.setInterval(200)
        self._tick.timeout.connect(self._show)
        self.busy_shown = False
        listen(self, [(document.kernel_changed, self._on_model_kernel_changed)], True)
        self._on_model_kernel_changed()
        translated(self, self._set_texts)

    def _set_again_texts(self) -> None:
        server = chosen()
        self.again_button.setText(QCoreApplication.translate(
            "KernelStatus", "Reconnect") if server is not None else
            QCoreApplication.translate("KernelStatus", "Run Again"))
        self.again_button.setToolTip(QCoreApplication.translate(
            "KernelStatus", "Connect to {0} again and run the recipe's steps there; the "
            "recipe is as you left it").format(server) if server is not None else
            QCoreApplication.translate("KernelStatus", "Run the recipe's steps again in "
                                       "a fresh kernel; the recipe is as you left it"))

    def _set_texts(self) -> None:
        self._about = QCoreApplication.translate(
            "KernelStatus", "What the kernel runs now, and for how long; or how its last run "
            "ended")
        self._show()

    def _on_model_kernel_changed(self) -> None:
        running = self._document.kernel_run is not None
        self._tick.start() if running else self._tick.stop()
        self._show()

    def _show(self) -> None:
        state = self._document.kernel_run
        if state is not None and time.monotonic() - state.started < SHOW_AFTER_S:
            state = None  # an edit's quick run: no flash of the busy line
        self.busy.setVisible(state is not None)
        self.stop_button.setVisible(state is not None)
        if self.busy_shown != (state is not None):
            self.busy_shown = state is not None
            self.busy_changed.emit(self.busy_shown)
        if state is not None:
            self.again_button.hide()
            progress = state.progress
            if state.restores is not None:  # Stop had to end the kernel: values come back
                text = QCoreApplication.translate(
                    "KernelStatus", "Running the finished steps again in a fresh kernel…")
                if progress is not None:
                    text += f"  ·  {progress.line}  ·  {progress.elapsed:.1f} s"
            elif progress is None:
                text = QCoreApplication.translate("KernelStatus", "Starting the kernel…")
            else:
                text = QCoreApplication.translate(
                    "KernelStatus", "Line {0}: {1}  ·  {2:.1f} s").format(
                    progress.line, _short(progress.text),
                    # a paused training loop's time stands still
                    progress.elapsed - self._document.training.paused_time(state.run_id))
            self.label.setText(text)
            if self.label.toolTip() != self._about:  # (each report of a run comes here:
                self.label.setToolTip(self._about)  # a style sheet set again, even "",
            if self.label.styleSheet():  # restyles the label under the app's sheet)
                self.label.setStyleSheet("")
            return
        ended = self._document.kernel_ended
        if ended is not None and ended.reason:
            text = translate_core("Kernel", ended.message) or ended.reason
            if self._document.restored:
                text += " " + QCoreApplication.translate(
                    "KernelStatus", "A fresh kernel ran the finished steps again: their "
                    "values are back.")
            self.label.setText(text)
            self.label.setToolTip(f"{self._about}\n\n{text}")
            self.label.setStyleSheet("color: palette(highlight);")
            if ended.reason == "died":
                self._set_again_texts()
            self.again_button.setVisible(ended.reason == "died")
        else:
            self.again_button.hide()
            self.label.setText("")
            self.label.setToolTip(self._about)


def _short(text: str, limit: int = 48) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"
