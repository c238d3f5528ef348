"""Help > Keyboard Shortcuts: every shortcut of the window, read from its menus and actions.

The list is generated from the live ``QAction`` objects, so it cannot drift from
what the keys really do.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from widgets.common.retranslate import translated


@dataclass(frozen=True)
class ShortcutEntry:
    """One row of the list: where the action lives, what it is called, its keys."""

    menu: str
    action: str
    keys: str
    tip: str = ""


def shortcut_entries(window: QMainWindow) -> list[ShortcutEntry]:
    """Every action with a shortcut in ``window``'s menus, then in the window itself."""
    entries: list[ShortcutEntry] = []
    seen: set[int] = set()

    def visit(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.menu() is not None:
                sub = action.menu()
                visit(sub, f"{path} › {_plain(sub.title())}")
            elif not action.isSeparator():
                add(action, path)

    def add(action: QAction, where: str) -> None:
        if id(action) in seen:
            return
        seen.add(id(action))
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
        keys = [k for k in keys if k]
        if keys:
            entries.append(ShortcutEntry(where, _plain(action.text()), ", ".join(keys),
                                         action.toolTip()))

    for top in window.menuBar().actions():
        if top.menu() is not None:
            visit(top.menu(), _plain(top.menu().title()))
    for action in window.actions():
        add(action, QCoreApplication.translate("ShortcutsDialog", "Window"))
    return entries


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".").rstrip("…")


class ShortcutsDialog(QDialog):
    """A table of the window's keyboard shortcuts."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None):
        super().__init__(parent if parent is not None else window)
        translated(self, lambda: self.setWindowTitle(self.tr("Keyboard Shortcuts")))
        entries = shortcut_entries(window)
        self.table = QTableWidget(len(entries), 3, self)
        translated(self, lambda: (
            self.table.setHorizontalHeaderLabels([self.tr("Menu"), self.tr("Action"),
                                                  self.tr("Keys")])))
        translated(self, lambda: (
            self.table.setToolTip(self.tr("Every keyboard shortcut, from the window's menus"))))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        translated(self, lambda: self._fill(window))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        translated(self, lambda buttons=buttons: buttons.setToolTip(self.tr("Close this list")))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        height = self.table.verticalHeader().length() + header.height() + 80
        self.resize(max(640, self.table.horizontalHeader().length() + 40),
                    min(720, max(320, height)))

    def _fill(self, window: QMainWindow) -> None:
        """The rows, in the UI's language (the window's actions are renamed first)."""
        for row, entry in enumerate(shortcut_entries(window)):
            for col, text in enumerate((entry.menu, entry.action, entry.keys)):
                item = QTableWidgetItem(text)
                if entry.tip:
                    item.setToolTip(entry.tip)
                self.table.setItem(row, col, item)

    def entries(self) -> list[tuple[str, str, str]]:
        return [tuple(self.table.item(r, c).text() for c in range(3))  # type: ignore[misc]
                for r in range(self.table.rowCount())]
