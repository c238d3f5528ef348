"""Adding, inserting, removing, moving and renaming a step changes only its own lines.

For each recipe in ``recipes/`` and a hand-written one (CRLF line ends, a Chinese
comment, a form feed, a ``with torch.no_grad():`` block), each structural edit goes
through the undo stack as the panels push it. The new text must be the old one with
just the step's whole lines (its comment lines above it included) added, cut or
swapped (a step cut from between two blank lines takes the one above it), or, for a
rename, just the names that refer to it changed; the lines are found here with ``ast``
and a plain line split. Undo must give the old text back, byte for byte.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

import pytest
from PySide6.QtGui import QUndoStack

from app.recipe.model import Step
from app.recipe.reader import read_recipe, read_step
from app.recipe.text_recipe import SourceRecipe
from app.resources import RECIPES_DIR
from widgets.common.undo import push_edit

HAND_WRITTEN = (
    '"""A hand-written recipe."""\r\n'
    "import torch\r\n"
    "\r\n"
    "# 一个张量\r\n"
    "x = torch.ones(2, 3)  # 全是一\r\n"
    "\x0c\r\n"
    "y = x * 2\r\n"
    "with torch.no_grad():\r\n"
    "    z = y + 1\r\n"
    "    w = z * y\r\n"
    "\r\n"
    "# 最后\r\n"
    "s = w.sum()\r\n"
    "t = s + x.sum()\r\n"
)

TEXTS = {name: (RECIPES_DIR / name).read_bytes().decode("utf-8")
         for name in sorted(p.name for p in RECIPES_DIR.glob("*.py"))}
TEXTS["hand_written_crlf.py"] = HAND_WRITTEN
ADDED = read_step("added = torch.zeros(2)")


def lines_of(text: str) -> list[str]:
    """``text``'s lines with their ends, split where Python splits them."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def top_statements(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def statement_of(text: str, step: Step) -> ast.stmt:
    """The top-level statement holding ``step``."""
    for node in top_statements(text):
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        if first <= step.line <= node.end_lineno:  # type: ignore[operator]
            return node
    raise LookupError(step)


def region(text: str, step: Step) -> tuple[int, int]:
    """The 0-based line range ``[start, end)`` of a top-level step: its statement's lines
    and the comment lines right above it."""
    node = statement_of(text, step)
    lines = lines_of(text)
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
    while first > 0 and lines[first - 1].strip().startswith("#"):
        first -= 1
    return first, node.end_lineno  # type: ignore[return-value]


def alone(text: str, steps: tuple[Step, ...], i: int) -> bool:
    """Step ``i`` is a top-level statement of its own."""
    if steps[i].block:
        return False
    node = statement_of(text, steps[i])
    return sum(1 for n in top_statements(text)
               if n.lineno <= node.end_lineno and n.end_lineno >= node.lineno) == 1  # type: ignore[operator]


def pushed(text: str, edit) -> tuple[SourceRecipe, QUndoStack]:
    """The recipe read from ``text``, with ``edit`` pushed on an undo stack."""
    read = read_recipe(text)
    recipe = SourceRecipe(read.steps, read.docstring, text)
    stack = QUndoStack()
    push_edit(stack, recipe, edit, "edit")
    return recipe, stack


def check(text: str, edit, expected: str) -> bool:
    """Whether ``edit`` made exactly ``expected``; undo must give ``text`` back."""
    recipe, stack = pushed(text, edit)
    got = recipe.source
    stack.undo()
    assert recipe.source == text
    stack.redo()
    assert recipe.source == got
    return got == expected


# -- what each edit should give ------------------------------------------------------------------
def appended(text: str) -> str:
    steps = read_recipe(text).steps
    lines = lines_of(text)
    end = statement_of(text, steps[-1]).end_lineno
    nl = newline(text)
    head = lines[:end]
    if head and not head[-1].endswith(("\n", "\r")):
        head[-1] += nl
    return "".join(head) + "added = torch.zeros(2)" + nl + "".join(lines[end:])


def middle(steps: tuple[Step, ...], ok) -> int | None:
    """An index near the middle that ``ok`` accepts."""
    order = sorted(range(len(steps)), key=lambda i: abs(i - len(steps) // 2))
    return next((i for i in order if ok(i)), None)


def inserted_at(text: str) -> tuple[int, str] | None:
    steps = read_recipe(text).steps
    k = middle(steps, lambda i: i > 0 and alone(text, steps, i - 1))
    if k is None:
        return None
    lines = lines_of(text)
    end = region(text, steps[k - 1])[1]
    return k, "".join(lines[:end]) + "added = torch.zeros(2)" + newline(text) + "".join(lines[end:])


def removed_at(text: str) -> tuple[int, str] | None:
    steps = read_recipe(text).steps
    k = middle(steps, lambda i: alone(text, steps, i))
    if k is None:
        return None
    lines = lines_of(text)
    start, end = region(text, steps[k])
    if start > 0 and not lines[start - 1].strip(" \t\r\n") and (
            end == len(lines) or not lines[end].strip(" \t\r\n")):
        start -= 1  # between two blank lines: one goes with it
    return k, "".join(lines[:start] + lines[end:])


def swapped_at(text: str, up: bool) -> tuple[int, str] | None:
    """Step ``k`` moved one place up (``up``) or down, and the text that should give."""
    steps = read_recipe(text).steps
    delta = -1 if up else 1
    k = middle(steps, lambda i: 0 <= i + delta < len(steps) and alone(text, steps, i)
               and alone(text, steps, i + delta)
               and lines_of(text)[region(text, steps[max(i, i + delta)])[1] - 1].endswith("\n"))
    if k is None:
        return None
    lines = lines_of(text)
    a, b = sorted((k, k + delta))
    (a0, a1), (b0, b1) = region(text, steps[a]), region(text, steps[b])
    return k, "".join(lines[:a0] + lines[b0:b1] + lines[a1:b0] + lines[a0:a1] + lines[b1:])


def renamed_at(text: str) -> tuple[int, str, str] | None:
    """A named step, its new name, and the text with its binding's names changed: its
    target and every later name that loads it, up to a form step that binds it again."""
    steps = read_recipe(text).steps
    for k, step in enumerate(steps):
        if step.name is None or step.block or not alone(text, steps, k):
            continue
        old = step.name
        nodes = [statement_of(text, step).targets[0]]  # type: ignore[attr-defined]
        plain = True
        seen: set[int] = set()
        for later in steps[k + 1:]:
            node = statement_of(text, later)
            if id(node) in seen and later.block:
                node = next(n for n in node.body if n.lineno == later.line)  # type: ignore[attr-defined]
            elif later.block:
                seen.add(id(node))
                node = next(n for n in node.body if n.lineno == later.line)  # type: ignore[attr-defined]
            for sub in ast.walk(node):
                scope = ast.FunctionDef | ast.Lambda | ast.ClassDef | ast.comprehension
                if isinstance(sub, scope) and old in {
                        n.id for n in ast.walk(sub) if isinstance(n, ast.Name)} \
                        or isinstance(sub, ast.arg) and sub.arg == old \
                        or isinstance(sub, ast.Global | ast.Nonlocal) and old in sub.names:
                    plain = False  # a scope of its own may bind the name
                if isinstance(sub, ast.Name) and sub.id == old and (
                        later.is_code or isinstance(sub.ctx, ast.Load)):
                    nodes.append(sub)
            if later.name == old and not later.is_code:
                break
        if not plain or len(nodes) < 2:
            continue
        new = old + "_renamed"
        lines = lines_of(text)
        for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset), reverse=True):
            raw = lines[node.lineno - 1].encode("utf-8")
            lines[node.lineno - 1] = (raw[:node.col_offset] + new.encode()
                                      + raw[node.end_col_offset:]).decode("utf-8")
        return k, new, "".join(lines)
    return None


# -- the tests -----------------------------------------------------------------------------------
def test_the_hand_written_recipe_reads_as_meant():
    read = read_recipe(HAND_WRITTEN)
    assert [s.name for s in read.steps] == ["x", "y", "z", "w", "s", "t"]
    assert read.steps[0].comment == "一个张量" and read.steps[2].block == "no_grad"


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_appending_a_step_adds_only_its_line(qapp, name):
    text = TEXTS[name]
    assert check(text, lambda r: r.append(ADDED), appended(text))


def check_found(text: str, found: tuple | None, edit_of, why: str) -> None:
    """``check`` an edit of the place ``found`` gives (its last item: the expected text)."""
    if found is None:
        pytest.skip(why)
    *where, expected = found
    assert check(text, edit_of(*where), expected)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_inserting_a_step_adds_only_its_line(qapp, name):
    check_found(TEXTS[name], inserted_at(TEXTS[name]), lambda k: lambda r: r.insert(k, ADDED),
                "no step to insert after")


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_removing_a_step_cuts_only_its_lines(qapp, name):
    check_found(TEXTS[name], removed_at(TEXTS[name]), lambda k: lambda r: r.remove(k),
                "no step of its own lines")


@pytest.mark.parametrize("up", [True, False], ids=["up", "down"])
@pytest.mark.parametrize("name", sorted(TEXTS))
def test_moving_a_step_swaps_only_the_two_steps_lines(qapp, name, up):
    to = -1 if up else 1
    check_found(TEXTS[name], swapped_at(TEXTS[name], up),
                lambda k: lambda r: r.move(k, k + to), "no two neighbouring steps of their own")


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_renaming_a_step_changes_only_the_names_of_its_binding(qapp, name):
    check_found(TEXTS[name], renamed_at(TEXTS[name]),
                lambda k, new: lambda r: r.rename(k, new), "no step read by a later one")


def test_the_hand_written_recipe_is_edited_at_every_kind_of_place(qapp):
    """Inside the ``no_grad`` block, before a page break, after the last step."""
    nl = "\r\n"
    lines = lines_of(HAND_WRITTEN)
    # a no_grad step inserted after z goes into the block, indented as z
    block_step = replace(read_step("v = torch.zeros(1)"), block="no_grad")
    assert check(HAND_WRITTEN, lambda r: r.insert(3, block_step),
                 "".join(lines[:9]) + "    v = torch.zeros(1)" + nl + "".join(lines[9:]))
    # w removed from the block, z stays in it
    assert check(HAND_WRITTEN, lambda r: r.remove(3), "".join(lines[:9] + lines[10:]))
    # x (comment lines and trailing comment) moved below y, the page break stays put
    assert check(HAND_WRITTEN, lambda r: r.move(0, 1),
                 "".join(lines[:3] + lines[6:7] + lines[5:6] + lines[3:5] + lines[7:]))
    # x renamed: its target, y's and t's loads; nothing else
    renamed = HAND_WRITTEN.replace("x = torch", "a = torch").replace("y = x", "y = a") \
        .replace("x.sum()", "a.sum()")
    assert check(HAND_WRITTEN, lambda r: r.rename(0, "a"), renamed)


def test_renaming_follows_a_name_into_a_code_step():
    """A loop that reads the step's value reads it by its new name: the loop's text has
    the old name changed where it means the step, and not in a function of its own that
    binds the name itself."""
    text = ("import torch\n"
            "x = torch.ones(2)\n"
            "for i in range(3):\n"
            "    print(x + i)\n"
            "def f(x):\n"
            "    return x\n"
            "y = x * 2\n")
    read = read_recipe(text)
    recipe = SourceRecipe(read.steps, read.docstring, text)
    recipe.rename(0, "a")
    assert recipe.source == ("import torch\n"
                             "a = torch.ones(2)\n"
                             "for i in range(3):\n"
                             "    print(a + i)\n"
                             "def f(x):\n"
                             "    return x\n"
                             "y = a * 2\n")
    assert recipe.steps[1].code_text == "for i in range(3):\n    print(a + i)"


def test_a_step_needing_an_import_brings_it_after_the_last_one(qapp):
    relu = read_step("y = F.relu(x)", ["x"])
    assert check("import torch\r\nx = torch.ones(2)\r\n", lambda r: r.append(relu),
                 "import torch\r\nimport torch.nn.functional as F\r\n"
                 "x = torch.ones(2)\r\ny = F.relu(x)\r\n")
    assert check('"""Doc."""\n', lambda r: r.append(ADDED),
                 '"""Doc."""\nimport torch\nadded = torch.zeros(2)\n')


def test_a_step_moved_past_several_keeps_its_lines_and_theirs(qapp):
    text = "import torch\na = torch.ones(1)  # one\nb = a + 1\n\nc = b + 1\n# d\nd = c + 1\n"
    assert check(text, lambda r: r.move(0, 3),
                 "import torch\nb = a + 1\n\nc = b + 1\n# d\nd = c + 1\na = torch.ones(1)  # one\n")
    assert check(text, lambda r: r.move(3, 0),
                 "import torch\n# d\nd = c + 1\na = torch.ones(1)  # one\nb = a + 1\n\nc = b + 1\n")


def test_removing_every_step_of_a_block_removes_the_block(qapp):
    text = ("import torch\nx = torch.ones(2)\n# the block\nwith torch.no_grad():\n"
            "    # c\n    z = x + 1\n    w = z * 2\ny = x * 3\n")
    assert check(text, lambda r: r.restore((r.steps[:1] + r.steps[3:], r.docstring)),
                 "import torch\nx = torch.ones(2)\ny = x * 3\n")


def test_a_rename_reaches_a_function_that_reads_the_name_and_not_one_that_binds_it(qapp):
    text = ("import torch\nx = torch.ones(2)\ndef g():\n    return x\n"
            "def h():\n    x = 1\n    return x\nk = [x for _ in range(2)]\n")
    assert check(text, lambda r: r.rename(0, "q"),
                 "import torch\nq = torch.ones(2)\ndef g():\n    return q\n"
                 "def h():\n    x = 1\n    return x\nk = [q for _ in range(2)]\n")
