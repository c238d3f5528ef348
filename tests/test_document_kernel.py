"""The document runs its code steps in a real kernel process (core tier, no QApplication):
statuses, output per step, the names a step bound, errors inside blocks, Stop, and the
working folder. Expected values are worked out by hand or by plain python.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue

RECIPE = '''\
"""Loops and functions"""
import torch

x = torch.arange(6.0)
total = 0
for i in range(4):
    total += i
    print("step", i)


def double(t):
    return t * 2


y = double(x)
z = x.sum()
'''


@pytest.fixture(scope="module")
def session(kernel_session):
    return kernel_session


def _finish(doc: Document, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while doc.kernel_run is not None:
        assert time.monotonic() < deadline, "the kernel run did not end"
        doc.take_kernel_events(doc.kernel.poll(0.01))
        time.sleep(0.01)


def _open(tmp_path: Path, text: str, session, name: str = "lesson.py") -> Document:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = Document()
    doc.kernel = session
    doc.open(path)
    return doc


def test_code_steps_get_the_kernels_results(tmp_path, session):
    doc = _open(tmp_path, RECIPE, session)
    labels = [s.label for s in doc.recipe.steps]
    assert labels == ["x", "total", "for i in range(4):", "def double(t):", "y = double(x)", "z"]
    # a recipe with code steps runs in the kernel, all of it: one process makes its values
    assert [r.status for r in doc.run.results] == ["kernel"] * 6
    _finish(doc)
    assert [r.status for r in doc.run.results] == ["ok"] * 6
    loop = doc.run.results[2]
    assert loop.printed == "".join(f"step {i}\n" for i in range(4))
    assert isinstance(loop.value, KernelValue)
    assert loop.value.names["total"] == {"type": "int", "value": 0 + 1 + 2 + 3}
    assert loop.value.loop["iterations"] == 4
    y = doc.run.results[4].value.names["y"]
    assert (y["shape"], y["values"]) == ([6], [0.0, 2.0, 4.0, 6.0, 8.0, 10.0])
    python = subprocess.run([sys.executable, str(tmp_path / "lesson.py")], capture_output=True,
                            text=True, cwd=tmp_path)
    assert doc.output == python.stdout  # the console is what python prints
    assert doc.kernel_ended.reason == "" and doc.kernel_ended.exit_code == 0


def test_an_error_inside_a_block_names_its_line_and_later_steps_are_skipped(tmp_path, session):
    text = ("import torch\nx = torch.arange(3)\nfor i in range(2):\n    y = x.view(2, 2)\n"
            "z = x + 1\n")
    doc = _open(tmp_path, text, session)
    _finish(doc)
    loop = doc.run.results[1]
    assert loop.status == "error" and loop.error_type == "RuntimeError"
    assert "shape '[2, 2]' is invalid for input of size 3" in loop.error
    assert loop.value.error_line == 4
    # python stops at the error: the step after it never ran
    assert doc.run.results[2].status == "skipped"
    assert doc.kernel_ended.exit_code == 1


def test_stop_interrupts_and_the_document_is_kept(tmp_path, session):
    text = "import torch\nx = torch.ones(2)\nwhile True:\n    x = x + 0\n"
    doc = _open(tmp_path, text, session)
    while not (doc.kernel_run and doc.kernel_run.progress and doc.kernel_run.progress.index
               == 2):
        doc.take_kernel_events(session.poll(0.01))
        time.sleep(0.01)
    start = time.monotonic()
    doc.stop()
    _finish(doc, 10)
    assert time.monotonic() - start < 2.0
    assert doc.kernel_ended.reason == "stopped"
    assert doc.run.results[1].status == "error"
    assert doc.run.results[1].error_type == "KeyboardInterrupt"
    assert doc.recipe.source == text and not doc.modified


def test_a_saved_recipe_runs_in_its_own_folder_an_unsaved_one_in_the_work_folder(
        tmp_path, session):
    text = ("import os\nimport torch\nos.makedirs('model_path', exist_ok=True)\n"
            "torch.save({'epoch': 3}, 'model_path/model.pth')\nprint(os.getcwd())\n")
    doc = _open(tmp_path, text, session)
    _finish(doc)
    assert doc.output == f"{tmp_path}\n"
    assert (tmp_path / "model_path" / "model.pth").exists()
    doc.new()
    doc.work_folder = str(tmp_path / "work")
    doc.set_source("import os\nprint(os.getcwd(), __file__)\n")
    _finish(doc)
    assert doc.output == f"{tmp_path / 'work'} {tmp_path / 'work' / 'untitled.py'}\n"


def test_a_gallery_lesson_runs_in_the_work_folder_never_among_the_labs_files(
        tmp_path, session, monkeypatch):
    """A lesson's ``torch.save`` lands in the user's work folder: the lab's own recipes
    folder may be read-only, and is the same for every user of the machine."""
    import app.resources

    gallery = tmp_path / "gallery"
    gallery.mkdir()
    monkeypatch.setattr(app.resources, "RECIPES_DIR", gallery)
    text = ("import os\nimport torch\nos.makedirs('model_path', exist_ok=True)\n"
            "torch.save({'epoch': 3}, 'model_path/model.pth')\n"
            "print(os.getcwd(), os.path.basename(__file__))\n")
    (gallery / "lesson.py").write_text(text, encoding="utf-8")
    doc = Document()
    doc.kernel = session
    doc.work_folder = str(tmp_path / "work")
    doc.open(gallery / "lesson.py")  # a lesson runs at once (no trust bar)
    _finish(doc)
    assert doc.output == f"{tmp_path / 'work'} lesson.py\n"
    assert (tmp_path / "work" / "model_path" / "model.pth").exists()
    assert sorted(p.name for p in gallery.iterdir()) == ["lesson.py"]


def test_the_work_folder_is_in_the_users_data_folder():
    """Not the temporary folder, which the system empties: a student's files stay."""
    import os

    data = Path(os.environ["TENSOR_LAB_DATA_DIR"])  # conftest's, as QStandardPaths' place
    assert Path(Document().work_folder) == data / "work"


def test_a_work_folder_that_cannot_be_made_gives_way_to_the_temporary_one(tmp_path):
    import tempfile

    (tmp_path / "a_file").write_text("")
    doc = Document()
    doc.work_folder = str(tmp_path / "a_file" / "work")  # under a file: never a folder
    path, cwd = doc.run_path()
    assert cwd == str(Path(tempfile.gettempdir()) / "tensor-lab-work")
    assert path == str(Path(cwd) / "untitled.py")


def test_a_file_that_fails_opens_on_its_error_unless_a_step_was_picked(tmp_path, session):
    """A teacher's pasted fragment that raises shows its error at once; a step the user
    picked meanwhile stays picked."""
    text = "import torch\nx = torch.ones(2)\nloss.backward()\ny = x * 2\n"
    doc = _open(tmp_path, text, session)
    assert doc.selected == 0  # opening picks the first named step
    _finish(doc)
    assert [r.status for r in doc.run.results][:2] == ["ok", "error"]
    assert doc.selected == 1 and doc.run.results[1].error_type == "NameError"
    doc.run_again()
    doc.select(0)  # the user's pick, while it runs
    _finish(doc)
    assert doc.selected == 0


def test_a_held_recipe_never_reaches_the_kernel(tmp_path, session):
    canary = tmp_path / "canary"
    path = tmp_path / "elsewhere.py"
    path.write_text(f"import pathlib\npathlib.Path({str(canary)!r}).touch()\n")
    doc = Document()
    doc.kernel = session
    doc.open(path, run=False)
    assert doc.kernel_run is None and doc.run.results == []
    time.sleep(0.5)
    assert not canary.exists()
    doc.release()  # the user's Run
    _finish(doc)
    assert canary.exists()
