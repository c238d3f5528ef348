"""The recipe's text is the document: open then save gives the same bytes, and an edit
changes only the text it is about (core tier, no QApplication).

Expected texts are written out by hand here, or compared with the file's own lines.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from pathlib import Path

import pytest

from app.recipe.document import Document
from app.recipe.model import Step
from app.recipe.reader import read_recipe, read_step
from app.recipe.text_recipe import SourceRecipe

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted((ROOT / "recipes").glob("*.py"))
SEEDS = sorted((ROOT / "tests" / "seeds").glob("*.py"))

LESSON = '''\
"""Title

Lesson text.
"""
import torch
import numpy as np  # a code step: the forms cannot show it

torch.manual_seed(0)

# the input
x = torch.arange(12).view(3,   4)      # odd spacing, kept


def double(t):
    return t * 2


for i in range(3):
    print(i)
y = double(x)
z = x.sum(dim=0)
'''


def _source_recipe(text: str) -> SourceRecipe:
    r = read_recipe(text)
    return SourceRecipe(r.steps, r.docstring, text)


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def _as(step: Step, text: str, bound: list[str] | tuple = ()) -> Step:
    """``step`` as the statement ``text`` (its comment and block kept): a form's edit."""
    return replace(read_step(text, bound), comment=step.comment, block=step.block)


@pytest.mark.parametrize("path", GALLERY + SEEDS, ids=lambda p: p.name)
def test_open_then_save_gives_the_same_bytes(path: Path, tmp_path: Path) -> None:
    doc = Document()
    doc.open(path)
    assert not doc.modified
    out = tmp_path / path.name
    doc.save(out)
    assert out.read_bytes() == path.read_bytes()


def test_a_byte_order_mark_and_windows_line_ends_are_kept(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbfimport torch\r\n\r\nx = torch.ones(2)\r\nfor i in range(2):\r\n" \
           b"    print(i)\r\n"
    path = tmp_path / "crlf.py"
    path.write_bytes(data)
    doc = Document()
    doc.open(path)
    doc.save(tmp_path / "again.py")
    assert (tmp_path / "again.py").read_bytes() == data
    x = doc.recipe.steps[0]
    doc.recipe.replace_step(0, _as(x, "x = torch.ones(5)"))
    doc.save(tmp_path / "edited.py")
    assert (tmp_path / "edited.py").read_bytes() == data.replace(b"ones(2)", b"ones(5)")


def test_code_steps_are_steps_shown_by_their_first_line() -> None:
    recipe = _source_recipe(LESSON)
    labels = [s.label for s in recipe.steps]
    assert labels == ["import numpy as np",
                      "torch.manual_seed", "x", "def double(t):", "for i in range(3):",
                      "y = double(x)", "z"]
    assert [s.is_code for s in recipe.steps] == [True, False, False, True, True, True, False]
    loop = recipe.steps[4]
    assert loop.code_text == "for i in range(3):\n    print(i)" and loop.binds == ("i",)
    assert recipe.steps[3].binds == ("double",)


def test_a_form_edit_changes_only_that_literal() -> None:
    recipe = _source_recipe(LESSON)
    x = recipe.steps[2]
    recipe.replace_step(2, _as(x, "x = torch.arange(12).view(4, 3)"))
    assert _changed_lines(LESSON, recipe.source) == [
        "-x = torch.arange(12).view(3,   4)      # odd spacing, kept",
        "+x = torch.arange(12).view(4,   3)      # odd spacing, kept"]


def test_a_negative_literal_where_it_needs_brackets_gets_them() -> None:
    text = "import torch\nx = torch.ones(3)\ny = x ** 2\n"
    recipe = _source_recipe(text)
    y = recipe.steps[1]
    recipe.replace_step(1, _as(y, "y = x ** -1", ["x"]))
    assert recipe.source == "import torch\nx = torch.ones(3)\ny = x ** -1\n"
    text = "import torch\nx = torch.ones(3)\ny = 2 ** x\n"
    recipe = _source_recipe(text)
    y = recipe.steps[1]
    recipe.replace_step(1, _as(y, "y = (-2) ** x", ["x"]))
    assert recipe.source == "import torch\nx = torch.ones(3)\ny = (-2) ** x\n"


def test_new_moved_and_removed_steps_leave_the_rest_of_the_text_alone() -> None:
    recipe = _source_recipe(LESSON)
    recipe.append(replace(read_step("w = z.relu()", ["z"]), comment="made in the lab"))
    assert recipe.source == LESSON + "# made in the lab\nw = z.relu()\n"
    recipe.move(6, 5)  # z before y: both keep their text
    assert recipe.source.endswith("    print(i)\nz = x.sum(dim=0)\ny = double(x)\n"
                                  "# made in the lab\nw = z.relu()\n")
    recipe.remove(3)  # the def goes, with its text; the blank lines above it stay
    assert "def double" not in recipe.source and "return t * 2" not in recipe.source
    assert recipe.source.startswith(LESSON.split("def double")[0])


def test_a_step_using_nn_brings_its_import() -> None:
    recipe = _source_recipe("import torch\n\nx = torch.ones(2, 3)\n")
    recipe.append(read_step("lin = nn.Linear(3, 1)"))
    assert recipe.source == ("import torch\nimport torch.nn as nn\n\nx = torch.ones(2, 3)\n"
                             "lin = nn.Linear(3, 1)\n")


def test_the_docstring_edit_rewrites_only_the_docstring() -> None:
    recipe = _source_recipe(LESSON)
    recipe.set_docstring("New title\n\nNew text.\n")
    assert recipe.source == '"""New title\n\nNew text.\n"""' + LESSON.split('"""', 2)[2]


def test_undo_snapshots_hold_the_text() -> None:
    recipe = _source_recipe(LESSON)
    before = recipe.snapshot()
    recipe.remove(4)
    assert recipe.source != LESSON
    recipe.restore(before)
    assert recipe.source == LESSON


def test_a_step_that_shares_its_line_is_edited_alone() -> None:
    """Two statements on one line: an edit of one changes its text, not the other's."""
    text = "import torch\nx = torch.ones(2); y = torch.zeros(2)  # two\n"
    recipe = _source_recipe(text)
    x = recipe.steps[0]
    recipe.replace_step(0, _as(x, "x = torch.full(3, 1.5)"))
    assert recipe.source == "import torch\nx = torch.full(3, 1.5); y = torch.zeros(2)  # two\n"
    recipe.remove(1)
    assert recipe.source == "import torch\nx = torch.full(3, 1.5)  # two\n"


def test_restoring_the_same_steps_keeps_the_text_itself() -> None:
    recipe = _source_recipe(LESSON)
    recipe.restore((read_recipe(LESSON).steps, read_recipe(LESSON).docstring))
    assert recipe.source == LESSON


def test_a_new_recipe_is_import_torch_and_steps_built_from_forms_follow_it() -> None:
    assert SourceRecipe().source == "import torch\n"
    built = SourceRecipe([read_step("x = torch.ones(2)"),
                          replace(read_step("y = nn.Linear(2, 1)"), comment="a layer")],
                         "Title")
    assert built.source == ('"""Title"""\nimport torch\nimport torch.nn as nn\n\n'
                            "x = torch.ones(2)\n# a layer\ny = nn.Linear(2, 1)\n")
    assert read_recipe(built.source) == built
