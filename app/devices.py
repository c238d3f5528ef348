"""The devices torch can put tensors on in this process: the CPU, CUDA GPUs, Apple's MPS.

Probing them imports torch, which the window leaves until after its first paint
(``widgets.common.torch_ready``); ``known_devices`` answers without it.
"""

from __future__ import annotations

import functools
import platform
from dataclasses import dataclass

from app.torch_loaded import torch_loaded


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


def known_devices() -> list[Device]:
    """``available_devices`` once torch is imported; the CPU alone before, without importing it."""
    if not torch_loaded():
        return [Device("cpu", _cpu_name())]
    return available_devices()


@functools.cache
def _probe() -> tuple[Device, ...]:
    import torch

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
