"""The devices torch can put tensors on in this process: the CPU, CUDA GPUs, Apple's MPS."""

from __future__ import annotations

import functools
import platform
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Device:
    """One place a tensor can live.

    Parameters
    ----------
    id : str
        What torch calls it, and what a recipe writes: ``cpu``, ``cuda:0``, ``mps``.
    name : str
        A readable name for menus, such as the GPU's model.
    """

    id: str
    name: str


def available_devices(refresh: bool = False) -> list[Device]:
    """The devices really present, ``cpu`` first.

    Asking CUDA for its devices is slow the first time, so the answer is cached;
    ``refresh=True`` asks again (after a driver or eGPU change).
    """
    if refresh:
        _probe.cache_clear()
    return list(_probe())


@functools.cache
def _probe() -> tuple[Device, ...]:
    found = [Device("cpu", _cpu_name())]
    if torch.cuda.is_available():
        found += [Device(f"cuda:{i}", torch.cuda.get_device_name(i))
                  for i in range(torch.cuda.device_count())]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append(Device("mps", "Apple Metal (MPS)"))
    return tuple(found)


def _cpu_name() -> str:
    """The processor's model name; ``platform.processor()`` is empty on most Linux systems."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "CPU"
