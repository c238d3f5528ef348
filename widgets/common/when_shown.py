"""Work for a widget's content that waits until the widget is on screen.

A panel behind another dock's tab (or on a hidden page) need not bring its texts up to
date on every run: that costs the run's result its time on the GUI thread, and a label's
new size hint lays out the whole main window again. ``WhenShown`` does the work now when
the widget is on screen, else once, when it next comes on screen (before it is painted):
its ``Show`` event, or its dock's tab chosen (``QDockWidget.visibilityChanged``: a dock
behind another's tab stays "visible" to Qt, with nothing of it on screen). A widget whose
window is not on screen either (being built, or a test's) does the work now.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QDockWidget, QWidget


class WhenShown(QObject):
    """``call()``: run ``work`` now, unless ``widget`` is off screen in a window on screen:
    then when it next comes on screen."""

    def __init__(self, widget: QWidget, work: Callable[[], None]):
        super().__init__(widget)
        self._widget, self._work = widget, work
        self.pending = False  # asked for while off screen: done when it comes on
        self._dock: QDockWidget | None = None  # found when asked: a panel is docked later
        widget.installEventFilter(self)

    def __call__(self) -> None:
        if self._on_screen():
            self.pending = False
            self._work()
        else:
            self.pending = True

    def _on_screen(self) -> bool:
        widget = self._widget
        if not widget.window().isVisible():
            return True  # nothing is on screen yet: no Show will say when
        if not widget.isVisible():
            return False
        dock = _dock_of(widget)
        if dock is not self._dock:  # its tab chosen says when it is on screen again
            if self._dock is not None:
                self._dock.visibilityChanged.disconnect(self._on_dock_visibility)
            self._dock = dock
            if dock is not None:
                dock.visibilityChanged.connect(self._on_dock_visibility)
        return dock is None or not dock.visibleRegion().isEmpty()

    def _catch_up(self) -> None:
        if self.pending and self._on_screen():
            self.pending = False
            self._work()

    def _on_dock_visibility(self, visible: bool) -> None:
        if visible:
            self._catch_up()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Show and watched is self._widget:
            self._catch_up()
        return False


def _dock_of(widget: QWidget) -> QDockWidget | None:
    while widget is not None and not isinstance(widget, QDockWidget):
        widget = widget.parentWidget()
    return widget
