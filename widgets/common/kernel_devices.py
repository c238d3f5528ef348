"""The devices the window's kernel can use, for every device menu of the window.

The kernel's session asks each kernel it starts (``KernelSession.devices``); a
``KernelHook`` has ``kernel_devices()`` follow its session, and the menus show
``kernel_devices().devices`` and follow ``changed``. Until a kernel answers, the list is
this machine's CPU alone: the window never imports torch to probe for devices.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.devices import Device, cpu_alone


class KernelDevices(QObject):
    """The devices of the kernel's machine, as its last kernel said, ``cpu`` first."""

    changed = Signal()
    """Emitted on the GUI thread when the kernel's devices differ from those listed before."""

    _answered = Signal(list)  # from the session's thread: queued to this object's

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._devices: list[Device] = cpu_alone()
        self._answered.connect(self.set_devices)

    @property
    def devices(self) -> list[Device]:
        """A copy of the list, ``cpu`` first."""
        return list(self._devices)

    def follow(self, session: Any) -> None:
        """List what ``session``'s kernels say (``KernelSession.on_devices``), starting
        with what it knows now."""
        session.on_devices(self._answered.emit)
        self.set_devices(session.devices)

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
