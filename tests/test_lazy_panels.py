"""The window builds what its first paint shows; every other panel when first shown or
asked for, in its own place (``widgets.shell.lazy_panels``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget

from widgets.shell.lazy_panels import LazyPanels

HIDDEN_AT_START = ("autograd", "op_view", "storage_view", "training", "ops", "docs",
                   "gallery", "output")


def test_the_first_paint_builds_only_the_panels_it_shows(make_window):
    window = make_window()
    assert not any(window._lazy.is_built(name) for name in HIDDEN_AT_START)
    assert window.views.currentWidget() is window.viewer
    assert window.docks["builder"].widget() is window.builder


def test_a_tab_shown_is_built_in_its_own_place_with_its_title(make_window):
    window = make_window()
    window.views.setCurrentIndex(4)
    assert window._lazy.is_built("training")
    assert window.views.currentWidget() is window.training
    assert window.views.indexOf(window.training) == 4
    assert window.views.tabText(4) == QCoreApplication.translate("TrainingPanel", "Training")


def test_a_panel_asked_for_is_built_and_its_tab_stays_as_it_was(make_window):
    window = make_window()
    op_view = window.op_view  # built by the asking
    assert window.views.indexOf(op_view) == 2 and window.views.currentIndex() == 0
    assert window.views.tabText(2) == QCoreApplication.translate("MainWindow", "Op explained")
    assert window.op_view is op_view  # once


def test_a_dock_raised_builds_its_panel(make_window):
    window = make_window()
    window.docks["gallery"].raise_()
    QCoreApplication.processEvents()
    assert window._lazy.is_built("gallery")
    assert window.docks["gallery"].widget() is window.gallery


def test_after_the_first_paint_every_panel_is_built_one_per_pass(make_window, qtbot):
    window = make_window()
    window.build_deferred()
    assert sum(window._lazy.is_built(name) for name in HIDDEN_AT_START) == 1
    qtbot.waitUntil(lambda: all(window._lazy.is_built(name) for name in HIDDEN_AT_START))
    assert window.docks["output"].widget() is window.output
    assert [window.views.widget(i) for i in range(5)] == [
        window.viewer, window.autograd, window.op_view, window.storage_view, window.training]


def test_lazy_panels_build_each_panel_once(qtbot):
    made = []
    tabs, dock = QTabWidget(), QDockWidget()
    qtbot.addWidget(tabs)
    qtbot.addWidget(dock)
    lazy = LazyPanels(tabs)
    tabs.addTab(QWidget(), "first")
    lazy.add_tab("page", tabs, lambda: made.append("page") or QWidget())
    lazy.add_dock("side", dock, lambda: made.append("side") or QWidget())
    assert made == []
    page = lazy.get("page")
    assert lazy.get("page") is page and tabs.widget(1) is page
    lazy.build_rest()
    assert made == ["page", "side"] and dock.widget() is lazy.get("side")
