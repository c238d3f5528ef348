"""The base of the per-op extras of "Op explained", and what they add to its grids."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.explain.step_view import StepView
from app.recipe.document import Document
from widgets.common.retranslate import translated


@dataclass
class Decoration:
    """What an extra adds to the grids: all per output element, in the output's shape."""

    greyed: np.ndarray | None = None
    labels: np.ndarray | None = None
    diagonal: int | None = None
    tints: dict[str, int] = field(default_factory=dict)
    """Input cards (by label) to colour whole, with a palette number."""


class OpExtra(QWidget):
    """The base of every extra: a widget updated with ``show_step``.

    Parameters
    ----------
    document : Document
    undo_stack : QUndoStack or None
        Where an extra's edits of the step go (the tril slider).
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: self.caption.setToolTip(self.tr("What the drawing shows")))
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)

    def title(self) -> str:
        return ""

    def _beside(self, drawing: QWidget) -> None:
        """Lay ``drawing`` out with the caption to its right, where a wide view has room."""
        row = QHBoxLayout()
        row.addWidget(drawing, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.caption, 1, Qt.AlignmentFlag.AlignVCenter)
        self.box.addLayout(row)

    def show_step(self, sv: StepView) -> Decoration:
        """Update for ``sv``; return what to draw on the grids."""
        raise NotImplementedError
