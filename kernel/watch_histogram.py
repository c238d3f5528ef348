"""A layer's weights and gradients, sampled now and then while its loop trains (live runs).

The window shows one layer's values as histograms, now and over time (TensorBoard's
"distributions"). Every ``HISTOGRAM_GAP_S`` the watch takes, right after a
``backward()`` (the gradients fresh), at most ``HISTOGRAM_VALUES`` of that layer's
weights and of their gradients: the same evenly spaced elements each time, so that
successive samples compare. The layer is the one the window chose
(``Controls.histogram``), else the first leaf module with a weight.
"""

from __future__ import annotations

import time
from typing import Any

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Values of the weights (and as many of the gradients) a sample holds at most.
HISTOGRAM_VALUES = 4096
#: Seconds between two samples (each costs a small MLP's loop about 0.75 ms, its step
#: and the cold caches after it).
HISTOGRAM_GAP_S = 1.0


class HistogramSampler:
    """Samples one layer's ``weight`` and its gradient, at most every ``HISTOGRAM_GAP_S``."""

    def __init__(self) -> None:
        self._when = -HISTOGRAM_GAP_S

    def due(self) -> bool:
        return time.perf_counter() >= self.next_at

    @property
    def next_at(self) -> float:
        """When the next sample is due (``time.perf_counter``)."""
        return self._when + HISTOGRAM_GAP_S

    def take(self, modules: dict[str, Any], chosen: str | None, step: int) -> dict | None:
        """The sample of ``chosen`` (a path in ``modules``, else the first module with a
        weight); None when there is none."""
        self._when = time.perf_counter()
        path = chosen if chosen in modules else next(
            (p for p, m in modules.items() if _weight(m) is not None), None)
        weight = _weight(modules[path]) if path is not None else None
        if weight is None:
            return None
        flat = weight.detach().reshape(-1)
        stride = max(1, -(-flat.numel() // HISTOGRAM_VALUES))
        grad = weight.grad.detach().reshape(-1)[::stride] if weight.grad is not None else None
        return {"layer": path, "step": step,  # numpy arrays: raw frames, sent
                "weights": flat[::stride].float().cpu().numpy(),
                "grads": grad.float().cpu().numpy() if grad is not None else []}


def _weight(module: Any) -> Any:
    weight = getattr(module, "weight", None)
    import torch

    return weight if isinstance(weight, torch.Tensor) and weight.is_floating_point() \
        else None
