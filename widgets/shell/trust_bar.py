"""The bar over the window that says a recipe came from elsewhere, or why a file did not open.

Passive: it shows what the window tells it and emits what the user chose. It never
waits for a click (a ``--screenshot`` renders it like any other widget).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from widgets.common.bounded_text import bounded
from widgets.common.retranslate import translated
from widgets.common.theme import role_style, set_style_sheet


class TrustBar(QFrame):
    """"This recipe came from elsewhere" with Run and Always run; or a file's problem."""

    run_requested = Signal()
    """Emitted when the user chooses Run: the held recipe may run now."""
    always_requested = Signal()
    """Emitted when the user chooses "Always run this file" (it runs now, and from now on)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("trustBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self._message: Callable[[], str] = str  # what the message says, in the UI's language
        translated(self, lambda: self.message.setText(self._message()))
        self.run_button = QPushButton()
        translated(self, lambda: self.run_button.setText(self.tr("Run")))
        translated(self, lambda: self.run_button.setToolTip(self.tr(
            "Run this recipe's Python code now, this once. Its values then show.")))
        self.always_button = QPushButton()
        translated(self, lambda: self.always_button.setText(self.tr("Always run this file")))
        translated(self, lambda: self.always_button.setToolTip(self.tr(
            "Run it now, and every time this file opens from now on.")))
        self.close_button = QPushButton()
        translated(self, lambda: self.close_button.setText(self.tr("Close")))
        translated(self, lambda: self.close_button.setToolTip(self.tr("Hide this message.")))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.message, 1)
        for button in (self.run_button, self.always_button, self.close_button):
            layout.addWidget(button)
        self.run_button.clicked.connect(self.run_requested)
        self.always_button.clicked.connect(self.always_requested)
        self.close_button.clicked.connect(self.hide)
        self.hide()

    def show_untrusted(self, path: str | None) -> None:
        """Say that ``path`` came from elsewhere and waits for Run (None: restored work
        with no file of its own, which this lab did not see run)."""
        if path is None:
            self._say(lambda: self.tr(
                "The restored recipe did not come from this lab. Running it runs its Python "
                "code on this computer."))
        else:
            self._say(lambda: self.tr(
                "{0}: this recipe came from elsewhere. Running it runs its Python code on "
                "this computer.").format(os.path.basename(path)))
        self._show(untrusted=True)
        self.always_button.setVisible(path is not None)  # no file to remember

    def show_problem(self, path: str, problem: str) -> None:
        """Say why ``path`` could not be opened as a recipe (the window keeps what it had)."""
        self._say(lambda: self.tr("{0} did not open: {1}").format(
            os.path.basename(path), bounded(problem, 3)))
        self._show(untrusted=False)

    def show_unreadable(self, path: str, problem: str) -> None:
        """Say why ``path``, whose text the window shows, cannot be read as Python."""
        self._say(lambda: self.tr(
            "{0} cannot be read as Python, so nothing of it runs: {1}").format(
            os.path.basename(path), bounded(problem, 3)))
        self._show(untrusted=False)

    def _say(self, message: Callable[[], str]) -> None:
        self._message = message
        self.message.setText(message())

    def _show(self, untrusted: bool) -> None:
        set_style_sheet(self.message, role_style("warning" if untrusted else "error"))
        self.run_button.setVisible(untrusted)
        self.always_button.setVisible(untrusted)
        self.close_button.setVisible(not untrusted)
        self.show()
