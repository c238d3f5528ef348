"""A kernel's answer goes to the widget that asked only while that widget is still there.

Answers come back after the question, and the widget that asked may have gone meanwhile
(a panel closes, the window closes): its Python object lives on in
the callback, but its Qt object is deleted, and drawing on it raises. ``while_alive``
wraps the callback so that such an answer is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject


def while_alive(owner: QObject, callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback``, called only while ``owner``'s Qt object exists."""

    def answered(*args: Any, **kwargs: Any) -> Any:
        if shiboken6.isValid(owner):
            return callback(*args, **kwargs)
        return None
    return answered
