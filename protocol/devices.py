"""The devices a tensor can be put on, and the torch build, as the window knows them: the
kernel's.

The kernel probes its own machine (the ``devices`` query, ``kernel.queries``); the
window keeps what it answered (``app.link.session.KernelSession.devices`` and
``torch``) and never imports torch for it. Until a kernel has answered, the window knows
the CPU alone, and no torch build.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass


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


@dataclass(frozen=True)
class TorchBuild:
    """The torch a kernel runs recipes with.

    Parameters
    ----------
    version : str
        ``torch.__version__``; ``""`` where torch would not load in the kernel.
    cuda : str
        ``torch.version.cuda``, the CUDA it was built for; ``""`` for a build without.
    """

    version: str
    cuda: str = ""


def torch_build_answered(data: dict) -> TorchBuild | None:
    """The torch build of a ``devices`` answer (``{"torch": {"version", "cuda"}}``):
    ``TorchBuild("")`` when the kernel has no torch (``"torch": None``), None when the
    answer does not say."""
    if "torch" not in data:
        return None
    said = data["torch"]
    if not isinstance(said, dict):
        return TorchBuild("")
    return TorchBuild(str(said.get("version") or ""), str(said.get("cuda") or ""))


def cpu_alone() -> list[Device]:
    """What is known before a kernel says: this machine's CPU, by its model name."""
    return [Device("cpu", cpu_name())]


def devices_answered(data: dict) -> list[Device]:
    """The devices of a ``devices`` answer (``{"devices": [{"id", "name"}, ...]}``), ``cpu``
    first; the CPU alone when the answer has none."""
    found = [Device(str(d["id"]), str(d["name"])) for d in data.get("devices", ())
             if isinstance(d, dict) and "id" in d and "name" in d]
    if not found or found[0].id != "cpu":
        return cpu_alone() + [d for d in found if d.id != "cpu"]
    return found


def cpu_name() -> str:
    """The processor's model name; ``platform.processor()`` is empty on most Linux systems."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "CPU"
