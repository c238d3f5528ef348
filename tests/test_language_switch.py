"""View > Language switches the whole window at run time, keeps the work, and is remembered.

The switch installs the translation and makes the window again around the same document,
undo stack and settings (``MainWindow.switch_language``, ``MainWindow.rebuild``).
"""

from __future__ import annotations

import re

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from tests.test_autograd import recipe_text
from widgets.common.scale import display_scale
from widgets.launch import make_window
from widgets.shell.autosave_hook import start_autosave
from widgets.shell.main_window import MainWindow
from widgets.shell.presenter import PRESENTER_HIDDEN_DOCKS
from widgets.shell.settings_store import load_settings
from widgets.shell.translators import install_translators

pytestmark = pytest.mark.gui

_CJK = re.compile(r"[\u4e00-\u9fff]")
MENUS = ("&File", "&Edit", "&View", "&Help")


@pytest.fixture
def english():
    """English to start with, and English again afterwards for the tests that follow."""
    install_translators("en")
    display_scale().set_value(1.0)  # normal size, whatever an earlier test left
    yield
    install_translators("en")


_opened: list[MainWindow] = []


@pytest.fixture
def window(qtbot, english):
    """The lab's window on the welcome recipe, with settings from the test's own QSettings.

    Every window a switch makes is closed at the end, as ``qtbot.addWidget`` would (which
    cannot be used: it would close the windows a later switch deleted).
    """
    win = make_window(restore_layout=False, settings=load_settings())
    win.asked = []  # "save changes?" questions: a switch must not ask
    win.confirm_discard = lambda: win.asked.append(True) or True
    win.resize(1100, 700)
    win.show()
    qtbot.waitExposed(win)
    _opened.append(win)
    yield win
    for w in _opened:
        if shiboken6.isValid(w):
            w.confirm_discard = lambda: True  # the recipe may have unsaved edits
            w.close()
            w.deleteLater()
    _opened.clear()
    qtbot.waitUntil(lambda: not any(isinstance(w, MainWindow) and w.isVisible()
                                    for w in QApplication.topLevelWidgets()))


def switch(qtbot, window: MainWindow, code: str) -> MainWindow:
    """Pick ``code`` in View > Language; the new window, once the old one is gone."""
    with qtbot.waitSignal(window.replaced) as blocker:
        window.window_actions[f"view.language.{code}"].trigger()
    new = blocker.args[0]
    _opened.append(new)
    qtbot.waitUntil(lambda: not shiboken6.isValid(window))
    return new


def menu_titles(window: MainWindow) -> list[str]:
    return [a.text() for a in window.menuBar().actions() if a.menu() is not None]


def test_chinese_at_run_time_keeps_the_recipe_undo_history_and_selection(qtbot, window):
    document, stack = window.document, window.undo_stack
    window.steps.list.setCurrentRow(1)
    window.steps.delete_selected()  # an undoable edit: the recipe now has unsaved changes
    document.select(2)
    snapshot, count = document.recipe.snapshot(), stack.count()
    english_title, english_menus = window.windowTitle(), menu_titles(window)
    assert english_menus == list(MENUS) and count == 1

    new = switch(qtbot, window, "zh_CN")

    assert window.asked == []  # closed without a "save changes?" question
    chinese = menu_titles(new)
    assert chinese == [QCoreApplication.translate("", m) for m in MENUS]
    assert "文件(&F)" in chinese
    for text, before in zip([new.windowTitle(), *chinese], [english_title, *english_menus],
                            strict=True):
        assert _CJK.search(text) and text != before, text
    assert new.document is document and new.undo_stack is stack
    assert document.recipe.snapshot() == snapshot and document.modified
    assert new.steps.list.count() == len(document.recipe.steps)
    assert stack.count() == count and new.window_actions["edit.undo"].isEnabled()
    assert document.selected == 2 and new.steps.list.currentRow() == 2
    assert load_settings().language == "zh_CN"  # remembered, read back from the settings
    assert new.window_actions["view.language.zh_CN"].isChecked()
    assert _CJK.search(new.window_actions["view.language.en"].toolTip())

    new.undo_stack.undo()  # the history made in the English window still works
    assert len(document.recipe.steps) == len(snapshot[0]) + 1

    back = switch(qtbot, new, "en")
    assert menu_titles(back) == list(MENUS)
    assert not _CJK.search(back.windowTitle())
    assert back.undo_stack is stack and stack.index() == 0
    assert load_settings().language == "en"


def test_the_layout_view_tab_and_autosave_carry_over(qtbot, window, tmp_path):
    hook = start_autosave(window, tmp_path / "autosave")
    window.docks["docs"].hide()
    window.views.setCurrentIndex(1)  # the autograd graph
    size = window.size()

    new = switch(qtbot, window, "zh_CN")

    assert new.size() == size
    assert new.docks["docs"].isHidden() and not new.docks["steps"].isHidden()
    assert new.views.currentIndex() == 1
    assert new.views.tabText(1) == QCoreApplication.translate("MainWindow", "Autograd graph")
    assert shiboken6.isValid(hook) and hook.parent() is new  # still saving the same document
    new.document.recipe.remove(0)
    assert new.document.modified and hook.timer.isActive()
    hook.finish()


def test_presenter_mode_stays_on_across_the_switch(qtbot, window):
    window.presenter.set_enabled(True)
    try:
        new = switch(qtbot, window, "zh_CN")
        assert new.presenter.enabled and new.window_actions["view.presenter"].isChecked()
        assert display_scale().value == pytest.approx(new.settings.presenter_scale, abs=1e-3)
        assert all(new.docks[key].isHidden() for key in PRESENTER_HIDDEN_DOCKS)
        new.presenter.set_enabled(False)
        assert display_scale().value == 1.0
        assert not new.docks["builder"].isHidden()
    finally:
        display_scale().set_value(1.0)


TRAINING = """\
import torch

w = torch.zeros(3, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.01)
for step in range(10**8):
    optimizer.zero_grad()
    loss = ((w - 1) ** 2).sum()
    loss.backward()
    optimizer.step()
"""


def test_a_training_loop_goes_on_through_the_switch(qtbot, window):
    """The loop runs in the kernel, which the new window takes over: a switch is at once,
    and the new window's Training tab shows the same loop, still training."""
    window.views.setCurrentWidget(window.training)
    window.document.set_source(TRAINING)
    qtbot.waitUntil(lambda: window.training.loop is not None
                    and window.training.loop.steps > 0, timeout=60_000)
    loop = window.training.loop
    new = switch(qtbot, window, "zh_CN")
    assert new.views.currentWidget() is new.training and new.training.loop is loop
    before = loop.steps
    qtbot.waitUntil(lambda: new.training.loop.steps > before + 10, timeout=30_000)
    assert new.training.running and new.training.bar.stop_button.isEnabled()
    new.training.bar.stop_button.click()
    qtbot.waitUntil(lambda: new.document.kernel_run is None, timeout=30_000)
    assert not new.training.running


def test_autograd_lessons_are_shown_translated(qtbot, english, autograd_panel):
    install_translators("zh_CN")
    panel, doc, _ = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        z = x * 3
        y.backward()
        y.backward()
    """), "y")
    error = panel.error_text()
    assert "backward through the graph a second time" in error  # torch's own message
    assert "无法再次遍历这个计算图" in error  # the cause, in Chinese
    assert "retain_graph=True" in error and "out.backward(retain_graph=True)" in error
    assert "The first backward freed" not in error

    doc.select_name("z")  # three elements: backward needs a gradient, explained
    doc.settle()
    assert "z 有 3 个元素" in panel._gradient_why.text()
    panel._hessian_button.click()
    doc.settle()  # the kernel says why it has none
    assert "黑塞矩阵需要只有一个元素的输出" in panel._matrix_caption.text()


def test_autograd_facts_keep_their_height_below_a_long_error(qtbot, english, autograd_panel):
    """The lesson under the graph takes room: the facts scroll, never drawn over each other."""
    install_translators("zh_CN")
    panel, _, _ = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()
    """), "y")
    panel.resize(900, 420)
    qtbot.waitUntil(lambda: panel.height() == 420)
    assert panel.error_text()
    labels = list(panel._fact_labels.values())
    assert all(label.height() >= label.minimumSizeHint().height() for label in labels)
