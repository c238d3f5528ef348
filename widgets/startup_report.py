"""What ``tensor-lab`` prints for ``make bench`` when ``TENSOR_LAB_STARTUP_TIMING`` is set.

- any value: ``first paint after X s`` (process start to the first paint);
- ``exit``: that, then the process leaves at once, skipping interpreter teardown;
- ``modules``: that, then the modules imported by then that are neither the standard
  library's nor the lab's, one line, and leave (the start-up figure's baseline imports
  them);
- ``memory``: that, then, once the kernel has named its torch (the window's start is
  over) and a moment more, ``window peak RSS X MiB`` (this process's alone, not the
  kernel's), and leave.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from widgets.import_scan import LAB_PACKAGES

#: How long the memory report waits after the kernel's answer, in milliseconds: the
#: views take it, and the collector's first rounds run.
SETTLE_MS = 500


def first_paint_report(mode: str, since_start: Callable[[], float]) -> Callable[[], None]:
    """The callback to run at the first paint for ``TENSOR_LAB_STARTUP_TIMING=mode``."""
    def report() -> None:
        print(f"first paint after {since_start():.3f} s", flush=True)
        if mode == "exit":
            os._exit(0)
        if mode == "modules":
            print("modules:", " ".join(third_party_modules()), flush=True)
            os._exit(0)
        if mode == "memory":
            _report_memory_when_started()

    return report


def third_party_modules() -> list[str]:
    """The imported modules that are neither the standard library's nor the lab's
    (``LAB_PACKAGES``: their imports are the window's work, not the baseline's), in the
    order they were imported."""
    std = set(sys.stdlib_module_names)
    return [name for name, module in list(sys.modules.items())
            if name.split(".")[0] not in std and name.split(".")[0] not in LAB_PACKAGES
            and not name.startswith("_") and getattr(module, "__file__", None)]


def peak_rss_mib() -> float:
    """This process's peak resident set size, in MiB: Linux's ``VmHWM``, not
    ``ru_maxrss``, which keeps the peak of the process that forked this one (a bench
    with torch imported) across ``exec``."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except (OSError, ValueError, IndexError):
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _report_memory_when_started() -> None:
    from PySide6.QtCore import QTimer

    from widgets.common.kernel_devices import kernel_devices

    def report() -> None:
        print(f"window peak RSS {peak_rss_mib():.1f} MiB", flush=True)
        os._exit(0)

    def said() -> None:
        if kernel_devices().torch is not None:
            QTimer.singleShot(SETTLE_MS, report)

    kernel_devices().changed.connect(said)
    said()  # (it may have said already)
