"""The device menus list the kernel's devices, as it answers the ``devices`` query:
a kernel stand-in with a GPU puts ``cuda:0`` in every menu, and the real kernel on this
machine answers from its own probe, never from one in the window's process."""

from __future__ import annotations

import os
import queue
import time
from pathlib import Path

import pytest
import torch

import app.link.session as session_module
import kernel.machine as machine
import kernel.queries as queries
from app.link.session import KernelSession
from protocol import messages
from protocol.devices import Device, TorchBuild, cpu_alone
from widgets.common.kernel_devices import kernel_devices

GPU_ANSWER = {"devices": [{"id": "cpu", "name": "Test CPU"},
                          {"id": "cuda:0", "name": "NVIDIA Test GPU"}],
              "torch": {"version": "9.9.0+test", "cuda": "12.9"}}


class _KernelWithAGpu:
    """A kernel stand-in (a ``transport.Transport``) on a machine with one GPU: it
    answers the ``devices`` query, and nothing else."""

    wakes = True
    over_budget = False

    def __init__(self, memory_budget: int | None = None):
        self.memory_budget = memory_budget
        self.pid = os.getpid()
        self.alive = True
        self.interrupt_raised = False
        self._said: queue.SimpleQueue = queue.SimpleQueue()

    def wake(self) -> None:
        self._said.put(None)

    def exit_code(self, _wait: float = 0.0) -> int | None:
        return None

    def warm(self, _modules=()) -> None:
        pass

    def send(self, message: object) -> None:
        if isinstance(message, messages.Query) and message.kind == "devices":
            self._said.put(messages.Answer(message.id, GPU_ANSWER, ""))

    def receive(self, timeout: float | None = None) -> object:
        try:
            return self._said.get(timeout=timeout)
        except queue.Empty:
            return None

    def interrupt(self) -> None:
        pass

    def kill(self) -> None:
        self.alive = False

    def close(self) -> None:
        pass


def _never_probed_here(*_args):
    raise AssertionError("the window's process probed for devices")


@pytest.fixture
def no_probe_in_the_window(monkeypatch):
    """Any probe for devices in this (the window's) process fails the test."""
    monkeypatch.setattr(machine, "probe_devices", _never_probed_here)
    monkeypatch.setattr(machine, "torch_build", _never_probed_here)
    monkeypatch.setattr(queries, "machine_answer", _never_probed_here)
    kernel_devices().set_torch(None)  # as no kernel has said yet
    yield
    kernel_devices().set_devices(cpu_alone())  # the next test's window knows no kernel
    kernel_devices().set_torch(None)


def _items(combo) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_every_device_menu_offers_the_kernels_gpu(qtbot, monkeypatch, no_probe_in_the_window):
    from app.catalog import CATALOG
    from app.recipe.document import Document
    from widgets.common.kernel_hook import KernelHook
    from widgets.ops.param_form import ParamForm
    from widgets.ops.timing_view import TimingView
    from widgets.shell.about import about_text
    from widgets.shell.window_layout import TorchInfo
    from widgets.training.form import SettingsForm
    from widgets.training.loop_bar import LoopBar

    monkeypatch.setattr(session_module, "Kernel", _KernelWithAGpu)
    document = Document()
    form, bar, timing, settings = ParamForm(), LoopBar(), TimingView(document), SettingsForm()
    info = TorchInfo("cpu")
    for widget in (form, bar, timing, settings, info):
        qtbot.addWidget(widget)
    form.set_spec(CATALOG.get("torch.zeros"), [])
    form.set_values({"size": "(2,)", "device": '"cuda"'})  # as a recipe wrote it
    bar.show_state(runnable=True, running=False, paused="", text="", lr=None,
                   lr_editable=False, device="cuda")
    assert [d.id for d in kernel_devices().devices] == ["cpu"]  # until the kernel says
    assert "cuda:0" not in " ".join(_items(form.editor("device")))
    assert timing.caption.text().startswith("Only the CPU")
    assert "PyTorch: starting…" in info.text() and "PyTorch" in about_text(None)

    hook = KernelHook(document)
    with qtbot.waitSignal(kernel_devices().changed, timeout=10_000):
        hook.warm()
    try:
        gpu = Device("cuda:0", "NVIDIA Test GPU")
        assert kernel_devices().devices == [Device("cpu", "Test CPU"), gpu]
        assert hook.session.devices == kernel_devices().devices
        combo = form.editor("device")
        assert "cuda:0 — NVIDIA Test GPU" in _items(combo)
        assert form.values()["device"] == '"cuda"'  # the recipe's text, kept
        assert [bar.device.itemData(i) for i in range(bar.device.count())] == [
            "cpu", "cuda:0", "cuda"]
        assert bar.device.currentData() == "cuda"
        assert "cuda:0 · NVIDIA Test GPU" in _items(settings.editor("device"))
        assert not timing.caption.text().startswith("Only the CPU")
        assert info.text().endswith("devices: cpu, cuda:0")
        assert "torch 9.9.0+test · CUDA 12.9 · " in info.text()  # the kernel's build
        assert "9.9.0+test" in about_text(None) and "12.9" in about_text(None)
        later = ParamForm()  # a menu made after the answer has the GPU from the start
        qtbot.addWidget(later)
        later.set_spec(CATALOG.get("torch.zeros"), [])
        assert "cuda:0 — NVIDIA Test GPU" in _items(later.editor("device"))
    finally:
        hook.close()


def test_a_fresh_kernel_on_another_machine_replaces_the_list(qtbot, monkeypatch,
                                                             no_probe_in_the_window):
    from widgets.ops.param_form import ParamForm

    answer = {"devices": [{"id": "cpu", "name": "Test CPU"}]}

    class _KernelWithoutAGpu(_KernelWithAGpu):
        def send(self, message: object) -> None:
            if isinstance(message, messages.Query) and message.kind == "devices":
                self._said.put(messages.Answer(message.id, answer, ""))

    from app.catalog import CATALOG

    kernel_devices().set_devices([Device("cpu", "Test CPU"), Device("cuda:0", "A GPU")])
    form = ParamForm()
    qtbot.addWidget(form)
    form.set_spec(CATALOG.get("torch.zeros"), [])
    assert "cuda:0 — A GPU" in _items(form.editor("device"))
    monkeypatch.setattr(session_module, "Kernel", _KernelWithoutAGpu)
    session = KernelSession()
    kernel_devices().follow(session)
    try:
        with qtbot.waitSignal(kernel_devices().changed, timeout=10_000):
            session.start()
        assert [d.id for d in kernel_devices().devices] == ["cpu"]
        assert not any("cuda:0" in item for item in _items(form.editor("device")))
    finally:
        session.on_devices(None)
        session.close()


def _cpuinfo_model_name() -> str:
    for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
        if line.lower().startswith("model name"):
            return " ".join(line.split(":", 1)[1].split())
    raise AssertionError("no model name in /proc/cpuinfo")


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="needs /proc/cpuinfo")
def test_the_real_kernel_answers_from_its_own_probe(no_probe_in_the_window):
    session = KernelSession()
    said: list[list[Device]] = []
    session.on_devices(said.append)
    session.start()
    try:
        deadline = time.monotonic() + 120
        while not said:
            assert time.monotonic() < deadline, "the kernel did not say its devices"
            time.sleep(0.05)
    finally:
        session.close()
    expected = ["cpu"] + [f"cuda:{i}" for i in range(torch.cuda.device_count())] + (
        ["mps"] if torch.backends.mps.is_available() else [])
    assert [d.id for d in said[0]] == expected  # on a CPU machine: ["cpu"] alone
    assert said[0][0] == Device("cpu", _cpuinfo_model_name())
    assert session.devices == said[0]
    assert session.torch == TorchBuild(torch.__version__, torch.version.cuda or "")


def test_until_a_kernel_answers_the_menus_list_this_cpu_alone_by_name(qtbot):
    from protocol.devices import cpu_name
    from widgets.common.kernel_devices import KernelDevices

    assert KernelSession().devices == [Device("cpu", cpu_name())]
    assert KernelDevices().devices == [Device("cpu", cpu_name())]


def test_a_device_menu_made_before_the_kernel_answers_keeps_its_choice(
        qtbot, no_probe_in_the_window):
    from app.catalog import CATALOG
    from widgets.ops.param_form import ParamForm

    cpu, gpu = Device("cpu", "CPU"), Device("cuda:0", "A GPU")
    kernel_devices().set_devices([cpu])
    form = ParamForm()
    qtbot.addWidget(form)
    form.set_spec(CATALOG.get("torch.zeros"), [])
    combo = form.editor("device")
    combo.setCurrentIndex(combo.findText("cpu — CPU"))
    with qtbot.waitSignal(kernel_devices().changed):
        kernel_devices().set_devices([cpu, gpu])
    assert _items(combo)[-2:] == ["cpu — CPU", "cuda:0 — A GPU"]
    assert form.values()["device"] == '"cpu"'  # the choice stays
