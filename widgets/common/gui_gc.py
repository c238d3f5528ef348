"""The cyclic garbage collector runs on the GUI thread only, between events, and its long
collections wait for a quiet moment.

Left automatic, it runs in whatever thread allocates past its threshold: a background
job reading the gallery, the kernel's service thread. If it frees a window's widgets
there, Qt destroys them off the GUI thread, and that destruction waits on a Qt lock
while the GUI thread, holding the GIL, waits on the same lock to delete another widget:
the window hangs for good (seen in ``tests/test_open_never_runs.py``, with native
stacks). So automatic collection is off, and ``GuiCollector`` collects from a timer on
the GUI thread, by CPython's thresholds, made for a window:

- it looks often (``INTERVAL_MS``), so that the youngest generation is small when it
  goes (a millisecond): a run of 5,000 statements leaves some 85,000 objects, and
  looked at every half second (pyqtgraph's ``GarbageCollector``, used before) the
  youngest generation took 6 to 40 ms of the GUI thread, several times a run;
- the older generations hold what a run made, most of it alive until the next run: a
  collection of them goes through it all (the middle one took 80 to 190 ms during a
  run). While objects pour in (a young collection was needed within ``BUSY_S``: the
  window takes a flood of reports) they wait, and go once the flood is over, or after
  ``MAX_WAIT_S`` (a long training run);
- a full collection (every object made since the start, ``freeze_start``) also waits
  until it is worth it: CPython's rule, the objects that became old since the last one
  are a quarter of those it left.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer

#: How often the GUI thread looks at the collector's counts, in milliseconds.
INTERVAL_MS = 100
#: Net new objects that make the youngest generation due (CPython's threshold).
GEN0_THRESHOLD = 700
#: Young collections that make the middle generation due (CPython's threshold).
GEN1_THRESHOLD = 10
#: Middle collections that make a full one due, with CPython's rule (its threshold).
GEN2_THRESHOLD = 10
#: Objects pour in while a young collection was needed this recently, in seconds: the
#: older generations wait.
BUSY_S = 0.5
#: The longest a due collection of an older generation waits, in seconds.
MAX_WAIT_S = {1: 5.0, 2: 60.0}

_collector: GuiCollector | None = None


class GuiCollector(QObject):
    """Collects on the GUI thread, from a timer (``check``); automatic collection is off.

    Parameters
    ----------
    clock : callable, optional
        Seconds, for the waits (``time.monotonic``; tests pass their own).
    looking : bool, optional
        False: the timer waits for ``freeze_start`` (the launcher's collector: a look
        while the window is built finds a collection due, as nothing was collected
        meanwhile, and held up the first paint by it).
    """

    def __init__(self, parent: QObject | None = None,
                 clock: Callable[[], float] = time.monotonic, *, looking: bool = True):
        super().__init__(parent)
        gc.disable()
        self._clock = clock
        self._last_young = clock() - BUSY_S  # when a young collection was last needed
        self._due_since: dict[int, float | None] = {1: None, 2: None}
        #: Objects left after the last full collection, and made old since (CPython's
        #: ``long_lived_total`` and ``long_lived_pending``, which Python cannot read);
        #: None until a full collection may be due: counting them all takes milliseconds,
        #: and the launcher's ``freeze_start`` leaves none anyway.
        self._old: int | None = None
        self._new_old = 0
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        if looking:
            self.timer.start()

    @property
    def full_due(self) -> bool:
        """Whether the counts call for a full collection (CPython's rule)."""
        if gc.get_count()[2] <= GEN2_THRESHOLD:
            return False
        if self._old is None:
            self._old = len(gc.get_objects(2))
        return self._new_old > self._old // 4

    def check(self) -> int | None:
        """Collect the oldest generation that is due and may go now; which one, or None."""
        young, middle, _ = gc.get_count()
        now = self._clock()
        quiet = now - self._last_young >= BUSY_S
        for generation, due in ((2, self.full_due), (1, middle >= GEN1_THRESHOLD)):
            since = self._due_since[generation] if due else None
            if due and since is None:
                since = now
            self._due_since[generation] = since
            if since is not None and (quiet or now - since >= MAX_WAIT_S[generation]):
                self._collect(generation, young)
                return generation
        if young > GEN0_THRESHOLD:
            self._last_young = now
            gc.collect(0)
            return 0
        return None

    def _collect(self, generation: int, young: int) -> None:
        if generation == 1:  # an upper bound of what it leaves in the old generation
            self._new_old += len(gc.get_objects(1)) + young
        gc.collect(generation)
        self._due_since[1] = None
        if generation == 2:
            self._due_since[2] = None
            self.forget_old(len(gc.get_objects(2)))

    def forget_old(self, left: int = 0) -> None:
        """The old generation holds ``left`` objects (0: ``gc.freeze`` took them all)."""
        self._old, self._new_old = left, 0


def collect_on_gui_thread(looking: bool = True) -> GuiCollector:
    """Start collecting from the GUI thread (once; a ``QApplication`` must exist); with
    ``looking=False`` automatic collection is off at once, and the collector starts
    looking at ``freeze_start``."""
    global _collector
    if _collector is None:
        _collector = GuiCollector(QCoreApplication.instance(), looking=looking)
    return _collector


def freeze_start() -> None:
    """Leave every object the start made (Qt's modules, the window: some 400,000)
    out of the collections to come: a full one went through them all, 200 to 800 ms on
    the GUI thread, every few seconds of a long run's reports. Called once the window
    has painted its first frame."""
    gc.freeze()
    if _collector is not None:
        _collector.forget_old()
        if not _collector.timer.isActive():
            _collector.timer.start()
