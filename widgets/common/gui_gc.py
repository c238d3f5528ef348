"""The cyclic garbage collector runs on the GUI thread only, between events.

Left automatic, it runs in whatever thread allocates past its threshold: a background
job reading the gallery, the kernel's service thread. If it frees a window's widgets
there, Qt destroys them off the GUI thread, and that destruction waits on a Qt lock
while the GUI thread, holding the GIL, waits on the same lock to delete another widget:
the window hangs for good (seen in ``tests/test_open_never_runs.py``, with native
stacks). pyqtgraph's ``GarbageCollector`` turns automatic collection off and collects,
by the same thresholds, from a timer on the GUI thread.
"""

from __future__ import annotations

import gc

from pyqtgraph.util.garbage_collector import GarbageCollector

#: How often the GUI thread looks at the collector's counts, in seconds.
INTERVAL_S = 0.5

_collector: GarbageCollector | None = None


def collect_on_gui_thread() -> GarbageCollector:
    """Start collecting from the GUI thread (once; a ``QApplication`` must exist)."""
    global _collector
    if _collector is None:
        _collector = GarbageCollector(interval=INTERVAL_S)
    return _collector


def freeze_start() -> None:
    """Leave every object the start made (torch, Qt's modules, the window: some 400,000)
    out of the collections to come: a full one went through them all, 200 to 800 ms on
    the GUI thread, every few seconds of a long run's reports. Called once torch is in."""
    gc.freeze()
