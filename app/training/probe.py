"""Per-layer statistics taken during training, left on the device until a chunk ends.

Nothing here calls ``.item()``, ``.cpu()`` or ``.tolist()``: every value stays a tensor
where the model lives, and ``loop.TrainingLoop`` moves a whole chunk's worth at once.
"""

from __future__ import annotations

import functools
import time

import torch
import torch.nn as nn

from app.training.model import Layer, layers


class LayerProbe:
    """Output std and gradient norm of each layer of a model built by ``program``.

    The forward hooks are attached only around sampled steps, so the steps in between
    run at full speed; they record training-mode forwards only (not validation).

    Parameters
    ----------
    model : nn.Sequential
        The MLP being trained.
    """

    def __init__(self, model: nn.Sequential):
        self.layers: list[Layer] = layers(model)
        self._std: list[torch.Tensor | None] = [None] * len(self.layers)
        self._handles: list[torch.utils.hooks.RemovableHandle] = []
        self.cost = 0.0
        """Host seconds the last sample took (hooks, stds and norms)."""
        self._grads = [p for layer in self.layers for p in (layer.linear.weight,
                                                             layer.linear.bias)]

    @property
    def names(self) -> list[str]:
        return [layer.name for layer in self.layers]

    def attach(self) -> None:
        """Record each layer's output std during the next forward passes."""
        self.cost = 0.0
        start = time.perf_counter()
        if not self._handles:
            self._handles = [layer.output.register_forward_hook(functools.partial(self._hook, i))
                             for i, layer in enumerate(self.layers)]
        self.cost += time.perf_counter() - start

    def detach(self) -> None:
        start = time.perf_counter()
        for handle in self._handles:
            handle.remove()
        self._handles = []
        self.cost += time.perf_counter() - start

    def _hook(self, index: int, module: nn.Module, inputs: object, output: torch.Tensor) -> None:
        if module.training:
            start = time.perf_counter()
            self._std[index] = output.detach().std()
            self.cost += time.perf_counter() - start

    def output_std(self) -> torch.Tensor:
        """The std of each layer's output in the last recorded forward, shape (layers,)."""
        start = time.perf_counter()
        missing = [s for s in self._std if s is None]
        if missing:  # a layer that never ran (an exception mid-forward)
            nan = torch.tensor(float("nan"), device=self._grads[0].device)
            self._std = [nan if s is None else s for s in self._std]
        out = torch.stack(self._std)  # type: ignore[arg-type]
        self.cost += time.perf_counter() - start
        return out

    def grad_norm(self) -> torch.Tensor:
        """The L2 norm of each layer's weight and bias gradients together, shape (layers,)."""
        start = time.perf_counter()
        norms = torch.stack([torch.linalg.vector_norm(p.grad) if p.grad is not None
                             else torch.zeros((), device=p.device, dtype=p.dtype)
                             for p in self._grads])
        out = norms.view(-1, 2).square().sum(1).sqrt()
        self.cost += time.perf_counter() - start
        return out


def sample(t: torch.Tensor, n: int = 4096) -> torch.Tensor:
    """At most ``n`` evenly strided values of ``t``, flattened (for histograms)."""
    flat = t.detach().flatten()
    return flat[:: max(1, flat.numel() // n)][:n]


class BoundaryGrid:
    """The model's prediction over a square grid of 2-D points: the decision boundary.

    Parameters
    ----------
    extent : tuple of float
        (xmin, xmax, ymin, ymax) of the grid.
    size : int
        Points per side.
    loss : str
        How outputs become what is shown: class probabilities (``cross_entropy``),
        sigmoid (``bce_with_logits``), or the raw outputs (``mse``).
    """

    def __init__(self, extent: tuple[float, float, float, float], size: int, loss: str,
                 device: torch.device, dtype: torch.dtype):
        x0, x1, y0, y1 = extent
        xs = torch.linspace(x0, x1, size, dtype=dtype)
        ys = torch.linspace(y0, y1, size, dtype=dtype)
        grid = torch.stack(torch.meshgrid(xs, ys, indexing="xy"), dim=-1)
        self.points = grid.reshape(-1, 2).to(device)
        self.extent, self.size, self.loss = extent, size, loss

    def predict(self, model: nn.Module) -> torch.Tensor:
        """Shape (size, size, outputs); row i is y = ys[i]."""
        model.eval()
        with torch.no_grad():
            out = model(self.points)
        model.train()
        if self.loss == "cross_entropy":
            out = out.softmax(dim=1)
        elif self.loss == "bce_with_logits":
            out = out.sigmoid()
        return out.reshape(self.size, self.size, -1)
