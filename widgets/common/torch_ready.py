"""torch in the window's process: left out of the start, imported just after the first paint.

Recipes run in the kernel, which imports its own torch; the window needs torch only for
the values and forms a user works with, so its first frame does not wait for the import
(most of a second). ``warm_torch`` imports it on a background thread once the window has
painted (``widgets.launch``), so the first edit finds it ready; ``torch_notifier().ready``
then tells the views that wait for it. Code that needs torch sooner imports it where it
needs it: that import waits for the warm-up's, it never runs twice. The device menus
need no torch here: they list the kernel's devices (``widgets.common.kernel_devices``).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QObject, Signal

from widgets.common.background import JobError, start_job
from widgets.common.gui_gc import freeze_start


class TorchNotifier(QObject):
    """Tells views that the window's process has imported torch."""

    ready = Signal()
    """Emitted on the GUI thread when ``warm_torch`` has imported torch."""


_notifier: TorchNotifier | None = None


def torch_notifier() -> TorchNotifier:
    """The application's one ``TorchNotifier`` (made on first use)."""
    global _notifier
    if _notifier is None:
        _notifier = TorchNotifier(QCoreApplication.instance())
    return _notifier


def warm_torch() -> None:
    """Import torch off the GUI thread, then emit ``ready``."""
    start_job(_warm, on_done=_on_warm)


def _warm() -> None:
    import torch  # noqa: F401 - the point: loaded before a view asks for it


def _on_warm(_key: object, result: object) -> None:
    if isinstance(result, JobError):
        print(f"tensor-lab: could not import torch: {result.message}", file=sys.stderr)
        return
    freeze_start()  # the start is over: its objects are out of later collections
    torch_notifier().ready.emit()
