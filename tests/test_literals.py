"""Text typed into an op's parameter form, read as values and expressions
(``app.recipe.literals``). Core tests: no QApplication; data is checked against what
``torch.tensor`` makes of the same Python literal."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import torch

from app.recipe.literals import (
    CONTEXT,
    line_value,
    parse_data,
    parse_number,
    parse_size,
)
from app.recipe.reader import MAX_DEPTH, MAX_LITERALS
from protocol.i18n import Filled
from tests.form_steps import input_error

TS = Path(__file__).resolve().parent.parent / "resources" / "i18n" / "tensor_lab_zh_CN.ts"


_error = input_error


# -- sizes and numbers ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, shape", [
    ("2, 3", (2, 3)), ("(2, 3)", (2, 3)), ("[1, 2, 3]", (1, 2, 3)), ("4,", (4,)), ("(4,)", (4,)),
    (" 0 ", (0,)), ("+5", (5,))])
def test_a_size_is_the_shape_torch_makes(text, shape):
    assert parse_size(text) == shape
    assert torch.zeros(parse_size(text)).shape == torch.Size(shape)


@pytest.mark.parametrize("text, template, args", [
    ("", "enter the shape, for example 2, 3", ()),
    ("()", "enter the shape, for example 2, 3", ()),
    ("2,,3", "an entry between two commas is empty", ()),
    ("2, x", "'{0}' is not an integer", ("x",)),
    ("2.5", "'{0}' is not an integer", ("2.5",)),
    ("3, -1", "{0} is negative: a size counts elements", (-1,)),
    (str(2**63), "{0} is too large", (2**63,)),
])
def test_a_bad_size_says_why(text, template, args):
    message = _error(parse_size, text)
    assert (message.template, message.args) == (template, args)
    assert message == template.format(*args)


def test_sizes_past_63_bits_are_what_torch_refuses_too():
    largest = parse_size(str(2**63 - 1))
    assert torch.empty(largest, dtype=torch.bool, device="meta").shape == largest
    with pytest.raises(TypeError):  # torch cannot even unpack the next one
        torch.empty(2**63, dtype=torch.bool, device="meta")


def test_a_number_keeps_int_or_float_as_typed():
    assert parse_number("7", "number") == 7 and isinstance(parse_number("7", "number"), int)
    assert parse_number("7.0", "number") == 7.0 and isinstance(parse_number("7.0", "number"), float)
    assert parse_number("7", "float") == 7.0 and isinstance(parse_number("7", "float"), float)
    assert parse_number("-1e-3", "number") == -0.001
    assert math.isnan(parse_number("nan", "float")) and parse_number("-inf", "number") == -math.inf
    assert parse_number(str(2**63 - 1), "number") == 2**63 - 1


def test_a_bad_number_says_why():
    assert _error(parse_number, "seven", "number") == "'seven' is not a number"
    big = _error(parse_number, str(2**63), "number")
    assert big.template == "{0} does not fit in 64 bits" and big.args == (str(2**63),)


# -- data ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[[1, 2], [3, 4]]", "[1.5, -2, 3e2]", "[[True, False]]", "3",
                                  "[]", "[[[1], [2]], [[3], [4]]]", "(1, 2)"])
def test_data_makes_the_tensor_the_same_literal_makes(text):
    value = parse_data(text)
    expected = torch.tensor(eval(text))  # noqa: S307 - the test's own literals
    got = torch.tensor(value)
    assert got.dtype == expected.dtype and torch.equal(got, expected)
    assert isinstance(value, (list, int, float))  # tuples are read as lists


def test_data_reads_nan_inf_and_signs():
    value = parse_data("[nan, -nan, inf, -inf, Infinity, +2, .5]")
    got = torch.tensor(value)
    assert torch.isnan(got[:2]).all()
    assert got[2:5].tolist() == [math.inf, -math.inf, math.inf]
    assert got[5:].tolist() == [2.0, 0.5]


@pytest.mark.parametrize("text, shown", [
    ("[[1, 2], [3, 4, 5]]", "row data[1] has 3 items, but row data[0] has 2 items"),
    ("[[[1, 2], [3, 4]], [[1], [2]]]", "row data[1][0] has 1 item, but row data[0][0] has 2 items"),
    ("[[1, 2], 3]", "row data[1] is a number, but row data[0] has 2 items"),
])
def test_ragged_rows_are_what_torch_refuses_and_are_named(text, shown):
    with pytest.raises((ValueError, TypeError)):
        torch.tensor(eval(text))  # noqa: S307 - the test's own literals
    message = _error(parse_data, text)
    assert message == f"ragged rows: {shown}"
    assert message.template == "ragged rows: row {0} {1}, but row {2} {3}"
    described = [a for a in message.args if isinstance(a, Filled)]
    assert len(described) == 2  # the row descriptions are translated as words too


@pytest.mark.parametrize("text", ["__import__('os').system('ls')", "[1, x]", "{1: 2}",
                                  "[1, 2] + [3]", "print(1)", "'a'", "...", "[1 2]", "   "])
def test_data_refuses_anything_but_numbers(text):
    _error(parse_data, text)


def test_data_names_the_first_thing_not_allowed():
    assert _error(parse_data, "[1, x1]").args == ("x1",)
    assert _error(parse_data, "[1, {]").args == ("{",)


def test_data_too_deep_or_too_long_is_refused_before_it_is_read():
    deep = "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1)
    assert _error(parse_data, deep).args == (MAX_DEPTH,)
    assert parse_data("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH) is not None
    assert _error(parse_data, "[" + "1," * (MAX_LITERALS + 1) + "]").args == (MAX_LITERALS,)
    assert _error(parse_data, f"[{2**63}]").template == "{0} does not fit in 64 bits"


# -- translation ---------------------------------------------------------------------------------
def test_every_message_is_translated_under_the_forms_context():
    """The templates keep the context they had in the form (the unnamed one), so the
    committed Chinese translation still covers them."""
    messages = [
        _error(parse_size, ""), _error(parse_size, "2,,3"), _error(parse_size, "x"),
        _error(parse_size, "-1"), _error(parse_size, str(2**63)),
        _error(parse_number, "x", "float"), _error(parse_number, str(2**63), "number"),
        _error(parse_data, "[x]"), _error(parse_data, ""), _error(parse_data, "[1 2]"),
        _error(parse_data, "[" * 65 + "]" * 65), _error(parse_data, "[[1], [1, 2], 3]"),
        _error(parse_data, "[[1], 2]"), _error(parse_data, "[[1, 2], [3]]"),
        _error(line_value, "tensors", "c", []), _error(line_value, "any", "c", []),
    ]
    templates = {m.template for m in messages}
    templates |= {a.template for m in messages for a in m.args if isinstance(a, Filled)}
    translated = set()
    for context in ET.parse(TS).getroot().iter("context"):
        if (context.findtext("name") or "") == CONTEXT:
            for message in context.iter("message"):
                translation = message.find("translation")
                if translation is not None and (translation.text or "").strip():
                    translated.add(message.findtext("source"))
    assert templates - translated == set()
    assert len(templates) >= 15
