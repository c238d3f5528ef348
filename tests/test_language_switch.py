"""View > Language switches the whole window at run time, in place, and keeps the work.

The switch installs the translation; every widget sets its texts again on
``QEvent.LanguageChange`` (``widgets.common.retranslate``). The window, its panels and
everything the user made stay: the recipe, undo history, selection, search text,
presenter mode, the training loop.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMainWindow,
    QTabBar,
    QTabWidget,
    QWidget,
)

from app.settings import Settings
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
MENUS = ("&File", "&Edit", "&View", "&Kernel", "&Help")


@pytest.fixture
def english():
    """English to start with, and English again afterwards for the tests that follow."""
    install_translators("en")
    display_scale().set_value(1.0)  # normal size, whatever an earlier test left
    yield
    install_translators("en")
    display_scale().set_value(1.0)


@pytest.fixture
def window(qtbot, english):
    """The lab's window on the welcome recipe, with settings from the test's own QSettings."""
    win = make_window(restore_layout=False, settings=load_settings())
    win.asked = []  # "save changes?" questions: a switch must not ask
    win.confirm_discard = lambda: win.asked.append(True) or True
    win.resize(1100, 700)
    win.show()
    qtbot.waitExposed(win)
    yield win
    for shown in QApplication.topLevelWidgets():
        if isinstance(shown, MainWindow) and shown.isVisible():
            shown.confirm_discard = lambda: True  # the recipe may have unsaved edits
            shown.close()
            shown.deleteLater()


def switch(qtbot, window: MainWindow, code: str) -> MainWindow:
    """Pick ``code`` in View > Language; the window that shows the lab afterwards (the
    same one, in place)."""
    window.window_actions[f"view.language.{code}"].trigger()
    assert window.settings.language == code and window.isVisible()
    return window


def menu_titles(window: MainWindow) -> list[str]:
    return [a.text() for a in window.menuBar().actions() if a.menu() is not None]


def widget_texts(window: QWidget) -> dict[str, str]:
    """Every text ``window`` shows, by where it is: label and button texts, actions' texts
    and tooltips, dock titles, tab texts and tooltips, placeholders, widgets' tooltips."""
    texts: dict[str, str] = {}

    def walk(widget: QWidget, path: str) -> None:
        def put(what: str, text: str) -> None:
            if text:
                texts[f"{path}:{what}"] = text

        put("tip", widget.toolTip())
        put("title", widget.windowTitle() if isinstance(widget, QDockWidget | QMainWindow | QDialog)
            else "")
        if isinstance(widget, QLabel | QAbstractButton):
            put("text", widget.text())
        if isinstance(widget, QLineEdit):
            put("placeholder", widget.placeholderText())
        if isinstance(widget, QTabWidget | QTabBar):
            for i in range(widget.count()):
                put(f"tab{i}", widget.tabText(i))
                put(f"tabtip{i}", widget.tabToolTip(i))
        counts: dict[str, int] = {}
        for child in widget.children():
            if isinstance(child, QAction):
                key = child.objectName() or f"{child.text()}"
                put(f"action[{key}]", child.text() if child.objectName() else "-")
                put(f"action[{key}].tip", child.toolTip())
            if isinstance(child, QTabBar) and isinstance(widget, QMainWindow) \
                    and child.isHidden():
                continue  # a dock tab bar the layout no longer uses (and never updates)
            if isinstance(child, QWidget) and not child.isWindow():
                name = child.objectName() or type(child).__name__
                counts[name] = counts.get(name, 0) + 1
                walk(child, f"{path}/{name}#{counts[name]}")

    walk(window, type(window).__name__)
    return texts


def fresh_window(qtbot, language: str) -> MainWindow:
    """A new window built with ``language`` installed, as the switched one is laid out."""
    install_translators(language)
    win = make_window(restore_layout=False, settings=Settings(language=language))
    qtbot.addWidget(win)
    win.confirm_discard = lambda: True
    win.resize(1100, 700)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(100)  # the dock tab bars show again (``tidy_tab_bars``)
    return win


def settled(qtbot, window: MainWindow) -> MainWindow:
    """``window`` once its kernel has run the recipe and its gallery has read the lessons."""
    from tests.conftest import _settle

    _settle(qtbot, window.document)
    window.gallery.ensure_scanned()
    qtbot.waitUntil(lambda: window.gallery.gallery is not None and not window.gallery.scanning)
    qtbot.waitUntil(lambda: not window.kernel_status.busy_shown)
    return window


def differences(switched: dict[str, str], fresh: dict[str, str]) -> list[str]:
    return [f"{key}: {switched.get(key)!r} != {fresh.get(key)!r}"
            for key in sorted(set(switched) | set(fresh))
            if switched.get(key) != fresh.get(key)]


def test_every_text_after_a_switch_is_the_text_a_new_window_shows(qtbot, window):
    english_texts = widget_texts(settled(qtbot, window))
    shown = switch(qtbot, window, "zh_CN")
    chinese = settled(qtbot, fresh_window(qtbot, "zh_CN"))
    wrong = differences(widget_texts(shown), widget_texts(chinese))
    assert not wrong, "\n".join(wrong)
    chinese.close()
    shown = switch(qtbot, shown, "en")
    wrong = differences(widget_texts(shown), english_texts)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("step", [1, -1])
def test_a_selected_steps_texts_after_a_switch_are_a_new_windows(qtbot, window, step):
    """What the views say of a selected step (the viewer, Op explained, the autograd graph,
    the builder or op form) is said again in the new language."""
    def select(win: MainWindow) -> MainWindow:
        for index in (1, step % len(win.document.recipe.steps)):  # the same path in both
            win.document.select(index)
            settled(qtbot, win)
            qtbot.wait(100)
        return win

    select(settled(qtbot, window))
    shown = switch(qtbot, window, "zh_CN")
    chinese = select(fresh_window(qtbot, "zh_CN"))
    wrong = differences(widget_texts(shown), widget_texts(chinese))
    assert not wrong, "\n".join(wrong)
    chinese.close()


def test_chinese_at_run_time_keeps_the_recipe_undo_history_and_selection(qtbot, window):
    document, stack = window.document, window.undo_stack
    window.steps.list.setCurrentRow(1)
    window.steps.delete_selected()  # an undoable edit: the recipe now has unsaved changes
    document.select(2)
    snapshot, count = document.recipe.snapshot(), stack.count()
    english_title, english_menus = window.windowTitle(), menu_titles(window)
    assert english_menus == list(MENUS) and count == 1

    new = switch(qtbot, window, "zh_CN")

    assert window.asked == []  # no "save changes?" question
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


def test_the_switch_keeps_the_gallery_search(qtbot, window):
    window.show_gallery()
    qtbot.keyClicks(window.gallery.search_edit, "gather")
    new = switch(qtbot, window, "zh_CN")
    assert new.gallery.search_edit.text() == "gather"


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
    assert hook.parent() is new  # still saving the same document
    new.document.recipe.remove(0)
    assert new.document.modified and hook.timer.isActive()
    hook.finish()


def point_sizes(widget: QWidget) -> list[float]:
    return [w.font().pointSizeF() for w in (widget, *widget.findChildren(QWidget))]


def test_presenter_mode_stays_on_across_the_switch(qtbot, window):
    window.views.setCurrentWidget(window.op_view)
    normal = point_sizes(window.op_view)
    window.presenter.set_enabled(True)
    new = switch(qtbot, window, "zh_CN")
    assert new.presenter.enabled and new.window_actions["view.presenter"].isChecked()
    assert display_scale().value == pytest.approx(new.settings.presenter_scale, abs=1e-3)
    assert all(new.docks[key].isHidden() for key in PRESENTER_HIDDEN_DOCKS)
    new.presenter.set_enabled(False)
    assert display_scale().value == 1.0
    assert not new.docks["builder"].isHidden()
    new.views.setCurrentWidget(new.op_view)
    assert point_sizes(new.op_view) == normal  # no presenter-size font left behind


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
    """The loop runs in the kernel: a switch is at once, and the Training tab shows the
    same loop, still training."""
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


@pytest.mark.parametrize("kind", ["shortcuts", "new_training"])
def test_an_open_dialogs_texts_after_a_switch_are_a_new_dialogs(qtbot, window, kind):
    from widgets.shell.shortcuts_dialog import ShortcutsDialog
    from widgets.training.new_dialog import NewTrainingDialog

    make = ShortcutsDialog if kind == "shortcuts" else NewTrainingDialog
    dialog = make(window)
    dialog.show()
    switch(qtbot, window, "zh_CN")
    assert dialog.isVisible()
    fresh = make(window)
    wrong = differences(widget_texts(dialog), widget_texts(fresh))
    assert not wrong, "\n".join(wrong)
    assert _CJK.search(dialog.windowTitle())
    for d in (dialog, fresh):
        d.close()
        d.deleteLater()


def test_an_open_dialog_stays_open_and_speaks_the_new_language(qtbot, window):
    from widgets.shell.actions import show_shortcuts

    dialog = show_shortcuts(window)
    english = dialog.entries()
    switch(qtbot, window, "zh_CN")
    assert dialog.isVisible()
    assert dialog.windowTitle() == QCoreApplication.translate("ShortcutsDialog",
                                                              "Keyboard Shortcuts")
    chinese = dialog.entries()
    assert len(chinese) == len(english) and chinese != english
    assert all(_CJK.search(menu) for menu, _action, _keys in chinese)
    dialog.close()


def test_a_recipe_without_a_lesson_says_so_in_the_new_language(qtbot, window, tmp_path):
    path = tmp_path / "bare.py"
    path.write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    english = window.lesson.browser.toPlainText()
    assert english.startswith("This recipe has no lesson text")
    switch(qtbot, window, "zh_CN")
    assert _CJK.search(window.lesson.browser.toPlainText())
    switch(qtbot, window, "en")
    assert window.lesson.browser.toPlainText() == english


def test_a_loops_picked_iteration_stays_across_the_switch(qtbot, window, tmp_path):
    path = tmp_path / "loop.py"
    path.write_text("for i in range(10):\n    print('step', i)\n", encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    settled(qtbot, window)
    window.document.select(0)
    picker = window.viewer.iterations
    picker.pick(3)
    assert window.viewer.step_text().startswith("In iteration 3 it printed:\nstep 3\n")
    switch(qtbot, window, "zh_CN")
    settled(qtbot, window)
    assert picker.iteration == 3
    assert window.viewer.step_text().startswith("第 3 次迭代打印了：\nstep 3\n")
