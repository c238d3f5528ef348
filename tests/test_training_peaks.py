"""A long history drawn as its peaks (``app.training.peaks``): checked against numpy's
max and min of each bucket, as the series grows, halves and holds NaN."""

from __future__ import annotations

import numpy as np
import pytest

from app.training.history import Series
from app.training.peaks import peaks


def _expected(steps: np.ndarray, values: np.ndarray, limit: int):
    """Buckets of the smallest power-of-two size that gives at most ``limit`` points
    (all of them while they are at most ``limit``)."""
    if len(steps) <= limit:
        return steps, values
    size = 1
    while 2 * -(-len(steps) // size) > limit:
        size *= 2
    xs, ys = [], []
    for start in range(0, len(steps), size):
        bucket = values[start:start + size]
        xs += [steps[start]] * 2
        ys += [np.nanmax(bucket), np.nanmin(bucket)] if not np.isnan(bucket).all() \
            else [np.nan, np.nan]
    return np.array(xs), np.array(ys)


def test_a_short_series_is_drawn_whole():
    series = Series(64)
    series.extend(np.arange(10), np.linspace(0, 1, 10))
    steps, values = peaks(series, limit=16)
    assert steps.tolist() == list(range(10))
    assert values.tolist() == np.linspace(0, 1, 10).tolist()


@pytest.mark.parametrize("batch", [7, 100, 1000])
def test_a_growing_series_gives_each_buckets_max_and_min(batch):
    rng = np.random.default_rng(3)
    series = Series(2048)
    seen = 0
    for _ in range(60):  # past its capacity: it halves on the way
        steps = np.arange(seen, seen + batch)
        series.extend(steps, rng.normal(size=batch))
        seen += batch
        got_steps, got_values = peaks(series, limit=128)
        want_steps, want_values = _expected(series.steps, series.values, 128)
        assert len(got_steps) <= 128
        np.testing.assert_array_equal(got_steps, want_steps)
        np.testing.assert_array_equal(got_values, want_values)


def test_nan_is_left_out_of_a_bucket_unless_it_is_all_nan():
    series = Series(1024)
    values = np.arange(40, dtype=np.float64)
    values[[3, 9, 10, 11, 12, 13, 14, 15, 33]] = np.nan  # bucket 8..15 (size 8) all NaN
    values[8] = np.nan
    series.extend(np.arange(40), values)
    steps, drawn = peaks(series, limit=10)  # buckets of 8: 5 of them, 10 points
    assert steps.tolist() == [0, 0, 8, 8, 16, 16, 24, 24, 32, 32]
    assert drawn[:2].tolist() == [7.0, 0.0]
    assert np.isnan(drawn[2:4]).all()
    assert drawn[4:].tolist() == [23.0, 16.0, 31.0, 24.0, 39.0, 32.0]
