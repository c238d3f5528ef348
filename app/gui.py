"""The thin Qt bootstrap: make the application, open the window, or take a screenshot."""

from __future__ import annotations

import os
import sys
import time

ORGANIZATION = "TensorLab"
APPLICATION = "Tensor Lab"


def launch(recipe: str | None = None, *, screenshot: str | None = None,
           size: tuple[int, int] = (1280, 800)) -> int:
    """Run the window; with ``screenshot``, render offscreen to that PNG and return."""
    if screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings, QTimer, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    qInstallMessageHandler(_on_qt_message)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)

    window = make_window(recipe, restore_layout=not screenshot)
    if screenshot:
        return save_screenshot(window, screenshot, size)
    window.show()
    if os.environ.get("TENSOR_LAB_STARTUP_TIMING"):
        QTimer.singleShot(0, lambda: print(f"first paint after {since_start():.2f} s",
                                           flush=True))
    return app.exec()


def make_window(recipe: str | None = None, *, restore_layout: bool = True):
    """The main window on ``recipe``, or on the welcome recipe (never an empty window)."""
    from app.document import Document
    from widgets.main_window import MainWindow

    document = Document()
    window = MainWindow(document)
    if restore_layout:
        window.restore_settings()
    if recipe is None or not window.open_path(recipe):
        document.open_welcome()
    return window


def save_screenshot(window, path: str, size: tuple[int, int]) -> int:
    """Render ``window`` at ``size`` and write a PNG; 0 on success."""
    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    window.show()
    for _ in range(3):  # let layouts and deferred plot updates settle
        QApplication.processEvents()
    ok = window.grab().save(path)
    window.hide()  # not close(): a screenshot neither asks questions nor saves the layout
    if not ok:
        print(f"tensor-lab: could not write {path}", file=sys.stderr)
        return 1
    print(path)
    return 0


#: Qt messages that say nothing to a user: the offscreen platform's known limits.
_QUIET = ("This plugin does not support propagateSizeHints",)


def _on_qt_message(_mode, _context, message: str) -> None:
    if not message.startswith(_QUIET):
        print(message, file=sys.stderr)


def since_start() -> float:
    """Seconds since this process started (Linux reads /proc; elsewhere since import)."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _IMPORTED


_IMPORTED = time.perf_counter()
