"""Shared fixtures: offscreen Qt, and the developer's real settings kept out of tests."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_settings(tmp_path, monkeypatch):
    """Point QSettings (and the app's data folder) at a temporary folder for each test."""
    monkeypatch.setenv("TENSOR_LAB_DATA_DIR", str(tmp_path / "data"))
    try:
        from PySide6.QtCore import QSettings
    except ImportError:  # core-only environments
        yield
        return
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(tmp_path / "settings"))
    yield


@pytest.fixture(autouse=True)
def _catch_qt_leaks(request):
    """Fail a test that leaves a visible top-level widget or a running thread behind.

    Also deletes, now, the widgets that pytest-qt closed and marked ``deleteLater``, so
    that Qt deletes them and what they own (undo stacks and their commands included) in
    its own order. Left to a later test's event loop or to the garbage collector, their
    teardown comes at an unforeseen moment and in any order: a collection that reached
    a panel's undo stack before Qt did crashed in ``QUndoStack::~QUndoStack``.
    """
    import threading

    threads_before = set(threading.enumerate())
    yield
    try:
        from PySide6.QtCore import QCoreApplication, QEvent, Qt
        from PySide6.QtWidgets import QApplication
    except ImportError:
        return
    app = QApplication.instance()
    if app is None:
        return
    from widgets.common.gui_gc import collect_on_gui_thread

    collector = collect_on_gui_thread()  # as the app does: never in a pool thread
    jobs = sys.modules.get("widgets.common.background")
    if jobs is not None:
        # No pool thread may still be emitting while the widgets go: a queued signal's
        # arguments are copied under a Qt lock that an object's deletion also takes.
        jobs.wait_for_jobs(30_000)
    app.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    collector.check()  # this test's garbage, by the usual thresholds, on this thread
    leaked = [w for w in QApplication.topLevelWidgets()
              if w.isVisible()
              and w.windowType() not in (Qt.WindowType.ToolTip, Qt.WindowType.Popup)]
    for widget in leaked:
        widget.close()
    extra = [t for t in threading.enumerate()
             if t not in threads_before and t.is_alive() and not t.daemon]
    assert not leaked, f"{request.node.name} left widgets open: {leaked}"
    assert not extra, f"{request.node.name} left threads running: {extra}"


# -- uncaught exceptions and Qt warnings that pytest-qt does not see -----------------------------
class _Uncaught:
    """What reached ``sys.excepthook`` or Qt's message handler while no one else was looking.

    Installed once, before any test: pytest-qt swaps in its own hook and handler for each
    test and then puts these back, so they hear exactly what pytest-qt does not: Qt
    messages while a test tears down (pytest-qt stops listening after the call), tests
    marked ``no_qt_log`` or ``qt_no_exception_capture``, and runs without pytest-qt.
    """

    def __init__(self) -> None:
        import sys

        self.records: list[str] = []
        self.watching = False
        self._previous_hook = sys.excepthook
        sys.excepthook = self.excepthook
        try:
            from PySide6.QtCore import QtMsgType, qInstallMessageHandler
        except ImportError:  # core-only environments
            return
        self._levels = {QtMsgType.QtWarningMsg: "warning", QtMsgType.QtCriticalMsg: "critical",
                        QtMsgType.QtFatalMsg: "fatal"}
        self._previous_handler = qInstallMessageHandler(self.qt_message)

    def excepthook(self, kind, value, traceback) -> None:
        if self.watching:
            self.records.append(f"uncaught {kind.__name__}: {value}")
        self._previous_hook(kind, value, traceback)

    def qt_message(self, mode, context, message: str) -> None:
        level = self._levels.get(mode)
        if self.watching and level is not None:
            self.records.append(f"Qt {level}: {message}")
        if self._previous_handler is not None:
            self._previous_handler(mode, context, message)
        else:  # what Qt's default handler does
            import sys

            print(message, file=sys.stderr)


_UNCAUGHT = _Uncaught()


@pytest.fixture(autouse=True)
def _fail_on_uncaught(request):
    """Fail a test in which an exception reached ``sys.excepthook`` or Qt logged a warning.

    pytest-qt already fails on both while a test runs (``qt_log_level_fail = WARNING``);
    this covers the rest (see ``_Uncaught``). ``qt_log_ignore`` patterns are honoured.
    """
    import re

    _UNCAUGHT.records.clear()
    _UNCAUGHT.watching = True
    yield
    _UNCAUGHT.watching = False
    try:
        ignore = list(request.config.getini("qt_log_ignore"))
    except ValueError:  # core-only environments: no pytest-qt, so no such setting
        ignore = []
    marker = request.node.get_closest_marker("qt_log_ignore")
    if marker is not None:
        ignore += list(marker.args)
    records = [r for r in _UNCAUGHT.records
               if not (r.startswith("Qt ") and any(re.search(p, r) for p in ignore))]
    _UNCAUGHT.records.clear()
    assert not records, f"{request.node.name}: " + "; ".join(records)


@pytest.fixture(scope="module")
def kernel_session():
    """A real kernel process, shared by a module's tests (core tier, no window)."""
    from app.link.session import KernelSession

    session = KernelSession()
    session.start()
    yield session
    session.close()


def finish(document, timeout: float = 120) -> None:
    """Core tier: take the kernel's reports until the document's run has ended and its
    views' questions are answered (the window's kernel hook does this on a timer)."""
    import time

    deadline = time.monotonic() + timeout
    while document.kernel_run is not None or document.asking \
            or document.waiting_since is not None:
        assert time.monotonic() < deadline, "the kernel run did not end"
        document.take_kernel_events(document.kernel.poll(0.01))
        time.sleep(0.002)


@pytest.fixture
def kernel_document(kernel_session):
    """``kernel_document(recipe or its text, selected=None)``: a ``Document`` that the
    module's kernel has run (core tier: no Qt; ``finish`` waits again after an edit)."""
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe

    def make(recipe, selected: int | None = None):
        document = Document(read_recipe(recipe) if isinstance(recipe, str) else recipe)
        document.kernel = kernel_session
        document.evaluate()
        finish(document)
        document.select(selected)
        return document

    return make


@pytest.fixture
def chinese(qapp):
    """The zh_CN translation for the test, English again afterwards for the tests that follow."""
    from widgets.shell.translators import install_translators

    install_translators("zh_CN")
    yield
    install_translators("en")


@pytest.fixture
def make_window(qtbot):
    """Make the lab's main window, as a user first sees it, for end-to-end tests.

    ``make_window(recipe=None, settings=None, show=True)`` opens ``recipe`` (the welcome
    recipe by default) with default ``Settings``, shows it at 1280x800, waits until it
    is exposed and its kernel has run it (``window.settle()`` waits again). It never
    waits for a click: "discard changes?" answers yes, and error
    boxes are recorded in ``window.errors`` instead of shown.
    """
    from app.recipe.document import Document
    from app.settings import Settings
    from widgets.shell.main_window import MainWindow

    def make(recipe: str | None = None, *, settings=None, show: bool = True):
        document = Document()
        window = MainWindow(document, settings=Settings() if settings is None else settings)
        if recipe is None:
            document.open_welcome()
        else:
            document.open(recipe)
        qtbot.addWidget(window)
        window.errors = []
        window.confirm_discard = lambda: True
        window.show_error = lambda _title, text: window.errors.append(text)
        if show:
            window.resize(1280, 800)
            window.show()
            qtbot.waitExposed(window)
        window.settle = lambda timeout=120_000: _settle(qtbot, window.document, timeout)
        window.settle()
        return window

    return make


def _settle(qtbot, document, timeout: int = 120_000) -> None:
    """Wait until the kernel has run ``document`` (a window's) and answered every view."""
    qtbot.waitUntil(lambda: document.kernel_run is None and document.waiting_since is None
                    and not document.asking, timeout=timeout)


@pytest.fixture
def settle(qtbot):
    """``settle(document)``: wait until the window's kernel has run it (see ``_settle``)."""
    return lambda document, timeout=120_000: _settle(qtbot, document, timeout)


@pytest.fixture(scope="module")
def panel_kernel():
    """One kernel process for a module's panel tests, with the views' queries (the
    window makes its own)."""
    from app.link.session import KernelSession
    from widgets.common.kernel_hook import VIEW_QUERIES

    session = KernelSession(memory_budget=2 * 2**30, query_modules=VIEW_QUERIES)
    session.start()
    yield session
    session.close()


@pytest.fixture
def run_in_kernel(qtbot, panel_kernel):
    """``run_in_kernel(document, settle=True)``: the document runs in the module's kernel,
    taken on the GUI thread by a ``KernelHook`` as in the window; returns it once it has
    run (at once with ``settle=False``).
    ``document.settle()`` waits again (after an edit)."""
    from widgets.common.kernel_hook import KernelHook

    hooks = []

    def attach(document, settle: bool = True):
        for hook, _ in hooks:  # one document takes the kernel's events at a time: two
            hook.detach()      # hooks on one session would each take the other's
        document.kernel = panel_kernel
        hooks.append((KernelHook(document), document))
        document.settle = lambda timeout=60_000: _settle(qtbot, document, timeout)
        document.evaluate()
        if settle:  # else a long loop may still run: the test waits for what it needs
            document.settle()
        return document

    yield attach
    if panel_kernel is not None:
        panel_kernel.stop()  # a loop a test left running
    for hook, document in hooks:
        hook.detach()
        document.kernel = None
        hook.deleteLater()


@pytest.fixture
def autograd_panel(run_in_kernel):
    """``autograd_panel(qtbot, recipe text, selected name)``: the autograd panel, shown, on
    a document the kernel ran; ``panel.settle()`` waits for what it asks again."""
    from PySide6.QtGui import QUndoStack

    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from widgets.autograd.panel import AutogradPanel

    def make(qtbot, text: str, select: str):
        doc = run_in_kernel(Document(read_recipe(text)))
        stack = QUndoStack()
        panel = AutogradPanel(doc, stack)
        stack.setParent(panel)  # deleted with the panel, by Qt (see _catch_qt_leaks)
        qtbot.addWidget(panel)
        panel.resize(1000, 600)
        panel.show()
        qtbot.waitExposed(panel)
        doc.select_name(select)
        doc.settle()  # the graph and the facts come from the kernel
        panel.settle = doc.settle
        return panel, doc, stack

    return make


@pytest.fixture
def window(make_window):
    """The main window on the welcome recipe, shown (see ``make_window``)."""
    return make_window()
