"""Op explained on tensors made inside a loop or a function: the kernel finds the op
statement there (``kernel.explain.inner_step_query``) and explains it with the values it read.
Widget tier; expected cells from torch run here, or by hand."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtGui import QUndoStack

from app.recipe.document import Document
from app.recipe.reader import read_recipe
from widgets.explain.op_extras import DiagonalExtra, ShapeChangeExtra, StorageOrderExtra
from widgets.explain.op_view import OpView

X = torch.arange(1.0, 10.0).view(3, 3)  # no zeros: a zero in the output was zeroed


@pytest.fixture
def make_view(qtbot, run_in_kernel):
    def make(body: str) -> tuple[OpView, Document]:
        doc = run_in_kernel(Document(read_recipe("import torch\n" + body)))
        doc.select(len(doc.recipe.steps) - 1)
        stack = QUndoStack()
        view = OpView(doc, stack)
        stack.setParent(view)
        qtbot.addWidget(view)
        view.resize(900, 640)
        view.show()
        qtbot.waitExposed(view)
        doc.settle()
        qtbot.waitUntil(lambda: bool(view.output_cards), timeout=10_000)
        doc.settle()
        return view, doc
    return make


def values(card) -> np.ndarray:
    return card.grid.table_model.values


def explain(qtbot, view: OpView, index: tuple[int, ...]) -> None:
    with qtbot.waitSignal(view.traced, timeout=10_000):
        view.activate_output(index)


FUNCTION = """\
x = torch.arange(1.0, 10.0).view(3, 3)
def lower(a):
    return torch.tril(a)
y = lower(x)
"""


def test_a_call_of_a_function_explains_the_op_it_returns(qtbot, make_view):
    view, doc = make_view(FUNCTION)
    assert view.code.text() == "y = torch.tril(a)"
    line = doc.text.splitlines().index("    return torch.tril(a)") + 1
    assert "lower" in view.summary.text() and f"line {line}" in view.summary.text()
    assert [c.label for c in view.input_cards] == ["a"]  # the parameter, holding x
    assert np.array_equal(values(view.input_cards[0]), X.numpy())
    assert np.array_equal(values(view.output_cards[0]), torch.tril(X).numpy())
    assert isinstance(view.extra, DiagonalExtra)  # tril's extra: the zeroed cells greyed
    assert np.array_equal(view.output_cards[0].grid.table_model.greyed,
                          (torch.tril(X) == 0).numpy())
    explain(qtbot, view, (2, 1))  # below the diagonal: a[2, 1] itself
    assert view.provenance.sources == {"a": [(2, 1)]}
    explain(qtbot, view, (0, 2))  # above it: made by tril, from no element
    assert view.provenance.sources == {"a": []}


def test_a_function_that_is_not_one_return_is_shown_as_code_with_the_reason(qtbot, make_view,
                                                                           run_in_kernel):
    doc = run_in_kernel(Document(read_recipe(
        "import torch\nx = torch.ones(2)\ndef f(a):\n    print(a)\n    return a * 2\n"
        "y = f(x)\n")))
    doc.select(len(doc.recipe.steps) - 1)
    view = OpView(doc)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    doc.settle()
    qtbot.waitUntil(lambda: "not one return" in view.hint.text(), timeout=10_000)
    assert view.output_cards == [] and view.hint.text().startswith("Code:")


LOOP = """\
x = torch.arange(1.0, 10.0).view(3, 3)
for i in range(3):
    y = torch.tril(x, diagonal=i - 1)
"""


def test_a_loop_explains_its_op_statement_at_the_iteration_picked(qtbot, make_view):
    view, doc = make_view(LOOP)
    assert view.iteration.isVisible() and view.iteration.value() == 2  # the last, first
    assert view.code.text() == "y = torch.tril(x, diagonal=i - 1)"
    assert "iteration 2" in view.summary.text()
    assert {c.label for c in view.input_cards} == {"x"}  # i is a number: no card
    assert np.array_equal(values(view.output_cards[0]), torch.tril(X, 1).numpy())
    explain(qtbot, view, (0, 1))
    assert view.provenance.sources == {"x": [(0, 1)]}
    view.iteration.setValue(0)  # as the user would: the values of iteration 0
    doc.settle()
    qtbot.waitUntil(lambda: "iteration 0" in view.summary.text(), timeout=10_000)
    assert np.array_equal(values(view.output_cards[0]), torch.tril(X, -1).numpy())
    explain(qtbot, view, (0, 1))  # on the diagonal, zeroed in iteration 0
    assert view.provenance.sources == {"x": []}
    explain(qtbot, view, (2, 1))
    assert view.provenance.sources == {"x": [(2, 1)]}
    extra = view.extra  # the diagonal the kernel worked out, i - 1; not a literal to edit
    assert isinstance(extra, DiagonalExtra)
    assert extra.slider.value() == -1 and not extra.slider.isEnabled()
    assert np.array_equal(view.output_cards[0].grid.table_model.greyed,
                          (torch.tril(X, -1) == 0).numpy())


def test_shape_diagrams_in_a_loop_show_that_iterations_shapes(qtbot, make_view):
    view, doc = make_view("x = torch.arange(6.0).view(2, 3)\nfor d in range(3):\n"
                          "    u = x.unsqueeze(d)\n")
    extra = view.extra
    assert isinstance(extra, ShapeChangeExtra)
    assert [r.note for r in extra.diagram.rows] == ["(2, 3)", "(2, 3, 1)"]  # d = 2
    view.iteration.setValue(1)
    doc.settle()
    qtbot.waitUntil(lambda: [r.note for r in view.extra.diagram.rows]
                    == ["(2, 3)", "(2, 1, 3)"], timeout=10_000)


def test_shape_diagrams_in_a_function_number_the_memory_it_reads(qtbot, make_view):
    view, _ = make_view("x = torch.arange(6.0).view(2, 3)\ndef flat(a):\n"
                        "    return a.t().reshape(6)\nz = flat(x)\n")
    extra = view.extra
    assert isinstance(extra, StorageOrderExtra)
    grid = extra.diagram.grids[0]  # a.t(): read column by column, worked out by the kernel
    assert grid.numbers == [[0, 1], [2, 3], [4, 5]]
    assert grid.memory == [[0, 3], [1, 4], [2, 5]]
    assert np.array_equal(values(view.output_cards[0]).reshape(-1),
                          torch.arange(6.0).view(2, 3).t().reshape(6).numpy())
