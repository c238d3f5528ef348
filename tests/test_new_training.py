"""New training… (``widgets.training.new_dialog``, File > New Training...): the choices
write a short recipe, shown as it will be saved; a refused choice is said at once, in the
UI language; Create opens the recipe, which runs, and the Training tab watches its loop.
The same text runs under ``python`` with the same output.

Widget tier; the window's own kernel. Expected values are python's own output, or the
layer paths a person reads off the model the recipe builds.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys

from PySide6.QtCore import QCoreApplication

from app.training.setup import CONTEXT
from widgets.training.new_dialog import NewTrainingDialog

_CJK = re.compile(r"[\u4e00-\u9fff]")


def _dialog(qtbot) -> NewTrainingDialog:
    dialog = NewTrainingDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def _choose(dialog: NewTrainingDialog, name: str, value: str) -> None:
    """Pick ``value`` in a choice field, as a click in its list does."""
    combo = dialog.form.editor(name)
    combo.setCurrentIndex(combo.findData(value))
    combo.activated.emit(combo.currentIndex())


def test_the_choices_write_only_what_they_choose(qtbot):
    dialog = _dialog(qtbot)
    text = dialog.code.toPlainText()
    assert text == dialog.text()
    ast.parse(text)
    code = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(code) <= 70, len(code)
    assert "clip_grad" not in text and "make_spirals" in text
    assert f"{text.count(chr(10))} lines" == dialog.size_label.text()

    _choose(dialog, "clip.mode", "norm")
    assert "nn.utils.clip_grad_norm_(model.parameters(), 1.0)" in dialog.code.toPlainText()
    _choose(dialog, "data.kind", "sin")
    text = dialog.code.toPlainText()
    assert "make_spirals" not in text and "nn.MSELoss()" in text  # harmonised to regression
    assert dialog.create_button.isEnabled()


def test_a_refused_choice_is_said_in_chinese_and_the_recipe_keeps_the_last_good_one(
        qtbot, chinese):
    dialog = _dialog(qtbot)
    before = dialog.code.toPlainText()
    dialog.form.editor("model.outputs").setValue(5)  # two spirals: cross-entropy needs two
    said = dialog.form.error_label.text()
    template = QCoreApplication.translate(CONTEXT,
                                          "cross-entropy on {0} classes needs {0} outputs")
    assert _CJK.search(template) and template.format(2) in said
    assert not dialog.create_button.isEnabled()
    assert dialog.code.toPlainText() == before


def test_create_opens_the_recipe_it_runs_and_the_tab_watches_it(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = _dialog(qtbot)
    dialog.form.editor("steps").setValue(60)
    text = dialog.text()
    window.start_training(text)
    assert window.views.currentWidget() is window.training
    assert window.document.recipe.source == text and window.document.path is None
    window.settle()
    loop = window.training.loop
    assert loop is not None and loop.finished and loop.steps == 60
    assert len(loop.info.layer_names) >= 2 and loop.info.layer_names[0] == "model.0"
    path = tmp_path / "new_training.py"
    path.write_text(text, encoding="utf-8")
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert python.returncode == 0, python.stderr
    assert window.document.output == python.stdout  # what python prints, the lab prints


def _type(qtbot, widget, text: str) -> None:
    """Focus ``widget``, select what it holds and type ``text`` over it (no Enter, no
    focus change)."""
    widget.window().activateWindow()
    qtbot.waitUntil(widget.window().isActiveWindow)
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)
    edit = widget.lineEdit() if hasattr(widget, "lineEdit") else widget
    edit.selectAll()
    qtbot.keyClicks(edit, text)


def test_the_recipe_follows_the_fields_as_they_are_typed(qtbot):
    dialog = _dialog(qtbot)
    lr = dialog.form.editor("optimizer.lr")
    _type(qtbot, lr, "0.05")
    qtbot.waitUntil(lambda: "lr=0.05)" in dialog.code.toPlainText(), timeout=2000)
    assert lr.hasFocus() and lr.text() == "0.05"  # the typing was not disturbed

    steps = dialog.form.editor("steps")
    _type(qtbot, steps, "1234")
    qtbot.waitUntil(lambda: "steps = 1234" in dialog.code.toPlainText(), timeout=2000)
    assert steps.hasFocus() and steps.value() == 1234
    assert dialog.create_button.isEnabled()
