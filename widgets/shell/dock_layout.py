"""Keeps a main window's dock tab bars honest.

With more than one group of tabbed docks, ``QMainWindow`` (Qt 6.11) can leave a tab
bar it no longer uses visible after it builds or restores its layout: a second
"Code | Output" bar drawn over the Code panel's title. ``tidy_tab_bars`` hides every
dock tab bar and lets the layout show again the ones it uses, on the next pass of the
event loop. ``DockTabBarGuard`` does that whenever the window is shown; call
``tidy_tab_bars`` after ``restoreState``.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QMainWindow, QTabBar


def tidy_tab_bars(window: QMainWindow) -> None:
    """Hide the window's dock tab bars; its layout shows the ones in use again."""
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window:  # dock tab bars; tab widgets keep theirs inside
            bar.hide()
    layout = window.layout()
    if layout is not None:
        layout.invalidate()


class DockTabBarGuard(QObject):
    """Tidies ``window``'s dock tab bars each time it is shown."""

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self._window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self._window and event.type() == QEvent.Type.Show:
            tidy_tab_bars(self._window)
        return super().eventFilter(watched, event)
