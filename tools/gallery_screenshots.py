"""Render the README's screenshots of the gallery, offscreen, at 1280 x 800.

    python tools/gallery_screenshots.py [OUT_DIR]

Opens a lesson, shows the Gallery panel with that lesson selected, and saves
``gallery.png``; then the same in Chinese (``gallery_zh_CN.png``), with the interface
translated when ``resources/i18n`` has a compiled translation. The user's settings are
neither read nor written.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1280, 800)
#: (file name, interface language, lesson to open and select, search text)
SHOTS = (
    ("gallery.png", "en", "index_causal_mask.py", ""),
    ("gallery_zh_CN.png", "zh_CN", "index_causal_mask.py", ""),
)


def settle(app, seconds: float = 0.3) -> None:
    """Let layouts, deferred shows and queued signals run."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def take(file: str, language: str, recipe: str, search: str, out_dir: Path) -> Path:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from app.recipe.document import RECIPES_DIR, Document
    from app.settings import Settings
    from widgets.shell.main_window import MainWindow
    from widgets.shell.translators import install_translators

    app = QApplication.instance()
    install_translators(language)
    document = Document()
    window = MainWindow(document, settings=Settings(language=language))
    document.open(RECIPES_DIR / recipe)  # not open_path: no recent-files entry
    window.resize(*SIZE)
    window.show()
    window.show_gallery()
    window.resizeDocks([window.docks["gallery"]], [470], Qt.Orientation.Horizontal)
    window.resizeDocks([window.docks["code"]], [150], Qt.Orientation.Vertical)
    end = time.monotonic() + 60
    while window.gallery.gallery is None and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    if window.gallery.gallery is None:
        raise RuntimeError("the gallery was not read")
    window.gallery.search_edit.setText(search)
    window.gallery.select_path(RECIPES_DIR / recipe)
    window.gallery.splitter.setSizes([300, 330])
    settle(app)
    path = out_dir / file
    if not window.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    window.hide()
    window.deleteLater()
    settle(app, 0.1)
    return path


def main(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    out_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "resources" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(argv[:1])
    app.setApplicationName("Tensor Lab screenshots")  # keeps the user's settings out
    for shot in SHOTS:
        print(take(*shot, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
