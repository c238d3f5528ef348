"""Texts that follow the UI's language: written once, set again on a language change.

Installing a translator (``widgets.shell.translators.install_translators``) sends
``QEvent.LanguageChange`` to every top-level widget, which passes it to all its children.
``translated(owner, setter)`` runs ``setter`` now and again each time ``owner`` gets that
event, so a text is written once, where the widget is made::

    translated(self, lambda: self.button.setText(self.tr("Run")))

and a text that depends on state registers the method that renders it::

    translated(self, self._show_state, now=False)

A setter lives as long as its owner (it is kept by a child ``QObject`` of the owner).
QActions and other non-widgets get no events: register them with the widget they belong
to. ``deliver_language_change()`` delivers the posted events at once (they come from the
event loop otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QTabWidget, QWidget

__all__ = ["add_tab", "deliver_language_change", "translated"]


class _Texts(QObject):
    """The text setters of one owner, run in order on its ``LanguageChange``."""

    def __init__(self, owner: QObject):
        super().__init__(owner)
        self.setObjectName(_NAME)
        self.setters: list[Callable[[], object]] = []
        owner.installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt
        if event.type() == QEvent.Type.LanguageChange:
            for setter in list(self.setters):
                setter()
        return False


_NAME = "_retranslate_texts"
_DIRECT = Qt.FindChildOption.FindDirectChildrenOnly


def translated(owner: QObject, setter: Callable[[], object], *, now: bool = True) -> None:
    """Run ``setter`` now (unless ``now`` is False) and on every language change ``owner``
    (a widget) is told of, for as long as ``owner`` lives."""
    texts = owner.findChild(_Texts, _NAME, _DIRECT)
    if texts is None:
        texts = _Texts(owner)
    texts.setters.append(setter)
    if now:
        setter()


def deliver_language_change() -> None:
    """Deliver the posted ``LanguageChange`` events now: every text is in the new language
    when this returns."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)



def add_tab(tabs: QTabWidget, page: QWidget, text: Callable[[], str],
            tip: Callable[[], str] | None = None) -> int:
    """Add ``page`` to ``tabs``; its title ``text()`` and tooltip ``tip()`` are set now and
    on every language change. Returns the tab's index."""
    index = tabs.addTab(page, "")

    def set_texts() -> None:
        at = tabs.indexOf(page)
        tabs.setTabText(at, text())
        if tip is not None:
            tabs.setTabToolTip(at, tip())

    translated(tabs, set_texts)
    return index
