"""The window's kernel: a ``KernelSession`` for the document, drained by a timer, and the
status bar's line for it (the statement running, the time, Stop, and how a run ended).

The session lives with the document: a window made again (a language switch) takes the
hook over, and the kernel with it.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from app.kernel.session import KernelSession
from widgets.common.doc_links import listen
from widgets.common.i18n_text import translate_core
from widgets.common.icons import icon

#: What the window's views ask a kernel, beyond a tensor's plane: loaded in the kernel,
#: by name (the window itself never needs them imported).
VIEW_QUERIES = ("app.explain.kernel_queries",)
#: How long an edit's old values stay on show while the kernel runs it, in seconds (then
#: its steps show as running).
PENDING_S = 0.15
#: A run shows its busy line once it has lasted this long, in seconds.
SHOW_AFTER_S = 0.25
#: How often the window takes what the kernel reported, in milliseconds.
POLL_MS = 30
#: How long one take may last (an output flood never holds the window longer).
POLL_BUDGET_S = 0.008
#: A take of this many events or more is a flood.
FLOOD_EVENTS = 64
#: While the kernel floods the window (a take that used its whole budget), takes are at
#: least this far apart, so the window keeps time for its own events.
WAKE_GAP_S = 0.008
#: How long a take waits after the first of a burst: a statement's end and the run's end
#: come a millisecond apart, and one repaint shows both.
WAKE_GATHER_S = 0.002


class KernelHook(QObject):
    """Starts nothing by itself: the first run of a code step starts the kernel;
    ``warm`` starts it early (the window's launch does, while the window opens).

    What the kernel reports is taken on a timer, and at once when it arrives after a
    quiet spell (``_ready``, emitted from the session's thread, queued to this one).
    """

    _ready = Signal()

    def __init__(self, window: Any):
        super().__init__(window)
        self._document = window.document
        fresh = self._document.kernel is None
        if fresh:
            self._document.kernel = KernelSession(query_modules=VIEW_QUERIES)
        self.session: KernelSession = self._document.kernel
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._drain)
        self._timer.start()
        self._last_take = 0.0
        self._flooded = False  # the last take had more than its budget could hold
        self._wake = QTimer(self)  # a take put off until WAKE_GAP_S after the last one
        self._wake.setSingleShot(True)
        self._wake.timeout.connect(self._drain)
        self._ready.connect(self._on_ready)
        self.session.on_events(self._ready.emit)
        if fresh and self._document.recipe.steps:
            self._document.evaluate()  # what ran before the window came runs in its kernel

    def warm(self) -> None:
        self.session.start()

    def _on_ready(self) -> None:
        gap = WAKE_GAP_S if self._flooded else 0.0  # else a lone result is taken at once
        wait = max(WAKE_GATHER_S, gap - (time.monotonic() - self._last_take))
        if not self._wake.isActive():
            self._wake.start(round(wait * 1000))

    def _drain(self) -> None:
        self._last_take = time.monotonic()
        events = self.session.poll(POLL_BUDGET_S)
        if events:
            self._document.take_kernel_events(events)
        # a flood: many events, or more work than a take's budget (output, a loop's reports)
        self._flooded = len(events) >= FLOOD_EVENTS \
            or time.monotonic() - self._last_take >= POLL_BUDGET_S
        self._document.show_pending(after=PENDING_S)

    def detach(self) -> None:
        """Leave the kernel to another window's hook (the window is made again)."""
        self._timer.stop()
        self.session.on_events(None)

    def close(self) -> None:
        """End the kernel (the window closes for good)."""
        self._timer.stop()
        self.session.on_events(None)
        self.session.close()
        if self._document.kernel is self.session:
            self._document.kernel = None


class KernelStatus(QWidget):
    """The status bar's kernel line: a busy bar, what runs and for how long, and Stop."""

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
        self.busy.setToolTip(QCoreApplication.translate(
            "KernelStatus", "The kernel is running the recipe's code"))
        self.label = QLabel()
        self.label.setToolTip(QCoreApplication.translate(
            "KernelStatus", "What the kernel runs now, and for how long; or how its last run "
            "ended"))
        self.stop_button = QToolButton()
        self.stop_button.setIcon(icon("stop"))
        self.stop_button.setToolTip(QCoreApplication.translate(
            "KernelStatus", "Stop the run (Ctrl+.): the recipe gets a KeyboardInterrupt; the "
            "values of finished steps stay"))
        self.stop_button.clicked.connect(document.stop)
        for w in (self.busy, self.label, self.stop_button):
            policy = w.sizePolicy()  # hidden, they keep their room: the status bar keeps
            policy.setRetainSizeWhenHidden(True)  # its height, and the views above theirs
            w.setSizePolicy(policy)
            layout.addWidget(w)
        self._tick = QTimer(self)
        self._tick.setInterval(200)
        self._tick.timeout.connect(self._show)
        listen(self, [(document.kernel_changed, self._on_model_kernel_changed)], True)
        self._on_model_kernel_changed()

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
        if state is not None:
            progress = state.progress
            if progress is None:
                text = QCoreApplication.translate("KernelStatus", "Starting the kernel…")
            else:
                text = QCoreApplication.translate(
                    "KernelStatus", "Line {0}: {1}  ·  {2:.1f} s").format(
                    progress.line, _short(progress.text), progress.elapsed)
            self.label.setText(text)
            self.label.setStyleSheet("")
            return
        ended = self._document.kernel_ended
        if ended is not None and ended.reason:
            self.label.setText(translate_core("Kernel", ended.message) or ended.reason)
            self.label.setStyleSheet("color: palette(highlight);")
        else:
            self.label.setText("")


def _short(text: str, limit: int = 48) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"
