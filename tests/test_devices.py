"""The device list: core tier, no QApplication."""

from __future__ import annotations

import dataclasses
import importlib
import sys

import pytest
import torch

from app.devices import Device, available_devices


def test_cpu_is_always_first():
    devices = available_devices()
    assert devices[0].id == "cpu"
    assert devices[0].name


def test_cuda_devices_only_when_cuda_is_available():
    ids = [d.id for d in available_devices()]
    cuda = [i for i in ids if i.startswith("cuda:")]
    if torch.cuda.is_available():
        assert cuda == [f"cuda:{i}" for i in range(torch.cuda.device_count())]
        assert available_devices()[1].name == torch.cuda.get_device_name(0)
    else:
        assert cuda == []


def test_mps_only_when_available():
    mps = torch.backends.mps.is_available()
    assert ("mps" in [d.id for d in available_devices()]) == mps


def test_every_listed_device_takes_a_tensor():
    for device in available_devices():
        assert torch.zeros(1, device=device.id).device.type == device.id.split(":")[0]


def test_cached_but_refreshable():
    first = available_devices()
    first.append(Device("bogus", "not a device"))  # callers get a copy, not the cache
    assert available_devices() == first[:-1]
    assert available_devices(refresh=True) == first[:-1]


def test_device_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Device("cpu", "CPU").id = "cuda:0"  # type: ignore[misc]


def test_imports_no_qt(monkeypatch):
    import app

    monkeypatch.setitem(sys.modules, "PySide6", None)  # any Qt import now fails
    monkeypatch.delitem(sys.modules, "app.devices")
    monkeypatch.setattr(app, "devices", app.devices)  # put back afterwards
    fresh = importlib.import_module("app.devices")
    assert fresh.available_devices()[0].id == "cpu"
