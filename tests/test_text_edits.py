"""Text edits at ``ast`` spans (``app.text_edits``): hand-checked texts."""

from __future__ import annotations

import ast
import json

import pytest

from app.text_edits import Positions, literal_text, node_at, parse, with_argument, with_literal


def test_a_positional_argument_is_replaced_and_nothing_else():
    text = "import torch\nx = torch.zeros(2,3)  # two rows\n"
    assert with_literal(text, 1, (1,), 4) == "import torch\nx = torch.zeros(2,4)  # two rows\n"


def test_a_keyword_argument_is_found_by_name():
    text = "y = torch.tril(x,  diagonal = 1)\n"
    assert with_literal(text, 0, ("diagonal",), -2) == "y = torch.tril(x,  diagonal = -2)\n"


def test_a_negative_number_is_replaced_whole():
    # -1 is a UnaryOp around 1: its span covers the minus sign
    text = "v = x.view(-1, 4)\n"
    assert with_literal(text, 0, (0,), 3) == "v = x.view(3, 4)\n"
    assert with_literal(text, 0, (1,), -4) == "v = x.view(-1, -4)\n"


def test_chinese_on_the_line_counts_its_bytes():
    # 形状 is 6 UTF-8 bytes and 2 characters: ast's columns are bytes
    text = 's = "形状"; y = torch.ones(2, 3)  # 形状是 (2, 3)\n'
    assert with_literal(text, 1, (1,), 5) == 's = "形状"; y = torch.ones(2, 5)  # 形状是 (2, 3)\n'
    text = "x = torch.zeros(2, 3)  # 两行三列\ny = x.sum(dim=0)  # 按列求和\n"
    assert with_literal(text, 1, ("dim",), 1) == \
        "x = torch.zeros(2, 3)  # 两行三列\ny = x.sum(dim=1)  # 按列求和\n"


def test_crlf_line_endings_stay():
    text = "import torch\r\n# a comment\r\nx = torch.zeros(2, 3)\r\ny = x.sum(dim=0)\r\n"
    assert with_literal(text, 2, ("dim",), 1) == \
        "import torch\r\n# a comment\r\nx = torch.zeros(2, 3)\r\ny = x.sum(dim=1)\r\n"


def test_old_mac_line_endings_count_as_lines():
    text = "x = 1\ry = torch.ones(2)\r"
    assert with_literal(text, 1, (0,), 7) == "x = 1\ry = torch.ones(7)\r"


def test_a_form_feed_and_a_line_separator_are_not_line_ends():
    # str.splitlines splits at both; Python does not
    text = "\x0c\n# page two\x0c\ns = '\u2028'; y = torch.ones(2)\nz = torch.ones(3)\n"
    assert with_literal(text, 1, (0,), 8) == \
        "\x0c\n# page two\x0c\ns = '\u2028'; y = torch.ones(8)\nz = torch.ones(3)\n"
    assert with_literal(text, 2, (0,), 9).endswith("z = torch.ones(9)\n")


def test_a_byte_order_mark_is_kept():
    text = "\ufeffx = torch.zeros(2, 3)\n"
    assert with_literal(text, 0, (0,), 5) == "\ufeffx = torch.zeros(5, 3)\n"


def test_tabs_in_a_block_count_as_one_byte():
    text = "with torch.no_grad():\n\ty = x.clamp(min=0.0,\tmax=1.0)\n"
    assert with_literal(text, 0, (0, "max"), 2.5) == \
        "with torch.no_grad():\n\ty = x.clamp(min=0.0,\tmax=2.5)\n"


def test_a_literal_spanning_lines_is_replaced_whole():
    text = "t = torch.tensor([[1, 2],\n                  [3, 4]], dtype=torch.float32)\n"
    assert with_literal(text, 0, (0,), [5, 6]) == \
        "t = torch.tensor([5, 6], dtype=torch.float32)\n"
    assert with_literal(text, 0, (0, 1, 0), 30) == \
        "t = torch.tensor([[1, 2],\n                  [30, 4]], dtype=torch.float32)\n"


def test_a_nested_call_is_reached_through_its_argument():
    text = "y = F.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0)\n"
    assert with_literal(text, 0, (0, 0, 2), 0.5) == \
        "y = F.softmax(torch.tensor([1.0, 2.0, 0.5]), dim=0)\n"
    assert with_literal(text, 0, ("dim",), -1) == \
        "y = F.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=-1)\n"


def test_a_dtype_and_a_string_keep_their_spelling():
    text = "x = torch.zeros(2, dtype=torch.float32, device='cpu')\n"
    import torch

    assert with_literal(text, 0, ("dtype",), torch.float64) == \
        "x = torch.zeros(2, dtype=torch.float64, device='cpu')\n"
    assert with_literal(text, 0, ("device",), "cuda:0") == \
        "x = torch.zeros(2, dtype=torch.float32, device='cuda:0')\n"
    double = 'x = torch.zeros(2, device="cpu")\n'
    assert with_literal(double, 0, ("device",), "meta") == 'x = torch.zeros(2, device="meta")\n'


def test_a_bool_and_none():
    text = "w = torch.ones(2, requires_grad=False)\n"
    assert with_literal(text, 0, ("requires_grad",), True) == \
        "w = torch.ones(2, requires_grad=True)\n"


def test_any_text_can_replace_a_node():
    text = "y = x.view(3, 4)\n"
    assert with_argument(text, 0, (1,), "2 * 2") == "y = x.view(3, 2 * 2)\n"


@pytest.mark.parametrize("value", [0, -7, 2.5, -0.25, 1e-06, float("nan"), float("inf"),
                                   float("-inf"), True, None, "héllo", 'say "hi"', "it's",
                                   (1, 2), (3,), [1, [2, 3]]])
def test_every_literal_reads_back_as_its_value(value):
    text = literal_text(value)
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        assert text == {"nan": 'float("nan")', "inf": 'float("inf")',
                        "-inf": 'float("-inf")'}[repr(value)]
        return
    got = ast.literal_eval(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("value", ["", "abc", "héllo", "中文", 'say "hi"', "back\\slash",
                                   "tab\there", "line\nbreak", "\x00", "\x7f", "\u2028",
                                   "\U0001f600", "it's"])
def test_a_string_in_double_quotes_is_what_json_writes(value):
    # json is imported only for the texts that need escapes (the builder's strings
    # before the window's first paint do not)
    assert literal_text(value) == json.dumps(value, ensure_ascii=False)


def test_the_result_reads_as_python_again():
    text = "# 形状\r\nimport torch\r\nx = torch.zeros(2, 3)  # 两行\r\nv = x.view(-1)\r\n"
    for statement, path, value in ((1, (0,), 4), (1, (1,), -3), (2, (0,), 6)):
        edited = with_literal(text, statement, path, value)
        tree = parse(edited)
        assert ast.literal_eval(node_at(tree.body[statement], path)) == value


def test_positions_find_the_line_of_an_offset():
    p = Positions("ab\r\ncd\ref\n")
    assert [p.line_of(i) for i in (0, 3, 4, 6, 7)] == [1, 1, 2, 2, 3]
    assert p.offset(3, 1) == 8


def test_a_path_that_leads_nowhere_is_a_lookup_error():
    with pytest.raises(LookupError):
        with_literal("y = x.view(3)\n", 0, (2,), 1)
    with pytest.raises(LookupError):
        with_literal("y = x.view(3)\n", 0, ("dim",), 1)
