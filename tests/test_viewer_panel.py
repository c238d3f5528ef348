"""Widget tests of the tensor viewer: build a document, wrap it in the panel, assert on widgets."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPainter

from app.recipe.document import Document
from app.recipe.model import Recipe, Step
from app.recipe.reader import read_recipe, read_step
from kernel.queries import sample_steps
from kernel.tensor_info import tensor_stats
from protocol.limits import MAX_PLANE_CELLS
from widgets.common.background import wait_for_jobs
from widgets.viewer.heatmap_view import HeatmapView
from widgets.viewer.panel import ViewerPanel
from widgets.viewer.view import HEATMAP_CELLS

pytestmark = pytest.mark.gui

TOOLTIP = Qt.ItemDataRole.ToolTipRole


def _recipe(*lines: str) -> Recipe:
    """The recipe of these statements, as a fresh ``Recipe`` of their steps."""
    return Recipe(read_recipe("import torch\n" + "".join(f"{line}\n" for line in lines)).steps)


@pytest.fixture
def doc(run_in_kernel) -> Document:
    recipe = _recipe("torch.manual_seed(0)", "x = torch.arange(12)", "noise = torch.randn(4, 5)",
                     "cube = torch.rand(2, 3, 4)", "n = 3", "bad = torch.zeros(-1)",
                     "after = torch.ones(2)")
    return run_in_kernel(Document(recipe))


@pytest.fixture
def panel(qtbot, doc: Document) -> ViewerPanel:
    p = ViewerPanel(doc)
    qtbot.addWidget(p)
    return p


def _select(doc: Document, name: str) -> None:
    """Select ``name``'s step and wait for what the viewer asks the kernel."""
    doc.select_name(name)
    doc.settle()


def _seeded(*steps: str) -> dict[str, torch.Tensor]:
    """The tensors of the doc fixture's first steps, made here by torch with its seed."""
    torch.manual_seed(0)
    made = {"x": torch.arange(12), "noise": torch.randn(4, 5), "cube": torch.rand(2, 3, 4)}
    return {k: made[k] for k in steps}


def _cells(panel: ViewerPanel, role: int = Qt.ItemDataRole.DisplayRole) -> list[list[object]]:
    m = panel.table_model
    return [[m.data(m.index(r, c), role) for c in range(m.columnCount())]
            for r in range(m.rowCount())]


def test_grid_shows_the_selected_tensor(panel: ViewerPanel, doc: Document):
    assert panel.status_text() == "Select a step to see its value."
    _select(doc, "x")
    assert panel.title_text() == "x"
    assert (panel.table_model.rowCount(), panel.table_model.columnCount()) == (1, 12)
    assert _cells(panel) == [[str(i) for i in range(12)]]
    assert panel.table_model.data(panel.table_model.index(0, 5), TOOLTIP) == "x[5] = 5"
    assert "shape: (12,)" in panel.facts_text()
    assert "dtype: torch.int64" in panel.facts_text()
    assert "max 11" in panel.stats_text()

    _select(doc, "noise")
    t = _seeded("x", "noise")["noise"]
    assert (panel.table_model.rowCount(), panel.table_model.columnCount()) == (4, 5)
    assert _cells(panel) == [[f"{v:.4g}" for v in row] for row in t.tolist()]
    tip = panel.table_model.data(panel.table_model.index(2, 3), TOOLTIP)
    assert tip == "noise[2, 3] = " + str(t.numpy()[2, 3])
    assert "shape: (4, 5)" in panel.facts_text()
    assert panel.mode == "grid" and not panel.dims_visible()


def test_nd_tensor_dims_choose_the_plane(panel: ViewerPanel, doc: Document):
    _select(doc, "cube")
    t = _seeded("x", "noise", "cube")["cube"]
    assert panel.dims_visible()
    assert panel.plane_dims == (1, 2, {0: 0})
    np.testing.assert_array_equal(panel.table_model.values, t[0].numpy())

    panel.rows_dim_box.setCurrentIndex(0)  # rows along dim 0: dim 1 gets an index box
    doc.settle()
    assert panel.plane_dims == (0, 2, {1: 0})
    assert not panel.index_box(0).isVisibleTo(panel) and panel.index_box(1).isVisibleTo(panel)
    panel.index_box(1).setValue(2)
    doc.settle()
    np.testing.assert_array_equal(panel.table_model.values, t[:, 2, :].numpy())
    tip = panel.table_model.data(panel.table_model.index(1, 3), TOOLTIP)
    assert str(tip).startswith("cube[1, 2, 3] = ")

    panel.cols_dim_box.setCurrentIndex(0)  # the dim the rows show: the two swap
    doc.settle()
    assert panel.plane_dims == (2, 0, {1: 2})
    np.testing.assert_array_equal(panel.table_model.values, t[:, 2, :].T.numpy())


def test_failed_and_plain_steps_show_their_status(panel: ViewerPanel, doc: Document):
    _select(doc, "bad")
    result = doc.run.result_for("bad")
    assert result is not None and result.error in panel.status_text()
    with pytest.raises(RuntimeError) as torch_error:
        torch.zeros(-1)
    assert panel.status_text() == f"RuntimeError: {torch_error.value}"
    assert not panel.body_visible()
    assert panel.table_model.rowCount() == 0
    _select(doc, "after")  # python stopped at the error
    assert panel.status_text() == "Not run: an earlier step stopped the run."
    _select(doc, "n")
    assert "n: int 3" in panel.status_text()


def test_a_long_torch_message_shows_whole(qtbot, run_in_kernel):
    """torch's view error, with its kind, is 168 characters: its advice, at the end, is
    not cut off."""
    doc = run_in_kernel(Document(_recipe("x = torch.arange(6)", "t = x.view(2, 3).t()",
                                         "v = t.view(6)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    _select(doc, "v")
    with pytest.raises(RuntimeError) as torch_error:
        torch.arange(6).view(2, 3).t().view(6)
    whole = f"RuntimeError: {torch_error.value}"
    assert len(whole) > 160 and panel.status_text() == whole


def test_follows_evaluation(panel: ViewerPanel, doc: Document):
    _select(doc, "x")
    doc.recipe.replace_step(1, read_step("x = torch.arange(3)"))
    doc.settle()
    assert panel.table_model.columnCount() == 3
    doc.recipe.replace_step(1, read_step("x = torch.zeros(-2)"))
    doc.settle()
    assert "RuntimeError" in panel.status_text()


def test_large_tensor_opens_as_a_heatmap_of_an_even_sample(qtbot, run_in_kernel):
    """A 4096² tensor stays in the kernel: the heatmap gets an even sample of it, about
    its own resolution (``HEATMAP_CELLS``), and the statistics of all of it."""
    doc = run_in_kernel(Document(_recipe("torch.manual_seed(0)",
                                          "big = torch.rand(4096, 4096)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    _select(doc, "big")
    torch.manual_seed(0)
    big = torch.rand(4096, 4096)
    assert panel.mode == "heatmap"
    step = sample_steps(4096, 4096, HEATMAP_CELLS)
    assert step == (8, 8)  # 512 x 512 cells of 16.7 million
    np.testing.assert_array_equal(panel.table_model.values, big[::8, ::8].numpy())
    assert panel.stats_text() == "   ".join(f"{k} {v}" for k, v in tensor_stats(big))

    panel.set_mode("grid")  # the user can switch back, and a new run keeps the choice
    doc.evaluate()
    doc.settle()
    assert panel.mode == "grid"
    assert panel.table_model.values.size <= MAX_PLANE_CELLS  # still a sample: 2 million


def test_heatmap_handles_non_finite_and_constant_planes(qtbot):
    view = HeatmapView()
    qtbot.addWidget(view)
    view.set_plane(np.array([[1.0, np.nan], [np.inf, 3.0]], dtype=np.float32))
    assert view.levels() == (1.0, 3.0)
    assert np.isnan(view.image_item.image[0, 1]) and np.isnan(view.image_item.image[1, 0])
    view.set_plane(np.full((2, 3), 5, dtype=np.int64))
    lo, hi = view.levels()
    assert lo < 5 < hi
    view.set_plane(np.array([[True, False]]))
    assert view.levels() == (0.0, 1.0)
    view.clear_plane()
    assert view.image_item.image is None


def test_big_tensor_statistics_and_heatmap_come_from_the_kernel(qtbot, run_in_kernel):
    """The panel shows the header at once; the numbers, asked of the kernel, match torch's."""
    doc = run_in_kernel(Document(_recipe(
        "torch.manual_seed(0)", "big = torch.randn(2048, 1100)", "small = torch.ones(3, 3)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    doc.select_name("big")
    assert panel.stats_pending()  # asked: the answer comes later
    doc.settle()
    torch.manual_seed(0)
    big = torch.randn(2048, 1100)
    assert panel.stats_text() == "   ".join(f"{k} {v}" for k, v in tensor_stats(big))
    step_r, step_c = sample_steps(2048, 1100, HEATMAP_CELLS)
    qtbot.waitUntil(lambda: not panel.heatmap.pending())
    # the kernel pooled the plane: each pixel a block's mean, the levels the whole plane's
    assert panel.heatmap.pooled()
    means = torch.nn.functional.avg_pool2d(big[None, None], (step_r, step_c),
                                           ceil_mode=True)[0, 0]
    np.testing.assert_array_equal(panel.heatmap.image_item.image, means.numpy())
    assert panel.heatmap.levels() == (big.min().item(), big.max().item())

    # A newer selection makes an older answer stale: it never overwrites.
    doc.select_name("big")
    doc.select_name("small")
    doc.settle()
    assert "min 1" in panel.stats_text()
    assert wait_for_jobs()
    QCoreApplication.processEvents()  # deliver any late results
    assert "min 1" in panel.stats_text()


def test_the_colour_bar_is_wide_enough_for_large_values(qtbot):
    """pyqtgraph hides tick labels wider than the bar's axis; ±4e+06 must still show."""
    view = HeatmapView()
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    view.set_plane(np.linspace(-4e6, 4e6, 64, dtype=np.float32).reshape(8, 8))
    axis = view.color_bar.axis

    def drawn() -> list[str]:
        image = QImage(10, 10, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        try:
            specs = axis.generateDrawSpecs(painter)
        finally:
            painter.end()
        return [text for _rect, _flags, text in specs[2]] if specs else []

    qtbot.waitUntil(lambda: "4e+06" in drawn() and "-4e+06" in drawn())


def test_statistics_come_after_the_plane_whatever_plane_is_asked_meanwhile(qtbot,
                                                                          run_in_kernel):
    """The statistics are a question of their own: the plane is painted first, and a
    plane asked for meanwhile (the user switches to the grid at once) does not lose them."""
    doc = run_in_kernel(Document(_recipe(
        "torch.manual_seed(0)", "big = torch.randn(1500, 900)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    shown = []
    show_plane = panel.show_plane
    panel.show_plane = lambda values, address: (shown.append(values.shape),
                                                show_plane(values, address))
    asked = []
    ask = doc.kernel.ask
    doc.kernel.ask = lambda kind, args: (asked.append((kind, args.get("cells"))),
                                         ask(kind, args))[1]
    doc.select_name("big")  # shown as a heatmap (it is big)...
    panel.set_mode("grid")  # ...and at once as a grid: one action, the grid's questions
    doc.settle()
    assert asked == [("tensor", HEATMAP_CELLS), ("tensor", MAX_PLANE_CELLS),
                     ("tensor_stats", None)]
    torch.manual_seed(0)
    big = torch.randn(1500, 900)
    assert panel.stats_text() == "   ".join(f"{k} {v}" for k, v in tensor_stats(big))
    np.testing.assert_array_equal(panel.table_model.values, big.numpy())  # every cell
    step = sample_steps(1500, 900, HEATMAP_CELLS)  # a big grid: a coarse sample first
    assert shown == [(-(-1500 // step[0]), -(-900 // step[1])), (1500, 900)]



def test_an_edit_shows_the_statistics_of_its_own_run(qtbot, run_in_kernel):
    """Each edit of a big tensor's step shows that run's statistics, as torch computes
    them: the statistics used to be asked about the run before (their question was set
    only after a plane sent with the run had been answered), so the panel lagged an edit
    behind."""
    def tril(diagonal: int) -> Step:
        return read_step(f"y = torch.tril(x, diagonal={diagonal})", ["x"])

    doc = run_in_kernel(Document(_recipe("torch.manual_seed(0)", "x = torch.rand(600, 600)",
                                         "y = torch.tril(x, diagonal=0)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    _select(doc, "y")
    torch.manual_seed(0)
    x = torch.rand(600, 600)
    assert panel.stats_text() == "   ".join(f"{k} {v}" for k, v in tensor_stats(x.tril(0)))
    for diagonal in (-200, 150, -590, 3):
        doc.recipe.replace_step(2, tril(diagonal))
        doc.settle()
        want = tensor_stats(torch.tril(x, diagonal=diagonal))
        assert panel.stats_text() == "   ".join(f"{k} {v}" for k, v in want), diagonal


def test_an_edits_facts_and_statistics_are_written_once_when_they_came_with_its_run(
        qtbot, run_in_kernel):
    """The answers about the selected tensor come with an edit's run: each fact and the
    statistics line is written once, as the kernel said, never "…" first (a "…" and the
    value again re-laid out the panel twice per edit for texts that end the same)."""
    doc = run_in_kernel(Document(_recipe("torch.manual_seed(0)", "x = torch.rand(400, 400)",
                                         "y = torch.tril(x, diagonal=0)")))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    _select(doc, "y")
    written: list[str] = []
    labels = [*panel._fact_values.values(), panel._stats]
    for label in labels:
        label.setText = lambda text, set_text=label.setText: (written.append(text),
                                                              set_text(text))
    doc.recipe.restore(_recipe("torch.manual_seed(0)", "x = torch.rand(400, 400)",
                               "y = torch.tril(x, diagonal=1)").snapshot())
    doc.settle()
    assert "…" not in written
    assert not panel.stats_pending()
    torch.manual_seed(0)
    y = torch.tril(torch.rand(400, 400), diagonal=1)
    assert f"mean {y.mean().item():.6g}" in panel.stats_text()  # as torch has it
    assert len(written) <= len(labels)
