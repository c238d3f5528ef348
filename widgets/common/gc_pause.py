"""``cyclic_gc_paused()``: no cyclic garbage collection while Qt or the lab walks every widget.

A widget that only Python reference cycles keep alive is freed by the cyclic garbage
collector, which runs at whatever allocation crosses its threshold. When that happens in
the middle of a walk over every widget of the application (``QApplication.allWidgets()``,
or Qt's own walk inside ``setPalette`` and ``setStyle``), the walk reaches
widgets freed under it and the process crashes. Whatever changes every widget at once
pauses the collector for the walk; the garbage is collected after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector from running inside the ``with`` block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
