"""How long a step took on one device: the kernel's ``timing`` answer
(``kernel.explain.step_timing.time_text``), as the Ops panel's timing view reads it."""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds of measuring per device; Timer repeats the step until it has this much.
DEFAULT_MIN_RUN_TIME = 0.2


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
