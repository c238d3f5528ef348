"""Characters that end a line for ``str.splitlines`` but not for Python (a form feed, a
page break on its own line; U+2028 in a string): the lines read are ``ast``'s lines."""

from __future__ import annotations

from app.recipe.reader import read_recipe, read_step
from app.recipe.text_recipe import SourceRecipe
from kernel.checkpoints import statement_key
from protocol.source import source_lines, statements

PAGED = ("import torch\n"
         "\x0c\n"
         "# 循环\n"
         "for i in range(2):\n"
         "    y = i\n"
         "s = '\u2028'  # 分隔\n"
         "z = torch.ones(2)  # 零\n")


def test_source_lines_end_where_python_ends_them():
    assert source_lines("a\r\nb\rc\x0cd\u2028e\nf") == ["a\r\n", "b\r", "c\x0cd\u2028e\n", "f"]
    assert source_lines("") == [] and source_lines("x\n") == ["x\n"]


def test_a_code_step_after_a_page_break_keeps_its_text_and_comment():
    loop, s, z = read_recipe(PAGED).steps
    assert loop.code_text == "for i in range(2):\n    y = i"
    assert loop.comment == "循环"
    assert (s.line, z.line) == (6, 7)


def test_the_kernel_statements_are_the_lines_python_runs():
    found, _ = statements(PAGED)
    assert [s.text for s in found] == [
        "import torch", "for i in range(2):\n    y = i", "s = '\u2028'", "z = torch.ones(2)"]


def test_an_edited_statement_after_a_page_break_changes_its_checkpoint_key():
    # the key was the line above's text: an edit left it alone, and a resumed run went
    # on after the statement that changed
    edited = PAGED.replace("torch.ones(2)", "torch.ones(3)")
    before, after = statements(PAGED)[0], statements(edited)[0]
    assert [statement_key(a) == statement_key(b) for a, b in zip(before, after, strict=True)] \
        == [True, True, True, False]


def test_a_new_step_keeps_the_page_break_and_the_comments():
    recipe = read_recipe(PAGED)
    source = SourceRecipe(recipe.steps, recipe.docstring, PAGED)
    source.append(read_step("w = torch.zeros(3)"))
    assert source.source == PAGED + "w = torch.zeros(3)\n"
