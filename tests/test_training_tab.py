"""The Training tab on a recipe's own loop (``widgets.training.panel``): run, pause, one
step and stop from its buttons, the NaN pause, a live learning rate, the device picker,
plots that fill for a hand-written loop, and what it offers with no loop at all.

Widget tier: a real kernel process (the module's), a shown panel, waits on the
document's reports. Expected numbers are the recipe's own (what it printed) or counts a
person can check.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QUndoStack

from app.recipe.document import Document
from app.recipe.reader import read_recipe
from app.training.fields import fields
from widgets.training.panel import TrainingPanel

WAIT = 60_000

MLP = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cpu"
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
x = torch.randn(256, 2, device=device)
y = (x[:, :1] * x[:, 1:]).sign()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range({steps}):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(step, round(loss.item(), 4))
"""


@pytest.fixture
def tab(qtbot, run_in_kernel):
    """``tab(recipe text)``: the Training tab, shown, on a document its kernel runs now."""
    def make(text: str) -> TrainingPanel:
        doc = Document(read_recipe(text))
        stack = QUndoStack()
        panel = TrainingPanel(doc, stack)
        stack.setParent(panel)
        qtbot.addWidget(panel)
        panel.resize(1000, 700)
        panel.show()
        qtbot.waitExposed(panel)
        run_in_kernel(doc, settle=False)
        return panel
    return make


def _trained(qtbot, panel: TrainingPanel, steps: int = 1) -> None:
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.steps >= steps, timeout=WAIT)


def test_run_pause_step_go_on_and_stop_from_the_buttons(qtbot, tab):
    panel = tab(MLP.format(steps=10**7))
    bar = panel.bar
    _trained(qtbot, panel)
    assert panel.pages.currentWidget() is panel.views and panel.plots.isVisible()
    assert bar.pause_button.isEnabled() and bar.stop_button.isEnabled()
    assert not bar.step_button.isEnabled()  # one step is for a paused loop

    bar.pause_button.click()
    qtbot.waitUntil(lambda: panel.loop.paused == "pause", timeout=WAIT)
    assert bar.pause_button.isChecked() and bar.step_button.isEnabled()
    assert "Paused before step" in panel.message.text()
    steps = panel.loop.steps
    qtbot.wait(300)
    assert panel.loop.steps == steps  # nothing trains while paused

    bar.step_button.click()
    qtbot.waitUntil(lambda: panel.loop.steps == steps + 1 and bool(panel.loop.paused),
                    timeout=WAIT)
    qtbot.wait(200)
    assert panel.loop.steps == steps + 1  # exactly one

    bar.pause_button.click()  # Go on
    qtbot.waitUntil(lambda: panel.loop.steps > steps + 20 and not panel.loop.paused,
                    timeout=WAIT)
    assert not bar.pause_button.isChecked()
    bar.stop_button.click()
    qtbot.waitUntil(lambda: panel.document.kernel_run is None, timeout=WAIT)
    assert not panel.running and not bar.pause_button.isEnabled()
    assert panel.document.run.results[-1].error is not None  # KeyboardInterrupt, as python's

    # Run trains afresh, from step 1
    old = panel.loop
    bar.run_button.click()
    qtbot.waitUntil(lambda: panel.loop is not old and panel.loop is not None, timeout=WAIT)
    assert panel.loop.history.loss.steps[0] == 1


def test_the_plots_fill_for_a_hand_written_loop(qtbot, tab):
    panel = tab(MLP.format(steps=300))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    panel._on_frame()
    loop = panel.loop
    assert loop.steps == 300 and loop.info.layer_names == ["model.0", "model.1", "model.2"]
    printed = dict(line.split() for line in panel.document.output.splitlines())
    loss = loop.history.loss
    assert list(loss.steps) == list(range(1, 301))
    for step, value in printed.items():  # the losses the recipe printed, step by step
        assert round(float(loss.values[int(step)]), 4) == float(value)
    lines = panel.plots.std_lines  # one line per layer, drawn over the sampled steps
    assert len(lines._paths) == 3 and lines.data_rect.width() > 0
    grad = loop.history.grad_norm.values
    assert np.isnan(grad[:, 1]).all() and (grad[:, [0, 2]] > 0).all()  # Tanh has no weights
    assert panel.message.text() == "The loop ran 300 steps."


def test_the_loops_numbers_and_plots_export(qtbot, tab, tmp_path):
    import csv

    panel = tab(MLP.format(steps=120))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    path = panel.export_metrics(str(tmp_path / "metrics.csv"))
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["step"]) for r in rows] == list(range(1, 121))
    printed = dict(line.split() for line in panel.document.output.splitlines())
    for step, value in printed.items():  # the loss of every step, as the loop printed it
        assert round(float(rows[int(step)]["loss"]), 4) == float(value)
    assert {r["learning_rate"] for r in rows} == {"0.05"}
    sampled = [r for r in rows if r["output_std model.0"]]
    assert sampled and all(r["grad_norm model.1"] == "" for r in sampled)  # Tanh: no weights
    picture = panel.export_plots(str(tmp_path / "plots.png"))
    with open(picture, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


NAN = MLP.replace("    loss.backward()\n",
                  "    if step == 40:\n        loss = loss / 0 * 0\n    loss.backward()\n")


def test_a_nan_loss_pauses_the_loop_and_says_so(qtbot, tab):
    panel = tab(NAN.format(steps=100))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.paused == "nan",
                    timeout=WAIT)
    assert panel.loop.steps == 40  # steps 1..40 ran; the 41st waits before its backward
    assert "not a number" in panel.message.text() and "41" in panel.message.text()
    assert panel.bar.pause_button.isChecked() and panel.bar.pause_button.text() == "Go on"
    panel.bar.pause_button.click()
    qtbot.waitUntil(lambda: panel.loop.finished, timeout=WAIT)
    assert panel.loop.steps == 100


def test_a_live_learning_rate_reaches_the_loop_and_the_recipe(qtbot, tab):
    panel = tab(MLP.format(steps=10**7))
    _trained(qtbot, panel)
    run_id = panel.document.kernel_run.run_id
    panel.bar.lr.setValue(0.01)
    qtbot.waitUntil(lambda: panel.loop.last_lr == 0.01, timeout=WAIT)
    assert panel.document.kernel_run is not None \
        and panel.document.kernel_run.run_id == run_id  # the same run goes on
    assert fields(panel.document.recipe.source)["lr"].value == 0.01  # for the next run
    assert "lr=0.01, momentum=0.9" in panel.document.recipe.source
    panel.document.stop()
    qtbot.waitUntil(lambda: panel.document.kernel_run is None, timeout=WAIT)


def test_the_device_picker_rewrites_the_device_line_and_runs_again(qtbot, tab):
    panel = tab(MLP.format(steps=20))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    assert panel.bar.device.currentData() == "cpu"
    panel.set_device("cuda:0")  # what choosing it in the list does
    assert 'device = "cuda:0"' in panel.document.recipe.source  # in the quotes it had
    panel.undo_stack.undo()
    assert 'device = "cpu"' in panel.document.recipe.source


def test_with_no_loop_it_offers_new_training_and_the_lessons(qtbot, tab):
    panel = tab("import torch\nx = torch.ones(2)\n")
    assert panel.pages.currentWidget() is panel.empty
    assert panel.empty.new_button.isVisible()
    with qtbot.waitSignal(panel.new_requested, timeout=1000):
        panel.empty.new_button.click()
    titles = [b.text() for b in panel.empty.lesson_buttons]
    assert titles and all(titles)
    with qtbot.waitSignal(panel.open_requested, timeout=1000) as opened:
        panel.empty.lesson_buttons[0].click()
    assert opened.args[0].endswith(".py")
    assert not panel.bar.pause_button.isEnabled() and not panel.bar.stop_button.isEnabled()


def test_runs_are_kept_and_compared_by_what_differed(qtbot, tab):
    panel = tab(MLP.format(steps=50))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    first = panel.loop
    panel.set_lr(0.005)  # not training: the recipe's literal changes, and it runs again
    qtbot.waitUntil(lambda: panel.loop is not first and panel.loop is not None
                    and panel.loop.finished, timeout=WAIT)
    panel.views.setCurrentWidget(panel.compare)
    compare = panel.compare
    assert [loop.number for loop in compare.shown()] == [first.number, panel.loop.number]
    assert compare.runs.count() == 2 and "50 steps" in compare.runs.item(0).text()
    table = compare.table
    assert (table.rowCount(), table.columnCount()) == (1, 2)
    assert table.verticalHeaderItem(0).text() == "lr"
    assert [table.item(0, c).text() for c in range(2)] == ["0.05", "0.005"]
    assert len(compare._curves) == 2

    compare.runs.setCurrentRow(0)
    compare.delete_button.click()
    assert panel.document.training.kept == [panel.loop]
    assert compare.runs.count() == 1 and compare.table.rowCount() == 0


TWO_D = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(256, 2)
y = (x[:, 0] > 0).long()  # the class is the side of x = 0
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(300):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
"""


def test_a_two_feature_classifier_shows_its_decision_boundary(qtbot, tab):
    import torch

    panel = tab(TWO_D)
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    loop = panel.loop
    torch.manual_seed(0)
    x = torch.randn(256, 2)  # the recipe's data, made the same way
    np.testing.assert_array_equal(loop.info.points, x.numpy())
    np.testing.assert_array_equal(loop.info.labels, (x[:, 0] > 0).long().numpy())
    x0, x1, y0, y1 = loop.info.extent
    assert x0 < float(x[:, 0].min()) and x1 > float(x[:, 0].max())
    grid = loop.history.boundary
    assert grid.shape == (48, 48, 2)
    np.testing.assert_allclose(grid.sum(axis=2), 1.0, rtol=1e-5)  # softmax probabilities
    xs = np.linspace(x0, x1, 48)
    right, left = xs > 0.5, xs < -0.5  # well inside each class: the model has learned it
    assert (grid[:, right, 1] > 0.5).mean() > 0.95 and (grid[:, left, 0] > 0.5).mean() > 0.95
    assert panel.plots.boundary_plot.isVisible()


def test_the_boundary_plot_stays_through_a_run_again_and_goes_with_a_run_without_one(
        qtbot, tab):
    """Run again, a 2-D classifier's boundary plot keeps its place (laying the plots out
    without it until the first boundary came, then with it, made every plot jump); a run
    that never has a boundary takes it away when it ends."""
    panel = tab(TWO_D)
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    assert panel.plots.boundary_plot.isVisible()
    first, shown, layouts = panel.loop, [], []
    grid = panel.plots.grid
    relayout = grid.relayout
    grid.relayout = lambda force=False: (layouts.append(force), relayout(force))
    panel.document.training_changed.connect(
        lambda: shown.append(panel.plots.boundary_plot.isVisible()))
    panel.document.run_again()
    qtbot.waitUntil(lambda: panel.loop is not first and panel.loop is not None
                    and panel.loop.finished, timeout=WAIT)
    assert shown and all(shown) and True not in layouts
    panel.document.set_source(TWO_D.replace("torch.randn(256, 2)", "torch.randn(256, 3)")
                              .replace("nn.Linear(2, 16)", "nn.Linear(3, 16)"))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished
                    and bool(panel.loop.info.layer_names), timeout=WAIT)
    qtbot.waitUntil(lambda: not panel.plots.boundary_plot.isVisible(), timeout=WAIT)
    assert panel.plots.grid._plots == [p for p in panel.plots.plots
                                       if p is not panel.plots.boundary_plot]


def test_the_recipes_other_knobs_are_edited_in_its_code(qtbot, tab):
    panel = tab(MLP.format(steps=30).replace("torch.manual_seed(0)\n",
                                             "torch.manual_seed(0)\nwidth = 16\n"))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    knobs = panel.bar.knobs
    assert list(knobs.editors) == ["width", "momentum"]  # lr and the device are on the bar
    assert knobs.editors["momentum"].value() == 0.9 and knobs.isEnabled()
    first = panel.loop
    knobs.editors["momentum"].setValue(0.5)  # as typing 0.5 and Enter does
    assert "lr=0.05, momentum=0.5)" in panel.document.recipe.source
    qtbot.waitUntil(lambda: panel.loop is not first and panel.loop is not None
                    and panel.loop.finished, timeout=WAIT)  # it ran again
    knobs.editors["width"].setValue(8)
    assert "width = 8\n" in panel.document.recipe.source
    panel.undo_stack.undo()
    assert "width = 16\n" in panel.document.recipe.source


ACC = MLP.replace('''    if step % 100 == 0:
        print(step, round(loss.item(), 4))''', '''\
    acc = (model(x).sign() == y).float().mean().item()
    if step % 50 == 0:
        print(step, acc)''')


def test_a_number_the_loop_binds_is_offered_as_an_extra_curve(qtbot, tab):
    panel = tab(ACC.format(steps=200))
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    extra = panel.bar.extra
    offered = [extra.itemData(i) for i in range(extra.count())]
    assert extra.isVisible() and "acc" in offered and offered[0] == ""
    extra.setCurrentIndex(offered.index("acc"))
    extra.activated.emit(extra.currentIndex())  # as a click in the list does
    curve = panel.plots.extra_curve
    xs, ys = curve.xData, curve.yData  # its data (getData() is what the view clips to)
    printed = dict(line.split() for line in panel.document.output.splitlines())
    for step, value in printed.items():  # the curve holds what the loop printed
        assert ys[list(xs).index(int(step) + 1)] == float(value)
    assert any(label.text == "acc" for _, label in panel.plots.legend.items)
    panel.show_extra("")
    assert panel.plots.extra_curve.xData is None or not len(panel.plots.extra_curve.xData)


def test_a_layers_weights_and_gradients_show_as_histograms(qtbot, tab):
    panel = tab(MLP.format(steps=10**7))
    panel.views.setCurrentWidget(panel.histogram)
    histogram = panel.histogram
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.history is not None
                    and panel.loop.history.weights is not None, timeout=WAIT)
    assert panel.loop.info.histogram_layer == "model.0"  # the first layer with a weight
    assert histogram.layer == "model.0"
    assert len(panel.loop.history.weights) == 2 * 16  # Linear(2, 16): every value
    histogram.layer_combo.setCurrentIndex(histogram.layer_combo.findText("model.2"))
    histogram.layer_combo.activated.emit(histogram.layer_combo.currentIndex())
    qtbot.waitUntil(lambda: panel.loop.info.histogram_layer == "model.2", timeout=WAIT)
    qtbot.waitUntil(lambda: histogram.weights.bands.points >= 2, timeout=WAIT)
    panel.document.stop()
    qtbot.waitUntil(lambda: panel.document.kernel_run is None, timeout=WAIT)
    weights = panel.loop.history.weights  # Linear(16, 1): 16 weights, bounded by init
    assert len(weights) == 16 and np.abs(weights).max() < 10
    assert len(panel.loop.history.grads) == 16
    qtbot.waitUntil(lambda: histogram.weights.hist.getData()[1] is not None, timeout=WAIT)
    counts = histogram.weights.hist.getData()[1]
    assert counts.sum() == 16  # the histogram now counts every sampled value
