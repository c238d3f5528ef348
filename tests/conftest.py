"""Shared fixtures: offscreen Qt, and the developer's real settings kept out of tests."""

from __future__ import annotations

import os

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
    """Fail a test that leaves a visible top-level widget or a running thread behind."""
    import threading

    threads_before = set(threading.enumerate())
    yield
    try:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QApplication
    except ImportError:
        return
    app = QApplication.instance()
    if app is None:
        return
    app.processEvents()
    leaked = [w for w in QApplication.topLevelWidgets()
              if w.isVisible()
              and w.windowType() not in (Qt.WindowType.ToolTip, Qt.WindowType.Popup)]
    for widget in leaked:
        widget.close()
    extra = [t for t in threading.enumerate()
             if t not in threads_before and t.is_alive() and not t.daemon]
    assert not leaked, f"{request.node.name} left widgets open: {leaked}"
    assert not extra, f"{request.node.name} left threads running: {extra}"
