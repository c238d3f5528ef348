"""Help > About: Tensor Lab's version and every library's."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def about_text(window) -> str:
    """The About box: Tensor Lab's version and every library's."""
    import numpy
    import pyqtgraph
    import torch
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    from app import __version__

    cuda = torch.version.cuda if torch.cuda.is_available() else None
    rows = [("Python", sys.version.split()[0]), ("PyTorch", torch.__version__)]
    if cuda:
        rows.append(("CUDA", cuda))
    rows += [("Qt", qVersion()), ("PySide6", pyside_version), ("NumPy", numpy.__version__),
             ("pyqtgraph", pyqtgraph.__version__)]
    table = "".join(f"<tr><td>{name}</td><td>&nbsp;&nbsp;{version}</td></tr>"
                    for name, version in rows)
    return _tr("<b>Tensor Lab</b> {0}<br>A desktop lab for exploring PyTorch."
               "<br><br><table>{1}</table>").format(__version__, table)


def show_about(window) -> None:
    QMessageBox.about(window, _tr("About Tensor Lab"), about_text(window))
