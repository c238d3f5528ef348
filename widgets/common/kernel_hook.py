"""A document's kernel: a ``KernelSession`` for it, its events taken on the GUI thread.

The session's reader thread says when events arrive (``KernelSession.on_events``); the
hook takes them then, on this thread, through a signal queued to it. No timer looks for
them in between: a flood is taken in parts, each after the window's own events.

The window has one (``widgets.shell.main_window``); a panel's demo (``run_demo``) and the
panels' tests make their own. The session lives with the document: another hook on the
same document (a test's) takes the kernel over once this one ``detach``-es.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QWidget

from widgets.common.kernel_devices import kernel_devices

if TYPE_CHECKING:
    from app.link.session import KernelSession

#: What the window's views ask a kernel, beyond a tensor's plane: loaded in the kernel,
#: by name (the window itself never needs them imported).
VIEW_QUERIES = ("kernel.explain.kernel_queries", "kernel.explain.provenance_query",
                "kernel.explain.inner_step_query")
#: How long an edit's old values stay on show while the kernel runs it, in seconds (then
#: its steps show as running).
PENDING_S = 0.15
#: How long one take may last (an output flood never holds the window longer).
POLL_BUDGET_S = 0.008
#: A take of this many events or more is a flood.
FLOOD_EVENTS = 64
#: How long the document's work on one take may last, about: a flood of reports (a run
#: of 5,000 statements) is taken in parts of about this much work, each in a frame.
TAKE_WORK_S = 0.006
#: While the kernel floods the window (a take that used its whole budget), takes are at
#: least this far apart, so the window keeps time for its own events.
WAKE_GAP_S = 0.008
#: How long a take waits after the first of a burst: a statement's end and the run's end
#: come a millisecond apart, and one repaint shows both.
WAKE_GATHER_S = 0.001
#: The GIL's switch interval in the window's process (Python's default is 5 ms): the
#: session's reader thread, which takes the kernel's answers (and sends a run the kernel
#: must first stop for), waits at most this long for the GUI thread to let go of the
#: GIL, not a third of a frame.
SWITCH_S = 0.0005
#: Rounds of posted layout requests settled after a take (nested layouts: a few).
LAYOUT_PASSES = 4


class KernelHook(QObject):
    """Starts nothing by itself: the first run of a code step starts the kernel;
    ``warm`` starts it early (the window's launch does, right after its first paint).

    With ``attach=False`` the document gets this hook's kernel only at ``attach`` (or
    ``warm``): until then its steps wait for one, and nothing starts. The launcher's window
    attaches after its first paint, which a kernel starting meanwhile (a process that
    imports torch, on the same cores) slowed by a fifth.

    What the kernel reports is taken when it arrives after a quiet spell (``_ready``,
    emitted from the session's reader thread, queued to this one), gathered for
    ``WAKE_GATHER_S``, or at once when a run ends (nothing of it is left to gather); what
    one take leaves is taken ``WAKE_GAP_S`` later.
    """

    #: Events arrived in the session's empty queue (from its reader thread); True when
    #: one is a run's end.
    _ready = Signal(bool)

    def __init__(self, document: Any, parent: QObject | None = None, *, attach: bool = True):
        super().__init__(parent)
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_S))
        self._document = document
        self._session: KernelSession | None = None  # made at first use (``session``)
        self._last_take = 0.0
        self._flooded = False  # the last take had more than its budget could hold
        self._left: list = []  # events taken from the session, for the next take
        self._event_s = 0.0001  # the document's work per event, as the last take went
        self._wake = QTimer(self)  # a take put off until WAKE_GAP_S after the last one
        self._wake.setSingleShot(True)
        self._wake.timeout.connect(self._drain)
        self._ready.connect(self._on_ready)
        # an edit's run that sends nothing for PENDING_S shows its steps as running
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(round(PENDING_S * 1000))
        self._pending.timeout.connect(self._on_pending_timeout)
        self._document.kernel_changed.connect(self._on_model_kernel_changed)
        if self._document.kernel is not None:  # another hook's, which this one takes over
            self._listen(self._document.kernel)
        if attach:
            self.attach()

    @property
    def session(self) -> KernelSession:
        """The document's kernel session: the document's own when it had one, else made
        at first use, which for the launcher's window is right after its first paint
        (``attach=False``): the kernel link's modules are imported then, not before it."""
        if self._session is None:
            from app.link.places import transport
            from app.link.session import KernelSession

            self._listen(KernelSession(query_modules=VIEW_QUERIES, transport=transport()))
        return self._session

    def _listen(self, session: KernelSession) -> None:
        self._session = session
        session.on_events(self._ready.emit)
        if session.waiting():  # said before this hook listened (another hook's)
            self._on_ready()
        kernel_devices().follow(session)  # the device menus list the kernel's

    def attach(self) -> None:
        """Give the document this hook's kernel, if it has none yet: its runs go there
        from now on (the first starts it), and what it holds runs now."""
        if self._document.kernel is not None:
            return
        self._document.kernel = self.session
        if self._document.recipe.steps:
            self._document.evaluate()  # what ran before the window came runs in its kernel

    def warm(self) -> None:
        """Attach, and start the kernel now (it imports torch) if it has not started."""
        self.attach()
        self.session.start()

    def use(self, session: KernelSession) -> None:
        """Serve the document with ``session`` instead (the old one is closed): its
        events and devices reach the window from now on (a session of another place,
        Kernel > Run On: what the last one said of its machine is forgotten)."""
        old, self._session = self._session, session
        if old is not None:
            old.on_events(None)
            old.on_devices(None)
            old.close()
        self._document.kernel = session
        session.on_events(self._ready.emit)
        kernel_devices().follow(session, elsewhere=True)

    def _on_model_kernel_changed(self) -> None:
        if self._document.kernel_run is not None:
            self._pending.start()  # (again: a new edit's run waits from now)

    def _on_pending_timeout(self) -> None:
        self._document.show_pending()  # (if its results have not come meanwhile)

    def _on_ready(self, ended: bool = False) -> None:
        if ended and not self._flooded:  # the run's last word: take it all now
            self._wake.stop()
            self._drain()
            return
        gap = WAKE_GAP_S if self._flooded else 0.0  # else a lone result is taken at once
        wait = max(WAKE_GATHER_S, gap - (time.monotonic() - self._last_take))
        if not self._wake.isActive():
            self._wake.start(round(wait * 1000))

    def _drain(self) -> None:
        self._last_take = time.monotonic()
        events = self._left + self.session.poll(POLL_BUDGET_S)
        part = max(FLOOD_EVENTS, int(TAKE_WORK_S / self._event_s))
        events, self._left = events[:part], events[part:]
        if events:
            start = time.perf_counter()
            self._document.take_kernel_events(events)
            self._event_s = max((time.perf_counter() - start) / len(events), 1e-6)
            # the views' new texts change their layouts: settled now, so the repaint that
            # follows is the only one (left to their posted requests, a second came later)
            for _ in range(LAYOUT_PASSES):  # (a layout settled may ask its parent's again)
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        # a flood: many events, or more work than a take's budget (output, a loop's reports)
        self._flooded = len(events) >= FLOOD_EVENTS or bool(self._left) \
            or time.monotonic() - self._last_take >= POLL_BUDGET_S
        more = bool(self._left) or self.session.waiting() > 0
        if more and not self._wake.isActive():  # the rest, after the window's frame
            self._wake.start(round(WAKE_GAP_S * 1000))
        self._document.show_pending(after=PENDING_S)

    def detach(self) -> None:
        """Leave the kernel to another hook on the same document."""
        if self._left:  # taken from the session already: the document has them now
            self._document.take_kernel_events(self._left)
            self._left = []
        self._stop_listening()

    def _stop_listening(self) -> None:
        self._wake.stop()
        self._pending.stop()
        self._document.kernel_changed.disconnect(self._on_model_kernel_changed)
        if self._session is not None:
            self._session.on_events(None)
            self._session.on_devices(None)

    def close(self) -> None:
        """End the kernel (the window closes for good)."""
        self._stop_listening()
        if self._session is None:
            return
        self._session.close()
        if self._document.kernel is self._session:
            self._document.kernel = None


def run_demo(app: QApplication, document: Any, widget: QWidget) -> int:
    """Show ``widget`` on ``document``, run by a kernel of its own, until the app quits
    (the panels' ``python -m`` demos)."""
    hook = KernelHook(document, widget)
    app.aboutToQuit.connect(hook.close)
    widget.show()
    return app.exec()
