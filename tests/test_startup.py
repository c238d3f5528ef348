"""The window's start: its first frame is painted with no torch in its process and no
kernel process started yet (one would take the cores from it), and its kernel, started
after that paint, names its torch build for the status bar.

Recipes run in the kernel, a process of its own, which imports torch; the window never
does, so start-up does not wait for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# `tensor-lab` as launched, with the start-up report (make bench's) swapped for one that
# says whether torch was in this process at the first paint, and what torch the kernel
# said it runs once it had started.
_FIRST_PAINT = textwrap.dedent("""
    import os
    import sys

    import widgets.launch as launch

    def children():
        mine = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                        mine.append(pid)
            except (OSError, ValueError, IndexError):
                pass  # (gone meanwhile)
        return mine

    def report(_mode):
        def first_paint():
            print("torch at first paint:", "torch" in sys.modules, flush=True)
            print("processes started by the first paint:", len(children()), flush=True)
            from PySide6.QtCore import QTimer

            from widgets.common.kernel_devices import kernel_devices

            def said():
                if kernel_devices().torch is not None:
                    print("the kernel's torch:", kernel_devices().torch.version, flush=True)
                    os._exit(0)

            kernel_devices().changed.connect(said)
            QTimer.singleShot(120_000, lambda: os._exit(1))
        return first_paint

    launch._first_paint_report = report
    sys.exit(launch.main([]))
""")


def test_the_first_paint_comes_without_torch_or_a_kernel_and_the_kernel_names_its_torch(tmp_path):
    import torch

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TENSOR_LAB_STARTUP_TIMING": "exit",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    out = subprocess.run([sys.executable, "-c", _FIRST_PAINT], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=150)
    assert "torch at first paint: False" in out.stdout, out.stdout + out.stderr
    assert "processes started by the first paint: 0" in out.stdout, out.stdout
    assert f"the kernel's torch: {torch.__version__}" in out.stdout, out.stdout + out.stderr


# -- in one process (torch is imported here, as it is not in the window) -------------------
def test_torch_values_are_told_without_importing_torch(monkeypatch):
    import torch

    import app.torch_loaded as loaded

    assert loaded.is_tensor(torch.zeros(1)) and not loaded.is_tensor([0.0])
    assert loaded.is_dtype(torch.float64) and not loaded.is_dtype("float64")
    monkeypatch.setattr(loaded, "loaded_torch", lambda: None)  # as in the window
    assert not loaded.is_tensor(torch.zeros(1)) and not loaded.is_dtype(torch.float64)


def test_the_gallery_is_read_once_the_kernel_has_answered(qtbot):
    import widgets.recipe.gallery_panel as gallery_panel
    from app.recipe.document import Document
    from protocol.devices import TorchBuild
    from widgets.common.kernel_devices import kernel_devices

    kernel_devices().set_torch(None)  # the window is starting: no kernel has said yet
    panel = gallery_panel.GalleryPanel(Document())
    qtbot.addWidget(panel)
    panel.ensure_scanned()
    assert not panel.scanning and panel.gallery is None
    try:
        with qtbot.waitSignal(panel.scanned, timeout=60_000):
            kernel_devices().set_torch(TorchBuild("9.9.0+test"))
    finally:
        kernel_devices().set_torch(None)
    assert panel.gallery is not None and panel.gallery.entries


def test_the_bench_reports_name_what_the_window_imported_and_its_peak_memory():
    import resource

    import numpy  # noqa: F401 - imported here, as in the window

    import protocol.messages  # noqa: F401 - the lab's own, as app and widgets are
    from widgets.startup_report import peak_rss_mib, third_party_modules

    modules = third_party_modules()
    assert "numpy" in modules and "json" not in modules and "os" not in modules
    assert not any(m.split(".")[0] in ("app", "widgets", "protocol") for m in modules)
    with open("/proc/self/status", encoding="ascii") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # (not forked here)
    assert rss <= peak_rss_mib() and abs(peak_rss_mib() - maxrss) <= 0.02 * maxrss


def test_the_launcher_builds_its_panels_on_the_welcome_recipe_already_open(qapp, monkeypatch):
    # Built on an empty recipe, every panel then showed the welcome one again (its
    # builder form made three times): a sixth of the window's start before its paint.
    import widgets.launch as launch
    from app.settings import Settings
    from widgets.shell.main_window import MainWindow

    seen = []
    build = MainWindow.__init__

    def building(self, document, *args, **kwargs):
        seen.append(len(document.recipe.steps))
        build(self, document, *args, **kwargs)

    monkeypatch.setattr(MainWindow, "__init__", building)
    window = launch.make_window(restore_layout=False, settings=Settings(), attach_kernel=False)
    try:
        assert seen[0] > 0 and len(window.document.recipe.steps) == seen[0]
        assert window.document.path is None and window.steps.isVisibleTo(window)
    finally:
        window.kernel_hook.close()
        window.deleteLater()


def test_a_builder_made_on_a_selected_creation_step_builds_its_form_once(qtbot, monkeypatch):
    # It built the first function's form, then the selected step's: twice the rows
    # before the window's first paint.
    from app.recipe.document import Document
    from widgets.ops.builder_panel import BuilderPanel
    from widgets.ops.param_form import ParamForm

    document = Document()
    document.open_welcome()
    assert document.selected is not None
    made = []
    set_spec = ParamForm.set_spec

    def counted(self, spec, *args, **kwargs):
        made.append(spec)
        return set_spec(self, spec, *args, **kwargs)

    monkeypatch.setattr(ParamForm, "set_spec", counted)
    panel = BuilderPanel(document, None)
    qtbot.addWidget(panel)
    assert len(made) == 1
    assert panel.name_edit.text() == document.recipe.steps[document.selected].name


def test_the_toolbar_gets_its_actions_with_their_texts_already_set(qapp, monkeypatch):
    # Set after the actions were on the toolbar, each text, tooltip and status tip was a
    # change the toolbar laid itself out for: some 40 before the first paint.
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QToolBar

    import widgets.shell.actions as actions
    from app.recipe.document import Document
    from app.settings import Settings
    from widgets.shell.main_window import MainWindow

    changes = []

    class Counting(QToolBar):
        def actionEvent(self, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.ActionChanged:
                changes.append(event.action().objectName())
            super().actionEvent(event)

    monkeypatch.setattr(actions, "QToolBar", Counting)
    window = MainWindow(Document(), settings=Settings(), attach_kernel=False)
    try:
        shown = window.window_actions.toolbar.actions()
        assert all(a.isSeparator() or a.toolTip() for a in shown)
        assert len(changes) < len(shown) // 2, changes
    finally:
        window.kernel_hook.close()
        window.deleteLater()


_FONTS = textwrap.dedent("""
    import ctypes
    import os
    import sys
    import threading

    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QApplication

    import widgets.launch as launch

    app = QApplication([])
    started = []
    real_start = threading.Thread.start

    def start(thread):
        started.append(thread._target)  # (a thread forgets it once run)
        real_start(thread)

    threading.Thread.start = start
    if sys.argv[1] == "warm":
        launch.warm_fonts()
        for thread in threading.enumerate():
            if thread.name == "tensor-lab fonts":
                thread.join()
    # the warming thread calls C (ctypes lets go of the GIL), never Qt from Python
    print([isinstance(target, ctypes._CFuncPtr) for target in started])
    print(sorted(QFontDatabase.families()))
""")


def test_warming_the_fonts_calls_fontconfig_without_the_gil_and_changes_no_font():
    """``warm_fonts`` loads fontconfig's database on a thread that holds no GIL while it
    works (one that asked Qt held it, and the window's thread waited 5 ms for it); Qt then
    lists the same fonts as a window that warmed nothing."""
    said = {}
    for mode in ("warm", "cold"):
        out = subprocess.run([sys.executable, "-c", _FONTS, mode], capture_output=True,
                             text=True, cwd=ROOT, timeout=60)
        assert out.returncode == 0, out.stderr
        said[mode] = out.stdout.splitlines()
    if sys.platform.startswith("linux"):
        assert said["warm"][0] == "[True]"  # the one thread, its target fontconfig's FcInit
    assert said["cold"][0] == "[]"
    assert said["warm"][1] == said["cold"][1] != "[]"
