"""Widget tests of the tensor viewer: build a document, wrap it in the panel, assert on widgets."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import torch
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPainter

from app.expr import Call, Const, Ref
from app.recipe.document import Document
from app.recipe.model import Recipe, Step
from app.tensor_info import tensor_stats
from widgets.common.background import wait_for_jobs
from widgets.viewer.heatmap_view import HeatmapView
from widgets.viewer.panel import ViewerPanel

pytestmark = pytest.mark.gui

TOOLTIP = Qt.ItemDataRole.ToolTipRole


def _size(*dims: int) -> tuple[Const, ...]:
    return tuple(Const(d) for d in dims)


@pytest.fixture
def doc() -> Document:
    steps = [
        Step(None, Call("torch.manual_seed", (Const(0),))),
        Step("x", Call("torch.arange", (Const(12),))),
        Step("noise", Call("torch.randn", _size(4, 5))),
        Step("cube", Call("torch.rand", _size(2, 3, 4))),
        Step("bad", Call("torch.zeros", (Const(-1),))),
        Step("after", Call("print", (Ref("bad"),))),
        Step("n", Const(3)),
    ]
    return Document(Recipe(steps))


@pytest.fixture
def panel(qtbot, doc: Document) -> ViewerPanel:
    p = ViewerPanel(doc)
    qtbot.addWidget(p)
    return p


def _value(doc: Document, name: str) -> torch.Tensor:
    return doc.run.value(name)


def _cells(panel: ViewerPanel, role: int = Qt.ItemDataRole.DisplayRole) -> list[list[object]]:
    m = panel.table_model
    return [[m.data(m.index(r, c), role) for c in range(m.columnCount())]
            for r in range(m.rowCount())]


def test_grid_shows_the_selected_tensor(panel: ViewerPanel, doc: Document):
    assert panel.status_text() == "Select a step to see its value."
    doc.select_name("x")
    assert panel.title_text() == "x"
    assert (panel.table_model.rowCount(), panel.table_model.columnCount()) == (1, 12)
    assert _cells(panel) == [[str(i) for i in range(12)]]
    assert panel.table_model.data(panel.table_model.index(0, 5), TOOLTIP) == "x[5] = 5"
    assert "shape: (12,)" in panel.facts_text()
    assert "dtype: torch.int64" in panel.facts_text()
    assert "max 11" in panel.stats_text()

    doc.select_name("noise")
    t = _value(doc, "noise")
    assert (panel.table_model.rowCount(), panel.table_model.columnCount()) == (4, 5)
    assert _cells(panel) == [[f"{v:.4g}" for v in row] for row in t.tolist()]
    tip = panel.table_model.data(panel.table_model.index(2, 3), TOOLTIP)
    assert tip == "noise[2, 3] = " + str(t.numpy()[2, 3])
    assert "shape: (4, 5)" in panel.facts_text()
    assert panel.mode == "grid" and not panel.dims_visible()


def test_nd_tensor_dims_choose_the_plane(panel: ViewerPanel, doc: Document):
    doc.select_name("cube")
    t = _value(doc, "cube")
    assert panel.dims_visible()
    assert panel.plane_dims == (1, 2, {0: 0})
    np.testing.assert_array_equal(panel.table_model.values, t[0].numpy())

    panel.rows_dim_box.setCurrentIndex(0)  # rows along dim 0: dim 1 gets an index box
    assert panel.plane_dims == (0, 2, {1: 0})
    assert not panel.index_box(0).isVisibleTo(panel) and panel.index_box(1).isVisibleTo(panel)
    panel.index_box(1).setValue(2)
    np.testing.assert_array_equal(panel.table_model.values, t[:, 2, :].numpy())
    tip = panel.table_model.data(panel.table_model.index(1, 3), TOOLTIP)
    assert str(tip).startswith("cube[1, 2, 3] = ")

    panel.cols_dim_box.setCurrentIndex(0)  # the dim the rows show: the two swap
    assert panel.plane_dims == (2, 0, {1: 2})
    np.testing.assert_array_equal(panel.table_model.values, t[:, 2, :].T.numpy())


def test_failed_and_plain_steps_show_their_status(panel: ViewerPanel, doc: Document):
    doc.select_name("bad")
    result = doc.run.result_for("bad")
    assert result is not None and result.error in panel.status_text()
    assert panel.status_text().startswith("RuntimeError")
    assert not panel.body_visible()
    assert panel.table_model.rowCount() == 0
    doc.select_name("after")
    assert "'bad'" in panel.status_text()
    doc.select_name("n")
    assert panel.status_text() == "int: 3"


def test_follows_evaluation(panel: ViewerPanel, doc: Document):
    doc.select_name("x")
    doc.recipe.replace_step(1, Step("x", Call("torch.arange", (Const(3),))))
    assert panel.table_model.columnCount() == 3
    doc.recipe.replace_step(1, Step("x", Call("torch.zeros", (Const(-2),))))
    assert "RuntimeError" in panel.status_text()


def test_large_tensor_opens_lazily_as_a_heatmap(qtbot):
    doc = Document(Recipe([Step("big", Call("torch.rand", _size(4096, 4096)))]))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    doc.select(0)
    big = _value(doc, "big")
    model = panel.table_model
    assert panel.mode == "heatmap"
    # Statistics and the full heatmap image come from background jobs.
    qtbot.waitUntil(lambda: not panel.stats_pending() and not panel.heatmap.pending())
    assert (model.rowCount(), model.columnCount()) == (4096, 4096)
    # The model reads the tensor's own memory and formats cells on demand only.
    assert np.shares_memory(model.values, big.numpy())
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        corner = model.data(model.index(4095, 4095))
        block = [model.data(model.index(r, c)) for r in range(40) for c in range(20)]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert corner == f"{big[4095, 4095].item():.4g}"
    assert len(block) == 800
    assert grown < 1_000_000
    assert not any(isinstance(v, (list, dict, tuple, set)) and len(v) > 100
                   for v in vars(model).values())

    panel.set_mode("grid")  # the user can switch back, and a new run keeps the choice
    doc.evaluate()
    assert panel.mode == "grid"


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


def test_big_tensor_statistics_and_heatmap_follow_from_the_background(qtbot):
    """Above a million elements the panel paints first; the numbers then match torch's."""
    doc = Document(Recipe([Step("big", Call("torch.randn", _size(2048, 1100))),
                           Step("small", Call("torch.ones", _size(3, 3)))]))
    panel = ViewerPanel(doc)
    qtbot.addWidget(panel)
    doc.select(0)
    big = _value(doc, "big")
    assert panel.stats_pending() and panel.heatmap.pending()
    qtbot.waitUntil(lambda: not panel.stats_pending() and not panel.heatmap.pending())
    assert panel.stats_text() == "   ".join(
        f"{k} {v}" for k, v in tensor_stats(big))
    lo, hi = panel.heatmap.levels()
    assert (lo, hi) == pytest.approx((big.min().item(), big.max().item()))
    image = panel.heatmap.image_item.image
    assert image.shape == (1024, 550)  # blocks of 2 x 2 cells
    expected = torch.nn.functional.avg_pool2d(big[None, None], 2)[0, 0]
    assert np.allclose(image, expected.numpy(), atol=1e-6)

    # A newer selection makes a slower job's result stale: it never overwrites.
    doc.select(0)
    doc.select(1)
    qtbot.waitUntil(lambda: not panel.stats_pending())
    assert "min 1" in panel.stats_text()
    assert wait_for_jobs()
    QCoreApplication.processEvents()  # deliver the finished jobs' late results
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
