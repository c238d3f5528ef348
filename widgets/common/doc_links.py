"""``listen``: a view's connections to the document, which may outlive the view."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject, QTimer


def listen(owner: QObject, links: Iterable[tuple[Any, Callable[..., Any]]],
           connect: bool) -> None:
    """Connect each ``(signal, handler)`` of ``links``, or disconnect it.

    The document can outlive the C++ half of ``owner`` while Python still holds its
    wrapper, so once connected, Qt's destruction of ``owner`` drops the connections too.
    That hook holds the handlers weakly: it never keeps the view alive.
    """
    links = list(links)
    for signal, handler in links:
        if connect:
            signal.connect(handler)
        else:
            signal.disconnect(handler, missing_ok=True)
    if connect:
        refs = [(signal, weakref.WeakMethod(handler)) for signal, handler in links]
        owner.destroyed.connect(functools.partial(_drop, refs))


def _drop(refs: list[tuple[Any, weakref.WeakMethod]]) -> None:
    handlers = [(signal, ref()) for signal, ref in refs]
    for signal, handler in handlers:
        if handler is not None:
            signal.disconnect(handler, missing_ok=True)
    # Not released here: the last reference to a handler's object may go with it, and
    # deleting a Qt object while Qt emits ``destroyed`` can wait forever on the lock Qt
    # holds for the object being destroyed (both come from one pool of mutexes).
    QTimer.singleShot(0, handlers.clear)


class FollowsDocument:
    """A view or controller that follows the document (mixed in before its Qt class).

    It names its links once, in ``_model_links``; ``_set_model_connected`` connects or
    drops them (through ``listen``), ``detach`` drops them for good when the window that
    shows it retires, and a widget's ``closeEvent`` drops them when it closes.
    """

    def _model_links(self) -> Iterable[tuple[Any, Callable[..., Any]]]:
        """Each ``(document signal, handler)`` this follows."""
        raise NotImplementedError

    def _set_model_connected(self, connect: bool) -> None:
        """Connect to (or disconnect from) the document: the one place it listens."""
        listen(self, self._model_links(), connect)  # type: ignore[arg-type]

    def detach(self) -> None:
        """Stop following the document, for good: the window that shows this retires."""
        self._set_model_connected(False)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._set_model_connected(False)
        super().closeEvent(event)  # type: ignore[misc]
