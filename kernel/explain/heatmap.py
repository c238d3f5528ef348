"""A big plane's heatmap, worked out in the kernel: block means and exact colour levels.

Runs in the kernel process (the ``heatmap`` query of ``kernel.explain.kernel_queries``),
where the tensor is: the window gets an image of about its own resolution and the
levels of the whole plane, and never pools, nor imports torch.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import torch


def image_of(plane: torch.Tensor) -> torch.Tensor:
    """``plane`` as a float image, as the window's heatmap draws values: bool as 0 and 1,
    complex by magnitude, integers and half precision floats widened (float64 for 8-byte
    integers, else float32)."""
    import torch

    p = plane.detach()
    if p.is_complex():
        p = p.abs()
    if p.dtype in (torch.float32, torch.float64):
        return p
    if p.dtype == torch.bool or p.element_size() <= 4 or p.is_floating_point():
        return p.to(torch.float32)
    return p.to(torch.float64)


def levels_of(image: torch.Tensor) -> tuple[float, float]:
    """The colour levels of ``image``: its finite minimum and maximum, widened around a
    constant plane so that it still gets a colour, ``(0, 1)`` when nothing is finite."""
    import torch

    if image.numel() == 0:
        return 0.0, 1.0
    lo, hi = (float(v) for v in torch.aminmax(image))  # NaN if any is: then look closer
    if not (math.isfinite(lo) and math.isfinite(hi)):
        finite = image[torch.isfinite(image)]
        if finite.numel() == 0:
            return 0.0, 1.0
        lo, hi = (float(v) for v in torch.aminmax(finite))
    if lo == hi:
        pad = abs(lo) * 0.5 or 0.5
        lo, hi = lo - pad, hi + pad
    return lo, hi


def pooled(plane: torch.Tensor, block: tuple[int, int]) -> tuple[np.ndarray, tuple[float, float]]:
    """The heatmap of ``plane`` (2-D) at one pixel per ``block`` of cells, and its levels.

    Each pixel is the mean of its block (``avg_pool2d`` with ``ceil_mode``: a block cut
    short by the bottom or right edge is the mean of the cells it has), NaN where the
    block holds a NaN or an infinity; the levels span every finite cell of the plane.
    """
    import torch

    image = image_of(plane)
    levels = levels_of(image)
    if tuple(block) != (1, 1) and image.numel():
        try:
            means = torch.nn.functional.avg_pool2d(image[None, None], tuple(block),
                                                   ceil_mode=True)[0, 0]
        except (RuntimeError, NotImplementedError):  # a device without the op: on the CPU
            means = torch.nn.functional.avg_pool2d(image.cpu()[None, None], tuple(block),
                                                   ceil_mode=True)[0, 0]
        image = means
    out = image.cpu().numpy().copy()
    out[~np.isfinite(out)] = np.nan
    return out, levels
