"""The gallery: every shipped lesson runs under ``python`` exactly as ``tensor-lab run`` runs it,
opens in the lab, saves back to the same recipe and speaks English and Chinese; the
browser finds lessons and opens them.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from app.recipe.document import RECIPES_DIR, Document
from app.recipe.gallery import (
    CATEGORIES,
    ERROR_MARKER,
    ERROR_MARKER_ZH,
    for_display,
    lesson_text,
    read_entry,
    scan,
    search,
    split_lesson,
)
from app.recipe.reader import read_recipe, read_recipe_file
from app.recipe.text_recipe import new_text

ROOT = Path(__file__).resolve().parent.parent
RECIPES = sorted(p.name for p in RECIPES_DIR.glob("*.py"))
#: One torch thread per process: the two processes of a pair run at once on two cores, and
#: a torch that spins threads on a busy machine is many times slower. Both sides get the same.
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@cache
def _run(name: str) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """``python RECIPE.py`` and ``python -m app run RECIPE.py``, side by side."""
    path = str(RECIPES_DIR / name)
    commands = ([sys.executable, path], [sys.executable, "-m", "app", "run", path])
    with ThreadPoolExecutor(2) as pool, tempfile.TemporaryDirectory() as a, \
            tempfile.TemporaryDirectory() as b:  # where a checkpoint lesson writes its file
        python, lab = pool.map(lambda run: subprocess.run(
            run[0], capture_output=True, text=True, cwd=run[1], env=ENV, timeout=300),
            zip(commands, (a, b), strict=True))
    return python, lab


# -- what the gallery holds -------------------------------------------------------------------
def test_the_gallery_holds_the_lessons_of_the_issue():
    gallery = scan()
    assert not gallery.refused
    lessons = [e for e in gallery.entries if e.category != "start"]
    assert len(lessons) >= 30
    assert set(CATEGORIES) - {"start"} <= {e.category for e in lessons}
    used = {op for e in gallery.entries for op in e.ops_used}
    wanted = {
        "creating tensors": "torch.tensor torch.zeros torch.ones torch.eye torch.full "
                            "torch.arange torch.linspace torch.logspace torch.rand torch.randn "
                            "torch.randint torch.normal torch.randperm torch.Tensor "
                            "Tensor.new_ones torch.ones_like torch.zeros_like",
        "shapes": "Tensor.view Tensor.reshape Tensor.t Tensor.squeeze Tensor.unsqueeze "
                  "Tensor.permute torch.cat torch.stack Tensor.sum",
        "indexing": "torch.gather torch.index_select Tensor.nonzero Tensor.masked_fill "
                    "torch.tril torch.triu",
        "math": "Tensor.clamp torch.mm torch.matmul torch.bmm nn.Linear torch.allclose "
                "torch.softmax torch.sigmoid F.one_hot Tensor.argmax torch.multinomial",
        "autograd": "Tensor.backward Tensor.retain_grad Tensor.zero_ Tensor.detach "
                    "Module.zero_grad",
        "nn": "nn.Parameter Module.register_buffer Module.state_dict "
              "nn.Sequential nn.ModuleList nn.ModuleDict nn.Embedding nn.Dropout "
              "Module.train Module.eval",
    }
    for topic, ops in wanted.items():
        missing = set(ops.split()) - used
        assert not missing, f"{topic}: no lesson uses {sorted(missing)}"
    assert any(e.error_lesson and "torch.cat" in e.ops_used for e in gallery.entries)
    assert any(e.error_lesson and "torch.bmm" in e.ops_used for e in gallery.entries)
    assert any(e.error_lesson and "Tensor.view" in e.ops_used for e in gallery.entries)


def test_the_lessons_whose_loop_calls_backward_are_the_training_ones():
    """``GalleryEntry.training``: a loop of the lesson calls ``backward()``."""
    training = {e.name for e in scan().entries if e.training}
    assert {"training_clip_norm", "training_spirals", "training_lenet",
            "init_depth50"} <= training
    # no loop, or backward() outside the loop: nothing for the Training tab to plot
    assert not training & {"training_matmul_timing", "training_manual_sgd",
                           "autograd_control_flow", "gather"}
    assert all(name.startswith(("training_", "init_")) for name in training), training


def _code(name: str) -> list[str]:
    """A recipe's lines after its docstring."""
    source = (RECIPES_DIR / name).read_text(encoding="utf-8")
    body = ast.parse(source).body
    return source.splitlines()[body[0].end_lineno:]


def test_the_training_lessons_cover_clipping_warm_up_and_accumulation():
    code = {name: "\n".join(_code(name)) for name in RECIPES}
    for fix in ("nn.utils.clip_grad_norm_(", "nn.utils.clip_grad_value_(",
                "lr_scheduler.LinearLR("):
        assert any(fix in text for text in code.values()), fix
    # accumulation: backward() on 4 batches of 16 per optimizer step, and the same run
    # with one batch of 64 shipped beside it, printing the same losses
    accumulate, big = code["training_accumulate.py"], code["training_big_batch.py"]
    assert "accumulate = 4" in accumulate and "batch_size = 16" in accumulate
    assert "accumulate" not in big and "batch_size = 64" in big
    assert _run("training_accumulate.py")[0].stdout == _run("training_big_batch.py")[0].stdout


def test_the_clipping_and_warm_up_runs_explode_without_their_fix():
    """Each fix is the shipped baseline's code plus the fix, and the baseline diverges."""
    baseline = _code("training_explodes.py")
    assert "training diverged" in _run("training_explodes.py")[0].stdout
    fixes = {"training_clip_norm.py": "clip_grad_norm_", "training_clip_value.py":
             "clip_grad_value_", "training_warmup.py": "LinearLR"}
    for name, fix in fixes.items():
        fixed = _code(name)
        # every line of the baseline, in order, but the prints (warm-up prints the lr too)
        rest = iter(fixed)
        assert all(line in rest for line in baseline if "print(" not in line), name
        if "clip" in fix:  # clipping is one line more, and nothing else
            assert [line for line in fixed if line not in baseline] == [
                next(line for line in fixed if fix in line)], name
        assert any(fix in line for line in fixed)
        out = _run(name)[0].stdout
        assert "diverged" not in out and "nan" not in out and "inf" not in out, name


def test_the_timing_lesson_prints_no_time_and_its_products_can_be_timed():
    """The shapes are printed, never a time; "Time it" (app.explain.timing) measures them."""
    from kernel.explain.step_timing import time_text
    from tests.python_run import run_python

    recipe = read_recipe_file(str(RECIPES_DIR / "training_matmul_timing.py"))
    assert "Time it" in recipe.docstring and "torch.utils.benchmark" in recipe.docstring
    products = [s for s in recipe.steps if s.name and s.name.startswith("p")]
    assert len(products) >= 3
    run = run_python(recipe)  # the values the kernel's timing query would have
    timing = time_text(products[0].text, run.namespace, list(products[0].reads),
                       "cpu", 0.01)
    assert timing.ok and timing.median_s > 0 and timing.runs >= 1


# -- every recipe --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", RECIPES)
def test_python_prints_what_the_lab_prints(name):
    python, lab = _run(name)
    entry = read_entry(RECIPES_DIR / name)
    expected = 1 if entry.error_lesson else 0
    assert python.returncode == expected, python.stderr[-2000:]
    assert lab.returncode == expected, lab.stderr[-2000:]
    assert lab.stdout == python.stdout
    assert python.stdout, "a lesson shows its results with print"
    if entry.error_lesson:  # torch's own message, in python's own traceback
        assert lab.stderr == python.stderr


@pytest.fixture(scope="module")
def kernel():
    from app.link.session import KernelSession

    session = KernelSession()
    yield session
    session.close()


@pytest.mark.parametrize("name", RECIPES)
def test_opens_in_the_lab_and_saves_back(name, kernel, tmp_path):
    path = RECIPES_DIR / name
    recipe = read_recipe_file(str(path))
    entry = read_entry(path)
    doc = Document()
    doc.kernel = kernel  # code steps run in it; forms only never start it
    doc.work_folder = str(tmp_path)
    shipped = sorted(RECIPES_DIR.rglob("*"))
    doc.open(path)
    deadline = time.monotonic() + 120
    paused = []
    while doc.kernel_run is not None and time.monotonic() < deadline:
        doc.take_kernel_events(kernel.poll(0.01))
        loop = doc.training.current
        if loop is not None and loop.paused == "nan" and not paused:
            paused.append(loop)  # a lesson that diverges waits at its first NaN loss,
            kernel.control(pause=False)  # as the window's Training tab shows: Go on
        time.sleep(0.01)
    assert doc.kernel_run is None, "the run did not end"
    for loop in paused:  # it paused because the loss was not a number
        assert not np.isfinite(loop.history.loss.values).all()
    failed = [i for i, r in enumerate(doc.run.results) if not r.ok]
    if entry.error_lesson:  # the error is the last thing that happens, and the only one
        assert failed == [len(recipe.steps) - 1], [r.error for r in doc.run.results]
    else:
        assert failed == [], [(doc.run.results[i].status, doc.run.results[i].error)
                              for i in failed]
    assert doc.recipe.source == path.read_text(encoding="utf-8")
    assert sorted(RECIPES_DIR.rglob("*")) == shipped  # what it wrote is in the work folder
    if name == "training_checkpoint.py":
        assert (tmp_path / "model_path" / "model.pth").is_file()
    again = read_recipe(new_text(doc.recipe))
    assert again == recipe
    assert again.steps == recipe.steps and again.docstring == recipe.docstring


@pytest.mark.parametrize("name", RECIPES)
def test_lesson_text_in_both_languages(name):
    entry = read_entry(RECIPES_DIR / name)
    assert entry.category in CATEGORIES, f"{name}: add a 'Category:' line"
    assert len(entry.lesson_en.splitlines()) > 1 and len(entry.lesson_zh.splitlines()) > 1
    assert entry.title_zh != entry.title
    assert not any("\u4e00" <= c <= "\u9fff" for c in entry.lesson_en), "Chinese in English"
    assert sum("\u4e00" <= c <= "\u9fff" for c in entry.lesson_zh) > 20
    if entry.error_lesson:
        assert ERROR_MARKER_ZH in entry.lesson_zh
    else:
        assert ERROR_MARKER_ZH not in entry.lesson_zh


# -- the gallery's reading of docstrings --------------------------------------------------
DOC = """Broadcasting, step by step

Shapes line up from the right.

Error lesson: this recipe stops with an error on purpose.

广播，一步一步来

形状从右边开始对齐，
一行接着一行。

Category: Math
"""


def test_a_docstring_splits_into_english_chinese_and_metadata():
    lesson = split_lesson(DOC)
    assert lesson.en.splitlines()[0] == "Broadcasting, step by step"
    assert ERROR_MARKER in lesson.en and "Category" not in lesson.en
    assert lesson.zh.splitlines()[0] == "广播，一步一步来"
    assert "Category" not in lesson.zh and lesson.category == "math"
    assert lesson_text(DOC, "zh_CN") == lesson.zh
    assert lesson_text(DOC, "zh") == lesson.zh
    assert lesson_text(DOC, "en") == lesson_text(DOC, "") == lesson.en
    assert lesson_text("Only English\n\nText.", "zh_CN") == "Only English\n\nText."
    # Markdown would put a space where a Chinese line wraps
    assert "对齐，一行接着一行。" in for_display(lesson.zh)
    assert "step by step\n\nShapes" in for_display(lesson.en)
    assert for_display("第 i 列。\nmasked_fill 在\n掩码。\n\n下一段") == \
        "第 i 列。masked_fill 在掩码。\n\n下一段"  # paragraphs stay apart


def test_search_finds_title_text_category_and_op(tmp_path):
    (tmp_path / "shape_one.py").write_text(
        '"""One view\n\nThe numbers stay.\n\n一个视图\n\n数字不变。\n"""\nimport torch\n\n'
        "x = torch.arange(6).view(2, 3)\n", encoding="utf-8")
    (tmp_path / "two.py").write_text(
        '"""Two gathers\n\nPick.\n\nCategory: indexing\n"""\nimport torch\n\n'
        "x = torch.gather(torch.ones(2, 2), 1, torch.tensor([[0], [1]]))\n", encoding="utf-8")
    entries = scan(tmp_path).entries
    assert [e.name for e in entries] == ["shape_one", "two"]  # shapes come before indexing
    assert [e.category for e in entries] == ["shapes", "indexing"]  # the prefix, the line

    def names(query):
        return [e.name for e in search(entries, query)]

    assert names("") == ["shape_one", "two"]
    assert names("VIEW") == ["shape_one"]        # the title (and the op)
    assert names(".view") == ["shape_one"]       # the op as a method
    assert names("torch.gather") == ["two"]      # the op with its namespace
    assert names("数字") == ["shape_one"]          # the Chinese text
    assert names("stay") == ["shape_one"]        # the English text
    assert names("indexing") == ["two"]          # the category
    assert names("view gather") == []            # every word must match
    assert entries[0].lesson("zh_CN").startswith("一个视图")
    assert entries[1].lesson("zh_CN").startswith("Two gathers")  # no Chinese half: English


def test_scanning_never_runs_a_file(tmp_path):
    marker = tmp_path / "ran.txt"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w')\n")
    (tmp_path / "fine.py").write_text('"""Fine"""\nimport torch\n\nx = torch.ones(2)\n')
    (tmp_path / "broken.py").write_text("x = (\n")
    gallery = scan(tmp_path)
    assert sorted(e.name for e in gallery.entries) == ["evil", "fine"]  # read, not run
    assert [Path(p).name for p, _ in gallery.refused] == ["broken.py"]
    assert not marker.exists()
    assert {e.category for e in gallery.entries} == {"other"}


def test_the_gallery_is_qt_free():
    code = ("import sys\n"
            "for m in ('PySide6', 'pyqtgraph', 'shiboken6'): sys.modules[m] = None\n"
            "import app.recipe.gallery\n"
            "print(len(app.recipe.gallery.scan().entries))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == len(RECIPES)


# -- the browser --------------------------------------------------------------------------
@pytest.fixture
def panel(qtbot):
    from widgets.recipe.gallery_panel import GalleryPanel

    doc = Document()
    view = GalleryPanel(doc)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.scanned, timeout=60_000):
        view.refresh()
    return view


@pytest.mark.gui
def test_the_browser_lists_categories_and_searches(panel):
    entries = panel.visible_entries()
    assert len(entries) == len(RECIPES)
    tops = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert tops[:2] == ["Start here", "Creating tensors"]
    panel.search_edit.setText("gather")
    shown = [e.name for e in panel.visible_entries()]
    assert "gather" in shown and "create_tensors" not in shown
    assert panel.selected_entry() is not None  # the first match is previewed
    panel.search_edit.setText("掩码")  # "mask", in the Chinese lesson text
    shown = [e.name for e in panel.visible_entries()]
    assert "index_masked_fill" in shown and "gather" not in shown
    panel.search_edit.clear()
    assert len(panel.visible_entries()) == len(RECIPES)
    for widget in (panel.search_edit, panel.tree, panel.lesson_view, panel.code_view,
                   panel.open_button, panel.reset_button, panel.status):
        assert widget.toolTip()


@pytest.mark.gui
def test_a_training_lessons_tooltip_points_at_the_training_tab(panel):
    tips = {}
    for name in ("training_clip_norm.py", "gather.py"):
        assert panel.select_path(RECIPES_DIR / name)
        tips[name] = panel.tree.currentItem().toolTip(0)
    assert "use the Training tab" in tips["training_clip_norm.py"]
    assert "Training tab" not in tips["gather.py"]


@pytest.mark.gui
def test_the_preview_shows_the_lesson_in_the_language_and_the_code(panel):
    assert panel.select_path(RECIPES_DIR / "gather.py")
    assert "gather: pick elements" in panel.lesson_view.toPlainText()
    assert "torch.gather(x, 1, index)" in panel.code_view.toPlainText()
    panel.set_language("zh_CN")
    assert panel.selected_entry().name == "gather"
    assert "用下标张量挑选元素" in panel.lesson_view.toPlainText()
    assert panel.tree.currentItem().text(0).startswith("gather：")


@pytest.mark.gui
def test_activating_a_lesson_asks_to_open_it(panel, qtbot):
    panel.select_path(RECIPES_DIR / "tril.py")
    with qtbot.waitSignal(panel.open_requested) as opened:
        panel.tree.itemActivated.emit(panel.tree.currentItem(), 0)
    assert opened.args == [str(RECIPES_DIR / "tril.py")]
    with qtbot.waitSignal(panel.open_requested) as opened:
        panel.open_button.click()
    assert opened.args == [str(RECIPES_DIR / "tril.py")]


@pytest.fixture
def window(make_window, monkeypatch):
    """The main window, unshown, whose questions are answered from ``window.answers``."""
    from PySide6.QtWidgets import QMessageBox

    asked: list[str] = []
    answers: list = []

    def question(_parent, title, *_args, **_kwargs):
        asked.append(title)
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    win = make_window(show=False)
    del win.confirm_discard  # the gallery's own "discard changes?" question, answered above
    win.asked, win.answers = asked, answers
    return win


@pytest.mark.gui
def test_three_lessons_open_from_the_gallery_and_reset_undoes_experiments(window, qtbot):
    from PySide6.QtWidgets import QMessageBox

    window.resize(1280, 800)
    window.show()
    window.show_gallery()
    qtbot.waitUntil(lambda: window.gallery.gallery is not None, timeout=60_000)
    assert window.docks["gallery"].isVisible()
    for name in ("create_tensors.py", "shape_cat_stack.py", "autograd_leaf.py"):
        assert window.gallery.select_path(RECIPES_DIR / name)
        window.gallery.open_button.click()
        assert window.document.path == str(RECIPES_DIR / name)
        assert window.document.recipe == read_recipe_file(str(RECIPES_DIR / name))
        assert window.lesson.browser.toPlainText().startswith(window.document.recipe.title)
    assert window.asked == []  # nothing was changed, so nothing was asked

    # a class's experiment: a step removed; opening another lesson asks first
    original = read_recipe_file(str(RECIPES_DIR / "autograd_leaf.py"))
    window.document.recipe.remove(0)
    assert window.document.modified and window.gallery.reset_button.isEnabled()
    window.answers.append(QMessageBox.StandardButton.Cancel)
    window.gallery.select_path(RECIPES_DIR / "gather.py")
    window.gallery.open_selected()
    assert window.asked == ["Unsaved changes"]
    assert window.document.path == str(RECIPES_DIR / "autograd_leaf.py")  # cancelled

    window.answers.append(QMessageBox.StandardButton.Reset)
    window.gallery.reset_button.click()
    assert window.asked[-1] == "Reset to the original"
    assert window.document.recipe == original and not window.document.modified
    assert not window.gallery.reset_button.isEnabled()
    window.window_actions["file.reset"].trigger()  # nothing to discard: nothing asked
    assert len(window.asked) == 2


@pytest.mark.gui
def test_the_lesson_pane_follows_the_language_setting(window):
    window.document.open(RECIPES_DIR / "shape_view.py")
    assert window.lesson.browser.toPlainText().startswith("view and -1")
    window.settings.language = "zh_CN"
    assert window.lesson.browser.toPlainText().startswith("view 与 -1")
    assert "Category" not in window.lesson.browser.toPlainText()
    window.settings.language = "en"
    assert window.lesson.browser.toPlainText().startswith("view and -1")


def _cut_titles(panel) -> list[str]:
    """The titles the list cannot show whole: the text needs more room, wrapped at the
    width the item's text is drawn in, than its row gives it."""
    from PySide6.QtCore import QRect, QSize, Qt
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    tree, cut = panel.tree, []
    style = tree.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1
    icon = tree.iconSize() if tree.iconSize().isValid() else QSize(
        *[style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, tree)] * 2)
    for item in panel._items().values():
        option = QStyleOptionViewItem()
        option.initFrom(tree)
        option.rect = tree.visualRect(tree.indexFromItem(item))
        option.font, option.text = item.font(0), item.text(0)
        option.fontMetrics = QFontMetrics(option.font)
        option.features = QStyleOptionViewItem.ViewItemFeature.HasDisplay
        if not item.icon(0).isNull():
            option.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
        option.decorationSize = icon
        option.displayAlignment = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
        width = room.width() - 2 * margin
        needed = option.fontMetrics.boundingRect(QRect(0, 0, width, 10**6),
                                                 Qt.TextFlag.TextWordWrap, option.text)
        if needed.width() > width or needed.height() > room.height():
            cut.append(option.text)
    return cut


@pytest.mark.gui
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_gallery_title_shows_whole_at_the_side_panels_width(panel, qtbot, language):
    panel.set_language(language)
    panel.resize(340, 720)  # the right-hand docks' width (widgets.shell.window_layout)
    panel.show()
    qtbot.waitExposed(panel)
    assert len(panel._items()) == len(RECIPES)
    qtbot.waitUntil(lambda: _cut_titles(panel) == [])  # the rows are laid out
    qtbot.wait(100)
    assert _cut_titles(panel) == []  # and stay so
    panel.resize(260, 720)  # narrower still: the rows grow taller
    qtbot.waitUntil(lambda: _cut_titles(panel) == [])


#: What ``for_display`` and the Chinese half's start were written as before (#33): wide
#: character classes, which take ``re.compile`` milliseconds each.
_CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"
_CJK_TEXT = _CJK_PUNCTUATION + "\u3400-\u9fff\uf900-\ufaff"
_OLD_BREAK = f"(?<=[{_CJK_PUNCTUATION}])\n(?!\n)|(?<=[{_CJK_TEXT}])\n(?=[{_CJK_TEXT}])"


def test_chinese_line_joining_and_halves_agree_with_the_patterns_they_replace():
    import re

    from app.recipe.lesson_text import _has_ideograph

    texts = [read_recipe_file(str(RECIPES_DIR / name)).docstring for name in RECIPES]
    texts += ["第 i 列。\nmasked_fill 在\n掩码。\n\n下一段", "。\n", "。\n\n", "\n。\n甲\n乙",
              "a\n甲", "甲\nb", "（\n\n\n）", "", "\n", "甲\n\n乙", "，\nx\n", "豈\n豈", "\u3000x"]
    for text in texts:
        assert for_display(text) == re.sub(_OLD_BREAK, "", text), text
        for line in text.splitlines():
            assert _has_ideograph(line) == bool(re.search("[\u3400-\u9fff\uf900-\ufaff]", line))


def test_reading_a_chinese_lesson_compiles_no_pattern_over_chinese_text():
    # A class over the ideographs takes re.compile 2 ms: three of them were a sixth of the
    # lab's own imports before the first paint (the welcome lesson reads them).
    welcome = str(RECIPES_DIR / "welcome.py")
    script = ("import re\nseen = []\nold = re._compile\n"
              "def spy(pattern, flags):\n    seen.append(str(pattern))\n"
              "    return old(pattern, flags)\n"
              "re._compile = spy\n"
              "from app.recipe.lesson_markup import lesson_markdown\n"
              "from app.recipe.gallery import lesson_text\n"
              f"lesson_markdown(lesson_text(open({welcome!r}, encoding='utf-8').read(), 'zh_CN'))\n"
              "print([p for p in seen if '9fff' in p or '\\u9fff' in p])\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
