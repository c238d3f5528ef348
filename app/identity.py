"""Who the lab is to the operating system: the names its settings and data folders use."""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: The organisation and application names (``QSettings`` and the data folder use both).
ORGANIZATION = "TensorLab"
APPLICATION = "Tensor Lab"

#: The environment variable that overrides the data folder (tests set it).
DATA_DIR_VARIABLE = "TENSOR_LAB_DATA_DIR"


def data_dir(default: str | os.PathLike[str] | None = None) -> Path:
    """The folder for the lab's own data.

    ``TENSOR_LAB_DATA_DIR`` when set; else ``default`` (the Qt side passes
    ``QStandardPaths.AppDataLocation``); else the platform's usual place.
    """
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    if default:
        return Path(default)
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / ORGANIZATION / APPLICATION
