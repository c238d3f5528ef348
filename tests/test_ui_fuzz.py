"""Bad input in the UI: random sequences of actions and values through the builder and the op
panel (with the steps list and the viewer watching), driven by hypothesis via qtbot.

Widget tier. After every action: no exception reached Qt (``qtbot.capture_exceptions``), every
field error is shown under its field, every failed step shows its mark and message where the
user looks (the steps list, the builder's status line, the op panel's lesson box), and the
recipe still saves and reads back as itself.

``TENSOR_LAB_UI_FUZZ_EXAMPLES`` raises the number of action sequences (40 by default).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QInputMethodEvent, QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from app.recipe.document import Document
from app.recipe.model import write_step
from app.recipe.reader import RecipeError, read_recipe
from app.recipe.text_recipe import new_text
from widgets.ops.builder_panel import BuilderPanel
from widgets.ops.op_panel import OpPanel
from widgets.recipe.steps_panel import StepsPanel
from widgets.viewer.panel import ViewerPanel

EXAMPLES = int(os.environ.get("TENSOR_LAB_UI_FUZZ_EXAMPLES", "40"))
#: The same examples every run (CI's verdict is then this tree's, not a draw's); set
#: TENSOR_LAB_UI_FUZZ_RANDOM=1 to explore new ones (``--hypothesis-seed`` then works).
RANDOM = bool(os.environ.get("TENSOR_LAB_UI_FUZZ_RANDOM"))
#: No shrinking: each example drives a kernel for a second or more, and a shrink ran past
#: ten minutes in one run; a failure still shows its whole example (``note``) and its blob.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
#: The kernel's memory budget, beyond what it holds when it starts.
BUDGET = 256 * 2**20
START = "import torch\nx = torch.arange(6.0)\nm = torch.ones(2, 3)\nn = torch.tensor([1, 0, 2])\n"

#: What a student might type into any field: sensible, odd, huge and hostile.
TYPED = st.one_of(
    st.sampled_from(["2, 3", "3", "(2, 3)", "4,", "0", "-1", "1.5", "nan", "inf", "-inf",
                     "1e308", "1e-320", "10**12", "999999999999999999999", "2**63", "",
                     " ", ",", "2,,3", "[[1, 2], [3, 4]]", "[[1, 2], [3]]", "[" * 80 + "]" * 80,
                     "[1, 2", "True", "None", "x", "m", "x, m", "n", "__import__('os')",
                     "x.__class__", "lambda: 0", "'", "\"", "\\", "\x00", "é", "\u202e",
                     "\U0001F600", "0x10", "1_000", "+5", "--5", "3e", "float('nan')",
                     "dim", "cuda:0", "cpu", "meta", "mps", "float64", "sum", "ij,jk->ik",
                     "1" * 40, "9" * 19]),
    st.text(max_size=24),
    st.integers(-10**6, 10**6).map(str),
)
NAMES = st.one_of(st.sampled_from(["y", "x", "m", "out", "torch", "print", "class", "__x",
                                   "2x", "a b", "é", "", " ", "x1", "training", "self"]),
                  st.text(max_size=10))

ACTION = st.one_of(
    st.tuples(st.just("builder function"), st.integers(0, 200)),
    st.tuples(st.just("builder field"), st.integers(0, 10), TYPED, st.integers(-2**31, 2**31)),
    st.tuples(st.just("builder name"), NAMES),
    st.tuples(st.just("builder add")),
    st.tuples(st.just("builder update")),
    st.tuples(st.just("seed"), st.booleans(), st.integers(-5, 2**31 + 5)),
    st.tuples(st.just("op choose"), st.integers(0, 200)),
    st.tuples(st.just("op search"), TYPED),
    st.tuples(st.just("op field"), st.integers(0, 10), TYPED, st.integers(-2**31, 2**31)),
    st.tuples(st.just("op input"), st.integers(-1, 20)),
    st.tuples(st.just("op name"), NAMES),
    st.tuples(st.just("op apply")),
    st.tuples(st.just("op mode")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
    st.tuples(st.just("select"), st.integers(-1, 20)),
    st.tuples(st.just("delete")),
    st.tuples(st.just("move"), st.sampled_from([-1, 1])),
)


class Lab:
    """The panels under test, on one document and one undo stack."""

    def __init__(self, qtbot: Any, kernel: Any):
        from widgets.common.kernel_hook import KernelHook

        self.qtbot = qtbot
        self.document = Document(read_recipe(START))
        self.document.kernel = kernel
        self.hook = KernelHook(self.document)
        self.document.evaluate()
        self.settle()
        self.stack = QUndoStack()
        self.builder = BuilderPanel(self.document, self.stack)
        self.ops = OpPanel(self.document, self.stack)
        self.steps = StepsPanel(self.document, self.stack)
        self.viewer = ViewerPanel(self.document)
        self.widgets: list[QWidget] = [self.builder, self.ops, self.steps, self.viewer]
        for w in self.widgets:
            w.resize(420, 800)

    def settle(self) -> None:
        """Wait until the kernel has run the recipe as the panels left it."""
        doc = self.document
        self.qtbot.waitUntil(lambda: doc.kernel_run is None and doc.waiting_since is None
                             and not doc.asking, timeout=60_000)

    def close(self) -> None:
        self.hook.detach()
        self.hook.deleteLater()
        for w in self.widgets:
            w.close()
            w.deleteLater()
        self.stack.deleteLater()
        QCoreApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # now, by Qt

    # -- doing ------------------------------------------------------------------------------
    def type_into(self, editor: QWidget, text: str, number: int) -> None:
        if isinstance(editor, QLineEdit):
            editor.selectAll()
            self.qtbot.keyClick(editor, Qt.Key.Key_Backspace)
            typed = text.isascii() and text.isprintable()
            if typed:
                self.qtbot.keyClicks(editor, text)
            elif text:  # Qt's test keyboard knows ASCII only: the rest comes as input methods do
                event = QInputMethodEvent("", [])
                event.setCommitString(text)
                QCoreApplication.sendEvent(editor, event)
        elif isinstance(editor, QPlainTextEdit):
            editor.setPlainText(text)
        elif isinstance(editor, QSpinBox):
            # Typed, as a student would: the box's validator turns away what does not
            # fit its range (setValue would raise for numbers beyond a C int instead).
            line = editor.lineEdit()
            line.selectAll()
            self.qtbot.keyClick(line, Qt.Key.Key_Backspace)
            self.qtbot.keyClicks(line, str(number))
            self.qtbot.keyClick(line, Qt.Key.Key_Return)
        elif isinstance(editor, QComboBox):
            if editor.count():
                editor.setCurrentIndex(number % editor.count())
        elif isinstance(editor, QCheckBox):
            editor.setChecked(bool(number % 2))

    def field(self, form: Any, index: int) -> QWidget | None:
        spec = form.spec
        if spec is None or not spec.params:
            return None
        names = [p.name for p in spec.params]
        names = [n for n in names if _has_editor(form, n)]
        return form.editor(names[index % len(names)]) if names else None

    def click(self, button: QWidget) -> None:
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def do(self, action: tuple) -> None:
        kind, *args = action
        b, o = self.builder, self.ops
        if kind == "builder function":
            b.function_combo.setCurrentIndex(args[0] % b.function_combo.count())
        elif kind == "builder field":
            editor = self.field(b.form, args[0])
            if editor is not None:
                self.type_into(editor, args[1], args[2])
        elif kind == "builder name":
            self.type_into(b.name_edit, args[0], 0)
        elif kind == "builder add":
            self.click(b.add_button)
        elif kind == "builder update":
            self.click(b.update_button)
        elif kind == "seed":
            b.seed_check.setChecked(args[0])
            self.type_into(b.seed_spin, "", args[1])
        elif kind == "op choose":
            items = [o.op_tree.topLevelItem(i).child(j)
                     for i in range(o.op_tree.topLevelItemCount())
                     for j in range(o.op_tree.topLevelItem(i).childCount())]
            o.op_tree.setCurrentItem(items[args[0] % len(items)])
        elif kind == "op search":
            self.type_into(o.search_edit, args[0], 0)
        elif kind == "op field":
            editor = self.field(o.form, args[0])
            if editor is not None:
                self.type_into(editor, args[1], args[2])
        elif kind == "op input":
            if o.input_combo.count():
                o.input_combo.setCurrentIndex(args[0] % o.input_combo.count())
        elif kind == "op name":
            self.type_into(o.name_edit, args[0], 0)
            o.name_edit.editingFinished.emit()  # as Return or leaving the field would
        elif kind == "op apply":
            self.click(o.apply_button)
        elif kind == "op mode":
            self.click(o.mode_button)
        elif kind == "undo":
            self.stack.undo()
        elif kind == "redo":
            self.stack.redo()
        elif kind == "select":
            n = self.steps.list.count()
            self.steps.list.setCurrentRow(-1 if args[0] < 0 or not n else args[0] % n)
        elif kind == "delete":
            self.click(self.steps.delete_button)
        elif kind == "move":
            self.steps.move_selected(args[0])
        QCoreApplication.processEvents()
        self.settle()

    # -- checking ---------------------------------------------------------------------------
    def check(self) -> None:
        doc, run = self.document, self.document.run
        assert len(run.results) == len(doc.recipe.steps)
        # every failed step is marked in the list, with torch's message in its tooltip
        assert self.steps.list.count() == len(doc.recipe.steps)
        for i, r in enumerate(run.results):
            item = self.steps.list.item(i)
            if r.status == "error":
                assert item.text().startswith("✖"), item.text()
                assert r.error and r.error in item.toolTip()
        # the selected step's failure is said in the builder and the op panel
        selected = doc.selected
        if selected is not None and run.results[selected].status == "error":
            error = run.results[selected].error
            assert not self.builder.status.isHidden() and error in self.builder.status.text()
            assert not self.ops.lesson_box.isHidden()
            assert error in self.ops.error_label.text()
        # every field error is shown under its field; a form with errors adds nothing
        for panel, button in ((self.builder, self.builder.add_button),
                              (self.ops, self.ops.apply_button)):
            errors = panel.form.errors()
            shown = {label.text() for label in panel.form.findChildren(QLabel)
                     if not label.isHidden()}
            for message in errors.values():
                assert any(message in text for text in shown), (message, shown)
            if errors:
                assert not button.isEnabled()
        # what the panels made is a recipe: it saves and reads back as itself
        try:
            again = read_recipe(new_text(doc.recipe))
        except RecipeError as e:
            # KNOWN, reported: the builder's "Update selected" offers tensors that later
            # steps make, so a step can read a name before it exists. Until that is fixed
            # the step must at least show its failure.
            assert "is not defined by an earlier step" in e.reason, e
            assert any(r.status == "error" for r in run.results)
            return
        if again != doc.recipe:
            # a step moved above the step that makes its input reads back as a code step
            # (python would stop there with a NameError, and so does the kernel); in the
            # window it must show its failure
            assert len(again.steps) == len(doc.recipe.steps)
            for i, (a, b) in enumerate(zip(again.steps, doc.recipe.steps, strict=True)):
                if a != b:
                    assert a.is_code and a.text == write_step(b), (a, b)
                    assert run.results[i].status == "error", (b, run.results[i].status)


def _has_editor(form: Any, name: str) -> bool:
    try:
        form.editor(name)
    except KeyError:
        return False
    return True


@pytest.fixture(scope="module")
def fuzz_kernel():
    """The kernel the panels' document runs in, with a small memory budget: random sizes
    are fine for the lab but would make the test slow and big, and the budget's message
    is what the test wants to see anyway."""
    from app.link.session import KernelSession
    from widgets.common.kernel_hook import VIEW_QUERIES

    session = KernelSession(memory_budget=BUDGET, query_modules=VIEW_QUERIES)
    session.start()
    yield session
    session.close()


@pytest.fixture
def guards(monkeypatch: pytest.MonkeyPatch) -> None:
    """No modal dialogs: one would wait for a click that never comes."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a dialog opened: {args[1:3]}")
    for name in ("question", "warning", "critical", "information", "about"):
        monkeypatch.setattr(QMessageBox, name, refuse)
    monkeypatch.setattr(QMessageBox, "exec", refuse)


@settings(max_examples=EXAMPLES, deadline=None, database=None, print_blob=True,
          derandomize=not RANDOM, phases=PHASES,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(actions=st.lists(ACTION, min_size=1, max_size=25))
def test_random_actions_raise_nothing_and_show_every_failure(qtbot, guards, fuzz_kernel,
                                                             actions: list[tuple]) -> None:
    lab = Lab(qtbot, fuzz_kernel)
    try:
        with qtbot.capture_exceptions() as exceptions:
            lab.check()
            for action in actions:
                note(repr(action))
                lab.do(action)
                assert not exceptions, exceptions
                lab.check()
        assert not exceptions, exceptions
    finally:
        lab.close()
