"""Panels built when first needed, so that the window's first paint waits only for what
it shows.

Building every panel before the first paint made a user wait for pages no one sees yet
(the Training tab's plots, the gallery, the Ops form...). ``LazyPanels`` puts an empty
placeholder where such a panel goes, a tab page or a dock's widget, and builds the panel
the first time it is asked for (``get``: ``window.training`` does), shown (its tab made
current, its dock made visible: a restored layout may show any of them at once), or when
``build_rest`` runs: the launcher calls it right after the first paint, and it builds one
panel per pass of the event loop, so the window answers meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSignalBlocker, QTimer
from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget


class LazyPanels(QObject):
    """The lazily built panels of one window, by name."""

    def __init__(self, parent: QObject):
        super().__init__(parent)
        self._builders: dict[str, Callable[[], QWidget]] = {}
        self._placeholders: dict[str, QWidget] = {}
        self._panels: dict[str, QWidget] = {}
        self._places: dict[str, QTabWidget | QDockWidget] = {}

    def add_tab(self, name: str, tabs: QTabWidget, build: Callable[[], QWidget]) -> int:
        """A tab of ``tabs`` for the panel ``build()`` makes; its index. The caller sets
        its texts by index (they stay when the panel takes the placeholder's place)."""
        placeholder = self._hold(name, tabs, build)
        index = tabs.addTab(placeholder, "")
        if len([p for p in self._places.values() if p is tabs]) == 1:
            tabs.currentChanged.connect(lambda _i, t=tabs: self._on_view_tab(t))
        return index

    def add_dock(self, name: str, dock: QDockWidget, build: Callable[[], QWidget]) -> None:
        """``dock`` holds the panel ``build()`` makes."""
        dock.setWidget(self._hold(name, dock, build))
        dock.visibilityChanged.connect(lambda shown: shown and self.get(name))

    def _hold(self, name: str, place, build: Callable[[], QWidget]) -> QWidget:
        self._builders[name] = build
        self._places[name] = place
        self._placeholders[name] = placeholder = QWidget()
        placeholder.setObjectName(f"placeholder_{name}")
        return placeholder

    def is_built(self, name: str) -> bool:
        return name in self._panels

    def get(self, name: str) -> QWidget:
        """The panel ``name``, built now if it was not."""
        panel = self._panels.get(name)
        if panel is None:
            panel = self._panels[name] = self._builders[name]()
            self._put(name, panel)
        return panel

    def build_rest(self) -> None:
        """Build the panels not built yet, one per pass of the event loop."""
        waiting = [name for name in self._builders if name not in self._panels]
        if waiting:
            self.get(waiting[0])
            if len(waiting) > 1:
                QTimer.singleShot(0, self, self.build_rest)

    def _put(self, name: str, panel: QWidget) -> None:
        placeholder, place = self._placeholders.pop(name), self._places[name]
        if isinstance(place, QDockWidget):
            place.setWidget(panel)
        else:
            index, current = place.indexOf(placeholder), place.currentIndex()
            text, tip = place.tabText(index), place.tabToolTip(index)
            with QSignalBlocker(place):  # the same tab: nothing changed for its listeners
                place.removeTab(index)
                place.insertTab(index, panel, text)
                place.setTabToolTip(index, tip)
                place.setCurrentIndex(current)
        placeholder.setParent(None)
        placeholder.deleteLater()

    def _on_view_tab(self, tabs: QTabWidget) -> None:
        current = tabs.currentWidget()
        for name, placeholder in list(self._placeholders.items()):
            if placeholder is current:
                self.get(name)
