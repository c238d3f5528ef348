"""The files of the folder the recipe runs in, for the window: the ``files`` and ``file``
queries (``kernel.queries``).

On a server (the SSH kernel) that folder is the recipe's work folder there, and these are
how the window lists what the recipe wrote (``torch.save``, a CSV, a plot) and downloads
one. Only that folder's own files: a name is a plain name, never a path out of it.
"""

from __future__ import annotations

import os
from typing import Any

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The largest file the window may download, in bytes (it comes whole, in one answer).
MOST_BYTES = 1 << 30


class FileQueryError(Exception):
    """Why a file cannot be listed or read (the query's error)."""


def listed(_values: Any, _args: dict[str, Any]) -> dict[str, Any]:
    """The folder the recipe runs in, and its files: name, size in bytes, when changed
    (seconds since the epoch), the newest first."""
    folder = os.getcwd()
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if entry.is_file():
                    stat = entry.stat()
                    found.append({"name": entry.name, "size": stat.st_size,
                                  "modified": stat.st_mtime})
            except OSError:  # (gone meanwhile)
                continue
    found.sort(key=lambda f: (-f["modified"], f["name"]))
    return {"folder": folder, "files": found}


def read(_values: Any, args: dict[str, Any]) -> dict[str, Any]:
    """One file of that folder, by its ``name``: its bytes."""
    name = str(args.get("name", ""))
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise FileQueryError(f"not a file name of the folder: {name!r}")
    path = os.path.join(os.getcwd(), name)
    if not os.path.isfile(path):
        raise FileQueryError(f"no file {name!r} in {os.getcwd()}")
    size = os.path.getsize(path)
    if size > MOST_BYTES:
        raise FileQueryError(f"{name} has {size} bytes, more than the {MOST_BYTES} a "
                             f"download takes")
    with open(path, "rb") as f:
        return {"name": name, "data": f.read()}
