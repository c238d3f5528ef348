"""The ``tensor-lab`` command and the thin Qt bootstrap around the window.

``tensor-lab [RECIPE.py]`` opens the window; ``tensor-lab --screenshot OUT.png [RECIPE.py]``
renders it offscreen; ``tensor-lab run RECIPE.py [--json]`` goes to ``app.cli.run_main``,
which evaluates headless with no Qt imported.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable

from app.identity import APPLICATION, ORGANIZATION
from widgets.shell.translators import install_translators
from widgets.xcb import install_hint, missing_xcb_libraries


def main(argv: list[str] | None = None) -> int:
    """``tensor-lab``: ``run`` evaluates headless; anything else opens the window."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["run"]:
        from app.cli import run_main

        return run_main(argv[1:])
    return gui_main(argv)


def gui_main(argv: list[str]) -> int:
    """Open the window (or render it offscreen with ``--screenshot``)."""
    parser = argparse.ArgumentParser(
        prog="tensor-lab",
        description="A desktop lab for exploring PyTorch. "
                    "'tensor-lab run RECIPE.py [--json]' evaluates a recipe without the window.")
    parser.add_argument("recipe", nargs="?", help="a recipe to open (.py)")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="render the window offscreen at 1280x800, save it, and exit")
    parser.add_argument("--size", default="1280x800", help="window size for --screenshot")
    parser.add_argument("--present", action="store_true",
                        help="start in presenter mode: big text, cells and plot lines")
    parser.add_argument("--lang", metavar="LOCALE",
                        help="the interface language, such as en or zh_CN (remembered)")
    parser.add_argument("--theme", choices=("system", "light", "dark"),
                        help="the colour theme (remembered)")
    parser.add_argument("--kernel", metavar="ssh://[USER@]HOST[:PORT][?python=PATH]",
                        help="run recipes on a server over SSH (its python needs torch)")
    parser.add_argument("--trust", action="store_true",
                        help="run RECIPE.py even if it came from elsewhere (without it, "
                             "only gallery recipes and files this lab saved run at once)")
    args = parser.parse_args(argv)
    if args.kernel:
        from app.link.places import run_on
        from app.link.ssh import parse_target

        try:
            run_on(parse_target(args.kernel))
        except ValueError as e:
            parser.error(str(e))
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x800, not {args.size!r}")
    return launch(args.recipe, screenshot=args.screenshot, size=(width, height),
                  present=args.present, lang=args.lang, theme=args.theme, trust=args.trust)


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
           lang: str | None = None, theme: str | None = None, trust: bool = False) -> int:
    """Run the window; with ``screenshot``, render offscreen to that PNG and return.

    ``lang`` (a locale such as ``zh_CN``) and ``theme`` are remembered in the settings,
    except for a screenshot, which leaves the settings as they were. ``trust`` runs a
    ``recipe`` from elsewhere at once (the trust rule: ``widgets.shell.opening``).
    """
    if screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    missing = missing_xcb_libraries()
    if missing:
        print(f"tensor-lab: {install_hint(missing)}", file=sys.stderr)
        return 1
    prepare_environment()
    from widgets.import_scan import skip_source_scan

    skip_source_scan()  # (PySide6 is imported: the translators' module imports it)
    from PySide6.QtCore import QSettings, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from widgets.common.gui_gc import collect_on_gui_thread, freeze_start
    from widgets.common.highlighter import colour_after_first_paint, lexer_ready
    from widgets.common.theme import apply_theme
    from widgets.shell.settings_store import load_settings, save_settings

    qInstallMessageHandler(_on_qt_message)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    warm_fonts()  # on the other core, while the window's modules import
    collect_on_gui_thread(looking=False)  # it looks from the first paint (freeze_start)
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
    if not screenshot:  # the code's colours come right after the first paint
        colour_after_first_paint()
    window = make_window(recipe, restore_layout=not screenshot, present=present,
                         settings=settings, trust=trust, attach_kernel=False)
    if screenshot:
        return save_screenshot(window, screenshot, size)
    window.show()
    # The window never imports torch; its kernel does, in its own process, from just after
    # the first paint: the recipe's steps wait for it until then, and nothing competes with
    # the window for the cores (a recipe held by the trust rule has it ready when it runs). The
    # panels the first paint did not show are built then too, one per pass of the loop,
    # and autosave starts (offering first, over the window, a crashed session's work).
    autosave = []
    after_paint = [lexer_ready, window.kernel_hook.warm, freeze_start,
                   lambda: autosave.append(_start_autosave(window)), window.build_deferred]
    timing = os.environ.get("TENSOR_LAB_STARTUP_TIMING")
    if timing:  # first: with "exit" the process ends there (widgets.startup_report)
        after_paint.insert(0, _first_paint_report(timing))
    after_first_paint(window, *after_paint)
    code = app.exec()
    for hook in autosave:
        hook.finish()  # a clean exit: nothing to offer next time
    return code


def warm_fonts() -> None:
    """Load the system's fonts on a thread of their own: the window's first text layout
    waited 5 to 6 ms for fontconfig's database, which this thread loads meanwhile, on the
    other core, while the window's modules import (Qt's own query of it then takes 1 ms).
    fontconfig is called through ``ctypes``, which lets go of the GIL for the call: a
    thread that asked Qt (``QFontDatabase.families()``) held the GIL for those 5 ms, and
    the window's thread waited for it. fontconfig is thread-safe, and the library Qt reads
    its fonts with (where there is none, Windows or macOS, nothing is warmed)."""
    import ctypes
    import threading

    try:
        fontconfig = ctypes.CDLL("libfontconfig.so.1")
    except OSError:
        return
    threading.Thread(target=fontconfig.FcInit, name="tensor-lab fonts", daemon=True).start()


def _start_autosave(window):
    from widgets.shell.autosave_hook import start_autosave

    return start_autosave(window)


def _first_paint_report(mode: str) -> Callable[[], None]:
    """What prints "first paint after X s" (``make bench``), and more by ``mode``: the
    time is read first, then the report's module is imported (not the window's work)."""
    def report() -> None:
        seconds = since_start()
        from widgets.startup_report import first_paint_report

        first_paint_report(mode, lambda: seconds)()

    return report


def after_first_paint(window, *callbacks: Callable[[], None]) -> None:
    """Call ``callbacks``, in order, once ``window`` has painted its first frame.

    The filter watches the window alone: on the application it took every event of
    every widget into Python until then (some 800, 2 to 3 ms before the first paint).
    """
    from PySide6.QtCore import QEvent, QObject, QTimer

    def run() -> None:
        for callback in callbacks:
            callback()

    class FirstPaint(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                window.removeEventFilter(self)
                QTimer.singleShot(0, run)  # after this frame's painting is done
            return False

    hook = FirstPaint(window)  # parented: lives as long as the window
    window.installEventFilter(hook)


def make_window(recipe: str | None = None, *, restore_layout: bool = True,
                present: bool = False, settings=None, trust: bool = False,
                attach_kernel: bool = True):
    """The main window on ``recipe``, or on the welcome recipe (never an empty window).

    ``recipe`` opens by the trust rule (``trust`` runs it even from elsewhere);
    ``present`` starts it in presenter mode; ``settings`` (``app.settings.Settings``) are
    read from ``QSettings`` when not given. ``attach_kernel=False``: the recipe runs
    from ``window.kernel_hook.warm()`` (``MainWindow``'s ``attach_kernel``).
    """
    from app.recipe.document import Document
    from widgets.shell.main_window import MainWindow

    document = Document()
    if recipe is None:  # opened before the panels, which are then built once, on it
        document.open_welcome()
    window = MainWindow(document, settings=settings, attach_kernel=attach_kernel)
    if restore_layout:
        window.restore_settings()
    opened = recipe is not None and window.open_path(recipe, trust=trust)
    if recipe is not None and not opened and document.path is None:  # a file not there
        document.open_welcome()
    if present:
        window.presenter.set_enabled(True)
    return window


#: The longest a screenshot waits for the kernel to run a trusted recipe's code and to
#: name its torch, in seconds.
SCREENSHOT_KERNEL_S = 120.0


def save_screenshot(window, path: str, size: tuple[int, int]) -> int:
    """Render ``window`` at ``size`` and write a PNG; 0 on success.

    Prints the PNG's path, and why no values show when the recipe was held.
    """
    from PySide6.QtWidgets import QApplication

    from widgets.common.gc_pause import cyclic_gc_paused
    from widgets.common.kernel_devices import kernel_devices
    from widgets.shell.opening import describe

    window.resize(*size)
    window.show()
    window.kernel_hook.warm()  # a held recipe starts none: the status bar names its torch
    window.build_deferred()  # as after a first paint on screen
    deadline = time.monotonic() + SCREENSHOT_KERNEL_S
    # Painting walks every widget: no cyclic collection may free a widget under it (see
    # widgets.common.gc_pause); the garbage goes after the picture is taken.
    with cyclic_gc_paused():
        while (window.document.kernel_run is not None or window.document.asking
               or kernel_devices().torch is None or window.gallery.scanning) \
                and time.monotonic() < deadline:  # (a scan's thread must end before we do)
            QApplication.processEvents()  # the kernel runs the code steps: their values
            time.sleep(0.02)
        for _ in range(3):  # let layouts and deferred plot updates settle
            QApplication.processEvents()
        ok = window.grab().save(path)
    gc.collect()
    window.hide()  # not close(): a screenshot neither asks questions nor saves the layout
    if window.kernel_hook is not None:
        window.kernel_hook.close()
    if not ok:
        print(f"tensor-lab: could not write {path}", file=sys.stderr)
        return 1
    print(path + describe(window))
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
