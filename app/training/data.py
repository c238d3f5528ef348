"""The data of a training setup, made exactly as a run makes it (``program.make_data``)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from app.training import program
from app.training.settings import TrainingSettings


@dataclass(frozen=True)
class Dataset:
    """Training and validation tensors on the CPU, in float32 (targets as the loss wants)."""

    x: torch.Tensor
    y: torch.Tensor
    x_val: torch.Tensor
    y_val: torch.Tensor

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) of 2-D features, with a 10% margin, for plots."""
        both = torch.cat([self.x, self.x_val])
        lo, hi = both.min(0).values, both.max(0).values
        pad = 0.1 * (hi - lo).clamp_min(1e-6)
        lo, hi = (lo - pad).tolist(), (hi + pad).tolist()
        return lo[0], hi[0], lo[1] if len(lo) > 1 else 0.0, hi[1] if len(hi) > 1 else 0.0


def make_dataset(settings: TrainingSettings) -> Dataset:
    """The same samples a run with these settings trains on (seeded the same way).

    Reads the file for ``csv`` data, so it can raise ``OSError`` or ``ValueError``.
    """
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(settings.seed)
        return Dataset(*program.make_data(settings.to_literal()))
    finally:
        torch.random.set_rng_state(state)  # previewing data leaves the caller's RNG alone
