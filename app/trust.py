"""No file runs until its user chooses: the one rule every way of opening a file follows.

Opening a file reads it (never runs it) and decides whether it may run at once:

- a gallery recipe, shipped with the lab (``app.resources.RECIPES_DIR``);
- a file this lab saved while it ran, recognised by the SHA-256 of its bytes (saving a
  held file is not choosing to run it);
- a file its user said to "always run".

Any other file opens with its code and lesson showing and no values, until the user
chooses Run. The bytes the rule judges are the bytes that open and run (``OpenedFile.data``):
the file is read once. Crash recovery follows the same rule on the recovered text itself
(``reason_to_restore``): it runs only if this lab autosaved it from a recipe that was
running, or saved it, or it is a gallery lesson's own text, whatever the autosave's
marker says of where it came from.

This is the rule of marimo ("no user code runs without an explicit user action") and of
VS Code's workspace trust. Qt-free: the window keeps the trust store in ``QSettings``
through a ``SettingsStorage``; tests use ``MemoryStorage``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from app.recipe.reader import parse
from app.resources import is_gallery
from app.settings import SettingsStorage
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

# Files larger than this are not opened as recipes (a recipe is a short script).
MAX_FILE_BYTES = 4 * 1024 * 1024
# How many saved-file hashes the store keeps (the oldest are forgotten first).
MAX_SAVED = 1000
#: How many autosaved texts of running recipes the store keeps (one per session is used).
MAX_RAN = 50
SAVED_KEY = "trust/saved"
ALWAYS_KEY = "trust/always"
RAN_KEY = "trust/autosaved"

# Why a file may run at once, or not.
GALLERY, SAVED, ALWAYS, NEW, ELSEWHERE = "gallery", "saved", "always", "new", "elsewhere"
RAN = "ran"


def content_hash(data: bytes) -> str:
    import hashlib  # (here: OpenSSL's loading is 2 ms of the window's start)

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

    def _remember(self, key: str, data: bytes, most: int) -> None:
        digest = content_hash(data)
        kept = [h for h in self._read(key) if h != digest] + [digest]
        self._storage.write({key: kept[-most:]})

    def remember_saved(self, data: bytes) -> None:
        """This lab wrote ``data`` to a file of a recipe that runs (not held): that content
        may run when opened again."""
        self._remember(SAVED_KEY, data, MAX_SAVED)

    def remember_running(self, text: str) -> None:
        """This lab autosaved ``text`` from a recipe that was running (not held): a crash
        recovery of exactly that text may run."""
        self._remember(RAN_KEY, text.encode("utf-8"), MAX_RAN)

    def always_run(self, path: str) -> None:
        """The user chose "Always run this file" for ``path``."""
        path = os.path.abspath(path)
        paths = self._read(ALWAYS_KEY)
        if path not in paths:
            self._storage.write({ALWAYS_KEY: [*paths, path]})

    def reason_to_run(self, path: str, data: bytes, *, gallery: bool | None = None) -> str:
        """``gallery``, ``saved`` or ``always`` when it may run at once, else ``elsewhere``.

        ``gallery``: whether ``data`` was read from a gallery lesson (``read_file`` knows,
        from the file it read); by default, whether ``path`` names one now.
        """
        if is_gallery(path) if gallery is None else gallery:
            return GALLERY
        always = self._read(ALWAYS_KEY)
        if os.path.abspath(path) in always or os.path.realpath(path) in always:
            return ALWAYS
        if content_hash(data) in self._read(SAVED_KEY):
            return SAVED
        return ELSEWHERE

    def reason_to_restore(self, text: str, path: str | None) -> str:
        """Whether an autosaved ``text`` may run when restored: ``ran`` (this lab autosaved
        it from a running recipe), ``saved``, ``gallery`` (the text of the gallery lesson
        ``path``, as shipped) or ``elsewhere``. Only what the store recorded or the
        gallery holds counts: a marker file's ``path`` alone never makes a text run."""
        data = text.encode("utf-8")
        if content_hash(data) in self._read(RAN_KEY):
            return RAN
        saved = self._read(SAVED_KEY)
        if content_hash(data) in saved or content_hash(b"\xef\xbb\xbf" + data) in saved:
            return SAVED
        if path and is_gallery(path):
            try:
                with open(os.path.realpath(path), "rb") as f:
                    if f.read(MAX_FILE_BYTES + 1).decode("utf-8-sig", "replace") == text:
                        return GALLERY
            except OSError:
                pass
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
    data : bytes
        The bytes read, once: the ones ``reason`` was decided on, and the ones that open
        and run (``Document.open(path, data=...)``).
    """

    path: str
    text: str
    problem: Filled | None
    reason: str
    data: bytes = b""

    @property
    def runs_at_once(self) -> bool:
        return self.problem is None and self.reason != ELSEWHERE


def _is_gallery_file(path: str, fd: int) -> bool:
    """Whether the open file ``fd`` (opened from ``path``) is a gallery lesson: the very
    file, not just one its path named a moment before or after (a symlink may change)."""
    real = os.path.realpath(path)
    try:
        return is_gallery(real) and os.path.samestat(os.fstat(fd), os.stat(real))
    except OSError:
        return False


def read_file(path: str, store: TrustStore) -> OpenedFile:
    """Read ``path`` once for the window, never running it; ``OSError`` when it cannot be
    read. The trust rule judges the bytes read, and they are the ones that open."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            return OpenedFile(path, "", Filled(
                QT_TRANSLATE_NOOP("Trust", "The file is {0:.1f} MiB; a recipe is at most {1} MiB."),
                size / 2**20, MAX_FILE_BYTES // 2**20), ELSEWHERE)
        data = f.read(MAX_FILE_BYTES + 1)
        gallery = _is_gallery_file(path, f.fileno())
    reason = store.reason_to_run(path, data, gallery=gallery)
    return _judged(path, data, reason)


def _judged(path: str, data: bytes, reason: str) -> OpenedFile:
    """``data`` as the window opens it: text, or the reason it cannot be a recipe."""
    if b"\0" in data:
        return OpenedFile(path, "", Filled(
            QT_TRANSLATE_NOOP("Trust", "The file is binary, not Python text.")), reason, data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return OpenedFile(path, data.decode("utf-8", errors="replace"), Filled(
            QT_TRANSLATE_NOOP("Trust", "The file is not UTF-8 text (byte {0})."), e.start),
            reason, data)
    try:
        parse(text)  # kept: the reader and the run read this tree, not a second parse
    except SyntaxError as e:
        return OpenedFile(path, text, Filled(
            QT_TRANSLATE_NOOP("Trust", "Line {0}: {1}"), e.lineno or 0, e.msg), reason, data)
    except (RecursionError, MemoryError):  # CPython's parser gives up on deep nesting
        return OpenedFile(path, text, Filled(QT_TRANSLATE_NOOP(
            "Trust", "The code nests too deeply for Python's parser to read it.")), reason, data)
    return OpenedFile(path, text, None, reason, data)
