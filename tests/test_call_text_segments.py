"""A call's and a display's items are read back as Python's ast reads their text
(``ast.get_source_segment``), in one pass of the text: a 3,000-number literal opened in
the Builder read its items one pass of the text each (seconds of the GUI thread)."""

from __future__ import annotations

import ast

import pytest

from app.catalog import CATALOG
from app.recipe.call_text import _items, bind_texts
from app.recipe.literals import line_shown

DISPLAYS = [
    "[1, 2, 3]",
    "  (4,  -5 , 6.5e-3)  ",
    '["α", "βγ",\n 3, (1, 2)]',
    "[torch.ones(2), x[0], f(a, b=1)]",
    "[\n    1,\n    2,  # two\n    3,\n]",
    "[" + ", ".join(str(i) for i in range(3000)) + "]",
]


def _python_items(text: str) -> list[str]:
    node = ast.parse(text.strip(), mode="eval").body
    return [ast.get_source_segment(text.strip(), e) for e in node.elts]


@pytest.mark.parametrize("text", DISPLAYS, ids=range(len(DISPLAYS)))
def test_a_displays_items_are_its_items_as_python_reads_them(text):
    assert _items(text) == _python_items(text)


@pytest.mark.parametrize("text", DISPLAYS, ids=range(len(DISPLAYS)))
def test_a_size_field_shows_each_item_as_written(text):
    assert line_shown("size", text) == ", ".join(_python_items(text))


def test_a_calls_arguments_are_their_texts_as_python_reads_them():
    text = 'torch.tensor([1, "é", 3], dtype=torch.float64)'
    call = ast.parse(text, mode="eval").body
    texts = bind_texts(CATALOG.get("torch.tensor"), text)
    assert sorted(texts.values()) == sorted(
        ast.get_source_segment(text, n) for n in [*call.args, *(k.value for k in call.keywords)])
