"""The op panel: widget tier, a Document wrapped in an OpPanel (and a ViewerPanel to watch)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox

from app.catalog import CATALOG
from app.recipe.document import Document
from app.recipe.reader import read_recipe
from tests.form_steps import step
from tests.kernel_values import as_torch, kernel_value
from widgets.ops.op_panel import OpPanel, op_spec
from widgets.viewer.panel import ViewerPanel


def make_doc(body: str) -> Document:
    return Document(read_recipe("import torch\n" + body))


@pytest.fixture
def make_panel(qtbot, run_in_kernel):
    def make(body: str) -> tuple[OpPanel, Document, QUndoStack]:
        doc = run_in_kernel(make_doc(body))
        stack = QUndoStack()
        panel = OpPanel(doc, stack)
        stack.setParent(panel)  # deleted with the panel, by Qt (see conftest)
        qtbot.addWidget(panel)
        panel.resize(420, 900)
        panel.grab()  # lays the panel out without show() (offscreen size-hint warnings)
        return panel, doc, stack
    return make


def fill(panel: OpPanel, values: dict) -> None:
    """Type ``values`` into the form's editors, as a user would."""
    for name, value in values.items():
        editor = panel.form.editor(name)
        if isinstance(editor, QLineEdit):
            editor.setText(value)
        elif isinstance(editor, QSpinBox):
            editor.setValue(value)
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex([editor.itemText(i) for i in range(editor.count())]
                                   .index(value))
        else:
            raise TypeError(type(editor))


def apply(qtbot, panel: OpPanel) -> None:
    assert panel.apply_button.isEnabled(), panel.preview.text()
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)


def value(doc: Document, name: str) -> torch.Tensor:
    """What the kernel made of ``name`` (its copy in the window), once it has run."""
    return kernel_value(doc, name)


# -- applying ops ---------------------------------------------------------------------------------
def test_apply_view(qtbot, make_panel):
    panel, doc, stack = make_panel("x = torch.arange(12.0)\n")
    doc.select(0)
    panel.set_op("view")
    assert panel.input_combo.currentText() == "x"  # the selected tensor
    fill(panel, {"size": "3, 4"})
    panel.name_edit.setText("grid")
    assert panel.preview.text() == "grid = x.view(3, 4)"
    apply(qtbot, panel)

    assert doc.recipe.steps[-1].name == "grid"
    assert doc.selected == 1 and panel.editing == 1  # selected, and now edited live
    assert torch.equal(value(doc, "grid"), torch.arange(12.0).view(3, 4))
    stack.undo()
    assert len(doc.recipe.steps) == 1


def test_apply_cat_picks_tensors_by_name(qtbot, make_panel):
    panel, doc, _ = make_panel("a = torch.zeros(2, 3)\nb = torch.ones(2, 2)\n")
    panel.set_op("cat")
    assert not panel.input_combo.isVisible()  # cat's inputs are its tensors parameter
    fill(panel, {"tensors": "a, b", "dim": 1})
    apply(qtbot, panel)

    step = doc.recipe.steps[-1]
    assert step.text == "torch.cat([a, b], dim=1)"
    assert torch.equal(value(doc, step.name), torch.cat((torch.zeros(2, 3), torch.ones(2, 2)), 1))


def test_apply_gather_picks_index_by_name(qtbot, make_panel):
    panel, doc, _ = make_panel("x = torch.tensor([[1, 2], [3, 4]])\n"
                               "idx = torch.tensor([[0, 0], [1, 0]])\n")
    panel.set_op("gather")
    panel.set_input("x")
    fill(panel, {"dim": 1, "index": "idx"})
    panel.name_edit.setText("picked")
    apply(qtbot, panel)

    assert doc.recipe.steps[-1].op == "torch.gather"
    expected = torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
    assert torch.equal(value(doc, "picked"), expected)


def test_apply_in_place_add_is_a_bare_statement(qtbot, make_panel):
    panel, doc, _ = make_panel("v = torch.zeros(3)\n")
    panel.set_op("add_")
    assert not panel.name_edit.isEnabled()
    fill(panel, {"other": "1.5"})
    assert panel.preview.text() == "v.add_(1.5)"
    apply(qtbot, panel)

    step = doc.recipe.steps[-1]
    assert step.name is None and step.text == "v.add_(1.5)"
    doc.settle()  # the bare call's value is what the kernel copied after it ran
    assert torch.equal(as_torch(doc.run.results[-1].value.output), torch.zeros(3).add_(1.5))
    assert panel.editing == 1 and not panel.name_edit.isEnabled()


def test_result_name_is_checked(qtbot, make_panel):
    panel, doc, _ = make_panel("x = torch.ones(4)\n")
    panel.set_op("sigmoid")
    assert panel.name_edit.text() == "sigmoid"  # a free name, ready to apply
    for bad in ("x", "1st", "torch"):
        panel.name_edit.setText(bad)
        assert not panel.apply_button.isEnabled()
        assert panel.name_message.text()
    panel.name_edit.setText("s")
    assert panel.apply_button.isEnabled() and not panel.name_message.text()


def test_search_filters_by_name_and_summary(make_panel):
    panel, _, _ = make_panel("")

    def shown() -> set[str]:
        tree, out = panel.op_tree, set()
        for i in range(tree.topLevelItemCount()):
            top = tree.topLevelItem(i)
            out |= {top.child(j).text(0) for j in range(top.childCount())
                    if not top.isHidden() and not top.child(j).isHidden()}
        return out

    every = shown()
    assert "tril" in every and "zeros" not in every  # the builder has the creation ops
    panel.search_edit.setText("TRIANGLE")
    assert shown() == {"tril", "triu"}  # matched in their summaries
    panel.search_edit.setText("gath")
    assert shown() == {"gather"}
    panel.search_edit.clear()
    assert shown() == every


# -- live edits -----------------------------------------------------------------------------------
def test_tril_diagonal_changes_result_and_grid_live_and_undoes_at_once(qtbot, make_panel):
    panel, doc, stack = make_panel("x = torch.arange(16.0).view(4, 4)\ny = torch.tril(x)\n")
    viewer = ViewerPanel(doc)
    qtbot.addWidget(viewer)
    x = torch.arange(16.0).view(4, 4)
    doc.select(1)
    assert panel.editing == 1 and panel.spec.name == "tril"
    original, count = doc.recipe.steps[1], stack.count()

    spin = panel.form.editor("diagonal")
    for d in (1, 2, -1):
        with qtbot.waitSignal(doc.evaluated, timeout=2000):
            spin.setValue(d)
        assert torch.equal(value(doc, "y"), torch.tril(x, d))
        np.testing.assert_array_equal(viewer.table_model.values, torch.tril(x, d).numpy())
        assert panel.preview.text() == f"y = torch.tril(x, diagonal={d})"
    assert stack.count() == count + 1  # three changes, one undo step

    stack.undo()
    assert doc.recipe.steps[1] == original
    assert torch.equal(value(doc, "y"), torch.tril(x))
    assert spin.value() == 0  # the form follows the undo
    stack.redo()
    assert torch.equal(value(doc, "y"), torch.tril(x, -1))
    assert spin.value() == -1


def test_edits_of_another_selection_are_separate_undo_steps(make_panel):
    panel, doc, stack = make_panel("x = torch.ones(3, 3)\ny = torch.tril(x)\nz = torch.triu(x)\n")
    doc.select(1)
    panel.form.editor("diagonal").setValue(1)
    doc.select(2)
    panel.form.editor("diagonal").setValue(1)
    assert stack.count() == 2
    stack.undo()
    assert doc.recipe.steps[1].text == "torch.tril(x, diagonal=1)"
    assert doc.recipe.steps[2].text == "torch.triu(x)"


def test_changing_the_input_edits_the_step(make_panel):
    panel, doc, _ = make_panel("a = torch.ones(2, 2)\nb = torch.eye(2)\nc = a.t()\n")
    doc.select(2)
    panel.set_input("b")
    assert doc.recipe.steps[2].text == "b.t()"
    assert torch.equal(value(doc, "c"), torch.eye(2).t())


def test_renaming_the_edited_step_renames_its_readers(qtbot, make_panel):
    panel, doc, _ = make_panel("x = torch.ones(3, 3)\ny = torch.tril(x)\nz = y.sum()\n")
    doc.select(1)
    panel.name_edit.setText("x")  # taken
    assert panel.name_message.text()
    panel.name_edit.setText("lower")
    panel.name_edit.editingFinished.emit()
    assert doc.recipe.names() == ["x", "lower", "z"]
    doc.settle()
    assert doc.recipe.steps[2].reads == ["lower"] and doc.run.ok


def test_loading_keeps_what_the_form_cannot_show(make_panel):
    """``torch.arange(12)`` as a receiver, keywords and tuples survive a parameter change."""
    panel, doc, _ = make_panel("x = torch.arange(12).view(3, 4)\n"
                               "a = torch.ones(2)\nc = torch.cat((a, a), dim=0)\n")
    doc.select(0)
    fill(panel, {"size": "4, 3"})
    assert doc.recipe.steps[0].text == "torch.arange(12).view(4, 3)"
    assert torch.equal(value(doc, "x"), torch.arange(12).view(4, 3))
    doc.select(2)
    fill(panel, {"dim": -1})
    assert doc.recipe.steps[2].text == "torch.cat((a, a), dim=-1)"


# -- errors are lessons ---------------------------------------------------------------------------
def test_failing_cat_shows_torchs_message_and_the_run_stops_there(qtbot, make_panel):
    panel, doc, _ = make_panel("a = torch.zeros(2, 3)\nb = torch.ones(2, 3)\n"
                               "c = torch.cat((a, b), dim=0)\nd = c.sum(dim=0)\n")
    doc.select(2)
    assert not panel.lesson_box.isVisibleTo(panel)
    fill(panel, {"dim": 2})

    with pytest.raises(IndexError) as raised:
        torch.cat((torch.zeros(2, 3), torch.ones(2, 3)), dim=2)
    doc.settle()
    assert doc.run.results[2].status == "error"
    assert doc.run.results[3].status == "skipped"  # python stops at the error
    assert panel.lesson_box.isVisibleTo(panel)
    assert str(raised.value) in panel.error_label.text()
    assert "[-2, 1]" in panel.cause_label.text()  # the lesson names the valid range

    doc.select(3)
    assert not panel.lesson_box.isVisibleTo(panel)  # not run: no error of its own
    doc.select(2)
    fill(panel, {"dim": 1})
    doc.settle()  # the old run stays on show until the kernel's results come
    assert not panel.lesson_box.isVisibleTo(panel)
    assert torch.equal(value(doc, "d"), torch.cat((torch.zeros(2, 3), torch.ones(2, 3)), 1).sum(0))


# -- the call helpers (no widgets) ----------------------------------------------------------------
def test_builder_steps_are_not_op_steps():
    assert op_spec(step("x", "torch.zeros(2)")) is None
    assert op_spec(step(None, "print(x)")) is None
    assert op_spec(step("y", "x.view(2)")) is CATALOG.get(
        "Tensor.view")


# -- time it --------------------------------------------------------------------------------------
def test_time_it_fills_the_table_off_the_gui_thread(qtbot, make_panel):
    panel, doc, _ = make_panel("a = torch.ones(32, 32)\nb = a @ a\n")
    view = panel.timing_view
    view.min_run_time = 0.01
    assert not view.time_button.isEnabled()  # nothing selected
    doc.select(1)
    assert view.time_button.isEnabled()
    with qtbot.waitSignal(view.finished, timeout=20000):
        qtbot.mouseClick(view.time_button, Qt.MouseButton.LeftButton)
        assert view.running and not view.time_button.isEnabled()
    assert [t.device for t in view.timings] == [d.id for d in doc.kernel.devices]  # the kernel's
    assert view.table.rowCount() == len(view.timings)
    assert view.table.item(0, 0).text() == "cpu"
    assert view.timings[0].median_s > 0 and int(view.table.item(0, 2).text()) >= 1
    assert view.time_button.isEnabled() and not view.progress.isVisibleTo(view)
    doc.select(0)
    assert view.table.rowCount() == 0  # the times were for another step
