"""The trust rule, Qt-free: which files may run at once, and what opening finds.

Core tests: no QApplication. Nothing here runs a file: reading is ``ast`` at most.
"""

from __future__ import annotations

import pytest

from app.resources import RECIPES_DIR
from app.settings import MemoryStorage
from app.trust import (
    ALWAYS,
    ELSEWHERE,
    GALLERY,
    MAX_FILE_BYTES,
    MAX_SAVED,
    RAN,
    SAVED,
    TrustStore,
    content_hash,
    read_file,
)

CANARY_CODE = "import os\nopen({path!r}, 'w').write('ran')\n"


@pytest.fixture
def store() -> TrustStore:
    return TrustStore(MemoryStorage())


@pytest.fixture
def elsewhere(tmp_path):
    canary = tmp_path / "canary.txt"
    path = tmp_path / "from_a_friend.py"
    path.write_text(CANARY_CODE.format(path=str(canary)))
    return path, canary


def test_a_file_from_elsewhere_opens_with_its_text_and_does_not_run(store, elsewhere):
    path, canary = elsewhere
    opened = read_file(str(path), store)
    assert opened.reason == ELSEWHERE and not opened.runs_at_once
    assert opened.text == path.read_text() and opened.problem is None
    assert not canary.exists()


def test_gallery_recipes_run_at_once(store):
    opened = read_file(str(RECIPES_DIR / "welcome.py"), store)
    assert (opened.reason, opened.runs_at_once) == (GALLERY, True)


def test_a_file_this_lab_saved_runs_and_a_changed_one_asks_again(store, elsewhere):
    path, _ = elsewhere
    store.remember_saved(path.read_bytes())
    assert read_file(str(path), store).reason == SAVED
    path.write_text(path.read_text() + "print('changed by someone else')\n")
    assert read_file(str(path), store).reason == ELSEWHERE


def test_always_run_is_remembered_for_the_path(store, elsewhere):
    path, canary = elsewhere
    store.always_run(str(path))
    again = TrustStore(store._storage)  # a new session reads the same storage
    assert read_file(str(path), again).reason == ALWAYS
    assert not canary.exists()


def test_the_store_keeps_a_bounded_list_of_hashes(store):
    for i in range(MAX_SAVED + 5):
        store.remember_saved(f"print({i})\n".encode())
    kept = store._storage.read()["trust/saved"]
    assert len(kept) == MAX_SAVED
    assert content_hash(b"print(0)\n") not in kept  # the oldest went first
    assert kept[-1] == content_hash(f"print({MAX_SAVED + 4})\n".encode())


@pytest.mark.parametrize(("content", "words"), [
    (b"x = (\n", "Line 1: '(' was never closed"),
    (b"import torch\x00\x01", "binary"),
    (b"print('\xff\xfe')\n", "not UTF-8 text (byte 7)"),
])
def test_a_file_that_cannot_be_a_recipe_says_why(store, tmp_path, content, words):
    path = tmp_path / "odd.py"
    path.write_bytes(content)
    opened = read_file(str(path), store)
    assert words in opened.problem and not opened.runs_at_once


def test_a_huge_file_is_not_read(store, tmp_path):
    path = tmp_path / "huge.py"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    opened = read_file(str(path), store)
    assert opened.text == "" and "MiB" in opened.problem


def test_the_bytes_judged_are_the_bytes_that_open(store, elsewhere):
    path, _ = elsewhere
    opened = read_file(str(path), store)
    assert opened.data == path.read_bytes()
    gallery = read_file(str(RECIPES_DIR / "tril.py"), store)
    assert gallery.data == (RECIPES_DIR / "tril.py").read_bytes()


def test_a_gallery_lesson_is_the_file_read_not_the_path_named(elsewhere):
    """A path that names a gallery lesson (a symlink, say) counts only if the file read
    through it is that lesson: a link flipped after the read does not make it one."""
    from app.trust import _is_gallery_file

    path, _ = elsewhere
    lesson = str(RECIPES_DIR / "tril.py")
    with open(path, "rb") as hostile, open(lesson, "rb") as shipped:
        assert not _is_gallery_file(lesson, hostile.fileno())
        assert _is_gallery_file(lesson, shipped.fileno())


def test_a_recovered_text_runs_only_if_this_lab_recorded_it(store, tmp_path):
    text = "import torch\nx = torch.ones(2)  # typed here\n"
    mine = tmp_path / "mine.py"
    mine.write_text(text)
    store.always_run(str(mine))  # the marker's path says nothing of the text
    assert store.reason_to_restore(text, str(mine)) == ELSEWHERE
    assert store.reason_to_restore(text, None) == ELSEWHERE
    lesson = RECIPES_DIR / "tril.py"
    assert store.reason_to_restore(text, str(lesson)) == ELSEWHERE
    assert store.reason_to_restore(lesson.read_text(encoding="utf-8"), str(lesson)) == GALLERY
    store.remember_running(text)
    assert store.reason_to_restore(text, None) == RAN
    assert store.reason_to_restore(text + "print(x)\n", None) == ELSEWHERE
    store.remember_saved(b"\xef\xbb\xbf" + b"y = 1\n")  # saved with its byte order mark
    assert store.reason_to_restore("y = 1\n", None) == SAVED
