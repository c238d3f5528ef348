"""Every ``backward()`` of a run is a training step: what the loop did, collected in the
kernel with torch's own global hooks, never by editing the recipe's code.

- **loss**: the tensor ``backward()`` was called on (its mean, when it has more than one
  element), at each step;
- **layers**: for every leaf module the statement's forward passes called while grad was
  enabled (validation under ``no_grad`` does not count), the std of its output (its
  first tensor, for a module that returns a tuple or a list, as ``nn.LSTM`` does) and,
  after ``backward()``, the norm of its parameters' gradients; named by its path from
  the recipe's own variable (``net.conv1``, ``model.0``);
- **lr**: the learning rate of the first parameter group of each optimizer stepped.

Steps are grouped by the top-level statement whose run called ``backward()``; a
statement that runs more than ``MAX_STEPS`` of them keeps an even sample, its first and
last steps always in it, with the step numbers listed. ``torch.Tensor.backward`` is
wrapped while a watch is installed (the recipe's code stays as written); forward and
optimizer hooks are torch's global ones.

Live (the window's runs, ``live=``): every step's loss and learning rate go to the window
in batches (``kernel.watch_live``), but a layer's std and gradient norm cost a
reduction per layer, and the forward hook that takes them sends every module call of its
step down torch's slow path. So they are taken only on some steps, while those steps'
extra time stays under ``LAYER_BUDGET`` of the loop's: each sampled step is charged the
whole of its time beyond a plain step's (the running mean of the steps that were not
sampled), not only the reductions, and so are the steps after it until the next batch
(they run slower for a while: torch's slow path and our reductions leave the caches
cold). The window's ``Controls`` are obeyed at each ``backward()``, before it runs.

Live, every step between two batches takes a lean path (``install``). What is more than
a loss (layers, a histogram, the boundary) is taken only around a step that sends a
batch: the step after it is the one sampled. Each step off the lean path costs the loop
a few hundred microseconds, most of it afterwards, in cold caches; so they come
together, at most at the batches' rate.

The forward hook also records each module's last call's shapes (``kernel.modules``, for
the Module view and ``run --json``): it is on at the start of every statement, so a
statement outside a loop has every call recorded; a loop's first ``backward()`` lets the
loop choose its steps as above, and a live loop's last call is its last sampled step's.
Hooks registered with it, on the same steps, trace a model's forward call for the Model
graph (``kernel.module_graph``).
So does a layer's output, for the Model tab's Activations (``kernel.activations``): a
layer the window watches, at each hooked call; every small one until the statement's
first ``backward()``.
"""

from __future__ import annotations

import math
import time
from typing import Any

from kernel import attention
from kernel.activations import loop_started, statement_started
from kernel.loops import Known
from kernel.module_graph import GraphHooks
from kernel.modules import record
from kernel.summary import loaded_torch
from kernel.watch_boundary import BoundaryProbe
from kernel.watch_histogram import HistogramSampler
from kernel.watch_live import Controls, LiveFeed
from kernel.watch_quantiles import layer_quantiles
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Steps kept per statement; past this, every other one is dropped, and so on.
MAX_STEPS = 10_000
#: Live, the share of a loop's time that taking layers' numbers may cost...
LAYER_BUDGET = 0.005
#: ...but they are taken at least this often, in seconds of the loop's time. A sampled
#: step of a small MLP (2-64-64-1, batch 256, on a CPU) costs it about 0.45 ms, most of it
#: after the step, in caches the slow path left cold: at 10 a second (0.1 s), with the
#: boundary's and the histogram's steps, the budget was always spent and this floor set
#: the rate, 0.5% of the loop; at 4 a second, 0.2%.
SAMPLE_GAP_S = 0.25
#: A statement's first samples are taken at the first batches (then as above): a short
#: loop's layers draw lines, not dots.
FIRST_SAMPLES = 2


class _Series:
    """One statement's steps: losses, learning rates and each layer's numbers."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.stride = 1  # every `stride`-th step is kept
        self.count = 0
        self.steps: list[int] = []
        self.loss: list[float] = []
        self.lr: list[float | None] = []
        self.layers: dict[str, dict[str, list[float | None]]] = {}

    def add(self, loss: float | None, layers: dict[str, tuple]) -> None:
        """A ``backward()``: its loss, and each layer's (std, grad norm). The latest step
        is always kept, off the stride or not, until the next one replaces it: a sample
        always has the loop's first and last steps."""
        step, self.count = self.count, self.count + 1
        if self.steps and self.steps[-1] % self.stride:  # the last one, and last no more
            self._drop_last()
        kept = len(self.steps)
        for path in layers:  # a layer first seen now: no numbers for the steps before
            self.layers.setdefault(path, {"std": [None] * kept, "grad_norm": [None] * kept})
        for path, series in self.layers.items():
            std, norm = layers.get(path, (None, None))
            series["std"].append(std)
            series["grad_norm"].append(norm)
        self.steps.append(step)
        self.loss.append(loss)
        self.lr.append(None)
        if len(self.steps) > MAX_STEPS:
            self._halve()

    def stepped(self, lr: float) -> None:
        """An optimizer stepped after the last kept ``backward()``: its learning rate."""
        if self.lr and self.steps and self.steps[-1] == self.count - 1:
            self.lr[-1] = lr

    def _drop_last(self) -> None:
        for series in (self.steps, self.loss, self.lr,
                       *(v for layer in self.layers.values() for v in layer.values())):
            del series[-1]

    def _halve(self) -> None:
        self.stride *= 2
        last = len(self.steps) - 1
        keep = [i for i, s in enumerate(self.steps) if s % self.stride == 0 or i == last]
        self.steps = [self.steps[i] for i in keep]
        self.loss = [self.loss[i] for i in keep]
        self.lr = [self.lr[i] for i in keep]
        for series in self.layers.values():
            for key in ("std", "grad_norm"):
                series[key] = [series[key][i] for i in keep]

    def report(self) -> dict[str, Any]:
        return {"line": self.line, "steps": list(self.steps), "loss": list(self.loss),
                "lr": list(self.lr), "layers": self.layers}


class TrainingWatch:
    """Watches a run's ``backward()`` calls (``install``/``uninstall`` around the run).

    ``namespace`` is the run's: it names the modules (``net.conv1``). ``statement`` is set
    by the runner before each top-level statement runs.
    """

    def __init__(self, namespace: dict[str, Any], live: LiveFeed | None = None,
                 controls: Controls | None = None) -> None:
        self.namespace = namespace
        self.statement: tuple[int, int] | None = None  # (index, first line)
        self.series: dict[int, _Series] = {}
        self.live, self.controls = live, controls
        self.boundary = BoundaryProbe() if live is not None else None
        self.histogram = HistogramSampler() if live is not None else None
        self._leaves: dict[str, Any] = {}  # the leaf modules the loop ran, by path
        self._pending: dict[int, tuple[Any, float | None]] = {}  # id: (module, std)
        self._paths: dict[int, str] = {}
        self._handles: list[Any] = []
        self._forward_hook: Any = None
        #: Beside the forward hook, on the same steps: the Model graph's traces.
        self._graph = GraphHooks(lambda: self.boundary is not None and self.boundary.probing)
        self._original: Any = None
        self._failed = False
        self._sampling = True  # this step's layers are taken
        self._nan_seen = False
        #: Live: the next steps may take the lean path (``install``) until ``_due_at``
        #: (``time.perf_counter``), when something is due: a batch, a sample, a boundary;
        #: 0 closes it (and a change of the window's controls does, from its thread).
        self._due_at = 0.0
        self._series: _Series | None = None  # the statement's, while in the lane
        self._sent = False  # this step sent a batch
        #: The lean path's last loss, read: the loop's recorder takes it from here.
        self.known = Known()
        self._clock(None)

    def _clock(self, now: float | None) -> None:
        """Start the sampling budget's accounts afresh (a statement starts, or ``now``:
        its first step)."""
        self._since = now  # the first step's end
        self._spent = 0.0  # the sampled steps' time beyond a plain step's
        self._sampled_at = now or 0.0
        self._samples = 0  # steps sampled since
        self._step_end: float | None = now  # when the last step's work was done
        self._counted = 0  # the steps counted by then
        self._plain: float | None = None  # a plain step's time, a running mean
        self._odd = False  # this step waited (paused): not counted at all
        self._charge = 0  # the next stretches of steps charged to the budget, not plain

    def begin(self, index: int, line: int) -> None:
        """Statement ``index`` (first line ``line``) runs next: installed once the recipe
        has imported torch; a watch that cannot be installed never stops the run."""
        if not self.installed and not self._failed and loaded_torch() is not None:
            try:
                self.install()
            except Exception:  # noqa: BLE001
                self._failed = True
                self.uninstall()
        elif self.installed and not self._failed:
            self._watch_forward(True)  # every module call of a statement is recorded
            # (``kernel.modules``) until its loop's first step lets the loop choose
        self.statement = (index, line)
        attention.statement(index)
        self._graph.new_statement()
        if self.installed:  # small outputs of every layer kept, until a backward()
            statement_started(self.namespace)
        self._pending = {}  # modules an earlier statement called are not this one's layers
        self._close_lane()
        self._clock(None)

    def end(self) -> None:
        """The statement ended: the window gets its last steps (and the boundary of the
        model as its loop left it)."""
        live, probe = self.live, self.boundary
        self._close_lane()
        self.known.forget()  # (the loss it held)
        if live is None:
            return
        final = probe is not None and probe.model is not None \
            and live.statement == self.statement
        self._settle()
        if final:
            live.boundary = probe.take()
        live.send(always=final)

    # -- installing -------------------------------------------------------------------
    def install(self) -> None:
        torch = loaded_torch()
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        attention.install()
        self._watch_forward(True)
        self._original = original = torch.Tensor.backward
        watch, controls, clock = self, self.controls or Controls(), time.perf_counter
        known, feed = self.known, self.live
        controls.on_change = self._close_lane  # (a pause, a step or a rate: the full path)

        def stepping(optimizer, args, kwargs):  # the lean step's: its rate, kept
            if watch._due_at and controls.lr is None:  # (its step is in the lane)
                try:
                    feed.lr[-1] = optimizer.param_groups[0]["lr"]
                    return
                except (AttributeError, LookupError, TypeError):
                    pass
            watch._stepping(optimizer, args, kwargs)
        self._handles = [register_optimizer_step_pre_hook(stepping)]

        def backward(tensor, *args, **kwargs):  # the same signature, torch's own work
            if clock() < watch._due_at:
                # the usual live step, lean (no call of the watch's): its loss is kept
                # (its step's number is counted later, ``_settle``)
                try:
                    loss = tensor.item()
                except Exception:  # noqa: BLE001 - more than one element: the full path
                    loss = math.nan
                if loss - loss == 0:  # not NaN nor inf (the NaN pause is the full path's)
                    known.tensor, known.version, known.value = tensor, tensor._version, loss
                    result = original(tensor, *args, **kwargs)
                    feed.loss.append(loss)
                    feed.lr.append(None)
                    return result
            loss = watch._guarded(watch._before_backward, tensor)
            result = original(tensor, *args, **kwargs)
            watch._guarded(watch._backward_done, loss)
            return result
        backward.__doc__ = original.__doc__
        torch.Tensor.backward = backward

    @property
    def installed(self) -> bool:
        return self._original is not None

    def uninstall(self) -> None:
        if not self.installed:
            return
        torch = loaded_torch()  # (the recipe may have taken it out of sys.modules)

        for handle in self._handles:
            handle.remove()
        self._handles = []
        if self.controls is not None and self.controls.on_change == self._close_lane:
            self.controls.on_change = None
        self._watch_forward(False)
        if self._original is not None:
            torch.Tensor.backward = self._original
            self._original = None

    def _guarded(self, work: Any, *args: Any) -> Any:
        """``work(*args)``; a fault of the watch's own ends the watch, never the recipe's
        step (a Stop while paused, a ``KeyboardInterrupt``, still goes through)."""
        if self._failed:
            return math.nan
        try:
            return work(*args)
        except Exception:  # noqa: BLE001 - the lab's fault: the loop trains on unwatched
            self._failed = True
            self._close_lane()
            self._watch_forward(False)
            return math.nan

    def _watch_forward(self, on: bool) -> None:
        """Have the forward hook called, or not: while one is registered torch takes its
        slow path for every module call, so live runs hook only the steps they sample."""
        from torch.nn.modules.module import register_module_forward_hook

        if on and self._forward_hook is None:
            self._forward_hook = register_module_forward_hook(self._forward)
            self._graph.hook(True)  # (after the watch's: a leaf's hooks are inside it)
        elif not on and self._forward_hook is not None:
            self._forward_hook.remove()
            self._forward_hook = None
            self._graph.hook(False)
        attention.recording(on)

    # -- the hooks --------------------------------------------------------------------
    def _forward(self, module: Any, _inputs: Any, output: Any) -> None:
        torch = loaded_torch()

        probe = self.boundary
        if probe is not None:
            if probe.probing:
                return  # the boundary's grid: not the loop's forward pass
            probe.saw(module, _inputs, self._is_top)
        record(module, _inputs, output)  # its last call's shapes (the Module view's)
        attention.module_called(module, _inputs, self._path)  # an attention's weights
        if not self._sampling or not torch.is_grad_enabled() \
                or next(module.children(), None) is not None:
            return  # not this step, validation under no_grad, or a container
        output = _first_tensor(output, torch.Tensor)
        if output is not None and output.is_floating_point() and output.numel() > 1:
            # a 0-d tensor, read with the gradients' norms after backward (``_numbers``):
            # one wait for the device a step, not one a layer
            self._pending[id(module)] = (module, output.detach().float().std())

    def _before_backward(self, tensor: Any) -> float:
        """The loss ``tensor`` is about to go backward: its value. Live, the steps before
        this one are complete (their optimizer stepped): send them when a frame is due,
        and wait here while the window pauses the loop."""
        loss = _loss(tensor)
        loop_started()  # a loop's: only the layers the window watches are kept
        self._close_lane()
        live, controls = self.live, self.controls
        if live is None or self.statement is None:
            return loss
        self._settle()
        if live.statement != self.statement:
            live.at(self.statement)
        nan = loss - loss != 0 and not self._nan_seen  # NaN or inf
        if controls is not None and nan and controls.nan_pause:
            self._nan_seen = True
            controls.pause()
        if controls is not None and (controls.paused or controls.steps_left == 0) \
                and controls.should_pause():  # the lock, only when it may
            live.send("nan" if nan else "pause", always=True)
            controls.wait()
            live.send(always=True)  # running again
            self._odd = True
        elif live.due():
            if self.boundary is not None and self.boundary.due():
                live.boundary = self.boundary.take()
                self._charge = 2  # this step, and the stretch after it
            live.send()
            self._sent = True
        return loss

    def _backward_done(self, loss: float) -> None:
        if self.statement is None:
            return
        live = self.live
        series = self.series.get(self.statement[0])
        hooked = self._forward_hook is not None  # this step's forward pass was watched
        if live is not None and not self._sampling and series is not None \
                and live.statement == self.statement:
            # the usual live step, kept lean: its loss, and whether the next is sampled
            live.steps.append(series.count)
            live.loss.append(loss if loss - loss == 0 else None)  # None for NaN or inf
            live.lr.append(None)
            series.count += 1
            self._next(hooked, series.count - 1)
            return
        index, line = self.statement
        pending, self._pending = list(self._pending.values()), {}
        layers = {}
        numbers = _numbers(pending)
        if self.live is not None and pending:  # and the bands of their distributions
            quantiles = layer_quantiles([module for module, _ in pending])
            numbers = [n + q for n, q in zip(numbers, quantiles, strict=True)]
        for (module, _), taken in zip(pending, numbers, strict=True):
            path = self._path(module)
            layers[path] = taken
            self._leaves.setdefault(path, module)
        series = self.series.get(index)
        if series is None:
            series = self.series[index] = _Series(line)
        if self.live is None:
            series.add(_finite(loss), layers)
            return
        # live: the window gets every step; the report's series only counts them
        self.live.add(self.statement, series.count, _finite(loss),
                      layers if self._sampling else None)
        series.count += 1
        if self._sampling:
            self._sampled_at = time.perf_counter()
            self._samples += 1
        self._next(hooked, series.count - 1)

    def _next(self, hooked: bool, step: int) -> None:
        """Live, a step is done: charge its cost, and choose whether the next one's layers
        are taken (the forward hook is there for those steps, and for those the boundary
        needs a batch of)."""
        series = self.series[self.statement[0]]
        now = self._account(hooked, series.count)
        sent, self._sent = self._sent, False  # layers and histograms go with a batch
        self._sampling = sent and self._sample_next(now)
        probe = self.boundary
        on = self._sampling or probe is None or probe.wants_batch()
        if on != (self._forward_hook is not None):
            self._watch_forward(on)
        if hooked or sent and self._sample_histogram(step):
            self._charge = max(self._charge, 1)  # what follows is charged too
        self._step_end, self._counted = time.perf_counter(), series.count
        # the steps until the next batch take the lean path (``install``)
        live, controls = self.live, self.controls
        if not on and not self._failed and live is not None:
            self._series, self._due_at = series, live.next_at
            if controls is not None and (controls.paused or controls.steps_left is not None):
                self._close_lane()  # (after opening it: a change meanwhile closes it too)

    def _close_lane(self) -> None:
        self._due_at = 0.0

    def _settle(self) -> None:
        """Number the lean steps the window has not sent yet: ``LiveFeed.steps`` and the
        series' count are behind its ``loss`` by that many."""
        live, series = self.live, self._series
        behind = len(live.loss) - len(live.steps) if live is not None else 0
        if behind > 0 and series is not None:
            live.steps.extend(range(series.count, series.count + behind))
            series.count += behind

    def _account(self, hooked: bool, count: int) -> float:
        """The steps since the last that took this path (``count - _counted`` of them,
        this one last) took ``now - _step_end``: plain ones update a plain step's running
        mean; a step whose forward pass was watched, and the stretch of steps after it, are
        charged their time beyond it."""
        now = time.perf_counter()
        last = self._step_end
        if last is None:  # the statement's first step: the budget's time starts now
            self._clock(now)
            return now
        took, plain, steps = now - last, self._plain, max(1, count - self._counted)
        if self._odd:
            self._odd = False
        elif hooked or self._charge:
            self._spent += max(0.0, took - steps * plain) if plain is not None else took
            self._charge = max(0, self._charge - 1)
        else:
            took /= steps
            self._plain = took if plain is None else plain + 0.1 * (took - plain)
        return now

    def _sample_histogram(self, step: int) -> bool:
        """Now and then, the chosen layer's weights and fresh gradients, for the window."""
        sampler = self.histogram
        if sampler is not None and self._leaves and sampler.due():
            chosen = self.controls.histogram if self.controls is not None else None
            self.live.histogram = sampler.take(self._leaves, chosen, step)
            return True
        return False

    def _sample_next(self, now: float) -> bool:
        """Whether the next step's layers are taken: while the sampled steps' extra time
        stays within ``LAYER_BUDGET`` of the loop's, and at least at display rate (a slow
        loop's curves are smooth, its last steps drawn)."""
        return now >= self._sample_at()

    def _sample_at(self) -> float:
        """When the budget lets the next step be sampled: once the loop's time since its
        first step has grown to ``_spent / LAYER_BUDGET``, or ``SAMPLE_GAP_S`` after the
        last sample (the first ``FIRST_SAMPLES`` at every batch: a short loop's layers
        still draw lines)."""
        gap = SAMPLE_GAP_S if self._samples >= FIRST_SAMPLES else 0.0
        return min((self._since or 0.0) + self._spent / LAYER_BUDGET,
                   self._sampled_at + gap)

    def _stepping(self, optimizer: Any, _args: Any, _kwargs: Any) -> None:
        """An optimizer is about to step: the window's live learning rate goes to its
        param groups, and the rate this step uses is the step's (one hook, not two: each
        costs the loop a little at every step)."""
        if self.statement is None:
            return
        groups = _param_groups(optimizer)
        live_lr = self.controls.lr if self.controls is not None else None
        if live_lr is not None:
            for group in groups:
                group["lr"] = live_lr
        lr = groups[0].get("lr")
        if self.live is not None:
            if self.live.statement == self.statement:
                self.live.stepped(lr)  # made a float when it is sent
            return
        series = self.series.get(self.statement[0])
        if series is not None and isinstance(lr, int | float) and not isinstance(lr, bool):
            series.stepped(float(lr))

    # -- names ------------------------------------------------------------------------
    def _is_top(self, module: Any) -> bool:
        """Whether a variable of the recipe holds ``module`` itself (``model``, ``net``)."""
        path = self._path(module)
        return "." not in path and self.namespace.get(path) is module

    def _path(self, module: Any) -> str:
        path = self._paths.get(id(module))
        if path is None:
            self._paths = _module_paths(self.namespace)
            path = self._paths.get(id(module)) or type(module).__name__
            self._paths[id(module)] = path
        return path

    def report(self) -> list[dict[str, Any]]:
        """One entry per statement that called ``backward()``, in order."""
        return [self.series[i].report() for i in sorted(self.series)]


def _module_paths(namespace: dict[str, Any]) -> dict[int, str]:
    """Each module the recipe's variables hold, by its path from the first that holds it."""
    torch = loaded_torch()

    paths: dict[int, str] = {}
    for name, value in list(namespace.items()):
        if name.startswith("_") or not isinstance(value, torch.nn.Module):
            continue
        for sub, module in value.named_modules():
            paths.setdefault(id(module), f"{name}.{sub}" if sub else name)
    return paths


def _first_tensor(output: Any, tensor: type, depth: int = 0) -> Any:
    """A module's output tensor, or its first one, depth first, when it gives a tuple or
    a list: an ``nn.LSTM``'s ``output`` of ``(output, (h_n, c_n))``, a ``PackedSequence``'s
    ``data`` (as torchinfo reports a module's first output); None for anything else."""
    if isinstance(output, tensor):
        return output
    if isinstance(output, tuple | list) and output and depth < 4:
        return _first_tensor(output[0], tensor, depth + 1)
    return None


def _param_groups(optimizer: Any) -> list:
    """An optimizer's ``param_groups`` (one empty group for an odd one)."""
    return getattr(optimizer, "param_groups", None) or [{}]


def _numbers(pending: list[tuple[Any, Any]]) -> list[tuple[float | None, float | None]]:
    """Each layer's (std of its output, norm of its own parameters' gradients), for the
    ``(module, std)`` its forward hook kept (the std a 0-d tensor): every norm from one
    ``_foreach_norm`` (as ``clip_grad_norm_`` takes them) and every number read with one
    ``tolist()``, a single wait for the device (a sampled step read each layer's std and
    each gradient's sum apart: 8 waits and 35 small ops for a 3-layer MLP); one at a
    time where they cannot be stacked (layers on several devices, a sparse gradient)."""
    if not pending:
        return []
    torch = loaded_torch()
    grads = [[p.grad.detach() for p in module.parameters(recurse=False) if p.grad is not None]
             for module, _ in pending]
    flat = [g if g.dtype in (torch.float32, torch.float64) else g.float()
            for gs in grads for g in gs]
    try:
        with torch.no_grad():
            norms = list(torch._foreach_norm(flat)) if flat else []  # noqa: SLF001
            values = torch.stack([std for _, std in pending] + norms).tolist()
    except (RuntimeError, TypeError, NotImplementedError):
        values = [float(std) for _, std in pending] + [
            math.sqrt(float(g.float().pow(2).sum())) for g in flat]
    stds, norms = values[:len(pending)], iter(values[len(pending):])
    out = []
    for std, gs in zip(stds, grads, strict=True):
        own = [next(norms) for _ in gs]
        norm = _finite(math.sqrt(math.fsum(n * n for n in own))) if own else None
        out.append((_finite(std), norm))
    return out


def _loss(tensor: Any) -> float:
    """The loss ``backward()`` was called on, as a float (a mean of more than one)."""
    try:
        return tensor.item()
    except RuntimeError:  # more than one element (or none)
        try:
            return float(tensor.detach().float().mean())
        except (RuntimeError, TypeError, ValueError):
            return math.nan
    except (TypeError, ValueError):
        return math.nan


def _finite(value: float) -> float | None:
    """JSON has no NaN: a diverged step's loss is None."""
    return value if math.isfinite(value) else None
