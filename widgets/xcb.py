"""Before Qt starts on X11: are the system libraries its xcb plugin needs there?

Qt's pip wheels bring the xcb platform plugin but not every X library it links, and a
fresh Debian lacks ``libxcb-cursor0``, ``libxcb-icccm4`` and ``libxcb-keysyms1``. Qt then
aborts with "Could not load the Qt platform plugin "xcb"" and a page of advice. The
launcher asks ``ldd`` which libraries the plugin cannot find, before any Qt import, and
prints the one command that installs them instead. No Qt is imported here.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
from pathlib import Path

#: Fedora's package for a library whose name does not follow Debian's rule.
FEDORA_PACKAGES = {
    "libxcb-cursor.so.0": "xcb-util-cursor",
    "libxcb-icccm.so.4": "xcb-util-wm",
    "libxcb-keysyms.so.1": "xcb-util-keysyms",
    "libxcb-image.so.0": "xcb-util-image",
    "libxcb-render-util.so.0": "xcb-util-renderutil",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11",
    "libxkbcommon.so.0": "libxkbcommon",
}


def uses_xcb(environ: os._Environ | dict[str, str] = os.environ,
             platform: str = sys.platform) -> bool:
    """Whether Qt will try the xcb plugin: Linux, and no other platform asked for."""
    if not platform.startswith("linux"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "")
    if asked:
        return asked.split(";")[0].split(":")[0] == "xcb"
    return environ.get("XDG_SESSION_TYPE") != "wayland"


def xcb_plugin() -> Path | None:
    """PySide6's ``libqxcb.so``, found without importing PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def not_found(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` printed as "=> not found", each once, in order."""
    names = re.findall(r"^\s*(\S+)\s+=>\s+not found", ldd_output, flags=re.MULTILINE)
    return list(dict.fromkeys(names))


def missing_xcb_libraries() -> list[str]:
    """The shared libraries the xcb plugin needs and this system lacks ([] if unknown)."""
    if not uses_xcb():
        return []
    plugin, ldd = xcb_plugin(), shutil.which("ldd")
    if plugin is None or ldd is None:
        return []
    import subprocess  # (here: a window on another platform never needs it)

    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True,
                             timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return not_found(out)


def debian_package(library: str) -> str:
    """Debian's package for a shared library: ``libxcb-cursor.so.0`` is ``libxcb-cursor0``."""
    stem, _, version = library.partition(".so.")
    version = version.split(".")[0]
    return f"{stem}-{version}" if stem[-1:].isdigit() else f"{stem}{version}"


def fedora_package(library: str) -> str:
    return FEDORA_PACKAGES.get(library, "libxcb")


def distribution(os_release: str | None = None) -> str:
    """``debian``, ``fedora`` or ``""``, from ``/etc/os-release``'s ID and ID_LIKE."""
    if os_release is None:
        try:
            os_release = Path("/etc/os-release").read_text(encoding="utf-8")
        except OSError:
            return ""
    ids = " ".join(re.findall(r"^ID(?:_LIKE)?=\"?([^\"\n]*)", os_release, flags=re.MULTILINE))
    if re.search(r"\b(debian|ubuntu)\b", ids):
        return "debian"
    if re.search(r"\b(fedora|rhel|centos)\b", ids):
        return "fedora"
    return ""


def install_hint(missing: list[str], os_release: str | None = None) -> str:
    """One line: what is missing, and the command that installs it here."""
    apt = "sudo apt-get install -y " + " ".join(dict.fromkeys(map(debian_package, missing)))
    dnf = "sudo dnf install -y " + " ".join(dict.fromkeys(map(fedora_package, missing)))
    command = {"debian": apt, "fedora": dnf}.get(distribution(os_release),
                                                f"{apt} (Debian/Ubuntu) or {dnf} (Fedora)")
    return (f"the window needs system libraries that are missing ({', '.join(missing)}); "
            f"install them with: {command}")
