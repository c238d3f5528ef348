"""The training panel: forms that edit the recipe, run controls, live plots, comparison."""

from __future__ import annotations

import csv
import multiprocessing

import numpy as np
import pytest
from PySide6.QtGui import QUndoStack

from app.recipe.document import RECIPES_DIR, Document
from app.recipe.model import Recipe
from app.recipe.reader import read_recipe_file
from app.recipe.writer import write_recipe
from app.training.settings import TrainingSettings
from app.training.setup import harmonise
from widgets.training.panel import TrainingPanel, metrics_columns

#: Long enough that a run never finishes while a test steers it.
ENDLESS = TrainingSettings().replace(data={"samples": 256}, steps=1_000_000, log_every=5)
WAIT = 90_000  # ms; the first run also starts the fork server on a busy machine


def _children() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "tensor-lab-training"]


def _make_panel(qtbot, settings: TrainingSettings | None, show: bool = True) -> TrainingPanel:
    document = Document(Recipe(training=settings))
    stack = QUndoStack()
    panel = TrainingPanel(document, stack)
    stack.setParent(panel)  # deleted with the panel, by Qt (see conftest)
    qtbot.addWidget(panel)
    panel.resize(1100, 750)
    if show:
        panel.show()
    return panel


@pytest.fixture
def panel(qtbot):
    made = _make_panel(qtbot, ENDLESS)
    yield made
    made.shutdown()
    assert _children() == []


@pytest.fixture
def form_panel(qtbot):
    """A panel never shown: its forms, without the plot pages."""
    return _make_panel(qtbot, ENDLESS, show=False)


def _points(curve) -> int:
    x = curve.getOriginalDataset()[0]
    return 0 if x is None else len(x)


def _wait_state(qtbot, panel: TrainingPanel, *states: str) -> None:
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.state in states, timeout=WAIT)


# -- forms and the recipe ----------------------------------------------------------------------
def test_every_setting_has_an_editor_with_a_tooltip(form_panel):
    literal = ENDLESS.to_literal()
    expected = [f"{k}.{sub}" if isinstance(v, dict) else k
                for k, v in literal.items() for sub in (v if isinstance(v, dict) else [None])]
    assert sorted(form_panel.form.names) == sorted(expected)
    for name in form_panel.form.names:
        assert form_panel.form.editor(name).toolTip(), name
    assert form_panel.form.editor("optimizer.lr").text() == "0.01"


def test_form_edits_go_to_the_recipe_and_undo(form_panel):
    recipe, stack = form_panel.document.recipe, form_panel.undo_stack
    edit = form_panel.form.editor("optimizer.lr")
    edit.setText("0.003")
    edit.editingFinished.emit()
    assert recipe.training.optimizer.lr == 0.003
    assert "lr=0.003" in write_recipe(recipe)
    combo = form_panel.form.editor("data.kind")
    combo.setCurrentIndex(combo.findData("sin"))
    combo.activated.emit(combo.currentIndex())
    # sin(x) is regression data: the model and loss follow it rather than refusing
    assert (recipe.training.data.kind, recipe.training.loss, recipe.training.model.inputs,
            recipe.training.model.outputs) == ("sin", "mse", 1, 1)
    stack.undo()
    assert recipe.training.data.kind == "spirals" and recipe.training.optimizer.lr == 0.003
    assert form_panel.form.editor("data.kind").currentData() == "spirals"
    stack.undo()
    assert recipe.training == ENDLESS
    assert form_panel.form.editor("optimizer.lr").text() == "0.01"


def test_a_setting_that_does_not_validate_is_explained_not_saved(form_panel):
    edit = form_panel.form.editor("model.outputs")
    edit.setValue(5)  # cross-entropy on two spirals needs two outputs
    assert form_panel.document.recipe.training.model.outputs == 2
    assert not form_panel.form.error_label.isHidden()
    assert "outputs" in form_panel.form.error_label.text()
    edit.setValue(2)
    assert form_panel.form.error_label.isHidden()


def test_harmonise_fits_model_and_loss_to_the_data():
    literal = ENDLESS.to_literal()
    literal["data"].update(kind="blobs", classes=4)  # cross-entropy on 4 classes
    assert TrainingSettings.from_literal(harmonise(literal)).model.outputs == 4
    literal["data"].update(kind="linear")
    fitted = TrainingSettings.from_literal(harmonise(literal))
    assert (fitted.loss, fitted.model.inputs, fitted.model.outputs) == ("mse", 1, 1)


def test_summary_prints_the_model_its_parameter_count_and_shapes(form_panel):
    text = form_panel.summary.toPlainText()
    assert text.startswith("Sequential(") and "Linear(in_features=2, out_features=64" in text
    assert "parameters: 4,482" in text  # 2*64+64 + 64*64+64 + 64*2+2
    assert "0.weight: (64, 2)" in text and "4.bias: (2,)" in text


def test_a_device_that_is_not_present_falls_back_to_cpu_with_a_warning(qtbot):
    panel = _make_panel(qtbot, ENDLESS.replace(device="cuda:7"), show=False)
    assert not panel.device_warning.isHidden()
    assert "cuda:7" in panel.device_warning.text() and "CPU" in panel.device_warning.text()
    combo = panel.form.editor("device")
    assert combo.currentData() == "cuda:7" and "not present" in combo.currentText()
    assert combo.itemData(0) == "cpu"


# -- running -----------------------------------------------------------------------------------
def test_start_pause_step_lr_and_stop(panel, qtbot):
    with qtbot.waitSignal(panel.state_changed, timeout=WAIT,
                          check_params_cb=lambda state: state == "running"):
        panel.start()
    qtbot.waitUntil(lambda: panel.run.step > 20, timeout=WAIT)
    # the plots fill from the display-rate timer
    qtbot.waitUntil(lambda: _points(panel.plots.loss_curve) > 0, timeout=WAIT)
    shown = _points(panel.plots.loss_curve)
    qtbot.waitUntil(lambda: _points(panel.plots.loss_curve) > shown, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.plots.grad_lines.points > 0, timeout=WAIT)
    assert not panel.start_button.isEnabled() and panel.pause_button.isEnabled()

    panel.set_lr(0.001)  # takes effect from the next step
    qtbot.waitUntil(lambda: panel.run.history.lr.last() == 0.001, timeout=WAIT)

    with qtbot.waitSignal(panel.state_changed, timeout=WAIT,
                          check_params_cb=lambda state: state == "paused"):
        panel.pause()
    paused_at = panel.run.step
    assert panel.start_button.text() == "Resume" and panel.step_button.isEnabled()
    panel.step_once()
    qtbot.waitUntil(lambda: panel.run.step == paused_at + 1, timeout=WAIT)
    assert panel.run.state == "paused"
    assert panel.progress.value() == paused_at + 1 or panel.progress.value() == paused_at

    with qtbot.waitSignal(panel.state_changed, timeout=WAIT,
                          check_params_cb=lambda state: state == "stopped"):
        panel.stop()
    qtbot.waitUntil(lambda: not panel.run.alive, timeout=WAIT)
    assert _children() == []
    assert panel.compare.runs[0].state == "stopped"
    assert "lr 0.001" in panel.compare.runs[0].notes[0]


def test_a_nan_loss_pauses_with_a_clear_message(qtbot):
    panel = _make_panel(qtbot, ENDLESS.replace(optimizer={"name": "sgd", "lr": 1e6}))
    with qtbot.waitSignal(panel.run_event, timeout=WAIT,
                          check_params_cb=lambda e: e.kind in ("diverged", "error")):
        panel.start()
    qtbot.waitUntil(lambda: panel.run.state == "paused", timeout=WAIT)
    text = panel.message.text()
    assert "Training paused" in text and ("nan" in text or "inf" in text)
    assert "learning rate" in text
    step = panel.run.step
    assert np.isnan(panel.run.history.loss.values[-1]) or np.isinf(
        panel.run.history.loss.values[-1])
    assert step < 1000  # soon: the step it diverges at depends on the CPU's arithmetic
    panel.shutdown()
    assert _children() == []


def test_checkpoint_save_load_and_resume(panel, qtbot, tmp_path):
    path = tmp_path / "run.pt"
    panel.step_once()
    _wait_state(qtbot, panel, "paused")
    qtbot.waitUntil(lambda: panel.run.step == 1, timeout=WAIT)
    panel.step_once()
    qtbot.waitUntil(lambda: panel.run.step == 2, timeout=WAIT)
    with qtbot.waitSignal(panel.run_event, timeout=WAIT,
                          check_params_cb=lambda e: e.kind == "checkpoint_saved"):
        panel.save_checkpoint(str(path))
    assert path.stat().st_size > 0
    panel.reset()
    assert panel.run is None
    with qtbot.waitSignal(panel.run_event, timeout=WAIT,
                          check_params_cb=lambda e: e.kind == "checkpoint_loaded"):
        panel.load_checkpoint(str(path))
    assert panel.run.step == 2 and panel.run.state == "paused"
    panel.step_once()
    qtbot.waitUntil(lambda: panel.run.step == 3, timeout=WAIT)
    assert panel.run.history.loss.steps.tolist() == [3]


def test_exports_plots_and_metrics(panel, qtbot, tmp_path):
    panel.start()
    qtbot.waitUntil(lambda: panel.run.step > 10, timeout=WAIT)
    panel.pause()
    _wait_state(qtbot, panel, "paused")
    for name in ("live.png", "live.svg"):
        panel.export_plots(str(tmp_path / name))
        assert (tmp_path / name).stat().st_size > 1000
    panel.export_metrics(str(tmp_path / "metrics.csv"))
    rows = list(csv.reader((tmp_path / "metrics.csv").read_text().splitlines()))
    assert rows[0][:4] == ["step", "loss", "learning_rate", "val_loss"]
    assert "output_std hidden 1" in rows[0] and "grad_norm output" in rows[0]
    history = panel.run.history
    assert [int(r[0]) for r in rows[1:]] == sorted(set(history.loss.steps.tolist()) | set(
        history.val_loss.steps.tolist()) | set(history.output_std.steps.tolist()))
    assert float(rows[1][1]) == history.loss.values[0]
    columns = metrics_columns(history, ["hidden 1", "hidden 2", "output"])
    assert len(columns["val_loss"]) == len(columns["step"])


def test_plots_never_autorange_per_frame(panel):
    plots = [*panel.plots.plots, panel.histogram.weights.time, *panel.compare.graphics.ci.items]
    for plot in plots:
        assert plot.getViewBox().state["autoRange"] == [False, False]
    for curve in (panel.plots.loss_curve, panel.plots.val_curve):
        assert curve.opts["autoDownsample"] and curve.opts["downsampleMethod"] == "peak"
        assert curve.opts["clipToView"]


def _view_rects(plots) -> list[tuple[float, float, float, float]]:
    return [plot.getViewBox().sceneBoundingRect().getRect() for plot in plots]


def test_plots_keep_their_size_as_a_run_starts_and_ends(panel, qtbot):
    # A plot that changes size redraws all its axes (and those of the plots beside it):
    # a message appearing or vanishing must not do that, nor tick labels changing width.
    qtbot.waitExposed(panel)
    plots = [p for p in panel.plots.plots if p.isVisible()]
    before = _view_rects(plots)
    with qtbot.waitSignal(panel.state_changed, timeout=WAIT,
                          check_params_cb=lambda state: state == "running"):
        panel.start()
    qtbot.waitUntil(lambda: panel.plots.grad_lines.points > 2, timeout=WAIT)
    assert _view_rects(plots) == before
    with qtbot.waitSignal(panel.state_changed, timeout=WAIT,
                          check_params_cb=lambda state: state == "stopped"):
        panel.stop()
    panel._say("a long message, as a finished run shows one", "ok")
    qtbot.wait(50)
    assert _view_rects(plots) == before


def test_a_left_axis_keeps_its_width_as_tick_labels_change(qtbot):
    import pyqtgraph as pg

    from widgets.training.plots import new_plot

    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    plot = new_plot("Loss", "step")
    view.addItem(plot)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    widths = []
    for top in (1.0, 0.0004, 12.0, 1.0):  # labels "1", "0.0004", "12", "1"
        plot.setYRange(0.0, top, padding=0)
        qtbot.wait(20)
        assert plot.getAxis("left").tickStrings([top], 1.0, top)  # labels are drawn
        widths.append(plot.getViewBox().sceneBoundingRect().width())
    assert len(set(widths)) == 1, widths


# -- comparison --------------------------------------------------------------------------------
def test_four_initialisations_of_a_50_layer_mlp_compared(qtbot):
    settings = read_recipe_file(str(RECIPES_DIR / "init_depth50.py")).training
    panel = _make_panel(qtbot, settings.replace(steps=5, log_every=5))
    combo = panel.form.editor("init")
    inits = ["normal", "small_normal", "xavier_normal", "kaiming_normal"]
    for init in inits:
        combo.setCurrentIndex(combo.findData(init))
        combo.activated.emit(combo.currentIndex())
        assert panel.document.recipe.training.init == init
        panel.start()
        qtbot.waitUntil(lambda: panel.record.state == "finished", timeout=WAIT)
    panel.shutdown()
    compare = panel.compare
    assert [r.settings.init for r in compare.runs] == inits
    # a hidden page builds nothing: its curves and table are made when it is shown
    assert compare._curves == {} and compare.table.columnCount() == 0
    panel.views.setCurrentWidget(compare)
    assert compare.runs_list.topLevelItemCount() == 4 and compare.table.columnCount() == 4
    assert "Initialisation N(0, 1)" in compare.runs_list.topLevelItem(0).text(0)
    compare.refresh(force=True)
    stds = {}
    for record in compare.runs:
        loss, _val, std, _grad = compare._curves[record.number]
        assert len(loss.getOriginalDataset()[0]) == 5
        assert len(std.getOriginalDataset()[1]) == 51  # 50 hidden layers and the output
        stds[record.settings.init] = std.getOriginalDataset()[1]
    # the lesson the figure teaches: Xavier keeps the spread, N(0, 0.01) loses it
    assert stds["xavier_normal"].max() / stds["xavier_normal"].min() < 10
    assert stds["small_normal"][0] > 100 * stds["small_normal"][-2]
    # deleting a run forgets it
    compare.runs_list.topLevelItem(0).setSelected(True)
    compare.delete_button.click()
    assert [r.settings.init for r in compare.runs] == inits[1:]
    assert _children() == []


# -- the window --------------------------------------------------------------------------------
def test_closing_the_window_during_training_leaves_no_process(qtbot, monkeypatch):
    from widgets.shell.main_window import MainWindow

    document = Document()
    document.open(RECIPES_DIR / "training_spirals.py")
    window = MainWindow(document)
    monkeypatch.setattr(window, "confirm_discard", lambda: True)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    assert window.views.currentWidget() is window.training or window.views.isTabVisible(
        window.views.indexOf(window.training))
    document.recipe.set_training(ENDLESS)
    window.training.start()
    qtbot.waitUntil(lambda: window.training.run.state == "running", timeout=WAIT)
    process = window.training.run._process
    window.close()
    assert not process.is_alive()
    assert multiprocessing.active_children() == []


def test_training_tab_only_for_recipes_with_a_setup(qtbot, monkeypatch):
    from widgets.shell.main_window import MainWindow

    document = Document()
    document.open_welcome()
    window = MainWindow(document)
    qtbot.addWidget(window)
    index = window.views.indexOf(window.training)
    assert not window.views.isTabVisible(index)
    window.training.add_setup()
    assert window.views.isTabVisible(index) and window.views.currentWidget() is window.training
    window.undo_stack.undo()
    assert not window.views.isTabVisible(index)
