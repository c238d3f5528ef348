"""The thin Qt bootstrap: make the application, open the window, or take a screenshot."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ORGANIZATION = "TensorLab"
APPLICATION = "Tensor Lab"
#: Compiled translations: ``tensor_lab_<locale>.qm`` (``tensor_lab_zh_CN.qm``).
I18N_DIR = Path(__file__).resolve().parent.parent / "resources" / "i18n"

_translators: list = []  # installed QTranslators, kept alive here


def prepare_environment() -> None:
    """What Qt must know before the application object exists.

    Qt spreads large image blits over a thread pool of its own. Here every core but the
    window's belongs to training (``worker.default_threads``): those threads took CPU
    from the training process on every frame of live plots, and the window paints
    faster alone. ``QT_NO_GUI_THREADPOOL`` (read by Qt as the application starts) turns
    the pool off; a value already in the environment is kept.
    """
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


def launch(recipe: str | None = None, *, screenshot: str | None = None,
           size: tuple[int, int] = (1280, 800), present: bool = False,
           lang: str | None = None, theme: str | None = None) -> int:
    """Run the window; with ``screenshot``, render offscreen to that PNG and return.

    ``lang`` (a locale such as ``zh_CN``) and ``theme`` are remembered in the settings,
    except for a screenshot, which leaves the settings as they were.
    """
    if screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    prepare_environment()
    # torch before PySide6: once PySide6 is loaded, its import hook reads the source of
    # every module imported after it, and torch has hundreds.
    import torch  # noqa: F401
    from PySide6.QtCore import QSettings, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from widgets.settings_store import load_settings, save_settings
    from widgets.theme import apply_theme

    qInstallMessageHandler(_on_qt_message)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)

    settings = load_settings()
    with settings.events.blocked():
        if lang is not None:
            settings.language = lang
        if theme is not None:
            settings.theme = theme
    if not screenshot and (lang is not None or theme is not None):
        save_settings(settings)
    install_translators(settings.language)
    apply_theme(settings.theme, settings.high_contrast)
    window = make_window(recipe, restore_layout=not screenshot, present=present,
                         settings=settings)
    if screenshot:
        return save_screenshot(window, screenshot, size)
    window.show()
    timing = os.environ.get("TENSOR_LAB_STARTUP_TIMING")
    if timing:
        _report_first_paint(app, quit_after=timing == "exit")
    from widgets.autosave_hook import start_autosave

    autosave = start_autosave(window)  # offers to restore a crashed session's work first
    code = app.exec()
    autosave.finish()  # a clean exit: nothing to offer next time
    return code


def _report_first_paint(app, quit_after: bool) -> None:
    """Print "first paint after X s" once the first widget has painted (``make bench``).

    With ``quit_after`` the process then leaves at once, skipping interpreter teardown.
    """
    from PySide6.QtCore import QEvent, QObject, QTimer

    def report() -> None:
        print(f"first paint after {since_start():.3f} s", flush=True)
        if quit_after:
            os._exit(0)

    class FirstPaint(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                app.removeEventFilter(self)
                QTimer.singleShot(0, report)  # after this frame's painting is done
            return False

    hook = FirstPaint(app)  # parented: lives as long as the application
    app.installEventFilter(hook)


def make_window(recipe: str | None = None, *, restore_layout: bool = True,
                present: bool = False, settings=None):
    """The main window on ``recipe``, or on the welcome recipe (never an empty window).

    ``present`` starts it in presenter mode; ``settings`` (``app.settings.Settings``) are
    read from ``QSettings`` when not given.
    """
    from app.document import Document
    from widgets.main_window import MainWindow

    document = Document()
    window = MainWindow(document, settings=settings)
    if restore_layout:
        window.restore_settings()
    if recipe is None or not window.open_path(recipe):
        document.open_welcome()
    if present:
        window.presenter.set_enabled(True)
    return window


def translation_file(language: str) -> Path | None:
    """The ``.qm`` file for ``language`` (``zh_CN``, falling back to ``zh``), if shipped."""
    for name in (language, language.split("_")[0]):
        path = I18N_DIR / f"tensor_lab_{name}.qm"
        if name and path.is_file():
            return path
    return None


def install_translators(language: str = "") -> str:
    """Translate the UI into ``language`` (a locale name; ``""`` follows the system).

    Installs Tensor Lab's own translation when ``resources/i18n`` has one, and Qt's
    translation of its standard dialogs. Returns the locale name used. Widgets read their
    texts when they are built, so call it before the window is made; to switch while the
    lab runs, ``MainWindow.switch_language`` calls it and then makes the window again.
    """
    from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

    app = QCoreApplication.instance()
    for translator in _translators:
        app.removeTranslator(translator)
    _translators.clear()
    locale = QLocale(language) if language else QLocale.system()
    own = translation_file(locale.name())
    if own is not None:
        translator = QTranslator(app)
        if translator.load(str(own)):
            app.installTranslator(translator)
            _translators.append(translator)
    qt_base = QTranslator(app)
    if qt_base.load(locale, "qtbase", "_",
                    QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_base)
        _translators.append(qt_base)
    return locale.name()


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
