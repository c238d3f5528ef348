"""The lab's own modules skip PySide6's source scan at import.

Once PySide6 is imported, its ``__feature__`` import hook looks at every module imported
after it, once: it reads the module's whole source (``inspect.getsource``) to tell
whether the module uses PySide, for the opt-in ``from __feature__ import snake_case,
true_property``. That is about 0.1 ms a module; for the window's ~110 modules of its
own before the first paint it was 13 ms of their imports and 20 ms of the start (a
known cost: napari's issue 8584). The lab opts into no feature, so its own modules are
answered from their names, as using PySide (the answer PySide's scan gives a Qt
module: no feature, the default); every other module is scanned as before.

The hook's function is PySide's own and not public: where it is not there (another
PySide6), nothing changes and every module is scanned.
"""

from __future__ import annotations

import sys

#: The lab's packages, by their first name.
LAB_PACKAGES = frozenset({"app", "widgets", "protocol", "kernel"})


def skip_source_scan() -> bool:
    """Answer the lab's modules from their names from now on (PySide6 must be imported);
    whether PySide6's scan is told so (False: it scans them as before)."""
    feature = sys.modules.get("__feature__")
    scan = getattr(feature, "_mod_uses_pyside", None)
    if not callable(scan):
        return False
    if getattr(scan, "lab_skips", False):  # (told already)
        return True

    def uses_pyside(module) -> bool:
        name = getattr(module, "__name__", "") or ""
        return name.partition(".")[0] in LAB_PACKAGES or scan(module)

    uses_pyside.lab_skips = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[union-attr]
    return True
