"""``translated``: a text set once, and again on every language change, while its owner lives."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QWidget

from widgets.common.retranslate import deliver_language_change, translated
from widgets.shell.translators import install_translators

pytestmark = pytest.mark.gui


def test_a_text_follows_the_language_while_its_owner_lives(qtbot, chinese):
    install_translators("en")
    owner = QWidget()
    qtbot.addWidget(owner)
    label = QLabel(owner)
    calls = []
    translated(owner, lambda: (calls.append(1),
                               label.setText(QCoreApplication.translate("", "&File"))))
    assert label.text() == "&File" and calls == [1]
    install_translators("zh_CN")
    deliver_language_change()
    assert label.text() == "文件(&F)"
    assert len(calls) == 2  # one LanguageChange, however many translators were swapped
    install_translators("en")
    deliver_language_change()
    assert label.text() == "&File"


def test_a_setter_goes_with_its_owner(qtbot, chinese):
    owner = QWidget()
    qtbot.addWidget(owner)
    gone = QLabel(owner)
    calls = []
    translated(gone, lambda: calls.append(gone.text()), now=False)
    shiboken6.delete(gone)
    install_translators("en")
    deliver_language_change()  # nothing left to call: no "C++ object already deleted"
    assert calls == []
