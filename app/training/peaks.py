"""A long series drawn as its peaks: what a plot needs of it, worked out as it grows.

A plot a few hundred pixels wide shows a 10^6-step loss history (``History`` keeps about
32,000 of its points) as one vertical stroke per pixel, from the lowest to the highest
value under it. ``peaks`` gives those strokes directly: the points in buckets of a
power-of-two size, each bucket as two points (its highest value, then its lowest) at
its first step, at most ``limit`` points in all. Finished buckets are kept between
calls, so a frame works only on the points that arrived since the last one (the plot's
own downsampling of the whole series, every frame, cost more than drawing it).
"""

from __future__ import annotations

import numpy as np

#: Points a plot is given at most (two per bucket): a few per pixel of a wide plot.
PLOT_POINTS = 2048


class _Peaks:
    """The finished buckets of one ``Series`` (its arrays, its bucket size)."""

    def __init__(self, arrays: tuple, size: int) -> None:
        self.arrays = arrays  # the series' arrays these were worked out from
        self.size = size
        self.done = 0  # buckets finished
        self.steps = np.empty(0, dtype=np.int64)
        self.high = np.empty(0, dtype=np.float64)
        self.low = np.empty(0, dtype=np.float64)


def peaks(series, limit: int = PLOT_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """``series``'s steps and values as a plot draws them: all of them while there are at
    most ``limit``, else two points per bucket (its max, then its min, at its first
    step). NaN in a bucket is left out of it (a bucket of NaN only stays NaN)."""
    steps, values = series.steps, series.values
    n = len(steps)
    if n <= limit or values.ndim != 1:
        return steps, values
    size = 1 << int(np.ceil(np.log2(2 * n / limit)))
    cache = getattr(series, "_peaks", None)
    arrays = (series._steps, series._values)  # new ones when the series halves
    if cache is None or cache.size != size or cache.arrays[0] is not arrays[0]:
        cache = series._peaks = _Peaks(arrays, size)
    full = n // size
    if full > cache.done:  # the buckets finished since the last call
        new = slice(cache.done * size, full * size)
        high, low = _extremes(values[new].reshape(-1, size))
        cache.steps = np.concatenate([cache.steps, steps[new][::size]])
        cache.high = np.concatenate([cache.high, high])
        cache.low = np.concatenate([cache.low, low])
        cache.done = full
    out_steps, high, low = cache.steps, cache.high, cache.low
    if n > full * size:  # the bucket still filling
        tail = values[full * size:].reshape(1, -1)
        tail_high, tail_low = _extremes(tail)
        out_steps = np.append(out_steps, steps[full * size])
        high, low = np.append(high, tail_high), np.append(low, tail_low)
    return np.repeat(out_steps, 2), np.column_stack([high, low]).reshape(-1)


def _extremes(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's max and min, NaN left out (an all-NaN row: NaN)."""
    with np.errstate(invalid="ignore"):
        if np.isnan(rows).any():
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows
                return np.nanmax(rows, axis=1), np.nanmin(rows, axis=1)
        return rows.max(axis=1), rows.min(axis=1)
