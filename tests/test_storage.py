"""Storage sharing as torch itself reports it."""

from __future__ import annotations

import io

from app.explain.storage import shared_with, storage_map
from app.recipe.evaluator import evaluate
from app.recipe.reader import read_recipe


def test_clone_is_a_copy_and_zeros_like_is_new_memory():
    run = evaluate(read_recipe("import torch\na = torch.arange(6)\nb = torch.zeros_like(a)\n"
                               "c = torch.ones(3)\n"), stdout=io.StringIO())
    entries = storage_map(run.namespace)
    assert [e.base for e in entries] == [None, None, None]
    assert entries[0].strides == (1,) and entries[0].offset == 0
    assert shared_with(run.namespace, "a") == []


def test_views_share_storage_with_their_base():
    import torch

    a = torch.arange(12)
    ns = {"a": a, "v": a.view(3, 4), "t": a.view(3, 4).t(), "s": a[2:], "c": a.clone()}
    entries = {e.name: e for e in storage_map(ns)}
    assert entries["v"].base == "a" and entries["t"].base == "a" and entries["s"].base == "a"
    assert entries["c"].base is None
    assert entries["t"].strides == (1, 4)
    assert entries["s"].offset == 2
    assert entries["s"].data_ptr == a.data_ptr() + 2 * a.element_size()
    assert sorted(shared_with(ns, "a")) == ["s", "t", "v"]
