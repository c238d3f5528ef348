"""Tensor Lab's Qt views. Only this package imports PySide6 and pyqtgraph."""

import os

# superqt (background jobs) reaches Qt through qtpy, which must pick the lab's binding.
os.environ.setdefault("QT_API", "pyside6")
