"""``QSettings`` as the storage of ``app.settings.Settings``.

The Qt side of the settings: it only moves values in and out of ``QSettings``,
converting ``QByteArray`` to ``bytes`` and back. Typing, defaults and migrations
live in the Qt-free model (``app.settings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from app import settings as settings_model
from app.settings import Settings


class QSettingsStore:
    """Reads and writes settings with ``QSettings()`` (the application's default location).

    Parameters
    ----------
    qsettings : QSettings, optional
        Where to store; a fresh ``QSettings()`` for each read or write when not given,
        so it follows ``QSettings.setPath`` (which tests use to stay out of real settings).
    """

    def __init__(self, qsettings: QSettings | None = None):
        self._qsettings = qsettings

    def _settings(self) -> QSettings:
        return self._qsettings if self._qsettings is not None else QSettings()

    def read(self) -> dict[str, Any]:
        s = self._settings()
        return {key: _from_qt(s.value(key)) for key in s.allKeys()}

    def write(self, values: Mapping[str, Any], remove: Iterable[str] = ()) -> None:
        s = self._settings()
        for key in remove:
            s.remove(key)
        for key, value in values.items():
            s.setValue(key, _to_qt(value))
        s.sync()


def load_settings(store: QSettingsStore | None = None) -> Settings:
    """The settings stored with ``QSettings`` (migrated to the current version)."""
    return settings_model.load(store or QSettingsStore())


def save_settings(settings: Settings, store: QSettingsStore | None = None) -> None:
    settings_model.save(settings, store or QSettingsStore())


def _from_qt(value: Any) -> Any:
    if isinstance(value, QByteArray):
        return bytes(value.data())
    return value


def _to_qt(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return QByteArray(bytes(value))
    return value
