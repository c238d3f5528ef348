"""The window builds what its first paint shows; every other panel when first shown or
asked for, in its own place (``widgets.shell.lazy_panels``)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget

from widgets.shell.lazy_panels import LazyPanels

HIDDEN_AT_START = ("autograd", "op_view", "storage_view", "training", "ops", "docs",
                   "gallery", "output")


def test_the_first_paint_builds_only_the_panels_it_shows(make_window):
    window = make_window()
    assert not any(window._lazy.is_built(name) for name in HIDDEN_AT_START)
    assert not window.viewer.heatmap_built()  # the viewer shows its grid first
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
    assert window.viewer.heatmap_built()
    assert window.viewer.heatmap_tab.isAncestorOf(window.viewer.heatmap)
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


def test_the_heatmap_tab_shown_builds_the_heatmap_on_the_plane_shown(make_window, qtbot):
    window = make_window()
    window.document.select_name("grid")  # 12 values: dim 0
    viewer = window.viewer
    qtbot.waitUntil(lambda: viewer.table_model.values.size == 12)
    assert not viewer.heatmap_built()
    viewer.set_mode("heatmap")
    assert viewer.heatmap_built() and viewer.heatmap.isVisible()
    qtbot.waitUntil(lambda: viewer.heatmap.values.shape == (1, 12))
    assert viewer.heatmap._plot.getAxis("bottom").labelText == "dim 0"


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: a popup's raise()
def test_a_right_click_on_the_heatmap_offers_the_exports(make_window, qtbot):
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QGraphicsView

    window = make_window()
    viewer = window.viewer
    viewer.set_mode("heatmap")
    view = viewer.heatmap.findChild(QGraphicsView)
    offered = []

    def close_menu():
        menu = QApplication.activePopupWidget()
        offered.extend(a.text() for a in menu.actions())
        menu.close()

    QTimer.singleShot(100, close_menu)
    at = view.viewport().rect().center()
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, at, view.viewport().mapToGlobal(at)))
    assert offered == ["Copy as Python", "Copy as CSV", "Copy Heatmap Image",
                       "Save Heatmap as PNG or SVG..."]
