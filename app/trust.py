"""No file runs until its user chooses: the one rule every way of opening a file follows.

Opening a file reads it (never runs it) and decides whether it may run at once:

- a gallery recipe, shipped with the lab (``app.resources.RECIPES_DIR``);
- a file this lab saved, recognised by the SHA-256 of its bytes;
- a file its user said to "always run".

Any other file opens with its code and lesson showing and no values, until the user
chooses Run. This is the rule of marimo ("no user code runs without an explicit user
action") and of VS Code's workspace trust. Qt-free: the window keeps the trust store in
``QSettings`` through a ``SettingsStorage``; tests use ``MemoryStorage``.
"""

from __future__ import annotations

import ast
import hashlib
import os
from dataclasses import dataclass

from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.resources import is_gallery
from app.settings import SettingsStorage

# Files larger than this are not opened as recipes (a recipe is a short script).
MAX_FILE_BYTES = 4 * 1024 * 1024
# How many saved-file hashes the store keeps (the oldest are forgotten first).
MAX_SAVED = 1000
SAVED_KEY = "trust/saved"
ALWAYS_KEY = "trust/always"

# Why a file may run at once, or not.
GALLERY, SAVED, ALWAYS, NEW, ELSEWHERE = "gallery", "saved", "always", "new", "elsewhere"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _as_list(value: object) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]  # type: ignore[union-attr]


class TrustStore:
    """What the user's lab has saved, and which files the user said to always run."""

    def __init__(self, storage: SettingsStorage):
        self._storage = storage

    def _read(self, key: str) -> list[str]:
        return _as_list(self._storage.read().get(key))

    def remember_saved(self, data: bytes) -> None:
        """This lab wrote ``data`` to a file: that content may run when opened again."""
        digest = content_hash(data)
        saved = [h for h in self._read(SAVED_KEY) if h != digest] + [digest]
        self._storage.write({SAVED_KEY: saved[-MAX_SAVED:]})

    def always_run(self, path: str) -> None:
        """The user chose "Always run this file" for ``path``."""
        path = os.path.abspath(path)
        paths = self._read(ALWAYS_KEY)
        if path not in paths:
            self._storage.write({ALWAYS_KEY: [*paths, path]})

    def reason_to_run(self, path: str, data: bytes) -> str:
        """``gallery``, ``saved`` or ``always`` when it may run at once, else ``elsewhere``."""
        if is_gallery(path):
            return GALLERY
        always = self._read(ALWAYS_KEY)
        if os.path.abspath(path) in always or os.path.realpath(path) in always:
            return ALWAYS
        if content_hash(data) in self._read(SAVED_KEY):
            return SAVED
        return ELSEWHERE


@dataclass(frozen=True)
class OpenedFile:
    """A file as opening found it, before anything of it runs.

    Attributes
    ----------
    path : str
        The file's path.
    text : str
        Its text ("" when it could not be read as text).
    problem : Filled or None
        Why it cannot be a recipe (too large, binary, not UTF-8, a syntax error); the
        window shows it beside the text.
    reason : str
        ``gallery``, ``saved`` or ``always`` (it runs at once), or ``elsewhere``.
    """

    path: str
    text: str
    problem: Filled | None
    reason: str

    @property
    def runs_at_once(self) -> bool:
        return self.problem is None and self.reason != ELSEWHERE


def read_file(path: str, store: TrustStore) -> OpenedFile:
    """Read ``path`` for the window, never running it; ``OSError`` when it cannot be read."""
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        return OpenedFile(path, "", Filled(
            QT_TRANSLATE_NOOP("Trust", "The file is {0:.1f} MiB; a recipe is at most {1} MiB."),
            size / 2**20, MAX_FILE_BYTES // 2**20), ELSEWHERE)
    with open(path, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    reason = store.reason_to_run(path, data)
    if b"\0" in data:
        return OpenedFile(path, "", Filled(
            QT_TRANSLATE_NOOP("Trust", "The file is binary, not Python text.")), reason)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return OpenedFile(path, data.decode("utf-8", errors="replace"), Filled(
            QT_TRANSLATE_NOOP("Trust", "The file is not UTF-8 text (byte {0})."), e.start), reason)
    try:
        ast.parse(text, filename=path)
    except SyntaxError as e:
        return OpenedFile(path, text, Filled(
            QT_TRANSLATE_NOOP("Trust", "Line {0}: {1}"), e.lineno or 0, e.msg), reason)
    except (RecursionError, MemoryError):  # CPython's parser gives up on deep nesting
        return OpenedFile(path, text, Filled(QT_TRANSLATE_NOOP(
            "Trust", "The code nests too deeply for Python's parser to read it.")), reason)
    return OpenedFile(path, text, None, reason)
