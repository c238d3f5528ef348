"""A form field's text and the Python text of the argument it stands for
(``app.recipe.literals``: ``line_value``/``line_shown``, ``data_value``/``data_shown``):
read each way and back, and the argument's text computes what torch computes."""

from __future__ import annotations

import math

import pytest
import torch

from app.recipe.literals import (
    data_shown,
    data_value,
    line_shown,
    line_value,
    parse_data,
)
from tests.form_steps import input_error

_error = input_error


def test_line_fields_read_each_kind_as_python_text():
    names = ["a", "b"]
    assert line_value("size", "2, 3", names) == "(2, 3)"
    assert line_value("size", "2", names) == "(2,)"
    assert line_value("number", "7", names) == "7"
    assert line_value("float", "7", names) == "7.0"
    assert line_value("tensors", "a, b,", names) == "[a, b]"
    assert line_value("any", "b", names) == "b"
    assert line_value("any", "2.5", names) == "2.5"
    assert line_value("str", "mean", names) == '"mean"'
    a, b = torch.ones(2), torch.zeros(2)
    stacked = eval(f"torch.stack({line_value('tensors', 'b, a', names)})",  # noqa: S307
                   {"torch": torch, "a": a, "b": b})
    assert torch.equal(stacked, torch.stack([b, a]))
    assert torch.zeros(eval(line_value("size", "2, 3", names))).shape == (2, 3)  # noqa: S307


def test_line_fields_say_why_they_cannot_read_text():
    assert _error(line_value, "tensors", "a, c", ["a"]) == "'c' is not a tensor in the recipe"
    assert _error(line_value, "any", "c", ["a"]) == "enter a tensor name or a number"
    assert _error(line_value, "size", "2, y", ["a"]).args == ("y",)


@pytest.mark.parametrize("kind, text", [("size", "2, 3"), ("number", "7"), ("float", "0.5"),
                                        ("tensors", "a, b"), ("any", "a"), ("str", "mean"),
                                        ("number", "-1"), ("size", "4")])
def test_a_line_field_shows_its_argument_as_typed(kind, text):
    value = line_value(kind, text, ["a", "b"])
    assert line_shown(kind, value) == text
    assert line_value(kind, line_shown(kind, value), ["a", "b"]) == value


def test_a_line_field_shows_what_it_cannot_read_as_written():
    assert line_shown("size", None) == ""
    assert line_shown("number", 'float("inf")') == "inf"
    assert line_shown("size", "torch.Size(2)") == "torch.Size(2)"
    assert line_shown("str", "'mean'") == "mean"  # a string as the recipe quoted it


@pytest.mark.parametrize("value", [[[1, 2], [3, 4]], [1.5, -2.0, 1e300], [True, False], 7, [],
                                   [[[0.5]], [[0.25]]], [math.inf, -math.inf]])
def test_data_text_reads_back_as_the_same_data_and_its_python_makes_it(value):
    shown = data_shown(data_value(value))
    assert shown is not None and parse_data(shown) == value
    made = eval(data_value(value), {"torch": torch})  # noqa: S307 - literal text
    assert torch.equal(torch.tensor(made), torch.tensor(value))


def test_data_text_of_nan_and_of_what_is_not_data_on_text():
    assert data_value([math.nan, 1.0]) == '[float("nan"), 1.0]'
    assert data_shown(data_value([math.nan, 1.0])) == "[nan, 1.0]"
    assert data_shown(data_value([[1, 2], [3, 4]])) == "[[1, 2],\n [3, 4]]"
    assert data_shown("[1, x]") is None
    assert data_shown('"a"') is None and data_shown("torch.zeros(2)") is None
    assert data_shown("[-1, +2]") is None  # +2: not a literal a recipe writes
    assert data_shown("(1, -2)") == "[1, -2]"
