"""Run by ``test_gc_walks``: widget trees left to the cyclic garbage collector, collected
while a theme change walks every widget.

``python tests/gc_walk_child.py`` prints the number of widgets in one panel and in the
application after, and exits 0 when the walk survives; a walk that lets the collector
free widgets under it crashes the process.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication, QLabel, QTableWidget, QVBoxLayout, QWidget  # noqa: E402

app = QApplication([])

from widgets.common.theme import apply_theme, error_style  # noqa: E402


class Panel(QWidget):
    """A panel kept alive only by a reference cycle; its tables' scroll bars, headers and
    viewports are made by Qt and have no Python wrappers until a walk meets them."""

    def __init__(self) -> None:
        super().__init__()
        self.itself = self
        layout = QVBoxLayout(self)
        label = QLabel("a failure")
        label.setStyleSheet(error_style())
        layout.addWidget(label)
        for _ in range(60):
            layout.addWidget(QTableWidget(2, 2))


apply_theme("light"), apply_theme("dark"), apply_theme("light")  # Qt's lazy enums made now
kept = Panel()
gc.disable()
panels = [Panel() for _ in range(10)]
gc.collect(0)  # everything young moves to the middle generation...
del panels  # ...where the panels are garbage, freed by the next collection of it
gc.set_threshold(600, 0)  # which comes after 600 allocations: in the middle of the walk
gc.enable()
apply_theme("dark")
gc.collect()
print(len(kept.findChildren(QWidget)), len(app.allWidgets()))
