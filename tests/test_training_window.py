"""The Training tab in a real window: a new or opened recipe resets it, and its plots
and texts fit a small screen (end-to-end tier: the lab's window and its kernel).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_training_tab import MLP

pytestmark = pytest.mark.gui

WAIT = 120_000


def _trained(qtbot, tmp_path: Path, make_window, steps: int = 50):
    """The window on the MLP loop of ``steps`` steps, its Training tab shown, trained."""
    path = tmp_path / "mlp.py"
    path.write_text(MLP.format(steps=steps), encoding="utf-8")
    window = make_window(str(path))
    window.views.setCurrentWidget(window.training)
    panel = window.training
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.message.isVisible(), timeout=WAIT)
    assert panel.pages.currentWidget() is panel.views  # it did show the loop
    return window


def _shows_empty_state(panel) -> bool:
    return (panel.pages.currentWidget() is panel.empty and panel.loop is None
            and not panel.message.isVisible() and not panel.plots.std_lines.points
            and not len(panel.plots.loss_curve.xData if panel.plots.loss_curve.xData
                        is not None else ()))


def test_file_new_after_a_training_run_shows_the_empty_training_tab(qtbot, tmp_path,
                                                                    make_window):
    window = _trained(qtbot, tmp_path, make_window)
    window.window_actions["file.new"].trigger()
    window.settle()
    panel = window.training
    qtbot.waitUntil(lambda: _shows_empty_state(panel), timeout=10_000)
    assert not window.document.training.kept  # nothing left to compare either


def test_opening_a_recipe_without_a_loop_shows_the_empty_training_tab(qtbot, tmp_path,
                                                                      make_window):
    window = _trained(qtbot, tmp_path, make_window)
    other = tmp_path / "plain.py"
    other.write_text("import torch\nx = torch.ones(3)\n", encoding="utf-8")
    assert window.open_path(str(other), trust=True)
    window.settle()
    qtbot.waitUntil(lambda: _shows_empty_state(window.training), timeout=10_000)


def _status_seconds(window) -> float:
    """The seconds the status bar's kernel line says the run has lasted."""
    found = re.findall(r"(\d+(?:\.\d+)?) s\b", window.kernel_status.label.text())
    assert found, window.kernel_status.label.text()
    return float(found[-1])


def test_the_status_bars_time_stands_still_while_the_loop_is_paused(qtbot, tmp_path,
                                                                   make_window):
    window = make_window()
    path = tmp_path / "long.py"
    path.write_text(MLP.format(steps=10**7), encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.views.setCurrentWidget(window.training)
    panel = window.training
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.steps > 5, timeout=WAIT)
    panel.bar.pause_button.click()
    qtbot.waitUntil(lambda: panel.loop.paused == "pause", timeout=WAIT)
    qtbot.wait(300)  # the line shows the paused time (it ticks every 200 ms)
    paused_at = _status_seconds(window)
    qtbot.wait(1500)
    assert _status_seconds(window) == paused_at  # 1.5 s later, still the same
    panel.bar.pause_button.click()  # Go on: it counts again, from where it stood
    qtbot.waitUntil(lambda: not panel.loop.paused, timeout=WAIT)
    qtbot.wait(1000)
    assert paused_at < _status_seconds(window) < paused_at + 1.5 + 1.0
    window.document.stop()
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=WAIT)


def _shows_whole(label) -> bool:
    """Whether ``label``'s text fits its rectangle (wrapped, when it wraps)."""
    from PySide6.QtCore import QRect, Qt

    rect = label.contentsRect()
    flags = Qt.TextFlag.TextWordWrap if label.wordWrap() else 0
    needed = label.fontMetrics().boundingRect(QRect(0, 0, rect.width(), 10**6), flags,
                                              label.text())
    return needed.width() <= rect.width() and needed.height() <= rect.height()


def test_the_loops_state_shows_whole_however_narrow_the_tab(qtbot, tmp_path, make_window):
    window = _trained(qtbot, tmp_path, make_window, steps=600)
    panel = window.training
    state = panel.bar.state
    assert "600" in state.text() and "0.05" in state.text()  # step and lr
    for width in (1366, 1100, 900):  # the window's; the tab gets what the docks leave
        window.resize(width, 768)
        qtbot.waitUntil(lambda w=width: window.width() == w or window.width() > w)
        qtbot.wait(50)
        assert state.isVisible() and _shows_whole(state), (width, state.size())
        assert _shows_whole(panel.message), (width, panel.message.text())


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_both_rows_of_plots_fit_a_1366x768_window(qtbot, tmp_path, make_window, language):
    from widgets.shell.translators import install_translators

    install_translators(language)
    try:
        window = _trained(qtbot, tmp_path, make_window, steps=300)
        window.resize(1366, 768)
        qtbot.waitUntil(lambda: window.size().toTuple() == (1366, 768))
        qtbot.wait(100)
        grid = window.training.plots.grid
        assert not grid.verticalScrollBar().isVisible()
        shown = grid.viewport().rect()
        for plot in window.training.plots.plots:
            if plot.isVisible():  # each plot whole in the page, title to axis
                top_left = grid.graphics.mapFromScene(plot.sceneBoundingRect().topLeft())
                bottom_right = grid.graphics.mapFromScene(
                    plot.sceneBoundingRect().bottomRight())
                assert shown.contains(grid.graphics.mapTo(grid.viewport(), top_left))
                assert shown.adjusted(0, 0, 1, 1).contains(
                    grid.graphics.mapTo(grid.viewport(), bottom_right)), plot.titleLabel.text
    finally:
        install_translators("en")


def test_a_loop_that_ends_never_shows_an_empty_loss_plot(qtbot, tmp_path, make_window):
    """A loop that ends keeps its curves on show: none is cleared for a frame (one frame
    in two runs showed the loss plot empty, on a projector a flash at every run's end),
    and its last steps are drawn at the next frame."""
    lesson = (Path(__file__).parent.parent / "recipes" / "training_lenet.py").read_text(
        encoding="utf-8")
    path = tmp_path / "lenet.py"
    path.write_text(lesson.replace("\nsteps = 100\n", "\nsteps = 150\n"), encoding="utf-8")
    window = make_window()
    window.views.setCurrentWidget(window.training)
    panel = window.training
    assert window.open_path(str(path), trust=True)
    at_end = []

    def ended() -> bool:
        if panel.loop is not None and panel.loop.finished and not at_end:
            curve = panel.plots.loss_curve
            at_end.append(0 if curve.xData is None else len(curve.xData))
        return bool(at_end)

    qtbot.waitUntil(ended, timeout=WAIT)
    assert panel.loop.info.extent is None  # (the case: no boundary)
    assert at_end[0] > 100  # what was drawn stays (the last steps come at the next frame)
    qtbot.waitUntil(lambda: len(panel.plots.loss_curve.xData) == 150, timeout=2_000)


def test_the_layer_bars_say_which_step_they_show_and_show_its_numbers(qtbot, tmp_path,
                                                                     make_window):
    """Live, layers are sampled a few times a second, so a short loop's last sample is
    not its last step: the bars' title names the step they show (it said "now", under
    step 61's numbers, once a 100-step loop had ended), and their heights are that step's
    output std, as ``tensor-lab run --json`` (every step, no sampling) reports it."""
    import json
    import subprocess
    import sys

    lesson = (Path(__file__).parent.parent / "recipes" / "training_lenet.py").read_text(
        encoding="utf-8")
    path = tmp_path / "lenet.py"
    path.write_text(lesson, encoding="utf-8")
    window = make_window()
    window.views.setCurrentWidget(window.training)
    panel, plots = window.training, window.training.plots
    assert window.open_path(str(path), trust=True)
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    window.settle()
    step = int(panel.loop.history.output_std.steps[-1])
    qtbot.waitUntil(lambda: plots.std_bar_plot.titleLabel.text  # (at the next frame)
                    == f"Layer output std at step {step}", timeout=2_000)
    opts = plots.std_bars.opts
    shown = [10 ** (float(opts["y0"]) + h) for h in opts["height"]]
    done = subprocess.run([sys.executable, "-m", "app", "run", "--json", str(path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    training = json.loads(done.stdout)["training"][0]
    at = training["steps"].index(step - 1)  # (the window counts from step 1, --json from 0)
    want = [training["layers"][name]["std"][at] for name in panel.loop.info.layer_names]
    assert shown == pytest.approx(want, rel=1e-4)
