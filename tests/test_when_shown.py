"""WhenShown: a hidden widget's work waits for its Show; a visible one's runs at once."""

from PySide6.QtWidgets import QLabel, QTabWidget

from widgets.common.when_shown import WhenShown


def test_a_visible_widget_does_the_work_at_once(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    label.show()
    done = []
    later = WhenShown(label, lambda: done.append(label.isVisible()))
    later()
    assert done == [True] and not later.pending


def test_a_hidden_tab_does_the_work_once_when_shown_and_before_its_paint(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    front, back = QLabel("front"), QLabel("back")
    tabs.addTab(front, "front")
    tabs.addTab(back, "back")
    tabs.show()
    qtbot.waitExposed(tabs)
    texts = iter(["one", "two", "three"])
    later = WhenShown(back, lambda: back.setText(next(texts)))
    later()
    later()  # asked twice while hidden: done once
    assert back.text() == "back" and later.pending
    tabs.setCurrentWidget(back)  # shown: the Show event comes before any paint
    assert back.text() == "one" and not later.pending
    later()  # visible now: at once
    assert back.text() == "two"
    tabs.setCurrentWidget(front)
    tabs.setCurrentWidget(back)  # shown again with nothing asked meanwhile: no work
    assert back.text() == "two"
