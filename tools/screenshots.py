"""Render the README's screenshots, offscreen.

    python tools/screenshots.py [OUT_DIR] [--only=ops|windows]

The "Op explained" shots open a shipped recipe, select a step, show the Ops panel and
the "Op explained" tab, optionally explain one output cell (as hovering it would), at
1280 x 800. The window shots show the whole window in the light and dark themes and in
presenter mode, at 1280 x 800 and 1920 x 1080. PNGs go to ``resources/screenshots`` by
default. The user's settings are neither read nor written.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1280, 800)


@dataclass(frozen=True)
class Shot:
    """One screenshot: a recipe, the step to select, and the output cell to explain."""

    file: str
    recipe: str
    step: str
    cell: tuple[int, ...] | None = None


SHOTS = (
    Shot("op_gather.png", "gather.py", "y", (0, 0)),
    Shot("op_tril.png", "tril.py", "lower", (3, 1)),
    Shot("op_view_error.png", "view_after_transpose.py", "v"),
)


def settle(app, seconds: float = 0.3, document=None) -> None:
    """Let layouts, deferred shows and queued signals run; with ``document``, first until
    its kernel has run it, answered every view and named its torch for the status bar (a
    busy machine starts the kernel slowly: a fixed wait took the picture of "Starting the
    kernel…")."""
    from widgets.common.kernel_devices import kernel_devices

    end = time.monotonic() + 120
    while document is not None and (document.kernel_run is not None or document.asking
                                    or document.waiting_since is not None
                                    or kernel_devices().torch is None) \
            and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def take(shot: Shot, out_dir: Path) -> Path:
    from PySide6.QtWidgets import QApplication

    from app.recipe.document import RECIPES_DIR, Document
    from widgets.shell.main_window import MainWindow

    app = QApplication.instance()
    document = Document()
    window = MainWindow(document)
    document.open(RECIPES_DIR / shot.recipe)  # not open_path: no recent-files entry
    document.select_name(shot.step)
    window.views.setCurrentWidget(window.op_view)
    window.docks["ops"].raise_()
    window.resize(*SIZE)
    window.show()
    settle(app, document=document)
    view = window.op_view
    if shot.cell is not None:
        view.activate_output(shot.cell, pin=True)
        end = time.monotonic() + 20
        while view.provenance is None and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        if view.provenance is None:
            raise RuntimeError(f"{shot.file}: the cell {shot.cell} was not explained")
    settle(app)
    path = out_dir / shot.file
    if not window.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    window.hide()
    window.deleteLater()
    return path


@dataclass(frozen=True)
class WindowShot:
    """The whole window: a theme, presenter mode or not, a size, and a step to select."""

    file: str
    theme: str
    size: tuple[int, int]
    present: bool = False
    step: str = "noise"
    tab: str = "grid"  # the tensor viewer's tab: grid or heatmap


WINDOW_SHOTS = tuple(
    WindowShot(f"{name}{suffix}.png", theme, size, present, step, tab)
    for suffix, size in (("", (1280, 800)), ("_1920", (1920, 1080)))
    for name, theme, present, step, tab in (
        ("theme_light", "light", False, "noise", "grid"),
        ("theme_dark", "dark", False, "cube", "heatmap"),
        ("presenter", "light", True, "m", "grid"),
    ))


def take_window(shot: WindowShot, out_dir: Path) -> Path:
    from PySide6.QtWidgets import QApplication

    from app.recipe.document import Document
    from app.settings import Settings
    from widgets.common.theme import apply_theme
    from widgets.shell.main_window import MainWindow

    app = QApplication.instance()
    apply_theme(shot.theme)
    document = Document()
    document.open_welcome()
    window = MainWindow(document, settings=Settings())
    window.resize(*shot.size)
    window.show()
    if shot.present:
        window.presenter.set_enabled(True)
    document.select_name(shot.step)
    window.viewer.set_mode(shot.tab)
    settle(app, 1.0, document)  # docks animate into place when the window first shows
    path = out_dir / shot.file
    if not window.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    window.presenter.set_enabled(False)
    window.hide()
    window.deleteLater()
    apply_theme("system")
    return path


def main(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    only = next((a.split("=", 1)[1] for a in argv[1:] if a.startswith("--only=")), None)
    paths = [a for a in argv[1:] if not a.startswith("--")]
    out_dir = Path(paths[0]) if paths else ROOT / "resources" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(argv[:1])
    app.setApplicationName("Tensor Lab screenshots")  # keeps the user's settings out
    if only in (None, "ops"):
        for shot in SHOTS:
            print(take(shot, out_dir))
    if only in (None, "windows"):
        for window_shot in WINDOW_SHOTS:
            print(take_window(window_shot, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
