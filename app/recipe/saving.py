"""Writing a file atomically, as an editor does: through its symlinks, keeping its mode.

Qt-free. Save and autosave both write through ``write_atomic``: a temporary file in the
target's own folder, flushed to disk, then renamed over the target, so that a crash or a
full disk leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import stat

#: Mode bits a new file asks for; the process's umask takes its share, as for any editor.
NEW_FILE_MODE = 0o666


def write_atomic(path: str, data: str | bytes, *, private: bool = False) -> str:
    """Write ``data`` (text is written as UTF-8, newlines as given) to ``path``; return
    the file written.

    A symlink is written through: its final target gets the new bytes and the link stays
    a link. An existing file keeps its permission bits; a new one gets the umask's
    default (``private``: owner only, for the lab's own files such as autosaves, which
    are also not flushed to disk: they are rewritten every few seconds of editing, on the
    GUI thread, and only need to outlive the lab's process).
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = os.path.realpath(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o600 if private else None
    folder = os.path.dirname(target)
    fd, tmp = _temporary(folder, os.path.basename(target))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if not private:
                f.flush()
                os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if not private:
        _sync_folder(folder)
    return target


def _temporary(folder: str, name: str) -> tuple[int, str]:
    """A new file beside ``name``, opened for writing, created with ``NEW_FILE_MODE`` (so
    the umask applies, as it does to the file an editor makes)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tensor-lab.tmp")
        try:
            return os.open(tmp, flags, NEW_FILE_MODE), tmp
        except FileExistsError:
            continue


def _sync_folder(folder: str) -> None:
    """Flush the rename to disk where the system allows a folder to be synced."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is done
    finally:
        os.close(fd)
