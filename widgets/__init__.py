"""Tensor Lab's Qt views. Only this package imports PySide6 and pyqtgraph."""
