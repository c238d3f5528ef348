"""PySide6 reads the source of each module imported after it; the lab's own modules are
answered from their names instead (``widgets.import_scan``), the rest still read."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PROBE = textwrap.dedent("""
    import inspect
    import sys

    import PySide6.QtCore  # noqa: F401 - PySide6's import hook from here on
    from widgets.import_scan import skip_source_scan

    read = []
    source = inspect.getsource
    inspect.getsource = lambda obj: (read.append(getattr(obj, "__name__", "")),
                                     source(obj))[1]
    told = skip_source_scan() if sys.argv[1] == "skip" else None
    from app.recipe import header  # noqa: F401 - lab modules not imported yet
    import colorsys  # noqa: F401 - anyone else's
    import __feature__
    lab = [name for name in read if name.split(".")[0] in ("app", "widgets")]
    print(told, bool(lab), "colorsys" in read, __feature__.pyside_feature_dict.get("app.recipe"))
""")


def _probe(mode: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, mode], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    return out.stdout.split()


def test_the_labs_modules_are_not_read_at_import_and_others_still_are():
    told, lab_read, other_read, selection = _probe("skip")
    if told != "True":  # another PySide6: it scans every module, as before
        assert lab_read == "True"
        return
    assert lab_read == "False" and other_read == "True"
    assert selection == "0"  # what PySide's own scan says of a module that uses Qt


def test_without_it_pyside_reads_every_modules_source():
    _told, lab_read, other_read, _selection = _probe("scan")
    assert lab_read == "True" and other_read == "True"
