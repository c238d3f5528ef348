"""Drag and drop: a recipe file dropped anywhere on the window opens."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QUrl
from PySide6.QtWidgets import QMainWindow


class RecipeDrop(QObject):
    """Lets a recipe file dropped anywhere on the window open, as File > Open would.

    Parameters
    ----------
    window : QMainWindow
        Needs ``open_path(path)`` and ``confirm_discard()``.
    """

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self._window = window
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    @staticmethod
    def recipe_path(mime) -> str | None:
        """The first local ``.py`` file among the dragged URLs, or None."""
        if mime is None or not mime.hasUrls():
            return None
        for url in mime.urls():
            url = QUrl(url)
            if url.isLocalFile() and url.toLocalFile().lower().endswith(".py"):
                return url.toLocalFile()
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if watched is self._window and kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if self.recipe_path(event.mimeData()) is not None:
                event.acceptProposedAction()
                return True
        elif watched is self._window and kind == QEvent.Type.Drop:
            path = self.recipe_path(event.mimeData())
            if path is not None:
                event.acceptProposedAction()
                if self._window.confirm_discard():
                    self._window.open_path(path)
                return True
        return super().eventFilter(watched, event)
