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
