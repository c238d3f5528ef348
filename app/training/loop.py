"""The engine's training loop: ``program.train_steps`` plus metrics, in chunks.

The loop runs steps until a chunk's time is up, keeping every metric as a tensor on the
device, then moves the whole chunk to the host in one transfer: one ``.cpu()`` per
chunk, never an ``.item()`` per value per step. It runs anywhere (a test, the CLI, the
worker process); ``worker.TrainingRun`` drives it off the GUI thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import torch

from app.training import program
from app.training.model import summary
from app.training.probe import BoundaryGrid, LayerProbe, sample
from app.training.settings import CLASSIFICATION_DATA, TrainingSettings

#: Points per side of the decision-boundary grid.
BOUNDARY_SIZE = 40
#: Extras (layer statistics, the boundary) take at most this share of the time...
EXTRAS_SHARE = 0.01
#: ... and layer statistics are sampled at most this often per second.
STATS_RATE = 20.0


@dataclass(frozen=True)
class MetricsChunk:
    """Metrics of consecutive steps, as numpy arrays on the host.

    Parameters
    ----------
    steps, loss, lr : ndarray
        Every step of the chunk (1-based), its training loss and its learning rate.
    val_steps, val_loss : ndarray
        The logged steps of the chunk (multiples of ``log_every``) and validation loss.
    stat_steps : ndarray
        The steps whose layer statistics were sampled (step 1 among them).
    output_std, grad_norm : ndarray
        Shape (len(stat_steps), layers): each layer's output std and gradient norm.
    elapsed : float
        Seconds the chunk took, transfer included.
    started : float
        When it began, by ``time.perf_counter()`` in the process that trained it: the
        time from one chunk's start to the next one's includes what happens in between.
    diverged_at : int or None
        The first step whose loss was NaN or infinite.
    weights, grads : ndarray or None
        A sample of the histogram layer's weights and gradients at the chunk's end.
    boundary : ndarray or None
        Predictions over the boundary grid, shape (size, size, outputs), when due.
    """

    steps: np.ndarray
    loss: np.ndarray
    lr: np.ndarray
    val_steps: np.ndarray
    val_loss: np.ndarray
    stat_steps: np.ndarray
    output_std: np.ndarray
    grad_norm: np.ndarray
    elapsed: float
    started: float = 0.0
    diverged_at: int | None = None
    weights: np.ndarray | None = None
    grads: np.ndarray | None = None
    boundary: np.ndarray | None = None


@dataclass(frozen=True)
class RunInfo:
    """What a run reports once it is set up, for the panel's labels and plots.

    ``points``/``labels`` hold up to 2000 training samples (2-D classification only),
    ``extent`` the boundary grid's (xmin, xmax, ymin, ymax).
    """

    device: str
    layer_names: list[str]
    summary: str
    parameters: int
    steps: int
    warnings: list[str] = field(default_factory=list)
    points: np.ndarray | None = None
    labels: np.ndarray | None = None
    extent: tuple[float, float, float, float] | None = None


class TrainingLoop:
    """A run's model, optimizer and data, advanced a chunk at a time.

    Parameters
    ----------
    settings : TrainingSettings
        The setup; built exactly as ``program.prepare`` builds it for ``python``.
    stats_every : int or None
        Take layer statistics at step 1 and every ``stats_every`` steps; by default as
        often as their cost allows (up to ``STATS_RATE`` per second, at most
        ``EXTRAS_SHARE`` of the time).

    Attributes
    ----------
    step : int
        The last step trained.
    run : dict
        What ``program.prepare`` built: ``model``, ``optimizer``, ``loss_fn``, data...
    hist_layer : int or None
        The layer whose weights and gradients each chunk samples (None: none).
    warnings : list of str
        Such as the device falling back to the CPU.
    """

    def __init__(self, settings: TrainingSettings, stats_every: int | None = None):
        self.settings = settings
        self.training = settings.to_literal()
        self.run = program.prepare(self.training)
        self.warnings = [self.run["warning"]] if self.run["warning"] else []
        self.control = {"lr": settings.optimizer.lr, "clip": settings.clip.mode,
                        "clip_value": settings.clip.value}
        self.stats_every = stats_every if stats_every is None else max(1, stats_every)
        self._stats_due = 0.0
        self.probe = LayerProbe(self.run["model"])
        self.hist_layer: int | None = None
        self.boundary_interval = 0.25
        self.boundary = self._boundary_grid()
        self._boundary_due = 0.0
        self.step = 0
        self._steps = program.train_steps(self.run, self.training, self.control)

    @property
    def done(self) -> bool:
        return self.step >= self.settings.steps

    @property
    def model(self) -> torch.nn.Sequential:
        return self.run["model"]

    def info(self) -> RunInfo:
        """Layer names, summary, device and (2-D data) sample points, for the panel."""
        model = self.model
        points = labels = None
        if self.boundary is not None:
            keep = slice(0, 2000)
            points = self.run["x"][keep].detach().cpu().double().numpy()
            y = self.run["y"][keep].detach().cpu()
            labels = (y if y.ndim == 1 else y.argmax(1) if y.shape[1] > 1 else y[:, 0]).numpy()
        return RunInfo(str(self.run["device"]), self.probe.names, summary(model),
                       sum(p.numel() for p in model.parameters()), self.settings.steps,
                       list(self.warnings), points, labels,
                       None if self.boundary is None else self.boundary.extent)

    # -- live changes ----------------------------------------------------------------------
    def set_lr(self, lr: float) -> None:
        """The base learning rate (the schedule scales it) from the next step on."""
        self.control["lr"] = float(lr)

    def set_clip(self, mode: str, value: float) -> None:
        """Clipping (``none``, ``value`` or ``norm``) from the next step on."""
        if mode not in ("none", "value", "norm"):
            raise ValueError(f"clip mode {mode!r} is not none, value or norm")
        self.control["clip"], self.control["clip_value"] = mode, float(value)

    # -- running ---------------------------------------------------------------------------
    def advance(self, max_steps: int = 1_000_000, max_seconds: float = 0.03) -> MetricsChunk:
        """Run up to ``max_steps`` steps, or until ``max_seconds`` have passed."""
        start = time.perf_counter()
        first = self.step + 1
        losses, lrs, val_steps, vals = [], [], [], []
        stat_steps, stds, norms = [], [], []
        group = self.run["optimizer"].param_groups[0]
        now = start
        for _ in range(max_steps):
            if self.done:
                break
            if self.stats_every is None:
                sampled = self.step == 0 or now >= self._stats_due
            else:
                sampled = self.step == 0 or (self.step + 1) % self.stats_every == 0
            if sampled:
                self.probe.attach()
                try:
                    self.step, loss, val = next(self._steps)
                finally:
                    self.probe.detach()
                stat_steps.append(self.step)
                stds.append(self.probe.output_std())
                norms.append(self.probe.grad_norm())
                now = time.perf_counter()
                self._stats_due = now + max(1 / STATS_RATE, self.probe.cost / EXTRAS_SHARE)
            else:
                self.step, loss, val = next(self._steps)
                now = time.perf_counter()
            losses.append(loss)
            lrs.append(group["lr"])
            if val is not None:
                val_steps.append(self.step)
                vals.append(val)
            if now - start >= max_seconds:
                break
        return self._collect(start, first, losses, lrs, val_steps, vals, stat_steps, stds,
                             norms)

    def _collect(self, start, first, losses, lrs, val_steps, vals, stat_steps, stds,
                 norms) -> MetricsChunk:
        n_layers = len(self.probe.layers)
        parts: list[torch.Tensor] = [torch.stack(x).flatten() if x else self._empty()
                                     for x in (losses, vals, stds, norms)]
        hist = self.hist_layer is not None and 0 <= self.hist_layer < n_layers
        if hist:
            linear = self.probe.layers[self.hist_layer].linear  # type: ignore[index]
            grad = linear.weight.grad
            parts += [sample(linear.weight),
                      sample(grad if grad is not None else torch.zeros_like(linear.weight))]
        boundary = self.boundary is not None and time.perf_counter() >= self._boundary_due
        cost = 0.0
        if boundary:
            cost = time.perf_counter()
            parts.append(self.boundary.predict(self.model).flatten())  # type: ignore[union-attr]
            cost = time.perf_counter() - cost
        sizes = [p.numel() for p in parts]
        # The one device-to-host transfer of the chunk.
        flat = torch.cat([p.to(torch.float64) for p in parts]).cpu().numpy()
        pieces = np.split(flat, np.cumsum(sizes)[:-1])
        loss = pieces[0]
        bad = np.flatnonzero(~np.isfinite(loss))
        now = time.perf_counter()
        if boundary:
            self._boundary_due = now + max(self.boundary_interval, cost / EXTRAS_SHARE)
        return MetricsChunk(
            steps=np.arange(first, first + len(loss), dtype=np.int64), loss=loss,
            lr=np.asarray(lrs, dtype=np.float64),
            val_steps=np.asarray(val_steps, dtype=np.int64), val_loss=pieces[1],
            stat_steps=np.asarray(stat_steps, dtype=np.int64),
            output_std=pieces[2].reshape(-1, n_layers), grad_norm=pieces[3].reshape(-1, n_layers),
            elapsed=now - start, started=start,
            diverged_at=int(first + bad[0]) if len(bad) else None,
            weights=pieces[4] if hist else None, grads=pieces[5] if hist else None,
            boundary=(pieces[-1].reshape(self.boundary.size, self.boundary.size, -1)  # type: ignore[union-attr]
                      if boundary else None))

    def _empty(self) -> torch.Tensor:
        return torch.empty(0, device=self.run["device"])

    def chunks(self, max_seconds: float = 0.03) -> Iterator[MetricsChunk]:
        """Chunks until the last step."""
        while not self.done:
            yield self.advance(max_seconds=max_seconds)

    def _boundary_grid(self) -> BoundaryGrid | None:
        if self.settings.data.kind not in CLASSIFICATION_DATA or self.settings.model.inputs != 2:
            return None
        x = torch.cat([self.run["x"], self.run["x_val"]]).detach().cpu()
        lo, hi = x.min(0).values, x.max(0).values
        pad = 0.1 * (hi - lo).clamp_min(1e-6)
        (x0, y0), (x1, y1) = (lo - pad).tolist(), (hi + pad).tolist()
        return BoundaryGrid((x0, x1, y0, y1), BOUNDARY_SIZE, self.settings.loss,
                            self.run["device"], self.run["x"].dtype)

    # -- checkpoints -----------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Save ``{model, optimizer, step}`` (and the random state, for an exact resume)."""
        state = {"model": self.model.state_dict(),
                 "optimizer": self.run["optimizer"].state_dict(),
                 "step": self.step, "rng": torch.random.get_rng_state()}
        if self.run["device"].type == "cuda":
            state["cuda_rng"] = torch.cuda.get_rng_state(self.run["device"])
        torch.save(state, path)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Load a checkpoint saved with the same settings; training resumes after its step."""
        state = torch.load(path, weights_only=True, map_location=self.run["device"])
        self.model.load_state_dict(state["model"])
        self.run["optimizer"].load_state_dict(state["optimizer"])
        self.step = int(state["step"])
        if "rng" in state:
            torch.random.set_rng_state(state["rng"].cpu())
        if "cuda_rng" in state and self.run["device"].type == "cuda":
            torch.cuda.set_rng_state(state["cuda_rng"].cpu(), self.run["device"])
        self.run["batches"] = program.batches(
            self.run["loader"], self.run["generator"], self.settings.seed,
            skip=self.step * self.settings.accumulate)
        self._steps = program.train_steps(self.run, self.training, self.control,
                                          start=self.step)
