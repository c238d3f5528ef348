"""The window's actions: menus, toolbar, shortcuts and tooltips come from one table.

``action_table(window)`` (``widgets.shell.action_table``) lists every action once
(``ActionSpec``: where it goes, its text, keys, tooltip, icon and what it calls).
``WindowActions`` turns the table into ``QAction`` objects, the menu bar and the toolbar;
Help > Keyboard Shortcuts reads the same actions back (``widgets.shell.shortcuts_dialog``).
The window imports its actions and the recipe drop from here (the About box, when
asked for, from ``widgets.shell.about``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from widgets.common.icons import icon
from widgets.common.retranslate import translated
from widgets.common.theme import theme_notifier
from widgets.shell.action_table import (
    LANGUAGES,
    MENUS,
    ActionSpec,
    Keys,
    action_table,
    menu_title,
    set_high_contrast,
    set_language,
    set_theme,
    show_docs,
    show_shortcuts,
    step_selection,
)
from widgets.shell.recipe_drop import RecipeDrop

__all__ = [
    "LANGUAGES", "MENUS", "ActionSpec", "RecipeDrop", "WindowActions",
    "action_table", "set_high_contrast", "set_language", "set_theme",
    "show_docs", "show_shortcuts", "step_selection",
]

#: Where the toolbar's groups are separated.
_TOOLBAR_BREAKS = frozenset({"edit.undo", "view.previous_step", "view.presenter"})


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def _keys(shortcuts: Sequence[Keys]) -> list[QKeySequence]:
    out: list[QKeySequence] = []
    for k in shortcuts:
        seqs = QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey) \
            else [QKeySequence(k)]
        for seq in seqs:
            if not seq.isEmpty() and seq not in out and _on_a_keyboard(seq):
                out.append(seq)
    return out


def _on_a_keyboard(seq: QKeySequence) -> bool:
    """False for the bindings of media and launcher keys ("New", "Save", "Zoom In" keys)."""
    key = seq[0].key().value
    return key < 0x01000060  # Qt.Key values above are multimedia and application keys


class WindowActions(QObject):
    """The ``QAction`` objects, menus and toolbar made from ``action_table(window)``.

    ``actions[key]`` is an action, ``menus[path]`` a menu (``"file"``, ``"view/theme"``),
    ``toolbar`` the main toolbar and ``recent_menu`` File > Open Recent.
    """

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self._window = window
        self.specs = action_table(window)
        self.actions: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        self._groups: dict[str, QActionGroup] = {}
        bar = window.menuBar()
        for path in MENUS:
            self.menus[path] = bar.addMenu(menu_title(path))
            self.menus[path].setToolTipsVisible(True)
        self.toolbar = QToolBar(window)
        self.toolbar.setObjectName("toolbar_main")
        self.toolbar.setMovable(False)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)

        for spec in self.specs:
            if spec.key == "file.welcome":
                self.recent_menu = self._menu("file").addMenu("")
                self.recent_menu.setToolTipsVisible(True)
            if spec.key == "edit.move_up":
                self._undo_actions()
            self._add(spec)
            if spec.key == "view.zoom_reset":
                self._dock_toggles()
        theme_notifier().changed.connect(self._on_theme_changed)
        # the table's actions have their texts (``_add``); the rest get theirs now
        self._presenting = False
        self._set_other_texts()
        translated(window, self._set_texts, now=False)

    def _set_texts(self) -> None:
        """The texts of the menus, the toolbar and every action, in the UI's language."""
        for spec in action_table(self._window):
            self._set_action_texts(self.actions[spec.key], spec.text, spec.tip)
        self._set_other_texts()

    def _set_other_texts(self) -> None:
        """The texts of what is not an action of the table: the menus, the toolbar, Undo
        and Redo, the panel switches; the presenter keys' tooltips."""
        for path, menu in self.menus.items():
            menu.setTitle(menu_title(path) if path != "view/panels" else _tr("&Panels"))
        self.recent_menu.setTitle(_tr("Open &Recent"))
        self.toolbar.setWindowTitle(_tr("Main Toolbar"))
        self.toolbar.setToolTip(_tr("The most used actions; View shows or hides it"))
        for key, tip in (("edit.undo", _tr("Undo the last change to the recipe")),
                         ("edit.redo", _tr("Redo the change just undone"))):
            self._set_action_texts(self.actions[key], self.actions[key].text(), tip)
        for key, text in self._stack_texts.items():
            self._on_model_undo_text(key, text)
        for key, dock in getattr(self._window, "docks", {}).items():
            toggle = self.actions[f"view.panel.{key}"]
            toggle.setToolTip(_tr("Show or hide the {0} panel").format(dock.windowTitle()))
            toggle.setStatusTip(toggle.toolTip())
        toolbar = self.toolbar.toggleViewAction()
        toolbar.setText(_tr("&Toolbar"))
        toolbar.setToolTip(_tr("Show or hide the toolbar"))
        self.update_presenter_keys(self._presenting)

    def _set_action_texts(self, action: QAction, text: str, tip: str) -> None:
        action.setText(text)
        tip = tip or text.replace("&", "").rstrip(".")
        action.setToolTip(_with_keys(tip, action))
        action.setStatusTip(tip)

    # -- building ------------------------------------------------------------------------------
    def _menu(self, path: str) -> QMenu:
        if path not in self.menus:
            parent, _, _ = path.rpartition("/")
            self.menus[path] = self._menu(parent).addMenu(menu_title(path))
            self.menus[path].setToolTipsVisible(True)
        return self.menus[path]

    def _add(self, spec: ActionSpec) -> QAction:
        window = self._window
        action = QAction(window)
        action.setObjectName(f"action_{spec.key}")
        action.setShortcuts(_keys(spec.shortcuts))
        # Its texts (``_set_texts`` sets them again, the same: no change) before a menu or
        # the toolbar shows it: set after, each one laid the toolbar out again.
        self._set_action_texts(action, spec.text, spec.tip)
        if spec.icon:
            action.setIcon(icon(spec.icon))
            action.setProperty("icon_name", spec.icon)
        if spec.checkable:
            action.setCheckable(True)
            action.setChecked(spec.checked)
            action.toggled.connect(spec.slot) if not spec.group else \
                action.triggered.connect(spec.slot)
        else:
            action.triggered.connect(lambda _=False, slot=spec.slot: slot())
        if spec.group:
            group = self._groups.setdefault(spec.group, QActionGroup(window))
            group.addAction(action)
        menu = self._menu(spec.menu)
        if spec.separator_before and menu.actions():
            menu.addSeparator()
        menu.addAction(action)
        if spec.toolbar:
            if spec.key in _TOOLBAR_BREAKS and self.toolbar.actions():
                self.toolbar.addSeparator()
            self.toolbar.addAction(action)
        window.addAction(action)  # shortcuts work even with the menu bar hidden
        self.actions[spec.key] = action
        return action

    def _undo_actions(self) -> None:
        # not QUndoStack.createUndoAction: its "&Undo" prefix could not be translated again
        window, stack = self._window, self._window.undo_stack
        undo, redo = QAction(window), QAction(window)
        undo.triggered.connect(stack.undo)
        redo.triggered.connect(stack.redo)
        stack.canUndoChanged.connect(undo.setEnabled)
        stack.canRedoChanged.connect(redo.setEnabled)
        self._stack_texts = {"edit.undo": stack.undoText(), "edit.redo": stack.redoText()}
        stack.undoTextChanged.connect(lambda text: self._on_model_undo_text("edit.undo", text))
        stack.redoTextChanged.connect(lambda text: self._on_model_undo_text("edit.redo", text))
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        for key, action, keys, name in (
                ("edit.undo", undo, QKeySequence.StandardKey.Undo, "undo"),
                ("edit.redo", redo, QKeySequence.StandardKey.Redo, "redo")):
            action.setObjectName(f"action_{key}")
            action.setShortcuts(_keys((keys,)))
            action.setIcon(icon(name))
            action.setProperty("icon_name", name)
            self._menu("edit").addAction(action)
            if key in _TOOLBAR_BREAKS:
                self.toolbar.addSeparator()
            self.toolbar.addAction(action)
            self.actions[key] = action

    def _dock_toggles(self) -> None:
        """View's panel switches: one per dock, Ctrl+1, Ctrl+2..., and the toolbar."""
        view = self._menu("view")
        view.addSeparator()
        panels = view.addMenu("")
        panels.setToolTipsVisible(True)
        self.menus["view/panels"] = panels
        for i, (key, dock) in enumerate(getattr(self._window, "docks", {}).items()):
            toggle = dock.toggleViewAction()
            toggle.setObjectName(f"action_view.panel.{key}")
            if i < 9:
                toggle.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
            panels.addAction(toggle)
            self._window.addAction(toggle)
            self.actions[f"view.panel.{key}"] = toggle
        panels.addSeparator()
        panels.addAction(self.toolbar.toggleViewAction())

    # -- state ---------------------------------------------------------------------------------
    def __getitem__(self, key: str) -> QAction:
        return self.actions[key]

    def _on_model_undo_text(self, key: str, text: str) -> None:
        """Undo's or Redo's text: the command it would undo or redo, as QUndoStack's own
        actions say it (those keep the prefix they were made with, in the first language)."""
        self._stack_texts[key] = text
        prefix = _tr("&Undo") if key == "edit.undo" else _tr("&Redo")
        self.actions[key].setText(f"{prefix} {text}" if text else prefix)

    def update_presenter_keys(self, presenting: bool) -> None:
        """PgDown and PgUp step through the recipe in presenter mode (a clicker's keys)."""
        self._presenting = presenting
        for key, always, presenter in (("view.next_step", "Alt+PgDown", "PgDown"),
                                       ("view.previous_step", "Alt+PgUp", "PgUp")):
            keys = [QKeySequence(presenter)] if presenting else []
            self.actions[key].setShortcuts(keys + [QKeySequence(always)])
            self.actions[key].setToolTip(_with_keys(self.actions[key].statusTip(),
                                                    self.actions[key]))

    def _on_theme_changed(self, _palette) -> None:
        for action in self.actions.values():
            name = action.property("icon_name")
            if name:
                action.setIcon(icon(name))


def _with_keys(tip: str, action: QAction) -> str:
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys else tip
