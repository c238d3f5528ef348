"""Op explained and the storage inspector: widget tier, a Document wrapped in the views.

Expected cells are worked out by hand from each op's definition, never read back from
the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack

from app.recipe.document import Document
from app.recipe.model import write_step
from app.recipe.reader import read_recipe
from widgets.explain.explained_grid import GREY_BACKGROUND, palette_colour
from widgets.explain.op_extras import (
    BroadcastExtra,
    DiagonalExtra,
    SourceColourExtra,
    StorageOrderExtra,
)
from widgets.explain.op_view import OpView
from widgets.explain.storage_view import StorageView

GATHER = """\
x = torch.arange(12.0).view(3, 4)
index = torch.tensor([[3, 0], [1, 1], [2, 0]])
y = torch.gather(x, 1, index)
"""
INDEX = [[3, 0], [1, 1], [2, 0]]
BACKGROUND = Qt.ItemDataRole.BackgroundRole


def make_doc(body: str) -> Document:
    return Document(read_recipe("import torch\n" + body))


@pytest.fixture
def make_view(qtbot, run_in_kernel):
    def make(body: str, select: int | None = None) -> tuple[OpView, Document, QUndoStack]:
        doc = run_in_kernel(make_doc(body))
        doc.select(len(doc.recipe.steps) - 1 if select is None else select)
        stack = QUndoStack()
        view = OpView(doc, stack)
        stack.setParent(view)  # deleted with the view, by Qt (see conftest)
        qtbot.addWidget(view)
        view.resize(900, 640)
        view.show()
        qtbot.waitExposed(view)
        doc.settle()
        return view, doc, stack
    return make


def card(view: OpView, name: str):
    return next(c for c in view.input_cards if c.label == name)


def explain(qtbot, view: OpView, index: tuple[int, ...]) -> None:
    with qtbot.waitSignal(view.traced, timeout=10_000):
        view.activate_output(index)


def test_hovering_a_gather_output_lights_the_input_and_the_index_entry(qtbot, make_view):
    view, _, _ = make_view(GATHER)
    out = view.output_cards[0].grid
    assert [c.label for c in view.input_cards] == ["x", "index"]

    qtbot.waitUntil(lambda: out.viewport().height() > 0)  # laid out
    # a real hover: the mouse moves onto y[1, 0]
    qtbot.mouseMove(out.viewport(), out.cell_rect_center((1, 0)).toPoint())
    # out[i][j] = x[i][index[i][j]]: y[1, 0] = x[1, INDEX[1][0]] = x[1, 1]
    qtbot.waitUntil(lambda: card(view, "x").grid.table_model.marks == {(1, 1): "source"},
                    timeout=10_000)
    assert card(view, "index").grid.table_model.marks == {(1, 0): "used"}
    assert out.table_model.marks == {(1, 0): "active"}
    assert "x[1, 1]" in view.hint.text() and "index[1, 0] = 1" in view.hint.text()

    for i in range(3):
        for j in range(2):
            explain(qtbot, view, (i, j))
            assert card(view, "x").grid.table_model.marks == {(i, INDEX[i][j]): "source"}
            assert card(view, "index").grid.table_model.marks == {(i, j): "used"}


def test_leaving_the_grid_goes_back_to_the_clicked_cell(qtbot, make_view):
    view, _, _ = make_view(GATHER)
    explain(qtbot, view, (2, 0))
    view.activate_output((2, 0), pin=True)
    explain(qtbot, view, (0, 0))
    assert card(view, "x").grid.table_model.marks == {(0, 3): "source"}
    view.output_cards[0].grid.hovered.emit(None)  # the mouse left the grid
    assert card(view, "x").grid.table_model.marks == {(2, 2): "source"}


def test_tril_slider_edits_the_step_and_greys_the_zeroed_region(qtbot, make_view):
    view, doc, stack = make_view("x = torch.arange(1.0, 17.0).view(4, 4)\n"
                                 "y = torch.tril(x)\n")
    extra = view.extra
    assert isinstance(extra, DiagonalExtra)
    x = torch.arange(1.0, 17.0).view(4, 4)  # no zeros: a zero in y was zeroed by tril
    grid = view.output_cards[0].grid
    for d in (1, -2, 2):
        with qtbot.waitSignal(doc.evaluated):
            extra.slider.setValue(d)
        doc.settle()
        expected = torch.tril(x, d)
        step = doc.recipe.steps[1]
        assert f"diagonal={d}" in write_step(step)
        assert np.array_equal(grid.table_model.values, expected.numpy())
        assert np.array_equal(grid.table_model.greyed, (expected == 0).numpy())
        assert grid.diagonal == d
        model = grid.table_model
        assert model.data(model.index(0, 3), BACKGROUND) == GREY_BACKGROUND
    assert stack.count() == 1  # one drag, one undo step
    stack.undo()
    doc.settle()
    assert write_step(doc.recipe.steps[1]) == "y = torch.tril(x)"
    assert extra.slider.value() == 0


def test_cat_colours_each_output_row_by_its_source(qtbot, make_view):
    view, _, _ = make_view("a = torch.zeros(2, 3)\nb = torch.ones(1, 3)\n"
                           "c = torch.cat((a, b), dim=0)\n")
    assert isinstance(view.extra, SourceColourExtra)
    model = view.output_cards[0].grid.table_model
    source_of_row = [0, 0, 1]  # rows 0 and 1 are a's, row 2 is b's
    for row, k in enumerate(source_of_row):
        for col in range(3):
            assert model.labels[row, col] == k
            assert model.data(model.index(row, col), BACKGROUND) == palette_colour(k)
    assert card(view, "a").grid.table_model.data(
        card(view, "a").grid.table_model.index(0, 0), BACKGROUND) == palette_colour(0)


def test_cat_along_columns_colours_by_column(qtbot, make_view):
    view, _, _ = make_view("a = torch.zeros(2, 1)\nb = torch.ones(2, 2)\n"
                           "c = torch.cat([a, b], 1)\n")
    assert view.extra.labels.tolist() == [[0, 1, 1], [0, 1, 1]]


def test_broadcasting_marks_the_stretched_dims(qtbot, make_view):
    view, _, _ = make_view("a = torch.zeros(3, 1)\nb = torch.zeros(1, 4)\nc = a + b\n")
    extra = view.extra
    assert isinstance(extra, BroadcastExtra)
    states = [[cell.state for cell in row] for row in extra.cells]
    assert states == [["same", "stretched"], ["stretched", "same"]]
    # each output element comes from one element of each operand
    explain(qtbot, view, (2, 3))
    assert view.provenance.sources == {"a": [(2, 0)], "b": [(0, 3)]}


def test_broadcasting_a_missing_dim_and_a_conflict(qtbot, make_view):
    view, _, _ = make_view("a = torch.zeros(2, 3)\nb = torch.zeros(3)\nc = torch.mul(a, b)\n")
    assert [c.state for c in view.extra.cells[1]] == ["stretched", "same"]
    view, _, _ = make_view("a = torch.zeros(3, 2)\nb = torch.zeros(4)\nc = a * b\n")
    assert [c.state for c in view.extra.cells[0]] == ["same", "conflict"]
    assert view.error_box.isVisible()


def test_view_after_transpose_shows_the_error_and_the_memory_order(qtbot, make_view):
    view, doc, _ = make_view("x = torch.arange(6).view(2, 3)\nt = x.t()\nv = t.view(6)\n")
    assert doc.run.results[2].status == "error"
    assert view.error_box.isVisible()
    assert "view size is not compatible" in view.error_label.text()
    assert view.cause_label.text()  # the lesson: why, and the fix
    assert view.output_cards == [] and view.no_output.isVisible()
    assert [c.label for c in view.input_cards] == ["t"]
    extra = view.extra
    assert isinstance(extra, StorageOrderExtra)
    grid = extra.diagram.grids[0]
    # t = x.t() reads x's memory column by column: t[i, j] sits at i * 1 + j * 3
    assert grid.numbers == [[0, 1], [2, 3], [4, 5]]
    assert grid.memory == [[0, 3], [1, 4], [2, 5]]
    assert "contiguous" in extra.caption.text()
    view.activate_output((0,))  # nothing to explain: no crash, nothing traced
    assert view.active is None


def test_inputs_are_shown_as_they_were_before_a_later_in_place_edit(qtbot, make_view):
    view, _, _ = make_view("x = torch.arange(4.0)\ny = x * 2\nx.add_(1)\n", select=1)
    assert card(view, "x").grid.table_model.values.tolist() == [[0.0, 1.0, 2.0, 3.0]]
    assert view.output_cards[0].grid.table_model.values.tolist() == [[0.0, 2.0, 4.0, 6.0]]


def test_squeeze_and_a_tuple_result(qtbot, make_view):
    view, _, _ = make_view("x = torch.arange(6).view(2, 3)\nparts = x.chunk(3, dim=1)\n")
    assert [c.label for c in view.output_cards] == ["parts[0]", "parts[1]", "parts[2]"]
    with qtbot.waitSignal(view.traced, timeout=10_000):
        view.activate_output((1, 0), part=2)
    assert card(view, "x").grid.table_model.marks == {(1, 2): "source"}


def test_storage_view_groups_a_view_with_its_base_and_not_a_clone(qtbot, run_in_kernel):
    doc = run_in_kernel(make_doc("x = torch.arange(6.0)\nv = x.view(2, 3)\nc = x.clone()\n"
                                 "v.add_(1)\n"))
    view = StorageView(doc)
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    doc.settle()
    assert view.groups == [["x", "v"], ["c"]]
    assert view.row_text("v")[1] == "view of x"
    assert view.row_text("c")[1] == "own memory"
    view.select_name("v")
    doc.settle()
    base = view.other_card.grid.table_model
    # v.add_(1) went through the view, into x's memory; the clone kept the old values
    assert base.values.tolist() == [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]
    assert set(base.marks) == {(0, k) for k in range(6)}
    assert "shares memory with x" in view.summary.text()
    view.select_name("c")
    doc.settle()
    assert view.other_card.isHidden()
    assert view.selected_card.grid.table_model.values.tolist() == [[0.0, 1.0, 2.0, 3.0,
                                                                   4.0, 5.0]]


def test_storage_view_lights_the_part_of_the_base_a_slice_reads(qtbot, run_in_kernel):
    doc = run_in_kernel(make_doc("x = torch.arange(6.0).view(2, 3)\nrow = x[1]\n"))
    view = StorageView(doc)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    doc.settle()  # the map of the memory comes from the kernel
    view.select_name("row")
    doc.settle()
    assert set(view.other_card.grid.table_model.marks) == {(1, 0), (1, 1), (1, 2)}


def test_main_window_has_the_op_and_memory_tabs(qtbot, settle):
    from widgets.shell.main_window import MainWindow

    window = MainWindow(make_doc(GATHER))  # made in the window: its kernel runs it again
    qtbot.addWidget(window)
    settle(window.document)
    tabs = [window.views.tabText(i) for i in range(window.views.count())]
    assert "Op explained" in tabs and "Memory" in tabs
    window.document.select(2)
    window.views.setCurrentWidget(window.op_view)
    window.show()
    qtbot.waitExposed(window)
    assert [c.label for c in window.op_view.input_cards] == ["x", "index"]
    assert window.document.modified is False  # the view never edits what it shows


def test_a_step_too_large_for_its_report_is_explained_once_its_values_come(qtbot, make_view):
    """300 x 300 cells: the view asks the kernel for them, then traces as for small ones."""
    view, doc, _ = make_view("x = torch.arange(90000.0).view(300, 300)\ny = torch.tril(x)\n")
    qtbot.waitUntil(lambda: bool(view.output_cards), timeout=30_000)
    x = torch.arange(90000.0).view(300, 300)
    assert np.array_equal(view.output_cards[0].grid.table_model.values, torch.tril(x).numpy())
    explain(qtbot, view, (5, 2))  # below the diagonal: x[5, 2] itself
    assert card(view, "x").grid.table_model.marks == {(5, 2): "source"}


def test_a_large_step_changed_in_place_later_says_so(qtbot, make_view):
    view, doc, _ = make_view("x = torch.arange(90000.0).view(300, 300)\ny = torch.tril(x)\n"
                             "y.add_(1)\n", select=1)
    qtbot.waitUntil(lambda: "in place" in view.hint.text(), timeout=30_000)
    assert "y" in view.hint.text() and view.output_cards == []


ROLES = """\
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
w = torch.ones(2, 2)
r = torch.relu(x)
s = torch.add(x, w)
t = x + w
"""


def test_every_card_role_is_in_the_interface_language(qtbot, make_view, chinese):
    """Chinese shows "x · 输入" beside "r · 输出", never the parameter's English name:
    each role goes through the translation (what lupdate has not extracted yet stays
    English until the catalogue is regenerated, so the comparison is with translate)."""
    from PySide6.QtCore import QCoreApplication

    def zh(english: str) -> str:
        return QCoreApplication.translate("OpView", english)

    view, doc, _ = make_view(ROLES, select=2)
    qtbot.waitUntil(lambda: bool(view.output_cards), timeout=10_000)
    titles = [c.title.text() for c in view.input_cards + view.output_cards]
    assert titles == [f"x  ·  {zh('input')}", f"r  ·  {zh('output')}"]
    assert zh("input") == "输入"  # shipped: the card once showed "x · input" beside it
    expected = {3: [f"x  ·  {zh('input')}", f"w  ·  {zh('other')}"],
                4: [f"x  ·  {zh('left')}", f"w  ·  {zh('right')}"]}
    for step, cards in expected.items():
        doc.select(step)
        doc.settle()
        qtbot.waitUntil(lambda shown=cards: [c.title.text() for c in view.input_cards]
                        == shown, timeout=10_000)


def test_an_element_from_many_names_the_first_four_and_counts_the_rest(qtbot, make_view):
    view, _, _ = make_view("x = torch.arange(12.0).view(2, 6)\ny = torch.softmax(x, dim=1)\n")
    explain(qtbot, view, (1, 2))  # softmax along a row: all 6 elements of x's row 1
    assert view.provenance.sources == {"x": [(1, j) for j in range(6)]}
    assert "x[1, 0], x[1, 1], x[1, 2], x[1, 3] and 2 more" in view.hint.text()
