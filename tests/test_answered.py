"""``while_alive``: a kernel's answer reaches the widget that asked only while it exists."""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QWidget

from widgets.common.answered import while_alive


def test_an_answer_for_a_deleted_widget_is_dropped(qtbot):
    owner = QWidget()
    got: list = []
    answer = while_alive(owner, lambda data, error: got.append((data, error)))
    answer({"a": 1}, "")
    assert got == [({"a": 1}, "")]
    shiboken6.delete(owner)  # as a language switch deletes the old window's views
    answer({"a": 2}, "")  # the answer that was on its way
    assert got == [({"a": 1}, "")]

