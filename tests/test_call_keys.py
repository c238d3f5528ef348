"""A call's catalogue key, read from its ast: however a recipe spells torch's modules."""

import ast

import pytest

from app.catalog import CATALOG
from app.catalog.call_keys import call_key, dotted_name


def _func(code: str) -> ast.expr:
    node = ast.parse(code, mode="eval").body
    assert isinstance(node, ast.Call)
    return node.func


@pytest.mark.parametrize(("code", "key"), [
    ("torch.zeros(2)", "torch.zeros"),
    ("F.softmax(x, dim=0)", "F.softmax"),
    ("torch.nn.functional.softmax(x, dim=0)", "F.softmax"),
    ("nn.Linear(2, 3)", "nn.Linear"),
    ("torch.nn.Linear(2, 3)", "nn.Linear"),
    ("print(x)", "print"),
    ("x.view(3, 2)", "Tensor.view"),
    ("x.t().view(6)", "Tensor.view"),
    ("self.fc.weight.sum()", "Tensor.sum"),
    ("torch.linalg.norm(x)", "Tensor.norm"),  # not a module the recipe spells: a method
    ("fs[0](x)", ""),
])
def test_call_key_spells_the_catalogues_keys(code, key):
    assert call_key(_func(code)) == key


def test_the_keys_of_the_spellings_are_in_the_catalogue():
    for code in ("torch.nn.functional.relu(x)", "torch.nn.Linear(2, 3)", "x.sum()"):
        assert CATALOG.get(call_key(_func(code))) is not None, code


def test_dotted_name_reads_a_chain_of_names_only():
    assert dotted_name(_func("torch.nn.functional.relu(x)")) == "torch.nn.functional.relu"
    assert dotted_name(_func("f()(x)")) == ""
