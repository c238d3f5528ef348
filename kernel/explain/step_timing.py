"""A recipe step's expression timed on one device, with ``torch.utils.benchmark``.

Kernel-side, Qt-free, and free of the window's recipe: runs in the kernel (the
``timing`` query of ``kernel.explain.kernel_queries``), where the recipe's values are. The
inputs of the step are copied to the device, and the step's expression alone is timed
there. ``torch.utils.benchmark.Timer`` warms up, picks how many runs make a
measurement, and synchronises CUDA around each block, so asynchronous GPU launches are
not mistaken for finished work.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from protocol.timing import DEFAULT_MIN_RUN_TIME, Timing


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
