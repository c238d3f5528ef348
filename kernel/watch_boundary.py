"""A 2-D classifier's decision boundary, while its loop trains (live runs only).

When the loop's model (a module the recipe holds in a variable, called with grad
enabled) takes inputs of two features, the boundary is its prediction over a grid that
spans the inputs seen so far: class probabilities (softmax; sigmoid for one output), at
most every ``BOUNDARY_GAP_S``. The points come from the first batch, their labels from
the loss module's integer target (``nn.CrossEntropyLoss()(out, y)``). The model is put
in ``eval()`` for the grid (no dropout, BatchNorm's running statistics left alone) and
back as it was; the grid's forward pass is not a training step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Points per side of the grid.
GRID = 48
#: Seconds between two boundaries sent, at least (a small MLP's boundary step costs its
#: loop about 2.7 ms, three times the grid pass itself: the caches it leaves cold; once
#: a second, 0.3% of the loop)...
BOUNDARY_GAP_S = 1.0
#: ...and at least this many times what the last one took (a big model's grid pass costs
#: it at most a share of 1/BOUNDARY_COST_GAP of its loop's time).
BOUNDARY_COST_GAP = 800
#: Most points shown.
MAX_POINTS = 400
#: Steps whose forward passes are looked at for a 2-D classifier (none found: no boundary).
LOOK_STEPS = 2


class BoundaryProbe:
    """Watches the forward passes for a 2-D classifier; ``due``/``take`` its boundary."""

    def __init__(self) -> None:
        self.model: Any = None
        self.probing = False  # the grid's own forward pass runs
        self._low: list[float] | None = None
        self._high: list[float] | None = None
        self._inputs: Any = None
        self._labels: Any = None
        self._points_sent = False
        self._steps = 0
        self._last: Any = None  # the model's latest batch
        self._when = -BOUNDARY_GAP_S
        self._took = 0.0  # seconds the last boundary took

    def saw(self, module: Any, inputs: Any, is_top: Callable[[Any], bool]) -> None:
        """A forward pass of ``module`` (``is_top(module)``: a variable of the recipe
        holds it). Cheap: the model's batch is only kept (its range is read when a
        boundary is due), and other modules are looked at only until the labels are
        found."""
        if module is self.model:
            self._last = inputs[0]
            return
        if self._labels is not None and self.model is not None:
            return
        import torch

        first = inputs[0] if isinstance(inputs, tuple) and inputs else None
        if not isinstance(first, torch.Tensor):
            return
        if self.model is None and first.dim() == 2 and first.shape[1] == 2 \
                and first.is_floating_point() and is_top(module):
            self.model, self._last = module, first
            self._inputs = first.detach()[:MAX_POINTS].float().cpu()
            self._widen(first)
        elif type(module).__name__.endswith("Loss") and self._inputs is not None \
                and self._labels is None and len(inputs) > 1:
            target = inputs[1]
            if isinstance(target, torch.Tensor) and not target.is_floating_point() \
                    and target.dim() == 1:
                self._labels = target[:len(self._inputs)].detach().cpu()

    def _widen(self, x: Any) -> None:
        """The grid spans every batch it was shown, this one too."""
        x = x.detach()
        low, high = x.amin(0).tolist(), x.amax(0).tolist()
        self._low = low if self._low is None else [min(a, b) for a, b in
                                                   zip(self._low, low, strict=True)]
        self._high = high if self._high is None else [max(a, b) for a, b in
                                                      zip(self._high, high, strict=True)]

    def wants_batch(self) -> bool:
        """Whether the next step's forward pass must be shown (called once a step): only
        the first ``LOOK_STEPS``, which look for the model and its labels. Later batches
        widen the grid when the layers' sampling shows them anyway: a forward hook costs
        every module call of its step."""
        self._steps += 1
        return self._steps <= LOOK_STEPS and (self.model is None or self._labels is None)

    def due(self) -> bool:
        return self.model is not None and self._low is not None \
            and time.perf_counter() - self._when >= max(BOUNDARY_GAP_S,
                                                        BOUNDARY_COST_GAP * self._took)

    def take(self) -> dict | None:
        """The boundary now: ``extent`` (x0, x1, y0, y1), ``grid`` (rows, cols, outputs:
        a float32 numpy array), and once, ``points`` and ``labels``; None when the model fails."""
        self._when = start = time.perf_counter()
        try:
            return self._take()
        finally:
            self._took = time.perf_counter() - start

    def _take(self) -> dict | None:
        import torch

        model = self.model
        if self._last is not None and self._last.dim() == 2 and self._last.shape[1] == 2:
            self._widen(self._last)
        (x0, y0), (x1, y1) = self._low, self._high
        pad_x, pad_y = 0.1 * (x1 - x0 or 1.0), 0.1 * (y1 - y0 or 1.0)
        x0, x1, y0, y1 = x0 - pad_x, x1 + pad_x, y0 - pad_y, y1 + pad_y
        param = next(model.parameters(), None)
        device = param.device if param is not None else torch.device("cpu")
        dtype = param.dtype if param is not None and param.is_floating_point() \
            else torch.float32
        ys, xs = torch.meshgrid(torch.linspace(y0, y1, GRID), torch.linspace(x0, x1, GRID),
                                indexing="ij")
        grid = torch.stack([xs.reshape(-1), ys.reshape(-1)], 1).to(device=device, dtype=dtype)
        was_training = model.training
        self.probing = True
        try:
            model.eval()
            with torch.no_grad():
                out = model(grid)
        except Exception:  # noqa: BLE001 - a model that cannot take the grid: no boundary
            self.model = None
            return None
        finally:
            model.train(was_training)
            self.probing = False
        if not isinstance(out, torch.Tensor) or out.dim() != 2 or out.shape[0] != len(grid):
            self.model = None
            return None
        out = out.float()
        p = out.softmax(1) if out.shape[1] > 1 else out.sigmoid()
        sent = {"extent": [x0, x1, y0, y1],
                "grid": p.reshape(GRID, GRID, -1).cpu().numpy()}  # a raw frame, sent
        if not self._points_sent and self._inputs is not None:
            self._points_sent = True
            sent["points"] = self._inputs.tolist()
            sent["labels"] = self._labels.tolist() if self._labels is not None \
                else [0] * len(self._inputs)
        return sent
