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
