"""The window's start: its first frame is painted before torch is imported, and torch after.

Recipes run in the kernel, a process of its own; the window's process imports torch only
after its first paint (``widgets.common.torch_ready``), so start-up does not wait for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# `tensor-lab` as launched, with the start-up report (make bench's) swapped for one that
# says whether torch was in this process at the first paint, and when the warm-up is done.
_FIRST_PAINT = textwrap.dedent("""
    import os
    import sys

    import widgets.launch as launch

    def report(quit_after):
        def first_paint():
            print("torch at first paint:", "torch" in sys.modules, flush=True)
            from PySide6.QtCore import QTimer

            from widgets.common.torch_ready import torch_notifier

            def ready():
                print("torch after the first paint:", "torch" in sys.modules, flush=True)
                os._exit(0)

            torch_notifier().ready.connect(ready)
            QTimer.singleShot(60_000, lambda: os._exit(1))
        return first_paint

    launch._first_paint_report = report
    sys.exit(launch.main([]))
""")


def test_the_first_paint_comes_before_torch_and_torch_after_it(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TENSOR_LAB_STARTUP_TIMING": "exit",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    out = subprocess.run([sys.executable, "-c", _FIRST_PAINT], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=90)
    assert "torch at first paint: False" in out.stdout, out.stdout + out.stderr
    assert "torch after the first paint: True" in out.stdout, out.stdout + out.stderr


# -- what waits for torch, in one process (torch is imported here already) -----------------
def test_torch_values_are_told_without_importing_torch(monkeypatch):
    import torch

    import app.torch_loaded as loaded

    assert loaded.torch_loaded()
    assert loaded.is_tensor(torch.zeros(1)) and not loaded.is_tensor([0.0])
    assert loaded.is_dtype(torch.float64) and not loaded.is_dtype("float64")
    monkeypatch.setattr(loaded, "loaded_torch", lambda: None)  # as before the import
    assert not loaded.is_tensor(torch.zeros(1)) and not loaded.is_dtype(torch.float64)


def test_the_gallery_is_read_once_torch_is_in(qtbot, monkeypatch):
    import widgets.recipe.gallery_panel as gallery_panel
    from app.recipe.document import Document
    from widgets.common.torch_ready import torch_notifier

    monkeypatch.setattr(gallery_panel, "torch_loaded", lambda: False)
    panel = gallery_panel.GalleryPanel(Document())
    qtbot.addWidget(panel)
    panel.ensure_scanned()
    assert not panel.scanning and panel.gallery is None
    monkeypatch.undo()
    with qtbot.waitSignal(panel.scanned, timeout=60_000):
        torch_notifier().ready.emit()
    assert panel.gallery is not None and panel.gallery.entries
