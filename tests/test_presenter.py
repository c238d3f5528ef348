"""Presenter mode: --present scales the font, keys step through the recipe, Ctrl+= zooms."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.settings import Settings
from widgets.common.scale import display_scale
from widgets.shell.main_window import MainWindow
from widgets.shell.presenter import ZOOM_STEP

pytestmark = pytest.mark.gui


@pytest.fixture(autouse=True)
def _normal_size(qapp):
    """Every test starts and ends at scale 1: the scale is application-wide."""
    display_scale().set_value(1.0)
    base = QApplication.font().pointSizeF()
    yield base
    display_scale().set_value(1.0)
    assert QApplication.font().pointSizeF() == pytest.approx(base)


def _window(qtbot, present: bool = False) -> MainWindow:
    from widgets.launch import make_window

    window = make_window(restore_layout=False, present=present, settings=Settings())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def test_the_present_flag_reaches_the_window(monkeypatch):
    import widgets.launch
    from widgets.launch import gui_main

    seen = {}
    monkeypatch.setattr(widgets.launch, "launch", lambda recipe, **kw: seen.update(kw) or 0)
    assert gui_main(["--present", "--lang", "zh_CN", "--screenshot", "out.png"]) == 0
    assert seen["present"] is True and seen["lang"] == "zh_CN"
    assert gui_main([]) == 0 and seen["present"] is False and seen["lang"] is None


def test_present_scales_the_font_and_hides_the_editing_panels(qtbot, _normal_size):
    window = _window(qtbot, present=True)
    scale = Settings().presenter_scale
    assert window.presenter.enabled
    assert QApplication.font().pointSizeF() == pytest.approx(_normal_size * scale)
    assert window.viewer.table_view.horizontalHeader().defaultSectionSize() == round(72 * scale)
    assert not window.docks["builder"].isVisible() and not window.docks["ops"].isVisible()
    assert window.docks["steps"].isVisible() and window.docks["code"].isVisible()
    assert window.window_actions["view.presenter"].isChecked()
    # the code pane sets its own (fixed-width) font: it grows too
    assert window.code.editor.font().pointSizeF() > _normal_size

    window.presenter.set_enabled(False)
    assert QApplication.font().pointSizeF() == pytest.approx(_normal_size)
    assert window.docks["builder"].isVisible()
    assert window.viewer.table_view.horizontalHeader().defaultSectionSize() == 72


def test_page_down_selects_the_next_step_and_highlights_it(qtbot):
    window = _window(qtbot, present=True)
    doc = window.document
    doc.select(0)
    qtbot.keyClick(window, Qt.Key.Key_PageDown)
    assert doc.selected == 1
    assert window.steps.list.currentRow() == 1
    selections = window.code.editor.extraSelections()
    cursor = selections[0].cursor
    assert cursor.blockNumber() == window.code.step_line(1)
    assert window.viewer.title_text() == doc.recipe.steps[1].label
    qtbot.keyClick(window, Qt.Key.Key_PageUp)
    assert doc.selected == 0
    qtbot.keyClick(window, Qt.Key.Key_PageUp)  # stays on the first step
    assert doc.selected == 0


def test_alt_page_down_steps_outside_presenter_mode_too(qtbot):
    window = _window(qtbot)
    window.document.select(2)
    qtbot.keyClick(window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)
    assert window.document.selected == 3
    last = len(window.document.recipe.steps) - 1
    window.document.select(last)
    qtbot.keyClick(window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)
    assert window.document.selected == last


def test_ctrl_equals_zooms_in_and_ctrl_minus_zooms_out(qtbot, _normal_size):
    window = _window(qtbot)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert display_scale().value == pytest.approx(ZOOM_STEP, abs=1e-3)
    assert QApplication.font().pointSizeF() == pytest.approx(_normal_size * ZOOM_STEP, rel=1e-3)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert display_scale().value == pytest.approx(1.0, abs=1e-3)


def test_zoom_in_presenter_mode_is_remembered(qtbot):
    window = _window(qtbot, present=True)
    before = window.settings.presenter_scale
    window.presenter.zoom(1)
    assert window.settings.presenter_scale == pytest.approx(before * ZOOM_STEP, abs=1e-3)


def test_plot_lines_and_markers_grow_with_the_scale(qtbot):
    import pyqtgraph as pg

    from widgets.common.theme import series_pen

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    curve = plot.plot([0, 1, 2], [1, 3, 2], pen=series_pen(0, 2.0), symbol="o", symbolSize=8)
    display_scale().set_value(2.0)
    assert curve.opts["pen"].widthF() == pytest.approx(4.0)
    assert curve.opts["symbolSize"] == pytest.approx(16)
    assert series_pen(1, 2.0).widthF() == pytest.approx(4.0)
    display_scale().set_value(1.0)
    assert curve.opts["pen"].widthF() == pytest.approx(2.0)


def test_a_screen_change_keeps_the_window_on_the_screen_and_the_scale(qtbot):
    window = _window(qtbot, present=True)
    screen = window.screen()
    available = screen.availableGeometry().width()
    too_wide = max(available, window.minimumSizeHint().width()) + 500
    window.resize(too_wide, 800)
    window.presenter.on_screen_changed(screen)
    # as narrow as the screen, unless the panels cannot get that narrow
    assert window.width() <= max(available, window.minimumSizeHint().width()) < too_wide
    assert display_scale().value == pytest.approx(Settings().presenter_scale)


def test_the_window_follows_its_screen(qtbot):
    window = _window(qtbot)
    calls = []
    window.presenter.on_screen_changed = calls.append  # type: ignore[method-assign]
    window.windowHandle().screenChanged.emit(window.screen())
    assert calls == [window.screen()]


@pytest.mark.parametrize("start_presenting", [True, False])  # --present, and F5 later
def test_presenter_mode_in_chinese_at_1224x765_shows_a_3x4_grid_and_ten_lines_of_code(
        qtbot, tmp_path, start_presenting):
    from tests.conftest import _settle
    from widgets.launch import make_window
    from widgets.shell.translators import install_translators

    recipe = tmp_path / "grid.py"
    # a class demo of a dozen steps (with two, the steps took less room and the code got
    # its ten lines by chance)
    recipe.write_text("import torch\nx = torch.arange(12.).reshape(3, 4)\n"
                      + "".join(f"y{i} = x * {i}\n" for i in range(1, 12)), encoding="utf-8")
    install_translators("zh_CN")
    try:
        window = make_window(str(recipe), restore_layout=False, present=start_presenting,
                             settings=Settings(language="zh_CN"), trust=True)
        qtbot.addWidget(window)
        window.confirm_discard = lambda: True
        window.resize(1224, 765)
        window.show()
        qtbot.waitExposed(window)
        _settle(qtbot, window.document)
        if not start_presenting:
            qtbot.keyClick(window, Qt.Key.Key_F5)
        assert window.presenter.enabled
        window.document.select(0)  # x (the import is no step)
        table = window.viewer.table_view
        qtbot.waitUntil(lambda: table.model() is not None and table.model().rowCount() == 3
                        and table.model().columnCount() == 4)
        editor = window.code.editor

        def lines_shown() -> float:
            # the lines on screen: a block's height, not the font's (smaller) spacing
            pitch = editor.blockBoundingRect(editor.document().firstBlock()).height()
            return editor.viewport().height() / max(pitch, editor.fontMetrics().lineSpacing())

        qtbot.waitUntil(lambda: lines_shown() >= 10)  # the code: ten lines or more
        assert window.docks["code"].isVisible() and window.docks["steps"].isVisible()
        qtbot.wait(100)
        assert table.isVisible()  # the grid whole: no scroll bar, every cell in view
        assert not table.verticalScrollBar().isVisible()
        assert not table.horizontalScrollBar().isVisible()
        last = table.visualRect(table.model().index(2, 3))
        assert table.viewport().rect().contains(last)
        assert lines_shown() >= 10
        window.presenter.set_enabled(False)  # the code goes back under the views
        assert window.dockWidgetArea(window.docks["code"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    finally:
        install_translators("en")


def test_closing_in_presenter_mode_remembers_the_layout_from_before_it(qtbot):
    from PySide6.QtCore import QByteArray

    window = _window(qtbot, present=True)
    window.save_settings()
    probe = _window(qtbot)
    probe.restoreState(QByteArray(window.settings.window_state))
    assert probe.dockWidgetArea(probe.docks["code"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert not probe.docks["builder"].isHidden()  # the editing panels come back next time
