"""Every edit of a recipe is an edit of its text: a number changed in any gallery recipe
changes only that literal's bytes, and a step replaced by another (its op, an argument, a
keyword, a name changed), the docstring edited, or several edits at once change only the
statements they are about, in a text with comments, blank lines, odd spacing, CRLF, a
byte order mark and non-ASCII (core tier, no QApplication).

Expected texts are written out by hand, or found with ``ast`` in the old text.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from app.recipe.document import Document
from app.recipe.gallery import scan
from app.recipe.model import Recipe, Step
from app.recipe.op_call import node_literal
from app.recipe.reader import form_step, read_recipe
from app.recipe.step_nodes import preorder
from app.recipe.text_recipe import SourceRecipe
from app.resources import RECIPES_DIR
from app.text_edits import Positions, literal_text

GALLERY = sorted({Path(e.path).name for e in scan().entries}
                 | {p.name for p in RECIPES_DIR.glob("*.py")})


def _recipe(text: str) -> SourceRecipe:
    read = read_recipe(text)
    return SourceRecipe(read.steps, read.docstring, text)


def _number_edits(recipe: Recipe) -> list[tuple[int, float, str]]:
    """(step, its first number literal's value, the step's text with that literal made
    another number) for each form step that has one."""
    found = []
    for index, step in enumerate(recipe.steps):
        if step.is_code:
            continue
        for node in preorder(step.node):
            literal, value = node_literal(node)  # type: ignore[arg-type]
            if literal and type(value) in (int, float):
                new = value + 1 if type(value) is int else value * 2 + 0.25
                start, end = Positions(step.text).span(node)
                text = step.text[:start] + literal_text(new) + step.text[end:]
                found.append((index, value, text))
                break
    return found


def _step(name: str | None, value: str, comment: str = "") -> Step:
    step = form_step(name, value)
    assert step is not None, value
    return replace(step, comment=comment)


def _middle(old: str, new: str) -> tuple[str, str]:
    """What ``new`` has instead of ``old`` between their common start and end."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return old[start:len(old) - end], new[start:len(new) - end]


def _around_literal(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the whole number literal around ``text[start:end]`` (a digit changed
    in ``12`` is the literal ``12``)."""
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._-"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] in "._"):
        end += 1
    return start, end


@pytest.mark.parametrize("name", GALLERY)
def test_a_number_edited_in_any_gallery_recipe_changes_only_its_bytes(name: str) -> None:
    text = (RECIPES_DIR / name).read_bytes().decode("utf-8-sig")
    edits = _number_edits(read_recipe(text))
    if not edits:
        pytest.skip("no form step with a number")
    for index, target, new_text in (edits[0], edits[-1]):
        recipe = _recipe(text)
        step = recipe.steps[index]
        recipe.replace_step(index, replace(step, text=new_text))
        new = next(node_literal(n) for n in preorder(recipe.steps[index].node)
                   if type(node_literal(n)[1]) in (int, float))[1]  # type: ignore[arg-type]
        edited = recipe.source
        gone, added = _middle(text, edited)
        assert gone or added, f"{name}: step {index} did not change"
        head = next(i for i in range(len(text) + 1)
                    if i == len(text) or i == len(edited) or text[i] != edited[i])
        lo, hi = _around_literal(text, head, head + len(gone))
        new_hi = hi + len(edited) - len(text)
        assert ast.literal_eval(text[lo:hi].strip("()")) == target, name
        assert ast.literal_eval(edited[lo:new_hi].strip("()")) == new, name
        assert text[:lo] == edited[:lo] and text[hi:] == edited[new_hi:], name
        assert read_recipe(edited).steps[index] == recipe.steps[index]


HAND = ("\ufeff\"\"\"Déjà vu: 权重\r\n\r\nA lesson.\r\n\"\"\"\r\n"
        "import torch\r\n"
        "\r\n"
        "\r\n"
        "# 权重：两行三列\r\n"
        "w = torch.ones(2,3 ,   requires_grad=False)   # 形状 (2, 3)\r\n"
        "\r\n"
        "v = w.view(3, 2)  # 视图\r\n"
        "s  =  v.sum(dim=0)\r\n"
        "with torch.no_grad():\r\n"
        "    # ü in a block\r\n"
        "    u = s * 2\r\n"
        "for i in range(2):  # a loop: code\r\n"
        "    print(i)\r\n"
        "t = s + 1\r\n")


def _open(tmp_path: Path, text: str = HAND) -> Document:
    path = tmp_path / "hand.py"
    path.write_bytes(text.encode("utf-8"))
    doc = Document()
    doc.open(path, run=False)
    return doc


def _saved(doc: Document, tmp_path: Path) -> str:
    doc.save(tmp_path / "out.py")
    return (tmp_path / "out.py").read_bytes().decode("utf-8")


def test_a_step_given_another_op_changes_only_its_statement(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    v = doc.recipe.steps[1]
    doc.recipe.replace_step(1, replace(v, text="w.reshape(6)"))
    assert _saved(doc, tmp_path) == HAND.replace("w.view(3, 2)", "w.reshape(6)")


def test_an_argument_added_and_a_keyword_dropped_change_only_that_statement(
        tmp_path: Path) -> None:
    doc = _open(tmp_path)
    w = doc.recipe.steps[0]
    doc.recipe.replace_step(0, replace(w, text="torch.ones(2, 3, 4)"))
    s = doc.recipe.steps[2]
    doc.recipe.replace_step(2, replace(s, text="v.sum(dim=1, keepdim=True)"))
    assert _saved(doc, tmp_path) == HAND.replace(
        "torch.ones(2,3 ,", "torch.ones(2, 3, 4 ,").replace(
        "v.sum(dim=0)", "v.sum(dim=1, keepdim=True)")


def test_a_reference_replaced_by_a_literal_and_a_renamed_target_keep_the_rest(
        tmp_path: Path) -> None:
    doc = _open(tmp_path)
    t = doc.recipe.steps[-1]
    doc.recipe.replace_step(len(doc.recipe.steps) - 1,
                            replace(t, name="t2", text="5 + 1"))
    assert _saved(doc, tmp_path) == HAND.replace("t = s + 1", "t2 = 5 + 1")


def test_a_step_in_a_block_keeps_its_indent_and_comment(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    u = doc.recipe.steps[3]
    assert u.block == "no_grad"
    doc.recipe.replace_step(3, replace(u, text="s.relu()"))
    assert _saved(doc, tmp_path) == HAND.replace("    u = s * 2", "    u = s.relu()")


def test_a_changed_comment_changes_only_its_lines(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    w = doc.recipe.steps[0]
    doc.recipe.replace_step(0, replace(w, comment="ones, 一"))
    assert _saved(doc, tmp_path) == HAND.replace("# 权重：两行三列", "# ones, 一")


def test_the_docstring_edit_changes_only_the_docstring(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    doc.recipe.set_docstring("Nouveau: ß\n\nOther text.")
    head, rest = HAND.split('"""\r\nimport', 1)
    assert _saved(doc, tmp_path) == '\ufeff"""Nouveau: ß\n\nOther text."""\r\nimport' + rest
    assert head.startswith('\ufeff"""Déjà')


def test_a_docstring_is_added_first_and_cut_with_its_line() -> None:
    text = "# a note\nimport torch\nx = torch.ones(2)\n"
    recipe = _recipe(text)
    recipe.set_docstring("Title")
    assert recipe.source == '"""Title"""\n' + text
    recipe.set_docstring("")
    assert recipe.source == text


def test_several_edits_at_once_change_only_their_statements(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    steps = list(doc.recipe.steps)
    s = steps[2]
    steps[2] = replace(s, text="v.mean()")  # another op
    steps.append(_step("m", "t.max()", comment="最大"))
    doc.recipe.restore((tuple(steps), "Two edits"))
    expected = HAND.replace("v.sum(dim=0)", "v.mean()").replace(
        '"""Déjà vu: 权重\r\n\r\nA lesson.\r\n"""', '"""Two edits"""') + "# 最大\r\nm = t.max()\r\n"
    assert _saved(doc, tmp_path) == expected


def test_several_steps_cut_at_once_take_only_their_lines() -> None:
    text = HAND.removeprefix("\ufeff")
    recipe = _recipe(text)
    steps = [s for i, s in enumerate(recipe.steps) if i not in (1, 4)]  # v and the loop
    steps[1] = replace(steps[1], text="w.sum(dim=0)")
    recipe.restore((tuple(steps), recipe.docstring))
    assert recipe.source == text.replace("v = w.view(3, 2)  # 视图\r\n", "").replace(
        "v.sum(dim=0)", "w.sum(dim=0)").replace(
        "for i in range(2):  # a loop: code\r\n    print(i)\r\n", "")


def test_a_rename_the_names_cannot_say_writes_each_changed_statement_alone() -> None:
    text = "import torch\nx = torch.ones(2); y = x  *  2   # two on a line\nz = x + y\n"
    recipe = _recipe(text)
    recipe.rename(0, "a")
    assert recipe.source == "import torch\na = torch.ones(2); y = a  *  2   # two on a line\n" \
                            "z = a + y\n"


def test_undo_of_any_edit_gives_back_the_text_byte_for_byte(tmp_path: Path) -> None:
    doc = _open(tmp_path)
    before = doc.recipe.snapshot()
    v = doc.recipe.steps[1]
    doc.recipe.replace_step(1, replace(v, text="w.flatten()"))
    doc.recipe.set_docstring("")
    assert doc.text != HAND.removeprefix("\ufeff")
    doc.recipe.restore(before)
    assert _saved(doc, tmp_path) == HAND


def test_a_text_that_is_not_python_is_kept_and_a_new_step_goes_after_it() -> None:
    recipe = SourceRecipe((), "", "x = (\n")
    recipe.append(_step("y", "torch.ones(2)"))
    assert recipe.source == "x = (\ny = torch.ones(2)\n"


BLOCK = ("import torch\n"
         "x = torch.ones(2, requires_grad=True)\n"
         "with torch.no_grad():\n"
         "    a = x * 2\n"
         "    # b's\n"
         "    b = x + 1\n"
         "y = x.sum()\n")


def test_a_step_put_inside_a_block_from_outside_splits_the_block_there() -> None:
    recipe = _recipe(BLOCK)
    recipe.insert(2, _step(None, "x.retain_grad()"))
    assert recipe.source == BLOCK.replace(
        "    # b's", "x.retain_grad()\nwith torch.no_grad():\n    # b's")
    assert [(s.label, s.block) for s in recipe.steps] == [
        ("x", ""), ("a", "no_grad"), (".retain_grad", ""), ("b", "no_grad"), ("y", "")]


def test_a_step_moved_into_another_block_leaves_no_empty_block() -> None:
    recipe = _recipe(BLOCK.replace("    # b's", "x.retain_grad()\nwith torch.no_grad():\n"
                                                "    # b's"))
    recipe.move(3, 1)  # b, alone in the second block, before a
    assert recipe.source == ("import torch\nx = torch.ones(2, requires_grad=True)\n"
                             "with torch.no_grad():\n    # b's\n    b = x + 1\n"
                             "    a = x * 2\nx.retain_grad()\ny = x.sum()\n")


def test_a_step_on_its_blocks_header_line_is_cut_as_pass() -> None:
    text = "import torch\nx = torch.ones(2)\nwith torch.no_grad(): y = x * 2  # one line\nz = x\n"
    recipe = _recipe(text)
    recipe.remove(1)
    assert recipe.source == text.replace("y = x * 2", "pass")
    assert [s.label for s in recipe.steps] == ["x", "z"]
