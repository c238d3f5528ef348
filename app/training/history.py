"""A run's metrics over time, as numpy arrays whose size stays bounded.

Each ``Series`` keeps at most ``capacity`` points. When it fills up it keeps every other
point and from then on takes every other arriving point, so a run of 10^6 steps costs
no more memory than one of 10^5, and plots get arrays they can hand to ``setData``.
"""

from __future__ import annotations

import numpy as np

from protocol.limits import LAYER_PERCENTILES

#: Points a loss or learning-rate history keeps: about 30 per pixel of a wide plot, so
#: a run of 10^6 steps draws nearly as fast as one of 10^4 (issue 8's plot figure).
HISTORY_POINTS = 1 << 15


class Series:
    """Steps and their values (one value, or one row of ``width`` values, per step).

    Parameters
    ----------
    capacity : int
        Most points kept; an even number.
    width : int, tuple or None
        Values per step (for per-layer metrics), or their shape (a layer's percentiles:
        layers by percentiles); None for one value per step.
    """

    def __init__(self, capacity: int = HISTORY_POINTS,
                 width: int | tuple[int, ...] | None = None):
        self.capacity = capacity + capacity % 2
        self.stride = 1  # every stride-th arriving point is kept
        self._shape = () if width is None else tuple(np.atleast_1d(width))
        self._steps = np.empty(self.capacity, dtype=np.int64)
        self._values = np.empty((self.capacity, *self._shape), dtype=np.float64)
        self._n = 0
        self._seen = 0

    def __len__(self) -> int:
        return self._n

    @property
    def steps(self) -> np.ndarray:
        """The kept steps, oldest first (a read-only view)."""
        view = self._steps[: self._n]
        view.flags.writeable = False
        return view

    @property
    def values(self) -> np.ndarray:
        """The kept values, shape (len,) or (len, width) (a read-only view)."""
        view = self._values[: self._n]
        view.flags.writeable = False
        return view

    def last(self) -> float | np.ndarray | None:
        return self._values[self._n - 1] if self._n else None

    def extend(self, steps: np.ndarray, values: np.ndarray) -> None:
        """Append points (steps ascending)."""
        steps = np.asarray(steps, dtype=np.int64)
        values = np.asarray(values, dtype=np.float64).reshape(len(steps), *self._shape)
        first, index = self._seen, np.arange(len(steps))
        self._seen += len(steps)
        while True:
            kept = index[(first + index) % self.stride == 0]
            take = min(len(kept), self.capacity - self._n)
            self._steps[self._n: self._n + take] = steps[kept[:take]]
            self._values[self._n: self._n + take] = values[kept[:take]]
            self._n += take
            if take == len(kept):
                return
            index = index[index >= kept[take]]
            self._halve()

    def _halve(self) -> None:
        # New arrays: a plot may still hold a view of the old ones.
        n = (self._n + 1) // 2
        steps = np.empty_like(self._steps)
        values = np.empty_like(self._values)
        steps[:n], values[:n] = self._steps[: self._n: 2], self._values[: self._n: 2]
        self._steps, self._values, self._n = steps, values, n
        self.stride *= 2



class History:
    """Everything a training loop has reported so far (``app.training.live.Loop``).

    Attributes
    ----------
    loss, lr : Series
        Training loss and learning rate per step.
    val_loss : Series
        Validation loss at the logged steps.
    output_std, grad_norm : Series
        Per layer (``width`` = layers), at the sampled steps.
    weight_q, grad_q : Series
        Per layer, the ``LAYER_PERCENTILES`` of its weights and of their gradients at
        the sampled steps (values shaped steps by layers by percentiles; NaN for none).
    weights, grads : ndarray or None
        The latest sample of the histogram layer's weights and gradients, taken at
        ``sample_step`` from the layer ``sample_layer`` (its path, or None).
    boundary : ndarray or None
        The latest decision-boundary grid.
    """

    def __init__(self, layers: int, capacity: int = HISTORY_POINTS):
        self.loss = Series(capacity)
        self.lr = Series(capacity)
        self.val_loss = Series(capacity)
        self.output_std = Series(max(2, capacity // 32), layers)
        self.grad_norm = Series(max(2, capacity // 32), layers)
        bands = (layers, len(LAYER_PERCENTILES))
        self.weight_q = Series(max(2, capacity // 32), bands)
        self.grad_q = Series(max(2, capacity // 32), bands)
        self.weights: np.ndarray | None = None
        self.grads: np.ndarray | None = None
        self.sample_step = 0  # the step the weights and grads were sampled at
        self.sample_layer: str | None = None  # and the layer they were sampled from
        self.boundary: np.ndarray | None = None
        self.step = 0
