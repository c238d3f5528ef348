"""The devices the window's kernel can use, and its torch build, for every device menu of
the window, its status bar and About box.

The kernel's session asks each kernel it starts (``KernelSession.devices`` and
``torch``); a ``KernelHook`` has ``kernel_devices()`` follow its session, and the menus
show ``kernel_devices().devices`` and follow ``changed``. Until a kernel answers, the list
is this machine's CPU alone and ``torch`` is None: the window never imports torch to
probe for devices or to name its build.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from protocol.devices import Device, TorchBuild, cpu_alone


class KernelDevices(QObject):
    """The devices of the kernel's machine, as its last kernel said, ``cpu`` first, and
    the kernel's torch build."""

    changed = Signal()
    """Emitted on the GUI thread when the kernel's devices or torch build differ from
    those known before."""

    _answered = Signal(list, object)  # from the session's thread: queued to this object's

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._devices: list[Device] = cpu_alone()
        self._torch: TorchBuild | None = None
        self._answered.connect(self._on_answered)

    @property
    def devices(self) -> list[Device]:
        """A copy of the list, ``cpu`` first."""
        return list(self._devices)

    @property
    def torch(self) -> TorchBuild | None:
        """The kernel's torch build; None until a kernel has said (it is starting)."""
        return self._torch

    def follow(self, session: Any, elsewhere: bool = False) -> None:
        """List what ``session``'s kernels say (``KernelSession.on_devices``), starting
        with what it knows now. ``elsewhere``: its kernels run on another machine than
        the last session's (Kernel > Run On): what that one said is not known of it,
        and until its kernel says, torch shows as starting."""
        session.on_devices(lambda devices: self._answered.emit(devices, session.torch))
        if elsewhere:
            self.set_torch(session.torch)
            self.set_devices(session.devices)
        else:
            self._on_answered(session.devices, session.torch)

    def _on_answered(self, devices: list[Device], torch: TorchBuild | None) -> None:
        if torch is not None:  # (a kernel that has not said keeps the last one's)
            self.set_torch(torch)
        self.set_devices(devices)

    def set_torch(self, torch: TorchBuild | None) -> None:
        """Name ``torch`` the kernel's build (None: not known yet); ``changed`` when it
        differs from the one there was."""
        if torch != self._torch:
            self._torch = torch
            self.changed.emit()

    def set_devices(self, devices: list[Device]) -> None:
        """List ``devices``; ``changed`` when they differ from the list there was."""
        if list(devices) != self._devices:
            self._devices = list(devices)
            self.changed.emit()


_devices: KernelDevices | None = None


def kernel_devices() -> KernelDevices:
    """The application's one ``KernelDevices`` (made on first use)."""
    global _devices
    if _devices is None:
        _devices = KernelDevices(QCoreApplication.instance())
    return _devices
