"""LayoutFence: a text change that leaves the sizes alone stops at the fence; one that
needs more room still reaches the layouts above it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from widgets.common.layout_fence import LayoutFence

pytestmark = pytest.mark.gui


class LayoutRequests(QObject):
    """Counts the LayoutRequest events ``target`` receives."""

    def __init__(self, target: QObject):
        super().__init__()
        self.count = 0
        target.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def _page(qtbot, fenced: bool) -> tuple[QTabWidget, QLabel]:
    """A tab widget whose page holds a word-wrapped label."""
    content = QWidget()
    label = QLabel("min 0   max 1")
    label.setWordWrap(True)
    column = QVBoxLayout(content)
    column.addWidget(label)
    column.addStretch(1)
    tabs = QTabWidget()
    tabs.addTab(LayoutFence(content) if fenced else content, "page")
    qtbot.addWidget(tabs)
    tabs.resize(400, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    return tabs, label


def _settle(qtbot) -> None:
    qtbot.wait(50)  # posted layout requests are delivered by the event loop


@pytest.mark.parametrize("fenced, reaches_tabs", [(False, True), (True, False)])
def test_a_same_size_text_change_stops_at_the_fence(qtbot, fenced, reaches_tabs):
    tabs, label = _page(qtbot, fenced)
    _settle(qtbot)
    requests = LayoutRequests(tabs)
    label.setText("min 2   max 3")  # same length, same line count
    _settle(qtbot)
    # Without a fence Qt passes the request up whatever the sizes; QTabWidget then
    # repaints itself and the whole page.
    assert (requests.count > 0) is reaches_tabs


def test_text_needing_more_lines_still_gets_them(qtbot):
    # The fence sits in a column at its preferred height, with a label after it: the
    # label moves down only if the fence passed the taller contents on.
    label = QLabel("min 0   max 1")
    label.setWordWrap(True)
    content = QWidget()
    QVBoxLayout(content).addWidget(label)
    window, after = QWidget(), QLabel("after the fence")
    column = QVBoxLayout(window)
    column.addWidget(LayoutFence(content))
    column.addWidget(after)
    column.addStretch(1)
    qtbot.addWidget(window)
    window.resize(400, 500)
    window.show()
    qtbot.waitExposed(window)
    _settle(qtbot)
    top, line = after.y(), label.fontMetrics().height()
    label.setText(" ".join(["a long statistics line"] * 30))  # wraps over several lines
    _settle(qtbot)
    assert label.height() > 3 * line
    assert after.y() > top + 2 * line


def test_the_fence_reports_its_contents_sizes(qtbot):
    content = QWidget()
    content.setMinimumSize(120, 80)
    fence = LayoutFence(content)
    qtbot.addWidget(fence)
    assert fence.minimumSizeHint() == content.minimumSizeHint()
    assert fence.sizeHint() == content.sizeHint()
    fence.resize(300, 200)
    fence.show()
    qtbot.waitExposed(fence)
    assert content.geometry() == fence.rect()
