"""Kernel > Run On, and its toolbar button: where the window's recipes run.

"This Computer", each server added (``Settings.servers``, remembered), and "Add a
Server..." (``widgets.shell.server_dialog``). Choosing one starts a kernel there (the
window's session is replaced: ``KernelHook.use``) and runs the recipe in it, unless the
trust rule holds the recipe; the choice is remembered (``Settings.run_on``) and, for the
next start, used unless ``tensor-lab --kernel`` says otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QMenu, QToolButton, QWidgetAction

from app.link.places import chosen, run_on, transport
from widgets.common.icons import icon
from widgets.common.retranslate import translated
from widgets.shell.settings_store import save_settings

if TYPE_CHECKING:
    from PySide6.QtGui import QAction, QActionGroup

    from app.link.address import SshTarget


def _tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # (lupdate files _tr calls under "")


def remembered(urls: list[str]) -> list[SshTarget]:
    """The servers of ``Settings.servers`` that read as addresses (a damaged entry is
    left out, never an error)."""
    from app.link.address import parse_target

    found = []
    for url in urls:
        try:
            target = parse_target(url)
        except ValueError:
            continue
        if target not in found:
            found.append(target)
    return found


class RunOn(QObject):
    """The Run On menu (first in the Kernel menu) and the toolbar's button for it."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        settings = window.settings
        if chosen() is None and settings.run_on:  # (``--kernel`` chose already)
            saved = remembered([settings.run_on])
            run_on(saved[0] if saved else None)
        self.menu = QMenu(window)
        self.menu.setToolTipsVisible(True)
        self.menu.aboutToShow.connect(self._fill)
        kernel_menu = window.window_actions.menus["kernel"]
        first = kernel_menu.actions()[0] if kernel_menu.actions() else None
        kernel_menu.insertMenu(first, self.menu)
        if first is not None:
            kernel_menu.insertSeparator(first)
        self.button = QToolButton()
        self.button.setMenu(self.menu)
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setIcon(icon("server"))
        self.menu.setTitle(" ")  # (filled as it opens: nothing of it before the first paint)
        self.menu.addAction(" ")
        self.action = QWidgetAction(window)  # (its texts set before the toolbar has it)
        self.action.setDefaultWidget(self.button)
        self.action.setIcon(self.button.icon())
        self._set_texts()
        window.window_actions.toolbar.addAction(self.action)
        translated(window, self._set_texts, now=False)

    def _set_texts(self) -> None:
        self.menu.setTitle(_tr("Run &On"))
        where = chosen()
        self.button.setText(_tr("Run on: {0}").format(where) if where is not None
                            else _tr("Run on: this computer"))
        self.button.setToolTip(_tr("Where the recipe runs: this computer, or a server you "
                                   "reach with ssh (its Python, torch and GPUs)"))
        self._window.window_actions["file.download"].setEnabled(where is not None)
        if self.action.text() != self.button.text():
            self.action.setText(self.button.text())
            self.action.setToolTip(self.button.toolTip())

    def _fill(self) -> None:
        """The menu's entries, as the settings stand now."""
        from PySide6.QtGui import QActionGroup

        self.menu.clear()
        group = QActionGroup(self.menu)
        here = self._entry(_tr("This &Computer"), None, group)
        here.setToolTip(_tr("Run recipes in a kernel on this computer"))
        for target in remembered(self._window.settings.servers):
            entry = self._entry(str(target) if target.python == "python3"
                                else f"{target}  ({target.python})", target, group)
            entry.setToolTip(_tr("Run recipes on {0} over ssh, with {1} there").format(
                target, target.python))
        self.menu.addSeparator()
        add = self.menu.addAction(_tr("&Add a Server…"))
        add.setToolTip(_tr("Add a server you reach with ssh; its Python and torch are "
                           "checked first"))
        add.triggered.connect(self.add_server)
        if chosen() is not None:
            forget = self.menu.addAction(_tr("&Forget {0}").format(chosen()))
            forget.setToolTip(_tr("Take this server off the list and run here again"))
            forget.triggered.connect(self.forget)
        self._set_texts()

    def _entry(self, text: str, target: SshTarget | None, group: QActionGroup) -> QAction:
        entry = self.menu.addAction(text)
        entry.setCheckable(True)
        entry.setChecked(target == chosen())
        group.addAction(entry)
        entry.triggered.connect(lambda _=False, t=target: self.choose(t))
        return entry

    def choose(self, target: SshTarget | None) -> None:
        """Run the recipes on ``target`` (None: this computer) from now on: a kernel
        starts there and runs the recipe (unless it is held), and the choice is kept."""
        if target == chosen():
            return
        from app.link.session import KernelSession
        from widgets.common.kernel_hook import VIEW_QUERIES

        run_on(target)
        window = self._window
        window.settings.run_on = target.url() if target is not None else ""
        save_settings(window.settings)
        session = KernelSession(query_modules=VIEW_QUERIES, transport=transport(target))
        window.kernel_hook.use(session)
        session.start()
        document = window.document
        if not document.held and document.recipe.steps:
            document.run_again()
        self._fill()

    def add_server(self) -> None:
        """Ask for a server, check it, and run there once it is added."""
        from widgets.shell.server_dialog import ServerDialog

        dialog = ServerDialog(self._window)
        if not dialog.exec() or dialog.target is None:
            return
        self.add(dialog.target)

    def add(self, target: SshTarget) -> None:
        """Put ``target`` first in the remembered servers, and run there."""
        settings = self._window.settings
        settings.servers = [target.url()] + [u for u in settings.servers
                                             if remembered([u]) != [target]]
        self.choose(target)
        save_settings(settings)
        self._fill()

    def forget(self) -> None:
        """Take the chosen server off the list, and run on this computer again."""
        gone = chosen()
        settings = self._window.settings
        settings.servers = [u for u in settings.servers if remembered([u]) != [gone]]
        self.choose(None)
        save_settings(settings)
        self._fill()
