"""A language switch makes the main window again: what carries over, and how the old one goes.

``MainWindow.switch_language`` asks ``LanguageSwitch``, which installs the translation and
has the window ``rebuild`` itself (a training loop goes on: it runs in the kernel, which
the new window takes over). ``hand_over`` gives the new window the old one's place and
state; ``detach_panels`` lets the old panels go of the shared document.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMainWindow, QWidget

from widgets.common.scale import display_scale
from widgets.shell.autosave_hook import AutosaveHook
from widgets.shell.dock_layout import tidy_tab_bars

if TYPE_CHECKING:
    from widgets.shell.main_window import MainWindow

#: Windows made by ``MainWindow.rebuild``. Python owns a top-level widget, so something must
#: hold each one until Qt destroys it (napari's ``_QtMainWindow._instances`` does the same).
_REBUILT: list[QMainWindow] = []


@runtime_checkable
class Detachable(Protocol):
    """A panel that follows the shared document until told to stop."""

    def detach(self) -> None:
        """Stop following the document, for good."""


def detach_panels(window: QWidget) -> None:
    """Have every panel in ``window`` let go of the shared document (and settings)."""
    for child in window.findChildren(QWidget):
        if isinstance(child, Detachable):
            child.detach()


def hand_over(old: MainWindow, new: MainWindow, presenting: bool) -> None:
    """Give ``new`` the place and state of ``old``, which it replaces, and show it.

    The geometry, the panel layout, the view tab, the training loop shown and the
    autosave; then presenter mode (``presenting``: it was on) or the zoom.
    """
    _REBUILT.append(new)
    new.destroyed.connect(functools.partial(_forget_window, id(new)))
    new.restoreGeometry(old.saveGeometry())  # the screen, maximized or full screen
    if not old.windowState() & (Qt.WindowState.WindowMaximized
                                | Qt.WindowState.WindowFullScreen):
        new.setGeometry(old.geometry())  # exactly, even where it overhangs the screen
    new.restoreState(old.saveState())
    tidy_tab_bars(new)
    new.views.setCurrentIndex(old.views.currentIndex())
    new.training.shown_index = old.training.shown_index
    for hook in old.findChildren(AutosaveHook, options=Qt.FindChildOption.FindDirectChildrenOnly):
        hook.setParent(new)
    if old.isVisible():
        new.show()  # before the old one hides: the application is never without a window
    if presenting:
        new.presenter.set_enabled(True)
    elif display_scale().value != 1.0:
        display_scale().reapply()  # the zoom, for the new widgets' own fonts and plots


def _forget_window(key: int) -> None:
    _REBUILT[:] = [w for w in _REBUILT if id(w) != key]


class LanguageSwitch(QObject):
    """Switches ``window`` to another language: installs the translation, and has the
    window ``rebuild`` itself in it.

    Parameters
    ----------
    window : MainWindow
        Also the Qt parent.
    """

    def __init__(self, window: MainWindow):
        super().__init__(window)
        self._window = window

    def switch(self, language: str) -> MainWindow | None:
        """What ``MainWindow.switch_language`` does: the new window."""
        from widgets.shell.translators import install_translators

        install_translators(language)
        return self._window.rebuild()
