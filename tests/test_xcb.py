"""Before Qt starts: the launcher names the X libraries a fresh Linux lacks, and how to
install them, instead of Qt's abort. Core-style tests: no QApplication."""

from __future__ import annotations

import ctypes
import sys

import pytest

from widgets import xcb

# What ldd printed for libqxcb.so on a fresh Debian 12 (trimmed).
LDD_FRESH_DEBIAN = """\
\tlinux-vdso.so.1 (0x00007ffd5a5f0000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f0c1c000000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f0c1bfd0000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
"""
DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n'
UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n'
FEDORA = 'NAME="Fedora Linux"\nID=fedora\n'


def test_the_missing_libraries_are_read_from_ldd_once_each():
    assert xcb.not_found(LDD_FRESH_DEBIAN) == [
        "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert xcb.not_found("\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\n") == []


@pytest.mark.parametrize(("library", "debian", "fedora"), [
    ("libxcb-cursor.so.0", "libxcb-cursor0", "xcb-util-cursor"),
    ("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1", "xcb-util-keysyms"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),
])
def test_package_names(library, debian, fedora):
    assert xcb.debian_package(library) == debian
    assert xcb.fedora_package(library) == fedora


def test_the_hint_is_one_line_with_the_command_for_this_system():
    missing = xcb.not_found(LDD_FRESH_DEBIAN)
    for release in (DEBIAN, UBUNTU):
        hint = xcb.install_hint(missing, release)
        assert "\n" not in hint
        assert hint.endswith(
            "sudo apt-get install -y libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1")
    assert xcb.install_hint(missing, FEDORA).endswith(
        "sudo dnf install -y xcb-util-cursor xcb-util-wm xcb-util-keysyms")
    both = xcb.install_hint(missing, "ID=arch\n")
    assert "apt-get" in both and "dnf" in both


def test_only_an_xcb_start_on_linux_is_checked():
    assert xcb.uses_xcb({}, "linux")
    assert xcb.uses_xcb({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert not xcb.uses_xcb({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not xcb.uses_xcb({"XDG_SESSION_TYPE": "wayland"}, "linux")
    assert not xcb.uses_xcb({}, "win32") and not xcb.uses_xcb({}, "darwin")


def test_the_launcher_prints_the_hint_and_exits_before_qt(monkeypatch, capsys):
    from widgets import launch

    monkeypatch.setattr(launch, "missing_xcb_libraries", lambda: ["libxcb-cursor.so.0"])
    assert launch.launch(None) == 1
    err = capsys.readouterr().err
    assert err.startswith("tensor-lab: the window needs system libraries that are missing")
    assert "libxcb-cursor0" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldd is Linux's")
def test_the_real_plugin_is_found_and_what_it_reports_missing_cannot_load(monkeypatch):
    plugin = xcb.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    for name in xcb.missing_xcb_libraries():  # whatever this machine lacks, if anything
        with pytest.raises(OSError):
            ctypes.CDLL(name)
