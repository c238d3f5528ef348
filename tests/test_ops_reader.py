"""The op catalogue in recipes: the expressions people really write read, write back and
run exactly as torch runs them. Core tests: no QApplication."""

from __future__ import annotations

import ast
import importlib

import pytest
import torch
import torch.nn.functional as F

from app.catalog import CATALOG, OpSpec
from app.dtypes import DType
from app.recipe.call_text import bind_texts, call_text, parse_call
from app.recipe.model import Step
from app.recipe.op_call import bind_node, node_literal
from app.recipe.reader import read_recipe
from app.recipe.text_recipe import new_text
from tests.form_steps import value_of
from tests.python_run import run_python

HEADER = "import torch\nimport torch.nn.functional as F\n\n"


def run(body: str) -> dict:
    """Read ``body`` as a recipe, check it round-trips, and return its namespace."""
    recipe = read_recipe(HEADER + body)
    text = new_text(recipe)
    assert read_recipe(text) == recipe, text
    result = run_python(recipe)
    assert result.ok, [(r.step.label, r.error) for r in result.errors]
    return result.namespace


def same(a: object, b: object) -> bool:
    """Equal values, dtypes and shapes (tensors, or tuples of them)."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


# -- the expressions of the issue ------------------------------------------------------------
def test_nested_calls_and_method_chains() -> None:
    ns = run("causal = torch.tril(torch.ones(5, 5), diagonal=1)\n"
             "grid = torch.arange(12).view(3, 4)\n"
             "chain = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1).contiguous()"
             ".view(4, -1)\n")
    assert same(ns["causal"], torch.tril(torch.ones(5, 5), diagonal=1))
    assert same(ns["grid"], torch.arange(12).view(3, 4))
    assert same(ns["chain"],
                torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1).contiguous().view(4, -1))


def test_operators() -> None:
    ns = run("x = torch.arange(6.0).view(2, 3)\n"
             "y = torch.ones(2, 3)\n"
             "M = torch.arange(6.0).view(2, 3)\n"
             "N = torch.arange(12.0).view(3, 4)\n"
             "prod = x * y * 4\n"
             "mm = M @ N\n"
             "mask = torch.tril(torch.ones(2, 3))\n"
             'scores = x.masked_fill(mask == 0, float("-inf"))\n'
             "both = (x > 1) & (x < 5)\n"
             "neg = -x + 2 ** 3\n")
    x, y = torch.arange(6.0).view(2, 3), torch.ones(2, 3)
    M, N = x, torch.arange(12.0).view(3, 4)
    assert same(ns["prod"], x * y * 4)
    assert same(ns["mm"], M @ N)
    assert same(ns["scores"], x.masked_fill(torch.tril(torch.ones(2, 3)) == 0, float("-inf")))
    assert same(ns["both"], (x > 1) & (x < 5))
    assert same(ns["neg"], -x + 2 ** 3)


def test_in_place_calls_as_statements() -> None:
    ns = run("v = torch.zeros(3)\n"
             "v.add_(1)\n"
             "v.add_(torch.tensor([1.0, 2.0, 3.0]), alpha=2)\n"
             "m = torch.zeros(2, 2)\n"
             "m.masked_fill_(torch.eye(2) == 1, 7.0)\n")
    v = torch.zeros(3)
    v.add_(1)
    v.add_(torch.tensor([1.0, 2.0, 3.0]), alpha=2)
    assert same(ns["v"], v)
    assert same(ns["m"], torch.zeros(2, 2).masked_fill_(torch.eye(2) == 1, 7.0))


def test_in_place_through_a_view_changes_the_base() -> None:
    ns = run("base = torch.zeros(2, 3)\nrow = base[0]\nrow.add_(5)\n")
    assert same(ns["base"], torch.tensor([[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]))


def test_tuples_and_lists_of_tensors() -> None:
    ns = run("a = torch.zeros(2, 3)\nb = torch.ones(2, 3)\n"
             "rows = torch.cat((a, b), dim=0)\n"
             "cols = torch.cat([a, b], 1)\n"
             "layers = torch.stack((a, b))\n"
             "parts = torch.arange(7).chunk(3)\n"
             "second = parts[1]\n"
             "pieces = torch.split(torch.arange(7), [2, 5])\n")
    a, b = torch.zeros(2, 3), torch.ones(2, 3)
    assert same(ns["rows"], torch.cat((a, b), dim=0))
    assert same(ns["cols"], torch.cat([a, b], 1))
    assert same(ns["layers"], torch.stack((a, b)))
    assert same(ns["parts"], torch.arange(7).chunk(3))
    assert same(ns["second"], torch.arange(7).chunk(3)[1])
    assert same(ns["pieces"], torch.split(torch.arange(7), [2, 5]))


@pytest.mark.parametrize("index", [
    "[:, 1]", "[0, ::2]", "[None]", "[..., 0]", "[1:, :-1]", "[-1]", "[0,]", "[()]",
    "[:, None, 1]", "[[0, 2]]", "[torch.tensor([2, 0])]", "[x > 5]",
])
def test_indexing_and_slicing(index: str) -> None:
    ns = run(f"x = torch.arange(12).view(3, 4)\ny = x{index}\n")
    x = torch.arange(12).view(3, 4)
    expected = {
        "[:, 1]": x[:, 1], "[0, ::2]": x[0, ::2], "[None]": x[None], "[..., 0]": x[..., 0],
        "[1:, :-1]": x[1:, :-1], "[-1]": x[-1], "[0,]": x[0,], "[()]": x[()],
        "[:, None, 1]": x[:, None, 1], "[[0, 2]]": x[[0, 2]],
        "[torch.tensor([2, 0])]": x[torch.tensor([2, 0])], "[x > 5]": x[x > 5],
    }[index]
    assert same(ns["y"], expected)


def test_users_name_tensors_input_and_tensor() -> None:
    ns = run("input = torch.arange(6.0).view(2, 3)\n"
             "tensor = input.t()\n"
             "total = torch.sum(input=tensor, dim=0)\n"
             "both = torch.cat((input, tensor.t()))\n"
             "print(input, tensor)\n")
    x = torch.arange(6.0).view(2, 3)
    assert same(ns["tensor"], x.t())
    assert same(ns["total"], torch.sum(x.t(), dim=0))
    assert same(ns["both"], torch.cat((x, x)))


def test_functional_spellings_run_the_functional_op() -> None:
    ns = run("x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])\n"
             "a = F.softmax(x, dim=1)\n"
             "b = torch.nn.functional.softmax(x, dim=0)\n"
             "c = torch.softmax(x, 1)\n"
             "d = x.softmax(-1)\n"
             "e = F.one_hot(torch.tensor([0, 2]), num_classes=3)\n"
             "f = F.sigmoid(x)\n")
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    assert same(ns["a"], F.softmax(x, dim=1))
    assert same(ns["b"], F.softmax(x, dim=0))
    assert same(ns["c"], torch.softmax(x, 1))
    assert same(ns["d"], x.softmax(-1))
    assert same(ns["e"], F.one_hot(torch.tensor([0, 2]), num_classes=3))
    assert same(ns["f"], torch.sigmoid(x))
    recipe = read_recipe(HEADER + "x = torch.ones(2)\ny = torch.nn.functional.softmax(x, 0)\n")
    assert recipe.steps[-1].op == "F.softmax"


def test_reductions_with_dim_and_keepdim() -> None:
    ns = run("x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])\n"
             "s = x.sum(dim=1, keepdim=True)\n"
             "m = torch.mean(x, 0)\n"
             "d = x.std(dim=1, keepdim=True)\n"
             "i = torch.argmax(x, dim=1)\n"
             "k = x.argmax(dim=0, keepdim=True)\n"
             "n = x.numel()\n"
             "shape = x.size()\n"
             "rows = x.size(0)\n"
             "rank = x.dim()\n"
             "top = x[1, 0].item()\n"
             "values = x.tolist()\n")
    x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    assert same(ns["s"], x.sum(dim=1, keepdim=True))
    assert same(ns["m"], torch.mean(x, 0))
    assert same(ns["d"], x.std(dim=1, keepdim=True))
    assert same(ns["i"], torch.argmax(x, dim=1))
    assert same(ns["k"], x.argmax(dim=0, keepdim=True))
    assert (ns["n"], ns["shape"], ns["rows"], ns["rank"]) == (6, torch.Size([2, 3]), 2, 2)
    assert ns["top"] == 7.0 and ns["values"] == x.tolist()


def test_conversions_and_sampling() -> None:
    ns = run("x = torch.tensor([1.7, -0.5, 0.0])\n"
             "a = x.to(torch.float64)\n"
             "b = x.to(\"cpu\", torch.int32)\n"
             "c = x.long()\n"
             "d = x.bool()\n"
             "e = x.int().float()\n"
             "torch.manual_seed(3)\n"
             "draws = torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True)\n")
    x = torch.tensor([1.7, -0.5, 0.0])
    assert same(ns["a"], x.to(torch.float64))
    assert same(ns["b"], x.to("cpu", torch.int32))
    assert same(ns["c"], x.long())
    assert same(ns["d"], x.bool())
    assert same(ns["e"], x.int().float())
    torch.manual_seed(3)
    assert same(ns["draws"],
                torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True))


def test_errors_are_steps_not_crashes() -> None:
    recipe = read_recipe(HEADER + "a = torch.zeros(2, 3)\nb = a.t().view(6)\nc = b + 1\n")
    result = run_python(recipe)
    assert [r.status for r in result.results] == ["ok", "error", "skipped"]  # as python stops
    with pytest.raises(RuntimeError) as view_error:
        torch.zeros(2, 3).t().view(6)
    assert result.results[1].error == str(view_error.value)
    assert result.results[1].error_type == "RuntimeError"
    cat = run_python(HEADER + "a = torch.zeros(2, 3)\nd = torch.cat((a, a), dim=2)\n")
    assert cat.results[1].error_type == "IndexError"


# -- every catalogue entry -------------------------------------------------------------------
# imported after app.catalog: catalog_autograd reads catalog_ops while the catalogue loads
OPS = list(importlib.import_module("app.catalog.ops").SPECS)


def _example(spec: OpSpec) -> Step:
    step = read_recipe(HEADER + f"example = {spec.example}\n").steps[-1]
    assert isinstance(step.node, ast.Call)
    assert CATALOG.get(step.op) is spec, f"{spec.name}'s example calls {step.op}"
    return step


def _value(text: str) -> object:
    torch.manual_seed(0)
    return value_of(text, {})


@pytest.mark.parametrize("spec", OPS, ids=lambda s: s.name)
def test_every_example_runs_and_round_trips(spec: OpSpec) -> None:
    assert spec.summary and spec.example and spec.category
    run(f"example = {spec.example}\n")


@pytest.mark.parametrize("spec", OPS, ids=lambda s: s.name)
def test_every_form_of_an_op_gives_the_same_result(spec: OpSpec) -> None:
    """The example, rebuilt by the catalogue in each of the op's spellings from its
    arguments' texts, runs alike."""
    example = _example(spec).text
    values = bind_texts(spec, example)  # for a method call, everything but the receiver
    node = parse_call(example)
    method = _example(spec).op.startswith("Tensor.")  # type: ignore[union-attr]
    receiver = ast.get_source_segment(example, node.func.value) if method \
        else values.get(spec.receiver)
    if method:
        values[spec.receiver] = receiver
    expected = _value(example)
    forms = [call_text(spec, values, namespace=ns) for ns in
             ([spec.namespace] if spec.function_key and spec.namespace != "builtins" else [])
             + list(spec.also_in)]
    if spec.method and receiver is not None:
        forms.append(call_text(spec, values, receiver=receiver))
    assert forms
    for form in forms:
        torch.manual_seed(0)
        got = eval(form, {"torch": torch, "F": F})  # noqa: S307 - the catalogue's example
        assert same(got, expected), form


@pytest.mark.parametrize("spec", OPS, ids=lambda s: s.name)
def test_parameter_names_are_torchs_keywords(spec: OpSpec) -> None:
    """Every parameter bound in the example also works passed by keyword under its name."""
    if spec.name == "einsum":
        return  # einsum(equation, *operands): the operands cannot be keywords
    example = _example(spec).text
    node = parse_call(example)
    keywords = ", ".join(f"{k}={v}" for k, v in bind_texts(spec, example).items())
    rebuilt = f"{ast.get_source_segment(example, node.func)}({keywords})"
    assert same(_value(rebuilt), _value(example)), rebuilt


def test_function_and_method_forms_of_sizes() -> None:
    reshape = CATALOG.get("torch.reshape")
    values = {"input": "x", "shape": "(3, 4)"}
    assert call_text(reshape, values) == "torch.reshape(x, (3, 4))"
    assert call_text(reshape, values, receiver="x") == "x.reshape(3, 4)"
    view = CATALOG.get("Tensor.view")
    assert bind_texts(view, "x.view(3, 4)") == {"size": "(3, 4)"}
    where = CATALOG.get("Tensor.where")
    assert bind_texts(where, "x.where(c, y)") == {"condition": "c", "other": "y"}
    assert bind_texts(where, "torch.where(c, x, y)") == {
        "condition": "c", "input": "x", "other": "y"}
    to = CATALOG.get("Tensor.to")
    assert bind_texts(to, "x.to(torch.float64)") == {"dtype": "torch.float64"}
    assert bind_texts(to, 'x.to("cpu", torch.int32)') == {
        "device": '"cpu"', "dtype": "torch.int32"}
    softmax = CATALOG.get("F.softmax")
    assert softmax is CATALOG.get("torch.softmax") is CATALOG.get("Tensor.softmax")
    assert call_text(softmax, {"input": "x", "dim": "1"}, namespace="F").startswith(
        "F.softmax(")
    with pytest.raises(ValueError):
        call_text(softmax, {"input": "x", "dim": "1"}, namespace="nn")


def test_catalogue_lists_every_op_of_the_issue() -> None:
    wanted = {
        "shape": "view reshape squeeze unsqueeze flatten transpose t permute contiguous expand "
                 "repeat",
        "indexing": "gather index_select masked_fill masked_fill_ where nonzero",
        "masks": "tril triu clamp", "joining": "cat stack chunk split",
        "linalg": "matmul mm bmm mv dot einsum",
        "elementwise": "mul add add_ sub div eq ne gt lt ge le",
        "reduction": "sum mean std argmax", "activation": "softmax sigmoid",
        "conversion": "to item tolist clone detach float long int bool numel size dim one_hot",
    }
    for category, names in wanted.items():
        have = {s.name for s in CATALOG.in_category(category)}
        assert set(names.split()) <= have, category
    assert CATALOG.get("torch.multinomial") and CATALOG.get("Tensor.multinomial")
    for key in ("F.softmax", "torch.softmax", "Tensor.softmax", "F.one_hot", "torch.sigmoid",
                "F.sigmoid", "Tensor.sigmoid", "Tensor.masked_fill_", "Tensor.add_"):
        assert key in CATALOG, key
    assert "torch.one_hot" not in CATALOG and "Tensor.one_hot" not in CATALOG
    assert "torch.view" not in CATALOG and "torch.add_" not in CATALOG
    assert CATALOG.get("torch.mul").operator == "*"
    assert CATALOG.get("Tensor.add_").in_place and not CATALOG.get("torch.add").in_place


def test_calls_outside_the_catalogue_are_code_steps() -> None:
    for call in ("x.numpy()", "F.dropout(x)"):
        x, y = read_recipe(HEADER + f"x = torch.ones(2)\ny = {call}\n").steps
        assert not x.is_code and y.is_code and y.text == f"y = {call}"


def test_arange_to_infinity_gives_torchs_error() -> None:
    recipe = read_recipe(HEADER + 'r = torch.arange(0, float("inf"))\n')
    result = run_python(recipe)
    with pytest.raises(RuntimeError) as torch_error:
        torch.arange(0, float("inf"))
    assert result.results[0].error == str(torch_error.value)


def test_writer_keeps_imports_for_functional_calls() -> None:
    recipe = read_recipe(HEADER + "x = torch.ones(3)\ny = F.softmax(x, dim=0)\n")
    assert "import torch.nn.functional as F" in new_text(recipe)
    ops = {key for s in recipe.steps for key in s.calls}
    assert ops == {"torch.ones", "F.softmax"}


@pytest.mark.parametrize("spec", OPS, ids=lambda s: s.name)
def test_bind_node_binds_each_argument_of_the_example_once(spec: OpSpec) -> None:
    """The example's call, read as ast (what the forms and Op explained read), binds every
    argument it gives to one parameter of the op: none left out, none twice."""
    node = ast.parse(spec.example, mode="eval").body
    assert isinstance(node, ast.Call)
    bound = bind_node(spec, node, _example(spec).op.startswith("Tensor."))  # type: ignore[union-attr]
    assert set(bound) <= {p.name for p in spec.params}, set(bound)
    given = [*node.args, *(k.value for k in node.keywords)]
    found = [n for v in bound.values() for n in ([v] if hasattr(v, "lineno") else v.elts)]
    assert sorted(map(id, found)) == sorted(map(id, given)), ast.dump(node)


def test_node_literal_reads_what_a_form_shows_as_a_literal() -> None:
    def literal(text: str):
        return node_literal(ast.parse(text, mode="eval").body)

    assert literal("-1") == (True, -1) and literal("2.5") == (True, 2.5)
    assert literal("'mean'") == (True, "mean") and literal("None") == (True, None)
    assert literal("torch.long") == (True, DType("int64"))
    nan = literal('float("nan")')
    assert nan[0] and nan[1] != nan[1]
    assert literal('float("-inf")') == (True, float("-inf"))
    for text in ("x", "[1, 2]", "i - 1", "+1", "-x", "torch.ones(2)", 'float("one")'):
        assert literal(text) == (False, None), text
