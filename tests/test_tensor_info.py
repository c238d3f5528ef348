"""Core tests of the viewer's facts, statistics and planes; no QApplication."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from kernel.tensor_info import MISSING, plane, plane_array, tensor_facts, tensor_stats

ROOT = Path(__file__).resolve().parent.parent


def _stats(t: torch.Tensor) -> dict[str, str]:
    return dict(tensor_stats(t))


def _close(text: str, expected: float) -> bool:
    return math.isclose(float(text), expected, rel_tol=1e-5, abs_tol=1e-6)


def test_facts_match_torch():
    t = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
    facts = dict(tensor_facts(t))
    assert list(facts) == ["shape", "dtype", "device", "numel", "bytes", "strides",
                           "storage offset", "is_contiguous", "requires_grad", "is_leaf",
                           "grad_fn"]
    assert facts["shape"] == str(tuple(t.shape))
    assert facts["dtype"] == "torch.float32"
    assert facts["device"] == "cpu"
    assert facts["numel"] == "24"
    assert facts["bytes"].startswith(f"{t.numel() * t.element_size()} B")
    assert facts["strides"] == str(t.stride())
    assert facts["storage offset"] == "0"
    assert facts["is_contiguous"] == "True"
    assert facts["grad_fn"] == "None"


def test_facts_of_views_and_autograd():
    base = torch.randn(4, 5)
    transposed = dict(tensor_facts(base.T))
    assert transposed["is_contiguous"] == "False"
    assert transposed["strides"] == str(base.T.stride()) == "(1, 5)"
    assert dict(tensor_facts(base[1:, 2:]))["storage offset"] == str(base[1:, 2:].storage_offset())
    assert dict(tensor_facts(torch.tensor(2.0)))["shape"] == "()"
    assert dict(tensor_facts(torch.zeros(3)))["shape"] == "(3,)"

    leaf = torch.ones(3, requires_grad=True)
    made = leaf * 2
    facts = dict(tensor_facts(made))
    assert (facts["requires_grad"], facts["is_leaf"]) == ("True", "False")
    assert facts["grad_fn"] == type(made.grad_fn).__name__ == "MulBackward0"
    assert dict(tensor_facts(leaf))["is_leaf"] == "True"


def test_stats_match_torch_on_finite_values():
    torch.manual_seed(0)
    t = torch.randn(64, 32, dtype=torch.float64)
    t[3, 4], t[5, 6], t[7, 8] = float("nan"), float("inf"), -float("inf")
    stats = _stats(t)
    finite = t[torch.isfinite(t)]
    assert _close(stats["min"], finite.amin().item())
    assert _close(stats["max"], finite.amax().item())
    assert _close(stats["mean"], finite.mean().item())
    assert _close(stats["std"], finite.std().item())
    assert (stats["NaN"], stats["inf"]) == ("1", "2")
    # torch's own NaN-aware mean agrees once the infinities are gone
    assert _close(stats["mean"], torch.nanmean(torch.where(t.isinf(), float("nan"), t)).item())


@pytest.mark.parametrize("shape, offset", [((1000, 1000), 0.0), ((7,), 1e4), ((3, 5), -2.5),
                                           ((2049, 2049), 0.5)])
def test_std_is_float64s_to_the_digits_shown(shape, offset):
    """Two passes below ``TWO_PASS_CELLS`` elements, ``std()`` above (the last shape):
    either way the std shown is float64's own to its six significant digits (a large
    mean, 1e4, is where one pass of summed squares would lose them)."""
    from kernel.tensor_info import TWO_PASS_CELLS

    torch.manual_seed(1)
    t = torch.rand(shape) * 3 + offset
    stats = _stats(t)
    assert math.isclose(float(stats["std"]), t.double().std().item(), rel_tol=2e-6)
    assert (t.numel() > TWO_PASS_CELLS) == (shape == (2049, 2049))


def test_stats_of_ints_bools_and_edge_cases():
    ints = _stats(torch.arange(12))
    assert (ints["min"], ints["max"]) == ("0", "11")  # exact, not 0.0
    assert _close(ints["mean"], 5.5)
    assert _close(ints["std"], torch.arange(12, dtype=torch.float64).std().item())
    assert (ints["NaN"], ints["inf"]) == ("0", "0")

    bools = _stats(torch.tensor([True, False, True, True]))
    assert (bools["min"], bools["max"]) == ("0", "1")
    assert _close(bools["mean"], 0.75)

    empty = _stats(torch.zeros(0, 3))
    assert [empty[k] for k in ("min", "max", "mean", "std")] == [MISSING] * 4
    assert _stats(torch.tensor(3.5))["std"] == MISSING  # one value has no sample std
    all_nan = _stats(torch.full((4,), float("nan")))
    assert (all_nan["mean"], all_nan["NaN"]) == (MISSING, "4")
    half = _stats(torch.tensor([1.0, 2.0, float("nan")], dtype=torch.bfloat16))
    assert (half["min"], half["max"], half["NaN"]) == ("1", "2", "1")


def test_stats_are_vectorised_on_a_large_tensor():
    t = torch.randn(4096, 4096)
    t[0, 0] = float("nan")
    stats = _stats(t)
    assert stats["NaN"] == "1"
    assert _close(stats["max"], torch.nan_to_num(t, nan=-math.inf).amax().item())


def test_plane_against_manual_indexing():
    t = torch.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    assert torch.equal(plane(t, 2, 3, {0: 1, 1: 2}), t[1, 2, :, :])
    assert torch.equal(plane(t, 0, 3, {1: 2, 2: 3}), t[:, 2, 3, :])
    assert torch.equal(plane(t, 3, 1, {0: 1, 2: 0}), t[1, :, 0, :].T)  # rows after cols
    assert torch.equal(plane(t, -1, -2, {0: 1, 1: 1}), t[1, 1].T)
    assert torch.equal(plane(t, 1, 2, {}), t[0, :, :, 0])  # unnamed dims sit at 0
    assert plane(torch.tensor(7), 0, 1).shape == (1, 1)
    assert torch.equal(plane(torch.arange(5), 0, 1), torch.arange(5)[None, :])
    with pytest.raises(ValueError):
        plane(t, 1, 1)
    with pytest.raises(IndexError):
        plane(t, 0, 4)


def test_plane_is_a_detached_view():
    t = torch.randn(3, 4, requires_grad=True)
    p = plane(t, 0, 1)
    assert not p.requires_grad
    assert p.data_ptr() == t.data_ptr()
    arr = plane_array(p)
    assert np.shares_memory(arr, t.detach().numpy())
    assert plane_array(torch.ones(2, 2, dtype=torch.bfloat16)).dtype == np.float32


def test_tensor_info_is_qt_free():
    code = ("import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None; "
            "import kernel.tensor_info")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
