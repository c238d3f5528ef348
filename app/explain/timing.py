"""Time one recipe step on every device, with ``torch.utils.benchmark``.

Qt-free; runs in the kernel (``app.explain.kernel_queries``), where the recipe's values
are. The inputs of the step are copied to each device, and the step's expression alone
is timed there. ``torch.utils.benchmark.Timer`` warms
up, picks how many runs make a measurement, and synchronises CUDA around each
block, so asynchronous GPU launches are not mistaken for finished work.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.catalog import CATALOG
from app.expr import Attr, BinOp, Call, Const, Expr, Seq, Slice, Subscript, UnaryOp

#: Seconds of measuring per device; Timer repeats the step until it has this much.
DEFAULT_MIN_RUN_TIME = 0.2
#: Calls that are not worth timing, or that would write on every run.
UNTIMED_OPS = frozenset({"print", "torch.manual_seed"})


@dataclass(frozen=True)
class Timing:
    """How long a step took on one device.

    Parameters
    ----------
    device : str
        ``cpu``, ``cuda:0``, ``mps``.
    median_s : float
        The median time of one run, in seconds (nan when it failed).
    iqr_s : float
        The interquartile range of the per-run times, in seconds.
    runs : int
        How many times the step ran to measure it.
    error : str
        Why the step could not run there (a dtype the device lacks...); empty when timed.
    """

    device: str
    median_s: float
    iqr_s: float
    runs: int
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


class TimingError(ValueError):
    """The step cannot be timed: it is not an expression, or its inputs failed."""


def time_text(text: str, namespace: Mapping[str, Any], reads: Sequence[str], device: str,
              min_run_time: float = DEFAULT_MIN_RUN_TIME) -> Timing:
    """Time the Python expression ``text`` on ``device`` (in the kernel, where the
    recipe's values are): ``namespace`` gives its names, and the tensors among ``reads``
    are copied to ``device`` first. The window writes ``text`` with ``on_device``."""
    try:
        code = compile(text, "<recipe step>", "eval")
    except SyntaxError as e:
        return Timing(device, float("nan"), float("nan"), 0, str(e))
    return _time_on(lambda ns: eval(code, ns), dict(namespace), device,  # noqa: S307
                    min_run_time, moved=set(reads))


def _time_on(run_once: Callable[[dict[str, Any]], Any], inputs: dict[str, Any], device: str,
             min_run_time: float, moved: set[str] | None = None) -> Timing:
    """Time ``run_once(namespace)``, its ``inputs`` (those named in ``moved``, when given)
    copied to ``device`` first."""
    import torch

    try:
        namespace = {n: _to(v, device) if moved is None or n in moved else v
                     for n, v in inputs.items()}

        def step() -> Any:
            # a fresh dict per run: an in-place op changes tensors, never the bindings
            return run_once(dict(namespace))

        step()  # fail here, with torch's message, rather than inside the Timer
        from torch.utils.benchmark import Timer  # here: it imports setuptools, slow to start

        timer = Timer(stmt="step()", globals={"step": step}, timer=_clock(device),
                      num_threads=torch.get_num_threads(), label=device)
        m = timer.blocked_autorange(min_run_time=min_run_time)
    except Exception as e:  # noqa: BLE001 - a device that cannot run the step is a result
        return Timing(device, float("nan"), float("nan"), 0, str(e).strip() or type(e).__name__)
    return Timing(device, m.median, m.iqr, m.number_per_run * len(m.raw_times))


def _to(value: Any, device: str) -> Any:
    """A copy of ``value`` on ``device``: tensors, and tensors in lists and tuples."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().to(device, copy=True)
    if isinstance(value, (list, tuple)):
        return type(value)(_to(v, device) for v in value)
    return value


def on_device(expr: Expr, device: str) -> Expr:
    """``expr`` with every tensor-creating call inside it made on ``device``.

    ``torch.ones(5, 5)`` inside a step is timed as ``torch.ones(5, 5, device=...)``, so
    the op works on the device being measured instead of on the CPU.
    """
    if isinstance(expr, Call):
        args = tuple(on_device(a, device) for a in expr.args)
        kwargs = tuple((k, on_device(v, device)) for k, v in expr.kwargs)
        spec = CATALOG.get(expr.op)
        if spec is not None and spec.creates and any(p.name == "device" for p in spec.params):
            kwargs = tuple((k, v) for k, v in kwargs if k != "device") + (
                ("device", Const(device)),)
        return Call(expr.op, args, kwargs)
    if isinstance(expr, Seq):
        return Seq(tuple(on_device(e, device) for e in expr.items), expr.kind)
    if isinstance(expr, BinOp):
        return BinOp(expr.op, on_device(expr.left, device), on_device(expr.right, device))
    if isinstance(expr, UnaryOp):
        return UnaryOp(expr.op, on_device(expr.operand, device))
    if isinstance(expr, Subscript):
        return Subscript(on_device(expr.value, device), on_device(expr.index, device))
    if isinstance(expr, Slice):
        return expr
    if isinstance(expr, Attr):
        return Attr(on_device(expr.value, device), expr.name)
    return expr


def _clock(device: str) -> Callable[[], float]:
    """A clock that waits for the device's queued work before reading the time."""
    import torch

    if device.startswith("cuda"):
        def cuda_clock() -> float:
            torch.cuda.synchronize(device)
            return timeit.default_timer()
        return cuda_clock
    if device == "mps":
        def mps_clock() -> float:
            torch.mps.synchronize()
            return timeit.default_timer()
        return mps_clock
    return timeit.default_timer


def format_seconds(seconds: float) -> str:
    """``1.23 ms``, ``45.6 µs``, ``789 ns``: three significant digits and a unit."""
    if seconds != seconds:  # nan
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"
