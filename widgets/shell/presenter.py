"""Presenter mode: big text, cells and plot lines for the back row.

It sets the application's display scale (``widgets.common.scale``); the window
re-applies the scale when its screen changes.

``PresenterMode`` is the window's switch: it applies the remembered presenter scale,
optionally the high contrast palette, hides the editing panels (they stay in
View so they can be shown again) and puts them back when presenter mode ends.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QMainWindow

from app.settings import Settings
from widgets.common.scale import display_scale
from widgets.shell.dock_layout import tidy_tab_bars

#: One Ctrl+= or Ctrl+- step.
ZOOM_STEP = 1.15
#: Docks presenter mode hides: the lesson is shown, not built, in front of a class.
PRESENTER_HIDDEN_DOCKS = ("builder", "ops", "docs", "gallery")

class PresenterMode(QObject):
    """Presenter mode of one main window.

    Parameters
    ----------
    window : QMainWindow
        The window; its ``docks`` dict names the panels to hide.
    settings : Settings
        Where the presenter scale and high contrast choice are remembered.
    """

    toggled = Signal(bool)
    """Emitted when presenter mode starts (True) or ends (False)."""

    def __init__(self, window: QMainWindow, settings: Settings):
        super().__init__(window)
        self._window = window
        self._settings = settings
        self._enabled = False
        self._state_before: bytes | None = None
        self._scale_before = 1.0
        self._screen_watched = False
        self._pending_widen: float | None = None
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # The native window exists once the window is shown: follow its screen from then on.
        if (event.type() == QEvent.Type.Show and not self._screen_watched
                and watched is self._window and self._window.windowHandle() is not None):
            self._window.windowHandle().screenChanged.connect(self._on_view_screen_changed)
            self._screen_watched = True
        if event.type() == QEvent.Type.Show and watched is self._window \
                and self._pending_widen is not None:
            factor, self._pending_widen = self._pending_widen, None
            QTimer.singleShot(0, lambda: self._widen_side_panels(factor))
        return super().eventFilter(watched, event)

    def _on_view_screen_changed(self, screen: QScreen | None) -> None:
        self.on_screen_changed(screen)

    @property
    def enabled(self) -> bool:
        return self._enabled

    def set_enabled(self, on: bool) -> None:
        """Start or end presenter mode."""
        if on == self._enabled:
            return
        self._enabled = on
        window, scale = self._window, display_scale()
        docks = getattr(window, "docks", {})
        if on:
            self._state_before = bytes(window.saveState().data())
            self._scale_before = scale.value
            for key in PRESENTER_HIDDEN_DOCKS:
                if key in docks:
                    docks[key].hide()
            scale.set_value(self._settings.presenter_scale)
            factor = self._settings.presenter_scale / self._scale_before
            if window.isVisible():
                self._widen_side_panels(factor)
            else:  # the docks have no size yet: widen them when the window shows
                self._pending_widen = factor
        else:
            scale.set_value(self._scale_before)
            if self._state_before is not None:
                from PySide6.QtCore import QByteArray

                window.restoreState(QByteArray(self._state_before))
                tidy_tab_bars(window)
        self.toggled.emit(on)

    def _widen_side_panels(self, factor: float) -> None:
        """Bigger text needs wider side panels: grow them, up to 40% of the window."""
        from PySide6.QtCore import Qt

        docks = [d for d in getattr(self._window, "docks", {}).values()
                 if d.isVisible() and not d.isFloating()
                 and self._window.dockWidgetArea(d) in (Qt.DockWidgetArea.LeftDockWidgetArea,
                                                        Qt.DockWidgetArea.RightDockWidgetArea)]
        if docks:
            limit = round(self._window.width() * 0.4)
            self._window.resizeDocks(docks, [min(round(d.width() * factor), limit)
                                             for d in docks], Qt.Orientation.Horizontal)

    def zoom(self, steps: int) -> None:
        """Make everything ``ZOOM_STEP`` times bigger per step (negative: smaller)."""
        scale = display_scale()
        scale.set_value(scale.value * ZOOM_STEP ** steps)
        if self._enabled:
            self._settings.presenter_scale = scale.value

    def reset_zoom(self) -> None:
        """Back to the presenter scale in presenter mode, else to normal size."""
        display_scale().set_value(self._settings.presenter_scale if self._enabled else 1.0)

    def on_screen_changed(self, screen: QScreen | None) -> None:
        """Keep the window on the new screen and every size in proportion."""
        if screen is None:
            return
        available = screen.availableGeometry()
        window = self._window
        if not window.isMaximized() and not window.isFullScreen():
            width = min(window.width(), available.width())
            height = min(window.height(), available.height())
            if (width, height) != (window.width(), window.height()):
                window.resize(width, height)
        display_scale().reapply()
