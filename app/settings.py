"""The user's settings: one typed model with a version number and migrations.

Qt-free. ``Settings`` holds typed fields and emits a psygnal event per field
(``settings.events.theme.connect(...)``). It is read from and written to a
``SettingsStorage``: anything with ``read()`` returning the stored keys and values,
and ``write(values, remove)``. The window stores it through ``QSettings``
(``widgets.shell.settings_store.QSettingsStore``); tests can use ``MemoryStorage``.

Stored values come back from INI files as strings (``"true"``, ``"1.5"``), single
strings for one-element lists, or ``None`` for empty lists; ``Settings.from_raw``
turns all of them into the typed fields and falls back to the default for anything
it cannot read, so a damaged file never stops the lab from starting.

Versions
--------
1
    Tensor Lab 0.1: ``window/geometry``, ``window/state`` and ``recent``, no version key.
2
    ``version``; ``recent`` became ``recipes/recent``; theme, high contrast, language,
    presenter scale and default device were added. Later, still 2 (absent keys read as
    their defaults): ``kernel/servers`` and ``kernel/run_on``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from psygnal import evented

from app.palette import THEMES

#: The version this code writes.
CURRENT_VERSION = 2
#: How many recent recipes the File menu lists.
MAX_RECENT = 8
#: Presenter scale limits: below 0.5 text is unreadable, above 4 nothing fits.
MIN_SCALE, MAX_SCALE = 0.5, 4.0


class SettingsStorage(Protocol):
    """Where settings live: a flat mapping of ``"group/key"`` to stored values."""

    def read(self) -> dict[str, Any]:
        """Every stored key and its value."""
        ...

    def write(self, values: Mapping[str, Any], remove: Iterable[str] = ()) -> None:
        """Store ``values`` and delete the keys in ``remove``; other keys stay."""
        ...


class MemoryStorage:
    """A ``SettingsStorage`` in a dict, for tests and for a session without a disk."""

    def __init__(self, values: Mapping[str, Any] | None = None):
        self.values: dict[str, Any] = dict(values or {})

    def read(self) -> dict[str, Any]:
        return dict(self.values)

    def write(self, values: Mapping[str, Any], remove: Iterable[str] = ()) -> None:
        for key in remove:
            self.values.pop(key, None)
        self.values.update(values)


#: Stored key of each field (version 2 onward).
KEYS = {
    "window_geometry": "window/geometry",
    "window_state": "window/state",
    "recent_recipes": "recipes/recent",
    "theme": "appearance/theme",
    "high_contrast": "appearance/high_contrast",
    "language": "appearance/language",
    "presenter_scale": "presenter/scale",
    "default_device": "devices/default",
    "servers": "kernel/servers",
    "run_on": "kernel/run_on",
}
#: Keys older versions wrote that the current one does not; deleted on save.
OBSOLETE_KEYS = ("recent",)


@evented
@dataclass
class Settings:
    """Everything Tensor Lab remembers between sessions.

    Parameters
    ----------
    window_geometry, window_state : bytes
        ``QMainWindow.saveGeometry()`` and ``saveState()``: opaque blobs, empty when
        there is no saved layout.
    theme : str
        ``system`` (follow the desktop), ``light`` or ``dark``.
    high_contrast : bool
        Use the high contrast palette (for projectors).
    language : str
        A locale name such as ``zh_CN``, or ``""`` to follow the system.
    recent_recipes : list of str
        Absolute paths, most recent first, at most ``MAX_RECENT``.
    presenter_scale : float
        How much presenter mode enlarges text, cells and plot lines.
    default_device : str
        The device new tensors are made on, such as ``cpu`` or ``cuda:0``.
    servers : list of str
        The servers added to Kernel > Run On, as ``ssh://`` addresses
        (``app.link.ssh.parse_target``), at most ``MAX_RECENT``.
    run_on : str
        Where recipes run: one of ``servers``, or ``""`` for this computer.
    version : int
        The settings version this object follows (``CURRENT_VERSION``).
    """

    window_geometry: bytes = b""
    window_state: bytes = b""
    theme: str = "system"
    high_contrast: bool = False
    language: str = ""
    recent_recipes: list[str] = field(default_factory=list)
    presenter_scale: float = 1.5
    default_device: str = "cpu"
    servers: list[str] = field(default_factory=list)
    run_on: str = ""
    version: int = CURRENT_VERSION

    # -- conversion ------------------------------------------------------------------------
    @classmethod
    def from_raw(cls, raw: Mapping[str, Any]) -> Settings:
        """Typed settings from stored values of any version (migrated first)."""
        data = migrate(dict(raw))
        defaults = cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "version":
                continue
            key = KEYS[f.name]
            if key in data:
                values[f.name] = _PARSERS[f.name](data[key], getattr(defaults, f.name))
        settings = cls(**values)
        settings.version = max(_to_int(data.get("version"), CURRENT_VERSION), CURRENT_VERSION)
        return settings

    def to_raw(self) -> dict[str, Any]:
        """The values to store, by key (``bytes`` stays ``bytes``, lists stay lists)."""
        raw: dict[str, Any] = {"version": CURRENT_VERSION}
        for name, key in KEYS.items():
            value = getattr(self, name)
            raw[key] = list(value) if isinstance(value, list) else value
        return raw

    # -- changes ----------------------------------------------------------------------------
    def add_recent(self, path: str) -> None:
        """Put ``path`` first in the recent recipes (once), keeping ``MAX_RECENT``."""
        self.recent_recipes = ([path] + [p for p in self.recent_recipes if p != path])[
            :MAX_RECENT]


def load(storage: SettingsStorage) -> Settings:
    """Read, migrate and type the settings in ``storage``."""
    return Settings.from_raw(storage.read())


def save(settings: Settings, storage: SettingsStorage) -> None:
    """Write ``settings`` to ``storage`` at the current version, dropping obsolete keys."""
    storage.write(settings.to_raw(), remove=OBSOLETE_KEYS)


# -- migrations ------------------------------------------------------------------------------
def stored_version(raw: Mapping[str, Any]) -> int:
    """The version of stored values: 1 when there is no version key (the first release)."""
    return _to_int(raw.get("version"), 1)


def migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring stored values from their version up to ``CURRENT_VERSION``, one step at a time.

    Keys the lab does not know (another part of the app may store its own) are kept.
    Values newer than this code knows are returned as they are.
    """
    data = dict(raw)
    version = stored_version(data)
    while version < CURRENT_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["version"] = version
    return data


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """``recent`` (a string or a list) becomes ``recipes/recent``; new keys get defaults."""
    out = dict(data)
    recent = out.pop("recent", None)
    out["recipes/recent"] = _to_str_list(recent, [])
    defaults = Settings()
    for name in ("theme", "high_contrast", "language", "presenter_scale", "default_device"):
        out.setdefault(KEYS[name], getattr(defaults, name))
    return out


#: ``MIGRATIONS[n]`` turns version ``n`` into version ``n + 1``.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


# -- parsing stored values ----------------------------------------------------------------
def _to_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _to_bytes(value: Any, default: bytes) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    try:  # QByteArray and other buffer-like values, without importing Qt
        return bytes(value.data()) if hasattr(value, "data") else default
    except (TypeError, ValueError):
        return default


def _to_bool(value: Any, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
        return False
    if isinstance(value, int):
        return bool(value)
    return default


def _to_float(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if number != number:  # NaN
        return default
    return min(max(number, MIN_SCALE), MAX_SCALE)


def _to_str(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default


def _to_theme(value: Any, default: str) -> str:
    return value if value in THEMES else default


def _to_str_list(value: Any, default: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v][:MAX_RECENT]
    return list(default)


_PARSERS: dict[str, Callable[[Any, Any], Any]] = {
    "window_geometry": _to_bytes,
    "window_state": _to_bytes,
    "theme": _to_theme,
    "high_contrast": _to_bool,
    "language": _to_str,
    "recent_recipes": _to_str_list,
    "servers": _to_str_list,
    "run_on": _to_str,
    "presenter_scale": _to_float,
    "default_device": _to_str,
}
