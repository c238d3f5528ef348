"""The Memory tab, the heatmap and the autograd panel on tensors made inside a loop and
inside a function (issue #33): what they show comes from the kernel, which holds those
tensors as python left them; the window holds copies (``TensorCopy``) and NumPy arrays.

Expected values are worked out here with torch, on the same code.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from app.recipe.document import Document
from app.recipe.reader import read_recipe
from app.tensor_copy import TensorCopy
from tests.test_viewer_without_torch import ROOT, _torch_imports

#: The views this file checks, and the window-side modules of their own.
TORCH_FREE = [*sorted((ROOT / "widgets" / "autograd").glob("*.py")),
              *sorted((ROOT / "widgets" / "viewer").glob("*.py")),
              ROOT / "widgets" / "explain" / "storage_view.py", ROOT / "app" / "exports.py",
              ROOT / "protocol" / "tensor_text.py", ROOT / "app" / "tensor_copy.py"]


def test_the_autograd_memory_and_viewer_modules_never_import_torch():
    found = {str(p.relative_to(ROOT)): _torch_imports(p) for p in TORCH_FREE}
    assert len(found) > 15 and not any(found.values()), found

FUNCTION_VIEWS = """\
import torch

def f(a):
    return a.t()

def g(a):
    return a[1:, ::2]

x = torch.arange(12.0).reshape(3, 4)
y = f(x)
z = g(x)
"""

LOOP_VIEWS = """\
import torch

x = torch.arange(20.0).reshape(4, 5)
for k in range(3):
    v = x[k:, 1:4:2]
"""


def _run(run_in_kernel, text: str) -> Document:
    return run_in_kernel(Document(read_recipe(text)))


def _step_of(doc: Document, start: str) -> int:
    return next(i for i, s in enumerate(doc.recipe.steps) if s.label.startswith(start))


def _read_cells(base: torch.Tensor, make) -> set[tuple[int, int]]:
    """The (row, column) cells of 2-D ``base`` that the view ``make(base)`` reads: made
    here with torch, on a base whose elements are their own flat indices."""
    numbered = torch.arange(base.numel()).reshape(base.shape)
    cols = base.shape[1]
    return {(int(k) // cols, int(k) % cols) for k in make(numbered).flatten().tolist()}


def _memory_tab(qtbot, doc: Document, step: int):
    from widgets.explain.storage_view import StorageView

    view = StorageView(doc)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    doc.select(step)
    doc.settle()
    return view


@pytest.mark.gui
@pytest.mark.parametrize("name, make", [("y", lambda a: a.t()), ("z", lambda a: a[1:, ::2])])
def test_the_memory_tab_shows_a_view_made_in_a_function(qtbot, run_in_kernel, name, make):
    doc = _run(run_in_kernel, FUNCTION_VIEWS)
    view = _memory_tab(qtbot, doc, _step_of(doc, f"{name} ="))
    qtbot.waitUntil(lambda: view.selected == name and view.selected_card.isVisible()
                    and view.other_card.isVisible(), timeout=30_000)
    x = torch.arange(12.0).reshape(3, 4)
    made = make(x)
    assert view.groups == [["x", "y", "z"]]
    assert view.row_text(name)[1:5] == [
        "view of x", str(tuple(made.shape)), str(tuple(made.stride())),
        str(made.storage_offset())]
    shown = view._remote_values[name]
    assert isinstance(shown, TensorCopy) and shown.strides == made.stride()
    np.testing.assert_array_equal(shown.values, made.numpy())
    marks = view.other_card.grid.table_model._marks  # x's card: the cells the view reads
    assert set(marks) == _read_cells(x, make) and set(marks.values()) == {"source"}
    assert f"strides {tuple(made.stride())}" in view.selected_card.facts.text()


@pytest.mark.gui
def test_the_memory_tab_shows_a_loops_view_as_the_last_iteration_left_it(
        qtbot, run_in_kernel):
    doc = _run(run_in_kernel, LOOP_VIEWS)
    view = _memory_tab(qtbot, doc, _step_of(doc, "for"))
    qtbot.waitUntil(lambda: view.selected == "v" and view.other_card.isVisible(),
                    timeout=30_000)
    x = torch.arange(20.0).reshape(4, 5)
    v = x[2:, 1:4:2]  # k == 2: the binding the loop left
    assert view.row_text("v")[1:5] == ["view of x", "(2, 2)", "(5, 2)", "11"]
    assert view.row_text("v")[3] == str(tuple(v.stride()))
    np.testing.assert_array_equal(view._remote_values["v"].values, v.numpy())
    marks = view.other_card.grid.table_model._marks
    assert set(marks) == _read_cells(x, lambda a: a[2:, 1:4:2])


BIG_IN_A_FUNCTION = """\
import torch

def f(a):
    return a.t() * 2

torch.manual_seed(0)
x = torch.randn(1500, 2100)
x[7, 11] = float('nan')
y = f(x)
"""

BIG_IN_A_LOOP = """\
import torch

torch.manual_seed(0)
x = torch.randn(1800, 1700)
for k in range(3):
    big = x * (k + 1)
"""


def _viewer(qtbot, doc: Document, step: int):
    from widgets.viewer.panel import ViewerPanel

    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    doc.select(step)
    doc.settle()
    qtbot.waitUntil(lambda: panel.heatmap.pooled() and not panel.heatmap.pending(),
                    timeout=30_000)
    return panel


def _assert_pooled_as_torch(panel, plane: torch.Tensor) -> None:
    from kernel.queries import sample_steps
    from widgets.viewer.view import HEATMAP_CELLS

    block = sample_steps(*plane.shape, HEATMAP_CELLS)
    means = torch.nn.functional.avg_pool2d(plane[None, None], block, ceil_mode=True)[0, 0]
    means[~torch.isfinite(means)] = float("nan")
    np.testing.assert_array_equal(panel.heatmap.image_item.image, means.numpy())
    finite = plane[torch.isfinite(plane)]
    assert panel.heatmap.levels() == (finite.min().item(), finite.max().item())


@pytest.mark.gui
def test_the_heatmap_of_a_tensor_made_in_a_function_is_pooled_in_the_kernel(
        qtbot, run_in_kernel):
    doc = _run(run_in_kernel, BIG_IN_A_FUNCTION)
    panel = _viewer(qtbot, doc, _step_of(doc, "y ="))
    torch.manual_seed(0)
    x = torch.randn(1500, 2100)
    x[7, 11] = float("nan")
    y = x.t() * 2
    assert panel.mode == "heatmap"
    _assert_pooled_as_torch(panel, y)
    assert np.isnan(panel.heatmap.image_item.image).sum() == 1  # the NaN's block


@pytest.mark.gui
def test_the_heatmap_of_a_tensor_made_in_a_loop_is_pooled_in_the_kernel(
        qtbot, run_in_kernel):
    doc = _run(run_in_kernel, BIG_IN_A_LOOP)
    panel = _viewer(qtbot, doc, _step_of(doc, "for"))
    assert panel.iterations.iteration == 2  # the last: the kernel holds its tensor
    torch.manual_seed(0)
    x = torch.randn(1800, 1700)
    _assert_pooled_as_torch(panel, x * 3)


GRAD_IN_A_FUNCTION = """\
import torch

def loss(a):
    return (a * a).sum()

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = loss(x)
y.backward()
"""

GRAD_IN_A_LOOP = """\
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
for k in range(3):
    y = (x * k).sum()
    y.backward()
"""


def _grad_shown(panel) -> np.ndarray:
    return panel.inspect_page.grad_model.values


@pytest.mark.gui
@pytest.mark.parametrize("text, want", [
    (GRAD_IN_A_FUNCTION, lambda: torch.tensor([[2.0, -4.0, 6.0]])),  # d(sum a²)/da = 2a
    (GRAD_IN_A_LOOP, lambda: torch.full((2, 2), 3.0)),  # 0 + 1 + 2, accumulated
])
def test_the_autograd_panel_shows_grad_of_a_leaf_used_in_a_function_or_a_loop(
        qtbot, autograd_panel, text, want):
    panel, doc, _ = autograd_panel(qtbot, text, "x")
    qtbot.waitUntil(lambda: _grad_shown(panel).size > 0, timeout=30_000)
    np.testing.assert_array_equal(_grad_shown(panel), want().numpy())
    assert panel.facts()["is_leaf"] == "True"


@pytest.mark.gui
def test_the_heatmap_of_a_loop_iteration_picked_in_the_viewer_is_that_iterations(
        qtbot, run_in_kernel):
    """An earlier iteration's small tensor comes with the loop's report (its summary):
    the heatmap draws that iteration's values, not the last one's."""
    from widgets.viewer.panel import ViewerPanel

    doc = _run(run_in_kernel, "import torch\nw = torch.arange(24.0).reshape(4, 6)\n"
                              "for i in range(3):\n    y = (w * (i - 1)).t()\n")
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    doc.select(_step_of(doc, "for"))
    doc.settle()
    panel.set_mode("heatmap")
    panel.iterations.pick(0)
    qtbot.waitUntil(lambda: panel.heatmap.values.shape == (6, 4), timeout=30_000)
    want = (torch.arange(24.0).reshape(4, 6) * -1).t()  # iteration 0's y
    np.testing.assert_array_equal(panel.heatmap.image_item.image, want.numpy())
    assert panel.heatmap.levels() == (want.min().item(), want.max().item())
    assert not panel.heatmap.pooled()  # small: drawn whole, no image asked for
