"""A loop's bounded history (``app.training.history.Series``): past its capacity it keeps
every other point, then every fourth..., so a long loop costs no more memory than a short
one; what it keeps is exactly numpy's slice of the whole."""

from __future__ import annotations

import numpy as np

from app.training.history import Series


def test_a_long_series_keeps_an_even_slice_of_every_point():
    series = Series(capacity=8)
    steps = np.arange(1, 101)
    for start in range(0, 100, 7):  # in batches of uneven size, as the kernel sends them
        chunk = steps[start:start + 7]
        series.extend(chunk, chunk * 0.5)
    assert len(series) <= 8 and series.stride == 16
    np.testing.assert_array_equal(series.steps, steps[::16])
    np.testing.assert_array_equal(series.values, steps[::16] * 0.5)


def test_rows_of_layers_are_kept_whole():
    series = Series(capacity=4, width=3)
    series.extend(np.arange(1, 4), np.arange(9.0).reshape(3, 3))
    np.testing.assert_array_equal(series.values, np.arange(9.0).reshape(3, 3))
    series.extend([4, 5], np.full((2, 3), 7.0))
    assert series.stride == 2
    np.testing.assert_array_equal(series.steps, [1, 3, 5])
    np.testing.assert_array_equal(series.values[-1], [7.0, 7.0, 7.0])
