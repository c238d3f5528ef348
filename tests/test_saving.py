"""Save keeps what the file was: written through its symlink, its mode kept, atomically.

Core tests, with real files, links and modes (``app.recipe.saving``, ``Document.save``).
"""

from __future__ import annotations

import os
import stat
import sys

import pytest

from app.recipe.autosave import Autosave
from app.recipe.document import Document
from app.recipe.saving import write_atomic

RECIPE = "import torch\n\nx = torch.arange(6)\n"
EDITED = RECIPE + "y = x.view(2, 3)  # the edit\n"

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask():
    """Set the process's umask for one test, and put the old one back."""
    old = os.umask(0o022)
    os.umask(old)
    yield lambda value: os.umask(value)
    os.umask(old)


def edited_and_saved(path, to=None) -> Document:
    document = Document()
    document.open(str(path), run=False)
    document.set_source(EDITED)
    document.save(None if to is None else str(to))
    return document


@posix
def test_save_writes_through_a_symlink_to_its_target(tmp_path):
    shared, mine = tmp_path / "shared", tmp_path / "mine"
    shared.mkdir()
    mine.mkdir()
    real = shared / "real.py"
    real.write_text(RECIPE)
    link = mine / "link.py"
    link.symlink_to(os.path.relpath(real, mine))  # a relative link, as `ln -s` makes
    chain = mine / "chain.py"
    chain.symlink_to(link)  # a link to a link

    document = edited_and_saved(chain)
    assert document.path == str(chain)
    assert chain.is_symlink() and link.is_symlink() and os.readlink(chain) == str(link)
    assert real.read_text() == EDITED and chain.read_text() == EDITED
    assert sorted(os.listdir(mine)) == ["chain.py", "link.py"]  # no temporary file left
    assert os.listdir(shared) == ["real.py"]


@posix
@pytest.mark.parametrize("bits", [0o644, 0o664, 0o640, 0o600, 0o755], ids=oct)
def test_save_keeps_the_files_mode(tmp_path, bits):
    path = tmp_path / "lesson.py"
    path.write_text(RECIPE)
    os.chmod(path, bits)
    before = os.stat(path).st_ino
    edited_and_saved(path)
    assert mode(path) == bits and path.read_text() == EDITED
    assert os.stat(path).st_ino != before  # replaced by a rename, never half written


@posix
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077], ids=oct)
def test_a_new_file_gets_the_umasks_mode_like_any_editors(tmp_path, umask, mask):
    old = tmp_path / "old.py"
    old.write_text(RECIPE)
    umask(mask)
    new = tmp_path / "new.py"
    edited_and_saved(old, new)
    assert mode(new) == 0o666 & ~mask  # what `touch` or an editor would make
    assert new.read_text() == EDITED


@posix
def test_autosave_files_stay_the_users_own(tmp_path, umask):
    umask(0o022)
    session = Autosave(tmp_path)
    session.save(EDITED, None)
    assert mode(session.recipe_file) == 0o600 and mode(session.marker_file) == 0o600
    session.finish()


def test_a_failed_save_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "lesson.py"
    path.write_text(RECIPE)

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        write_atomic(str(path), EDITED)
    assert path.read_text() == RECIPE and os.listdir(tmp_path) == ["lesson.py"]


def test_text_is_written_byte_for_byte(tmp_path):
    path = tmp_path / "crlf.py"
    text = "\ufeffimport torch\r\nx = torch.ones(2)  # 注释\r\n"
    write_atomic(str(path), text)
    assert path.read_bytes() == text.encode("utf-8")
