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


def test_a_widget_whose_window_is_not_shown_does_the_work_at_once(qtbot):
    """Being built, or a test's panel never shown: nothing waits for a Show."""
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    back = QLabel("back")
    tabs.addTab(QLabel("front"), "front")
    tabs.addTab(back, "back")
    later = WhenShown(back, lambda: back.setText("done"))
    later()
    assert back.text() == "done" and not later.pending


def test_a_dock_behind_another_docks_tab_waits_until_its_tab_is_chosen(qtbot):
    """Qt keeps a tabbed dock "visible" behind the current one: nothing of it is on
    screen, so its work waits for its tab."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QLabel("centre"))
    docks = {}
    for name in ("front", "back"):
        docks[name] = QDockWidget(name, window)
        docks[name].setWidget(QLabel(name))
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, docks[name])
    window.tabifyDockWidget(docks["front"], docks["back"])
    window.resize(600, 400)
    window.show()
    qtbot.waitExposed(window)
    docks["front"].raise_()
    qtbot.wait(10)
    back = docks["back"].widget()
    assert back.isVisible()  # as far as Qt's flag goes
    later = WhenShown(back, lambda: back.setText("done"))
    later()
    assert back.text() == "back" and later.pending
    docks["back"].raise_()  # its tab chosen
    qtbot.waitUntil(lambda: back.text() == "done")
    assert not later.pending
