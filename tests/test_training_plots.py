"""The Training tab's live plots read at a distance (``widgets.training.plots``): every
layer's line is named in its colour, and the bars' layer names never run into one
another.

Widget tier: the plots fed a made-up history of LeNet's five layers (the names the
kernel reports for the gallery's LeNet lesson); checked on the widget's own pixels and
the axis's drawn text.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication

from app.training.history import History
from app.training.live import LoopInfo
from widgets.common.scale import display_scale
from widgets.training.plots import LivePlots, layer_colours

pytestmark = pytest.mark.gui

LENET = ["net.conv1", "net.conv2", "net.fc1", "net.fc2", "net.fc3"]


def _plots(qtbot, names: list[str], size: tuple[int, int]) -> LivePlots:
    plots = LivePlots()
    qtbot.addWidget(plots)
    plots.resize(*size)
    plots.show()
    qtbot.waitExposed(plots)
    plots.set_run(LoopInfo(layer_names=list(names), steps=100))
    history = History(len(names))
    steps = np.arange(1, 101)
    history.loss.extend(steps, np.linspace(2.3, 0.1, 100))
    history.lr.extend(steps, np.full(100, 0.01))
    spread = np.linspace(0.2, 2.0, len(names))
    history.output_std.extend(steps, np.outer(np.linspace(1, 2, 100), spread))
    history.grad_norm.extend(steps, np.outer(np.linspace(1, 0.5, 100), spread))
    history.step = 100
    plots.refresh(history, force=True)
    plots.fit()
    qtbot.wait(50)
    return plots


def _has_colour(image: QImage, rect: QRectF, colour) -> bool:
    """Whether ``colour`` is painted, exactly, somewhere in ``rect`` of ``image``."""
    want = colour.rgb()
    for y in range(max(0, int(rect.top())), min(image.height(), int(rect.bottom()))):
        for x in range(max(0, int(rect.left())), min(image.width(), int(rect.right()))):
            if image.pixel(x, y) == want:
                return True
    return False


@pytest.mark.parametrize("size", [(714, 330), (1300, 700)])  # 1366x768 and a big window
def test_every_layer_line_is_named_in_its_colour_outside_the_data(qtbot, size):
    plots = _plots(qtbot, LENET, size)
    image = plots.graphics.grab().toImage()
    colours = layer_colours(len(LENET))
    for plot in (plots.std_plot, plots.grad_plot):
        data = plot.vb.sceneBoundingRect()
        below = plot.sceneBoundingRect()
        below.setTop(data.bottom())  # under the data: the axis, and what names the lines
        for colour in colours:  # each line's colour is shown where no data is drawn
            assert _has_colour(image, below, colour), (plot.titleLabel.text, colour.name())
        named = [item.toPlainText() for item in plot.scene().items()
                 if hasattr(item, "toPlainText") and plot.isAncestorOf(item)]
        for name in LENET:  # and each layer is named there by its full path
            assert any(name in text for text in named), (name, named)


def test_the_layer_names_grow_with_the_display_scale(qtbot):
    plots = _plots(qtbot, LENET, (1300, 700))

    def name_heights() -> list[float]:
        return [item.boundingRect().height() for item in plots.std_plot.scene().items()
                if hasattr(item, "toPlainText") and "net.conv1" in item.toPlainText()
                and plots.std_plot.isAncestorOf(item)]

    before = name_heights()
    display_scale().set_value(1.5)
    try:
        after = name_heights()
    finally:
        display_scale().set_value(1.0)
    assert before and after and min(after) > 1.3 * max(before)


def _drawn_labels(axis) -> list[tuple[QRectF, str]]:
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setFont(QApplication.font())
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(QRectF(rect), text) for rect, _flags, text in texts]


@pytest.mark.parametrize("names", [LENET, [f"model.{i}" for i in range(0, 100, 2)]])
@pytest.mark.parametrize("width", [480, 714, 1300])
def test_the_bars_layer_names_never_overlap(qtbot, names, width):
    plots = _plots(qtbot, names, (width, 330))
    labels = _drawn_labels(plots.std_bar_plot.getAxis("bottom"))
    assert labels  # some are named, at every width
    for (a, text_a), (b, text_b) in zip(labels, labels[1:], strict=False):
        assert a.right() <= b.left(), (text_a, text_b)
    if width == 1300 and len(names) == 5:  # room for all: each one is named
        assert [text for _, text in labels] == ["conv1", "conv2", "fc1", "fc2", "fc3"]


def test_a_short_wide_page_takes_more_columns_rather_than_squashing_its_rows(qtbot):
    plots = _plots(qtbot, LENET, (760, 480))  # presenter mode's page at 1224x765
    shown = [p for p in plots.plots if p.isVisible()]
    rows = {round(p.sceneBoundingRect().top()) for p in shown}
    assert len(shown) == 5 and len(rows) == 2  # three plots a row, not two
    assert all(p.sceneBoundingRect().height() >= 200 for p in shown)
    assert not plots.grid.verticalScrollBar().isVisible()


def test_the_key_of_a_fifty_layer_loop_takes_two_lines_at_most(qtbot):
    names = [f"model.{i}" for i in range(0, 100, 2)]
    plots = _plots(qtbot, names, (714, 330))
    for plot in (plots.std_plot, plots.grad_plot):
        keys = [item for item in plot.scene().items() if hasattr(item, "toPlainText")
                and plot.isAncestorOf(item) and "model.0" in item.toPlainText()]
        assert keys and all("model.98" in key.toPlainText() for key in keys)  # the last
        for key in keys:
            text = key.boundingRect().height() - 2 * key.document().documentMargin()
            assert text / QFontMetrics(key.font()).lineSpacing() <= 2.2
