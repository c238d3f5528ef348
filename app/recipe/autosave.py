"""Autosave and crash recovery, Qt-free.

While the lab runs, the open recipe is written to the app-data folder shortly after each
edit (``DELAY_S``, so at most 2 s), always atomically: a temporary file, then a rename. Each
session keeps two files in ``<data>/autosave/``:

- ``recipe-<pid>.py``, the recipe's text as on screen, byte for byte, present while it
  has unsaved changes;
- ``session-<pid>.json``, the marker: the process id, the recipe's own path, when it was
  autosaved, and ``clean_exit``, set when the lab closes normally.

On the next start, ``find_recovery`` looks for a session that neither exited cleanly nor is
still running (a second window of the lab keeps its own files) and has an autosaved recipe:
that is what the lab offers to restore. Nothing here runs the autosaved text; it is read
back with ``app.recipe.reader`` like any recipe.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from app.recipe.model import Recipe
from app.recipe.reader import RecipeError, read_recipe
from app.recipe.saving import write_atomic

#: Seconds from an edit to its autosave. Edits while it is pending do not postpone it.
DELAY_S = 1.5


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a session that may still be writing its files)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel.OpenProcess(0x00100000, False, pid)  # SYNCHRONIZE
        if not handle:
            return False
        try:
            return kernel.WaitForSingleObject(handle, 0) == 0x102  # WAIT_TIMEOUT: running
        finally:
            kernel.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


class Autosave:
    """The autosave files of one session of the lab.

    Parameters
    ----------
    folder : path
        The data folder (``data_dir()``); files go in its ``autosave`` subfolder.
    pid : int, optional
        The session's process id; this process's by default.
    """

    def __init__(self, folder: str | os.PathLike[str], pid: int | None = None):
        self.folder = Path(folder) / "autosave"
        self.pid = os.getpid() if pid is None else pid
        self.recipe_file = self.folder / f"recipe-{self.pid}.py"
        self.marker_file = self.folder / f"session-{self.pid}.json"
        self._marker = {"pid": self.pid, "started": time.time(), "clean_exit": False,
                        "path": None, "saved": None}

    def start(self) -> None:
        """Mark the session as running: a crash from now on leaves a marker behind."""
        self._write_marker()

    def save(self, text: str, path: str | None = None) -> None:
        """Write the recipe ``text`` (whose own file is ``path``, if any) atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(str(self.recipe_file), text, private=True)
        self._marker.update(path=path, saved=time.time())
        self._write_marker()

    def drop(self) -> None:
        """Forget the autosaved recipe: the recipe was saved, or holds no changes."""
        self.recipe_file.unlink(missing_ok=True)
        if self._marker["saved"] is not None:
            self._marker.update(saved=None)
            self._write_marker()

    def finish(self) -> None:
        """Mark a clean exit; nothing of this session is offered again."""
        self.recipe_file.unlink(missing_ok=True)
        self._marker.update(clean_exit=True, saved=None)
        self._write_marker()

    def _write_marker(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(str(self.marker_file), json.dumps(self._marker), private=True)


@dataclass(frozen=True)
class Recovery:
    """An autosaved recipe of a session that did not exit cleanly.

    Parameters
    ----------
    text : str
        The recipe as autosaved.
    path : str or None
        The file the recipe had been opened from or saved to, if any.
    saved : float
        When it was autosaved (seconds since the epoch).
    pid : int
        The process id of that session.
    files : tuple of Path
        Its autosave files, removed by ``discard``.
    """

    text: str
    path: str | None
    saved: float
    pid: int
    files: tuple[Path, ...]

    def recipe(self) -> Recipe:
        """The autosaved recipe, read (never run) like any recipe file."""
        return read_recipe(self.text)

    def discard(self) -> None:
        """Remove this session's autosave files (after restoring, or when declined)."""
        for file in self.files:
            file.unlink(missing_ok=True)


def find_recovery(folder: str | os.PathLike[str], own_pid: int | None = None
                  ) -> Recovery | None:
    """The newest autosave of a session that neither exited cleanly nor still runs.

    Markers of clean exits and of crashed sessions with nothing to restore are removed
    on the way. ``folder`` is the data folder, as given to ``Autosave``.
    """
    own = os.getpid() if own_pid is None else own_pid
    found: list[Recovery] = []
    for marker in sorted((Path(folder) / "autosave").glob("session-*.json")):
        try:
            info = json.loads(marker.read_text(encoding="utf-8"))
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not ours, or half written by a session still starting
        recipe_file = marker.with_name(f"recipe-{pid}.py")
        if pid == own or (not info.get("clean_exit") and process_alive(pid)):
            continue
        try:
            text = recipe_file.read_bytes().decode("utf-8")  # as written: \r\n kept
            read_recipe(text)
        except (OSError, UnicodeDecodeError, RecipeError):
            text = ""
        if info.get("clean_exit") or not text:
            marker.unlink(missing_ok=True)
            recipe_file.unlink(missing_ok=True)
            continue
        path = info.get("path")
        found.append(Recovery(text, path if isinstance(path, str) else None,
                              float(info.get("saved") or marker.stat().st_mtime), pid,
                              (recipe_file, marker)))
    return max(found, key=lambda r: r.saved, default=None)
