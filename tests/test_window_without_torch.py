"""The window never imports torch: ``tensor-lab --screenshot`` on a recipe paints every
view from what its kernel answers, and ``torch`` is not in the window's ``sys.modules``
after it; nor after a tour of the window as a user opens it, every view tab on every
step, then the gallery (#33). Torch runs in the kernel, a process of its own, and no
module of ``kernel/`` is loaded in the window either.

End to end, in a subprocess: the window process is ``tensor-lab`` itself, with an import
hook that names the window's own module that first imported torch, if one did.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_WINDOW = textwrap.dedent("""
    import sys
    import traceback

    class TorchWatch:
        '''Remembers the window's frames (app/, widgets/) that first imported torch.'''

        importer = None

        def find_spec(self, name, path=None, target=None):
            if name == "torch" and TorchWatch.importer is None:
                ours = [f"{f.filename}:{f.lineno}" for f in traceback.extract_stack()
                        if "/app/" in f.filename or "/widgets/" in f.filename]
                TorchWatch.importer = " <- ".join(reversed(ours[-4:])) or "?"
            return None

    def said():
        print("torch in the window:", "torch" in sys.modules, flush=True)
        print("kernel modules in the window:",
              sorted(m for m in sys.modules if m.partition(".")[0] == "kernel"), flush=True)
        print("imported by:", TorchWatch.importer, flush=True)

    if __name__ == "__main__":  # (not in the kernel, which spawn starts from this file)
        sys.meta_path.insert(0, TorchWatch())
        import widgets.launch as launch

        if sys.argv[1:2] == ["--tour"]:
            launch._first_paint_report = lambda _mode: tour
            sys.argv.pop(1)
        code = launch.main(sys.argv[1:])
        said()
        sys.exit(code)
""")

# After the first paint: once the kernel has run the recipe and named its torch, each view
# tab in turn shows each step, then the gallery opens.
_TOUR = textwrap.dedent("""
    import os
    import time

    def tour():
        from PySide6.QtWidgets import QApplication

        from widgets.common.kernel_devices import kernel_devices

        window = next(w for w in QApplication.topLevelWidgets() if hasattr(w, "views"))
        document = window.document
        # the launcher starts the kernel right after this report (the first in its list)
        window.kernel_hook.warm()

        def settle(busy, seconds):
            end = time.monotonic() + seconds
            while busy() and time.monotonic() < end:
                QApplication.processEvents()
                time.sleep(0.01)

        settle(lambda: document.kernel_run is not None or document.asking
               or kernel_devices().torch is None, 120)
        print("kernel's torch:", kernel_devices().torch, flush=True)  # a tour with values
        for tab in range(window.views.count()):
            window.views.setCurrentIndex(tab)
            for step in document.recipe.steps:
                document.select_name(step.name)
                settle(lambda: True, 0.1)
                settle(lambda: document.asking, 30)
        window.show_gallery()
        settle(lambda: window.gallery.gallery is None, 60)
        said()
        os._exit(0)
""")


@pytest.mark.parametrize("recipe", [None, "recipes/create_tensors.py", "recipes/nn_lenet.py",
                                    "recipes/shape_view.py"])
def test_a_screenshot_of_the_window_imports_no_torch(tmp_path, recipe):
    shot = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    args = [sys.executable, "-c", _WINDOW, "--screenshot", str(shot)] + (
        [str(ROOT / recipe)] if recipe else [])
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and shot.stat().st_size > 0, out.stdout + out.stderr
    assert "torch in the window: False" in out.stdout, out.stdout
    assert "kernel modules in the window: []" in out.stdout, out.stdout


@pytest.mark.parametrize("recipe", [None, "recipes/nn_lenet.py"])
def test_a_tour_of_every_view_and_the_gallery_imports_no_torch(tmp_path, recipe):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TENSOR_LAB_STARTUP_TIMING": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    args = [sys.executable, "-c", _TOUR + _WINDOW, "--tour"] + (
        [str(ROOT / recipe)] if recipe else [])
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert "torch in the window: False" in out.stdout, out.stdout + out.stderr[-2000:]
    assert "kernel modules in the window: []" in out.stdout, out.stdout
    assert "kernel's torch: None" not in out.stdout, out.stdout  # toured with its values
