"""``listen``: a view's connections to the document, which may outlive the view."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject


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
    for signal, ref in refs:
        handler = ref()
        if handler is not None:
            signal.disconnect(handler, missing_ok=True)
