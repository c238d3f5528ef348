"""An op step's call as text (``app.recipe.call_text``): bound into a form's values, written
back from them in each of the op's spellings, checked against what torch computes and
against hand-written text."""

from __future__ import annotations

import ast
import importlib

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from app.catalog import CATALOG
from app.catalog.call_keys import call_key
from app.recipe.call_text import (
    bind_op_texts,
    bind_texts,
    build_call_text,
    call_keywords_texts,
    call_text,
    parse_call,
    spelling_of,
)
from tests.form_steps import CREATION_CALLS

#: The catalogue's ops (no creation, random or output entries: the builder writes those).
OPS = list(importlib.import_module("app.catalog.ops").SPECS)


def _value(text: str) -> object:
    torch.manual_seed(0)
    return eval(text, {"torch": torch, "F": F, "nn": nn})  # noqa: S307 - a catalogue example


def same(a: object, b: object) -> bool:
    """Equal values, dtypes and shapes (tensors, or tuples of them)."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("source", [
    "torch.tril(x, diagonal=1)", "x.tril(1)", "x.view(3, 4)", "torch.reshape(x, (3, 4))",
    "torch.cat((x, x), dim=1)", "torch.gather(x, 1, i)", "x.masked_fill(m, 0.5)",
    "torch.sum(x, 1, True)", "F.softmax(x, dim=0)", "x.add_(1)", "(x + 1).view(12)",
    "x.to('cpu')", "torch.tril(x, diagonal=-1)",
    # torch reads a dtype in .to's device slot as the dtype; the form shows it as dtype
    "x.to(torch.float64) -> x.to(dtype=torch.float64)",
])
def test_binding_a_call_and_writing_it_back_gives_the_same_text(source):
    """Loading a step into the form and writing it back changes nothing."""
    source, _, expected = source.partition(" -> ")
    spec = CATALOG.get(call_key(parse_call(source).func))
    receiver, values = bind_op_texts(spec, source)
    rebuilt = build_call_text(spec, values, receiver, spelling_of(parse_call(source)),
                              call_keywords_texts(spec, source))
    assert rebuilt == (expected or source)


def test_a_form_value_is_its_arguments_text():
    tril = CATALOG.get("torch.tril")
    assert bind_op_texts(tril, "torch.tril(a + b, diagonal=-1)") == ("a + b", {"diagonal": "-1"})
    view = CATALOG.get("Tensor.view")
    assert bind_texts(view, "x.view(3, 4)") == {"size": "(3, 4)"}
    assert bind_texts(view, "x.view([3, 4])") == {"size": "[3, 4]"}
    to = CATALOG.get("Tensor.to")
    assert bind_texts(to, "x.to('cpu', torch.int32)") == {"device": "'cpu'",
                                                           "dtype": "torch.int32"}
    where = CATALOG.get("Tensor.where")
    assert bind_texts(where, "torch.where(c, x, y)") == {
        "condition": "c", "input": "x", "other": "y"}


def test_function_and_method_forms_of_sizes() -> None:
    reshape = CATALOG.get("torch.reshape")
    values = {"input": "x", "shape": "(3, 4)"}
    assert call_text(reshape, values) == "torch.reshape(x, (3, 4))"
    assert call_text(reshape, values, receiver="x") == "x.reshape(3, 4)"
    assert call_text(reshape, values, receiver="x + y") == "(x + y).reshape(3, 4)"
    softmax = CATALOG.get("F.softmax")
    assert call_text(softmax, {"input": "x", "dim": "1"}, namespace="F") == "F.softmax(x, 1)"
    assert call_text(softmax, {"input": "x", "dim": "1"}, namespace="F",
                     keywords={"dim"}) == "F.softmax(x, dim=1)"
    with pytest.raises(ValueError):
        call_text(softmax, {"input": "x", "dim": "1"}, namespace="nn")


@pytest.mark.parametrize("values, code, direct", [
    *CREATION_CALLS,
    ({"size": "(2, 3)", "dtype": "torch.float64"}, "torch.zeros(2, 3, dtype=torch.float64)",
     lambda: torch.zeros(2, 3, dtype=torch.float64)),
    ({"size": "[2]", "dtype": "None"}, "torch.zeros(2)", lambda: torch.zeros(2)),
])
def test_a_call_leaves_defaults_out_and_writes_what_torch_accepts(values, code, direct):
    """arange(end=12, step=2) is no overload of torch's: a later optional writes start."""
    spec = CATALOG.get(code.split("(")[0])
    text = call_text(spec, values, keywords={"dtype"})
    assert text == code
    assert same(_value(text), (torch.manual_seed(0), direct())[1])


def test_every_form_of_an_op_gives_the_same_result() -> None:
    """Each catalogue example, rebuilt from its arguments' texts in each of the op's
    spellings, computes what the example does."""
    checked = 0
    for spec in OPS:
        call = parse_call(spec.example)
        if call is None or CATALOG.get(call_key(call.func)) is not spec:
            continue
        values = bind_texts(spec, spec.example)
        receiver = None
        if spelling_of(call) == "method":
            receiver = ast.get_source_segment(spec.example, call.func.value)
            values[spec.receiver] = receiver
        else:
            receiver = values.get(spec.receiver)
        expected = _value(spec.example)
        forms = [call_text(spec, values, namespace=ns) for ns in
                 ([spec.namespace] if spec.function_key and spec.namespace != "builtins"
                  else []) + list(spec.also_in)]
        if spec.method and receiver is not None:
            forms.append(call_text(spec, values, receiver=receiver))
        for form in forms:
            assert same(_value(form), expected), form
            checked += 1
    assert checked > 50
