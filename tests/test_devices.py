"""The device list: probed in the kernel (``kernel.machine``), kept by the window as
the kernel said it (``protocol.devices``). Core tier, no QApplication."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import sys
import types
from pathlib import Path

import pytest
import torch

import kernel.machine as machine
from kernel.machine import probe_devices
from protocol.devices import (
    Device,
    TorchBuild,
    cpu_alone,
    cpu_name,
    devices_answered,
    torch_build_answered,
)

ROOT = Path(__file__).resolve().parent.parent


def _cpuinfo_model_name() -> str | None:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        if line.lower().startswith("model name"):
            return " ".join(line.split(":", 1)[1].split())
    return None


def test_cpu_is_always_first_with_the_processors_model_name():
    devices = probe_devices()
    assert devices[0]["id"] == "cpu"
    expected = _cpuinfo_model_name()
    assert devices[0]["name"] == (expected or cpu_name())
    assert devices[0]["name"]


def test_cuda_devices_only_when_cuda_is_available():
    ids = [d["id"] for d in probe_devices()]
    cuda = [i for i in ids if i.startswith("cuda:")]
    if torch.cuda.is_available():
        assert cuda == [f"cuda:{i}" for i in range(torch.cuda.device_count())]
        assert probe_devices()[1]["name"] == torch.cuda.get_device_name(0)
    else:
        assert cuda == []


def test_mps_only_when_available():
    mps = torch.backends.mps.is_available()
    assert ("mps" in [d["id"] for d in probe_devices()]) == mps


def test_every_probed_device_takes_a_tensor():
    for device in probe_devices():
        assert torch.zeros(1, device=device["id"]).device.type == device["id"].split(":")[0]


def _torch_with_gpus(names: list[str], initialized: bool) -> types.SimpleNamespace:
    def never(*_args):
        raise AssertionError("CUDA initialised by the probe")

    cuda = types.SimpleNamespace(
        device_count=lambda: len(names), is_initialized=lambda: initialized,
        get_device_name=(lambda i: names[i]) if initialized else never)
    return types.SimpleNamespace(cuda=cuda)


def test_gpus_are_named_by_nvml_while_cuda_is_uninitialised(monkeypatch):
    monkeypatch.setattr(machine, "_nvml_names", lambda _torch, count: ["NVIDIA Test GPU"] * count)
    assert machine._cuda_names(_torch_with_gpus(["x", "y"], initialized=False)) == [
        "NVIDIA Test GPU", "NVIDIA Test GPU"]


def test_without_nvml_the_gpus_are_named_by_cuda(monkeypatch):
    monkeypatch.setattr(machine, "_nvml_names", lambda _torch, _count: None)
    fake = _torch_with_gpus(["NVIDIA Test GPU"], initialized=True)
    assert machine._cuda_names(fake) == ["NVIDIA Test GPU"]
    assert machine._cuda_names(_torch_with_gpus([], initialized=False)) == []


def test_an_answer_becomes_devices_cpu_first():
    answer = {"devices": [{"id": "cpu", "name": "Test CPU"},
                          {"id": "cuda:0", "name": "NVIDIA Test GPU"}]}
    assert devices_answered(answer) == [Device("cpu", "Test CPU"),
                                        Device("cuda:0", "NVIDIA Test GPU")]
    assert devices_answered({}) == cpu_alone()
    assert devices_answered({"devices": [{"id": "cuda:0", "name": "G"}, "odd"]}) == [
        *cpu_alone(), Device("cuda:0", "G")]


def test_an_answer_names_the_kernels_torch_build():
    assert machine.torch_build() == {"version": torch.__version__,
                                     "cuda": torch.version.cuda or ""}
    said = {"devices": [], "torch": {"version": "2.5.1", "cuda": "12.4"}}
    assert torch_build_answered(said) == TorchBuild("2.5.1", "12.4")
    assert torch_build_answered({"devices": [], "torch": None}) == TorchBuild("")  # no torch
    assert torch_build_answered({"devices": []}) is None  # not said


def test_device_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Device("cpu", "CPU").id = "cuda:0"  # type: ignore[misc]


def test_the_windows_device_list_never_imports_torch():
    """``protocol.devices`` is what the window uses: the CPU alone, and what a kernel said."""
    tree = ast.parse((ROOT / "protocol" / "devices.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in (node.names if isinstance(node, ast.Import) else
                              [types.SimpleNamespace(name=node.module or "")])}
    assert imported <= {"__future__", "platform", "dataclasses"}


def test_imports_no_qt(monkeypatch):
    import protocol
    import protocol.devices

    monkeypatch.setitem(sys.modules, "PySide6", None)  # any Qt import now fails
    monkeypatch.delitem(sys.modules, "protocol.devices")
    monkeypatch.setattr(protocol, "devices", protocol.devices)  # put back afterwards
    fresh = importlib.import_module("protocol.devices")
    assert fresh.cpu_alone()[0].id == "cpu"
