"""The devices of the kernel's machine and its torch, probed in the kernel (the ``devices``
query).

The window lists these in its device menus, and shows the torch build in its status bar
and About box: a kernel on a GPU server offers its GPUs, whatever the window's machine
has, and the window never imports torch to say which build runs the recipes. The probe
leaves CUDA uninitialised where it can (NVML counts and names the GPUs), so a recipe
still finds CUDA as python leaves it: the ``CUDA_VISIBLE_DEVICES`` it sets is obeyed,
and its forked workers may use CUDA.
"""

from __future__ import annotations

import threading
from typing import Any

from protocol.devices import cpu_name
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

_lock = threading.Lock()


def machine_answer() -> dict[str, Any]:
    """The ``devices`` query's answer: ``{"devices": probe_devices(), "torch":
    torch_build()}``."""
    return {"devices": probe_devices(), "torch": torch_build()}


def torch_build() -> dict[str, str] | None:
    """``{"version", "cuda"}`` of the torch here (``torch.__version__``, and
    ``torch.version.cuda`` or ``""`` for a build without CUDA); None without torch."""
    try:
        import torch
    except ImportError:
        return None
    return {"version": str(torch.__version__), "cuda": str(torch.version.cuda or "")}


def probe_devices() -> list[dict[str, str]]:
    """``{"id", "name"}`` of each device torch can reach here: ``cpu`` first, with the
    processor's model name, then ``cuda:0``... with each GPU's, then ``mps``."""
    found = [{"id": "cpu", "name": cpu_name()}]
    try:
        import torch
    except ImportError:
        return found
    with _lock:  # (one probe at a time: NVML's library is loaded once)
        names = _cuda_names(torch)
    found += [{"id": f"cuda:{i}", "name": name} for i, name in enumerate(names)]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append({"id": "mps", "name": "Apple Metal (MPS)"})
    return found


def _cuda_names(torch: Any) -> list[str]:
    count = torch.cuda.device_count()  # by NVML where it can: no CUDA context made
    if count <= 0:
        return []
    if not torch.cuda.is_initialized():
        names = _nvml_names(torch, count)
        if names is not None:
            return names
    return [torch.cuda.get_device_name(i) for i in range(count)]


def _nvml_names(torch: Any, count: int) -> list[str] | None:
    """The GPUs' names as NVML tells them, CUDA's order (``CUDA_VISIBLE_DEVICES``); None
    when NVML cannot say."""
    from ctypes import CDLL, byref, c_void_p, create_string_buffer

    try:
        nvml = CDLL("libnvidia-ml.so.1")
        if nvml.nvmlInit() != 0:
            return None
        names = []
        for i in range(count):
            handle, name = c_void_p(), create_string_buffer(96)
            index = torch.cuda._get_nvml_device_index(i)  # noqa: SLF001 - the mapping torch uses
            if nvml.nvmlDeviceGetHandleByIndex_v2(index, byref(handle)) != 0 \
                    or nvml.nvmlDeviceGetName(handle, name, 96) != 0:
                return None
            names.append(name.value.decode("utf-8", "replace"))
        return names
    except (OSError, AttributeError, RuntimeError):
        return None
