"""End to end: the main window on real recipes, files, undo, settings and a screenshot."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from app.recipe.document import WELCOME, Document
from app.recipe.reader import read_recipe_file, read_step
from widgets.shell.main_window import MainWindow


def test_opens_on_the_welcome_recipe_with_every_panel(window):
    assert window.document.recipe == read_recipe_file(str(WELCOME))
    assert window.code.text() == WELCOME.read_text(encoding="utf-8")  # its own bytes
    assert window.steps.list.count() == len(window.document.recipe.steps)
    assert "Welcome to Tensor Lab" in window.windowTitle()
    assert all(d.isVisible() for d in window.docks.values() if d.objectName() != "dock_output")


def test_code_pane_follows_every_edit_and_undo(window):
    recipe = window.document.recipe
    before = window.code.text()
    window.steps.list.setCurrentRow(1)
    assert window.document.selected == 1
    window.steps.delete_selected()
    assert window.code.text() == recipe.source != before
    window.undo_stack.undo()
    assert window.code.text() == before
    window.undo_stack.redo()
    assert window.code.text() != before


def test_save_then_open_gives_the_same_recipe_and_recent_file(window, tmp_path):
    path = tmp_path / "mine.py"
    window.document.recipe.append(read_step("z = torch.zeros(2, 2)"))
    assert window.document.modified and window.isWindowModified()
    assert window._save_to(str(path))
    assert not window.document.modified
    assert path.read_text() == window.code.text()
    saved = window.document.recipe.snapshot()
    window.document.new()
    assert window.open_path(str(path))
    window.settle()
    assert window.document.recipe.snapshot() == saved
    assert window.recent_files()[0] == str(path)
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    assert python.returncode == 0 and python.stdout == window.document.output


def test_save_on_a_gallery_lesson_asks_where_and_the_lesson_stays_as_shipped(
        window, tmp_path, monkeypatch):
    import os

    import widgets.shell.recipe_files as recipe_files
    from app.resources import RECIPES_DIR

    lesson = RECIPES_DIR / "shape_view.py"
    shipped = lesson.read_bytes()
    assert window.open_path(str(lesson))
    window.document.recipe.append(read_step("z = torch.zeros(2)"))
    asked = []
    mine = tmp_path / "my_view.py"

    def dialog(_parent, _title, start, _filter):
        asked.append(start)
        return str(mine), ""
    monkeypatch.setattr(recipe_files.QFileDialog, "getSaveFileName", dialog)
    assert window.save()
    assert asked == [os.path.join(os.path.expanduser("~"), "shape_view.py")]
    assert lesson.read_bytes() == shipped
    assert mine.read_text(encoding="utf-8") == window.code.text()
    assert window.document.path == str(mine) and not window.document.modified
    assert window.save()  # the user's own copy now: saved in place, nothing asked
    assert len(asked) == 1


def test_show_folder_opens_where_the_recipe_runs(window, tmp_path, monkeypatch):
    """A saved recipe's own folder; a new recipe's or a lesson's work folder, made first."""
    import widgets.shell.recipe_files as recipe_files
    from app.resources import RECIPES_DIR

    shown = []
    monkeypatch.setattr(recipe_files.QDesktopServices, "openUrl",
                        lambda url: shown.append(url.toLocalFile()) or True)
    work = tmp_path / "work"
    window.document.work_folder = str(work)
    window.document.new()
    assert window.show_run_folder() and shown == [str(work)] and work.is_dir()
    assert window.open_path(str(RECIPES_DIR / "tril.py"))
    assert window.show_run_folder() and shown[-1] == str(work)
    mine = tmp_path / "mine" / "recipe.py"
    mine.parent.mkdir()
    assert window._save_to(str(mine))
    assert window.show_run_folder() and shown[-1] == str(mine.parent)
    assert window.window_actions["file.show_folder"].toolTip()
    monkeypatch.setattr(recipe_files.QDesktopServices, "openUrl", lambda url: False)
    assert not window.show_run_folder()  # no file manager: the status bar names the folder
    assert window.statusBar().currentMessage() == f"The recipe runs in {mine.parent}"


def test_a_file_python_cannot_read_shows_its_text_and_undo_cannot_bring_back_another(
        window, tmp_path):
    from widgets.common.undo import push_edit

    push_edit(window.undo_stack, window.document.recipe, lambda r: r.remove(0), "remove")
    assert window.undo_stack.canUndo()  # undo would restore the welcome into the file
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nx = torch.ones(\n")
    assert not window.open_path(str(bad))
    assert window.document.recipe.source == bad.read_text()
    assert window.document.recipe.steps == () and window.document.held
    # said in the window, beside the text, never in a box that waits for a click
    assert window.errors == [] and window.trust_bar.isVisible()
    assert "bad.py cannot be read as Python, so nothing of it runs: Line 2" in \
        window.trust_bar.message.text()
    assert not window.undo_stack.canUndo()
    missing = tmp_path / "missing.py"
    assert not window.open_path(str(missing))  # cannot be read at all: what was stays
    assert window.document.recipe.source == bad.read_text()
    assert "missing.py did not open" in window.trust_bar.message.text()


def test_layout_is_saved_in_qsettings(window, qtbot):
    window.docks["lesson"].hide()
    window.save_settings()
    assert QSettings().value("window/state") is not None
    other = MainWindow(Document())
    qtbot.addWidget(other)
    other.restore_settings()
    other.show()
    assert not other.docks["lesson"].isVisible()


def test_screenshot_has_real_content(tmp_path):
    out = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "widgets", "--screenshot", str(out)],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32,
                           count=image.width() * image.height())
    assert len(np.unique(pixels)) > 200, "looks blank"
    dark = np.count_nonzero((pixels & 0xFFFFFF) < 0x101010)
    assert dark < 0.5 * pixels.size, "mostly black"


def test_editing_an_op_leaves_the_central_tabs_and_the_lesson_alone(window, qtbot):
    # Each edit changes the viewer's code and statistics lines and the op preview. Those
    # must not reach the central QTabWidget (it repaints itself and the whole tensor view
    # on every layout request), nor scroll the lesson back to its top.
    from PySide6.QtCore import QEvent, QObject

    class LayoutRequests(QObject):
        count = 0

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
            self.count += event.type() == QEvent.Type.LayoutRequest
            return False

    doc = window.document
    doc.recipe.append(read_step("m = torch.rand(300, 300)"))
    doc.recipe.append(read_step("low = torch.tril(m, diagonal=0)", ["m"]))
    doc.select_name("low")
    window.docks["ops"].raise_()
    bar = window.lesson.browser.verticalScrollBar()
    bar.setValue(bar.maximum())
    scrolled = bar.value()
    assert scrolled > 0  # the welcome lesson is longer than its pane
    qtbot.wait(100)
    diagonal = window.ops.form.editor("diagonal")
    # (The Memory tab is left out: its cards' sizes follow the values, and a real change
    # of size must still reach the layouts above.)
    for page in (window.viewer, window.autograd, window.op_view):
        window.views.setCurrentWidget(page)
        qtbot.wait(50)
        requests = LayoutRequests()
        window.views.installEventFilter(requests)
        for value in (1, 2, -3):
            diagonal.setValue(value)
            qtbot.wait(30)
        window.views.removeEventFilter(requests)
        assert requests.count == 0, type(page).__name__
    assert doc.recipe.steps[doc.recipe.index_of("low")] == read_step(
        "low = torch.tril(m, diagonal=-3)", ["m"])
    window.settle()
    assert window.viewer._code.text() == "low = torch.tril(m, diagonal=-3)"
    assert bar.value() == scrolled


def test_the_first_launch_takes_85_percent_of_the_screen_centred(make_window):
    window = make_window(show=False)  # no saved geometry: a first launch
    window.restore_settings()
    available = window.screen().availableGeometry()
    least = window.minimumSizeHint()  # the window is never made smaller than its content
    assert window.width() == max(round(0.85 * available.width()), least.width())
    assert window.height() == max(round(0.85 * available.height()), least.height())
    assert window.width() > 0.85 * available.width() - 1  # the offscreen screen is small
    centre = window.frameGeometry().center()
    assert abs(centre.x() - available.center().x()) <= 1  # and centred on it
    assert abs(centre.y() - available.center().y()) <= 1
