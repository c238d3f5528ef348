"""Storage sharing as torch itself reports it."""

from __future__ import annotations

from app.recipe.reader import read_recipe
from kernel.explain.storage import shared_with, storage_map
from tests.python_run import run_python


def test_clone_is_a_copy_and_zeros_like_is_new_memory():
    run = run_python(read_recipe("import torch\na = torch.arange(6)\nb = torch.zeros_like(a)\n"
                               "c = torch.ones(3)\n"))
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


def test_numpy_arrays_share_memory_with_the_tensors_they_bridge():
    """``t.numpy()`` and ``torch.from_numpy`` share memory; ``torch.tensor`` copies.
    Expected offsets and strides are in elements, worked out by hand."""
    import numpy as np
    import torch

    from kernel.explain.storage import as_tensor, covered

    t = torch.arange(6.0)
    arr = np.ones((2, 3))
    ns = {"t": t, "tn": t.numpy()[2:], "arr": arr, "back": torch.from_numpy(arr),
          "col": arr[:, 1], "copy": torch.tensor(arr)}
    entries = {e.name: e for e in storage_map(ns)}
    assert entries["tn"].numpy and entries["tn"].base == "t"
    assert entries["tn"].offset == 2 and entries["tn"].strides == (1,)
    assert entries["back"].base == "arr" and not entries["back"].numpy
    assert entries["col"].base == "arr" and entries["col"].strides == (3,)
    assert entries["col"].offset == 1
    assert entries["copy"].base is None and entries["arr"].base is None
    # the elements of arr that the column arr[:, 1] reads: (0, 1) and (1, 1)
    mask = covered(as_tensor(arr), as_tensor(ns["col"]))
    assert mask.tolist() == [[False, True, False], [False, True, False]]
    assert covered(t, as_tensor(ns["tn"])).tolist() == [False, False, True, True, True, True]
