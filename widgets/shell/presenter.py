"""Presenter mode: big text, cells and plot lines for the back row.

It sets the application's display scale (``widgets.common.scale``); the window
re-applies the scale when its screen changes.

``PresenterMode`` is the window's switch: it applies the remembered presenter scale,
optionally the high contrast palette, hides the editing panels (they stay in
View so they can be shown again), and puts the code beside the views, under the steps
and the lesson: the views get the window's whole height (a 3x4 tensor's grid shows whole
on a small projector at 1224x765) and the code at least ``CODE_LINES`` lines. Everything
goes back where it was when presenter mode ends.
"""

from __future__ import annotations

from functools import partial

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
#: The least lines of code presenter mode shows (when the window is tall enough).
CODE_LINES = 10

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
            QTimer.singleShot(0, self, partial(self._widen_side_panels, factor))
        return super().eventFilter(watched, event)

    def _on_view_screen_changed(self, screen: QScreen | None) -> None:
        self.on_screen_changed(screen)

    @property
    def enabled(self) -> bool:
        return self._enabled

    @property
    def state_before(self) -> bytes | None:
        """In presenter mode, the window's layout before it (``saveState``); else None."""
        return self._state_before if self._enabled else None

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
            self._code_beside_views(docks)
            factor = self._settings.presenter_scale / self._scale_before
            if window.isVisible():  # once the moved docks are laid out
                QTimer.singleShot(0, self, partial(self._widen_side_panels, factor))
            else:  # the docks have no size yet: widen them when the window shows
                self._pending_widen = factor
        else:
            scale.set_value(self._scale_before)
            code = docks.get("code")
            if code is not None and code.widget() is not None:
                code.widget().setMinimumHeight(0)
            if self._state_before is not None:
                from PySide6.QtCore import QByteArray

                window.restoreState(QByteArray(self._state_before))
                tidy_tab_bars(window)
        self.toggled.emit(on)

    def _code_beside_views(self, docks: dict) -> None:
        """The code (and its output, tabbed) under the steps and the lesson, on the left:
        at the bottom, it took the height the views need."""
        from PySide6.QtCore import Qt

        code, output = docks.get("code"), docks.get("output")
        above = docks.get("lesson") or docks.get("steps")
        if code is None or above is None:
            return
        self._window.splitDockWidget(above, code, Qt.Orientation.Vertical)
        if output is not None:
            self._window.tabifyDockWidget(code, output)
        code.show()
        code.raise_()
        tidy_tab_bars(self._window)

    def _give_code_its_lines(self) -> None:
        """At least ``CODE_LINES`` lines of code tall, the lesson and the steps sharing the
        rest of the column."""
        from PySide6.QtCore import Qt

        docks = getattr(self._window, "docks", {})
        code, steps, lesson = docks.get("code"), docks.get("steps"), docks.get("lesson")
        editor = getattr(getattr(self._window, "code", None), "editor", None)
        if code is None or steps is None or lesson is None or editor is None:
            return
        column = steps.height() + lesson.height() + code.height()
        # the editor's lines, and what the dock adds around them (title, tabs, frame)
        needed = (CODE_LINES + 1) * line_pitch(editor) \
            + code.height() - editor.viewport().height()
        code_height = min(round(needed), column)
        # a floor, not only a size: a later change of the window's height (a bar that
        # shows) took its pixels from the code first, down to nine lines and a half
        code.widget().setMinimumHeight(min(code_height, column // 2)
                                       - (code.height() - code.widget().height()))
        rest = column - code_height
        self._window.resizeDocks([steps, lesson, code],
                                 [rest // 2, rest - rest // 2, code_height],
                                 Qt.Orientation.Vertical)

    def _widen_side_panels(self, factor: float) -> None:
        """Bigger text needs wider side panels: grow them, up to 40% of the window; the
        code gets its lines."""
        from PySide6.QtCore import Qt

        if not self._enabled:
            return  # (it ended before the window got to this)
        docks = [d for d in getattr(self._window, "docks", {}).values()
                 if d.isVisible() and not d.isFloating()
                 and self._window.dockWidgetArea(d) in (Qt.DockWidgetArea.LeftDockWidgetArea,
                                                        Qt.DockWidgetArea.RightDockWidgetArea)]
        if docks:
            limit = round(self._window.width() * 0.4)
            self._window.resizeDocks(docks, [min(round(d.width() * factor), limit)
                                             for d in docks], Qt.Orientation.Horizontal)
        self._give_code_its_lines()

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


def line_pitch(editor) -> float:
    """The height a line of ``editor``'s code takes on screen: a text block's, which is
    more than the font's line spacing (24 against 25 px in presenter mode), so ten lines
    by the font's spacing showed nine and a half."""
    block = editor.blockBoundingRect(editor.document().firstBlock()).height()
    return max(float(editor.fontMetrics().lineSpacing()), block)
