"""Work for a widget's content that waits until the widget is on screen.

A panel behind another dock's tab (or a page of a hidden tab) need not bring its texts
up to date on every run: that costs the run's result its time on the GUI thread, and a
label's new size hint lays out the whole main window again. ``WhenShown`` does the work
now when the widget is visible, else once, when it is next shown (before it is painted).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class WhenShown(QObject):
    """``call()``: run ``work`` now if ``widget`` is visible, else when it is next shown."""

    def __init__(self, widget: QWidget, work: Callable[[], None]):
        super().__init__(widget)
        self._widget, self._work = widget, work
        self.pending = False  # asked for while hidden: done at the next Show
        widget.installEventFilter(self)

    def __call__(self, *_args) -> None:
        if self._widget.isVisible():
            self.pending = False
            self._work()
        else:
            self.pending = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Show and self.pending and watched is self._widget:
            self.pending = False
            self._work()
        return False
