"""Numbers as the training plots show them: smoothed, in log10, and the decision boundary.

Plain numpy in, numpy out: no plot items here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtGui import QColor


def smooth(values: np.ndarray, window: int) -> np.ndarray:
    """Trailing moving average over ``window`` points (NaN and inf are left out)."""
    if window <= 1 or len(values) == 0:
        return values
    finite = np.isfinite(values)
    clean = np.where(finite, values, 0.0)
    sums = np.cumsum(np.concatenate(([0.0], clean)))
    counts = np.cumsum(np.concatenate(([0], finite.astype(np.int64))))
    hi = np.arange(1, len(values) + 1)
    lo = np.maximum(hi - window, 0)
    n = counts[hi] - counts[lo]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, (sums[hi] - sums[lo]) / np.maximum(n, 1), np.nan)


def log10(values: np.ndarray) -> np.ndarray:
    """log10 with zeros, negatives and infinities as NaN (a gap, not a warning)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log10(values)
    out[~np.isfinite(out)] = np.nan
    return out


def upsample(image: np.ndarray, factor: int = 4) -> np.ndarray:
    """``image`` (rows, cols, channels) enlarged ``factor`` times by bilinear interpolation."""
    out = image.astype(np.float32)
    for axis in (0, 1):
        n = out.shape[axis]
        at = np.linspace(0, n - 1, n * factor)
        lo = np.floor(at).astype(np.int64)
        hi = np.minimum(lo + 1, n - 1)
        w = (at - lo).reshape((-1, 1, 1) if axis == 0 else (1, -1, 1))
        out = np.take(out, lo, axis) * (1 - w) + np.take(out, hi, axis) * w
    return out.round().astype(np.uint8)


def boundary_rgba(boundary: np.ndarray, colours: Sequence[QColor]) -> np.ndarray:
    """The decision boundary as an RGBA image, as in TensorFlow Playground.

    ``boundary`` has shape (rows, cols, outputs): class probabilities, sigmoid outputs or raw
    outputs. Each pixel takes the classes' colours weighted by probability, more opaque the
    more confident the model is.
    """
    p = np.nan_to_num(np.asarray(boundary, dtype=np.float64), nan=0.0, posinf=1.0, neginf=0.0)
    if p.shape[-1] == 1:
        q = np.clip(p[..., 0], 0.0, 1.0)
        p = np.stack([1.0 - q, q], axis=-1)
    else:
        p = np.clip(p, 0.0, None)
        total = p.sum(-1, keepdims=True)
        p = np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / p.shape[-1])
    k = p.shape[-1]
    rgb = np.array([[c.red(), c.green(), c.blue()] for c in
                    (colours[i % len(colours)] for i in range(k))], dtype=np.float64)
    mix = p @ rgb
    confidence = (p.max(-1) - 1.0 / k) / (1.0 - 1.0 / k)
    alpha = 30.0 + 170.0 * np.clip(confidence, 0.0, 1.0)
    return np.concatenate([mix, alpha[..., None]], axis=-1).astype(np.uint8)
