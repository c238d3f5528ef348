"""Everyday polish: drop a recipe to open it, the shortcut list, tooltips, About, status bar."""

from __future__ import annotations

import sys

import pytest
import torch
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication

from widgets.shell.actions import action_table

pytestmark = pytest.mark.gui


def _drop(window, paths: list[str]) -> tuple[bool, bool]:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(p) for p in paths])
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(QPoint(200, 200), actions, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(QPointF(200, 200), actions, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    return enter.isAccepted(), drop.isAccepted()


def test_dropping_a_recipe_file_opens_it(window, tmp_path):
    recipe = tmp_path / "dropped.py"
    recipe.write_text('"""Dropped"""\nimport torch\n\nd = torch.ones(3)\n')
    assert _drop(window, [str(recipe)]) == (True, True)
    assert window.document.path == str(recipe)
    assert window.document.recipe.steps[0].name == "d"
    assert window.recent_files()[0] == str(recipe)


def test_dropping_something_else_is_refused(window, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    before = window.document.recipe.snapshot()
    assert _drop(window, [str(other)]) == (False, False)
    assert window.document.recipe.snapshot() == before


def test_the_shortcut_list_is_read_from_the_actions(window, qtbot):
    from widgets.shell.actions import show_shortcuts

    dialog = show_shortcuts(window)
    qtbot.addWidget(dialog)
    rows = dialog.entries()
    keys: dict[str, str] = {}  # action text -> its keys; a dock toggle may share a name
    for _menu, text, shortcut in rows:
        keys[text] = keys.get(text, "") + ", " + shortcut
    native = QKeySequence.SequenceFormat.NativeText
    for spec in action_table(window):
        action = window.window_actions[spec.key]
        for seq in action.shortcuts():
            assert seq.toString(native) in keys[spec.text.replace("&", "").rstrip(".")]
    assert "F1" in keys["Docs for the Selected Op"]
    assert QKeySequence("Ctrl+=").toString(native) in keys["Zoom In"]
    assert any(r[1] == "Undo" for r in rows)
    dialog.close()


def test_no_two_actions_share_a_shortcut(window):
    seen: dict[str, str] = {}
    for action in window.findChildren(type(window.window_actions["file.new"])):
        for seq in action.shortcuts():
            key = seq.toString()
            assert seen.setdefault(key, action.text()) == action.text(), key


def test_every_action_has_a_tooltip_and_the_toolbar_has_icons(window):
    for key, action in window.window_actions.actions.items():
        assert action.toolTip() and action.toolTip() != action.text(), key
    toolbar = window.window_actions.toolbar
    icons = [a for a in toolbar.actions() if not a.isSeparator()]
    assert len(icons) >= 10 and all(not a.icon().isNull() for a in icons)
    assert toolbar.toolTip()


def _kernel_said_its_torch(qtbot) -> None:
    from widgets.common.kernel_devices import kernel_devices

    qtbot.waitUntil(lambda: kernel_devices().torch is not None, timeout=120_000)


def test_about_lists_every_version(window, qtbot):
    import numpy
    import pyqtgraph

    from widgets.shell.about import about_text

    _kernel_said_its_torch(qtbot)  # torch's version is the kernel's: the window has none
    text = about_text(window)
    for version in (torch.__version__, numpy.__version__, pyqtgraph.__version__,
                    sys.version.split()[0]):
        assert version in text


def test_status_bar_names_device_torch_and_the_selected_shape(window, qtbot):
    _kernel_said_its_torch(qtbot)
    window.document.select_name("noise")
    texts = [w.text() for w in window.statusBar().findChildren(type(window.shape_label))]
    assert any(torch.__version__ in t and "cpu" in t for t in texts)
    assert window.shape_label.text().startswith("4×5 · float32")


def test_viewer_context_menu_offers_the_exports(window):
    texts = [a.text() for a in window.viewer.table_view.actions()]
    assert "Copy as Python" in texts and "Copy as CSV" in texts
    assert window.viewer.table_view.contextMenuPolicy() == \
        Qt.ContextMenuPolicy.ActionsContextMenu
