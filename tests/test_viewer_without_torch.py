"""The tensor viewer shows what it shows without torch in the window (issue #33).

Its heatmap pools a big plane with numpy, as torch's ``avg_pool2d`` would. The checks
compare with torch, which only the tests import.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
import torch

from widgets.viewer.heatmap_view import block_means, display_image

NAN, INF = float("nan"), float("inf")


def _torch_pooled(image: np.ndarray, block: tuple[int, int]) -> np.ndarray:
    t = torch.from_numpy(np.ascontiguousarray(image))[None, None]
    return torch.nn.functional.avg_pool2d(t, block, ceil_mode=True)[0, 0].numpy()


def _assert_pooled_as_torch(image: np.ndarray, block: tuple[int, int]) -> None:
    want, got = _torch_pooled(image, block), block_means(image, block)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)  # bit for bit, NaN where torch has NaN


def test_block_means_are_avg_pool2d_with_ceil_mode_on_random_planes():
    rng = np.random.default_rng(0)
    for trial in range(120):
        rows, cols = (int(n) for n in rng.integers(1, 200, 2))
        block = (int(rng.integers(1, rows + 1)), int(rng.integers(1, cols + 1)))
        image = rng.standard_normal((rows, cols)) * 10.0 ** int(rng.integers(-3, 6))
        image = image.astype(np.float32 if trial % 2 else np.float64)
        if trial % 3 == 0:
            holes = rng.random((rows, cols)) < 0.02
            image[holes] = rng.choice([NAN, INF, -INF], int(holes.sum()))
        _assert_pooled_as_torch(image, block)


@pytest.mark.parametrize("shape, block", [
    ((7, 5), (3, 2)),      # partial blocks at the bottom and the right
    ((1, 9), (1, 4)),      # one row (a 1-D tensor's plane)
    ((9, 1), (4, 1)),      # one column
    ((6, 6), (6, 6)),      # one block: the whole plane
    ((5, 5), (4, 4)),      # a last block of one row and one column
])
def test_block_means_at_the_edges_are_avg_pool2d_with_ceil_mode(shape, block):
    for dtype in (np.float32, np.float64):
        image = np.arange(np.prod(shape), dtype=dtype).reshape(shape) - 3.5
        _assert_pooled_as_torch(image, block)
        for holes in ([NAN], [INF], [-INF], [INF, -INF], [-0.0]):
            marked = image.copy()
            marked.flat[-len(holes):] = holes  # in the last, partial, block
            _assert_pooled_as_torch(marked, block)
        _assert_pooled_as_torch(np.full(shape, NAN, dtype), block)


def test_display_image_pools_a_big_plane_without_torch(monkeypatch):
    plane_values = np.arange(3000 * 2100, dtype=np.float32).reshape(3000, 2100)
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails from here on
    image, levels = display_image(plane_values, 1024)
    monkeypatch.undo()
    assert image.shape == (1000, 700) and levels == (0.0, 3000 * 2100 - 1.0)
    np.testing.assert_array_equal(image, _torch_pooled(plane_values, (3, 3)))
