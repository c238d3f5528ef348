"""Help > About: Tensor Lab's version and every library's (torch's as the kernel says)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from widgets.common.kernel_devices import kernel_devices


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def about_text(window) -> str:
    """The About box: Tensor Lab's version and every library's."""
    import numpy
    import pyqtgraph
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    from app import __version__

    rows = [("Python", sys.version.split()[0]), ("PyTorch", _torch_text())]
    torch = kernel_devices().torch
    if torch is not None and torch.cuda and any(
            d.id.startswith("cuda") for d in kernel_devices().devices):
        rows.append(("CUDA", torch.cuda))
    rows += [("Qt", qVersion()), ("PySide6", pyside_version), ("NumPy", numpy.__version__),
             ("pyqtgraph", pyqtgraph.__version__)]
    table = "".join(f"<tr><td>{name}</td><td>&nbsp;&nbsp;{version}</td></tr>"
                    for name, version in rows)
    return _tr("<b>Tensor Lab</b> {0}<br>A desktop lab for exploring PyTorch."
               "<br><br><table>{1}</table>").format(__version__, table)


def _torch_text() -> str:
    """The kernel's torch version (the window has none), or why there is none yet."""
    torch = kernel_devices().torch
    if torch is None:
        return _tr("starting…")
    return torch.version or _tr("not found by the kernel")


def show_about(window) -> None:
    """The About box, as ``QMessageBox.about`` shows it; its text follows the kernel's
    answer while it is open (torch's version comes once the kernel has started)."""
    box = QMessageBox(QMessageBox.Icon.NoIcon, _tr("About Tensor Lab"), about_text(window),
                      QMessageBox.StandardButton.Ok, window)
    icon = window.windowIcon()
    if not icon.isNull():
        box.setIconPixmap(icon.pixmap(64, 64))

    def refresh() -> None:
        box.setText(about_text(window))

    kernel_devices().changed.connect(refresh)
    try:
        box.exec()
    finally:
        kernel_devices().changed.disconnect(refresh)
        box.deleteLater()
