"""The window runs code steps in its kernel and never stops answering (widget tier).

Each test opens a recipe with code steps in a real window, with a real kernel process,
and waits on the document's signals with ``qtbot``: a long loop while timers keep firing,
Stop, the time limit, the memory budget, a segfault, ``os._exit``, an output flood, a file
from elsewhere that runs only after Run, and a code step saved verbatim.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from PySide6.QtCore import Qt, QTimer

from app.link.session import KernelSession
from kernel.tensor_info import tensor_facts
from protocol.budget import GIB
from widgets.common.kernel_hook import VIEW_QUERIES

LONG_LOOP = "import torch\nx = torch.ones(3)\ntotal = 0\nfor i in range(10**6):\n" \
            "    total += i\nprint(total)\n"


@pytest.fixture
def window(make_window):
    return make_window()


def _open(window, tmp_path: Path, text: str, name: str = "recipe.py", **session) -> Path:
    if session:
        session.setdefault("query_modules", VIEW_QUERIES)
        window.kernel_hook.use(KernelSession(**session))
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    return path


def _wait_end(qtbot, window, timeout_ms: int = 120_000) -> None:
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=timeout_ms)


def _wait_statement(qtbot, window, index: int) -> None:
    def running() -> bool:
        state = window.document.kernel_run
        return state is not None and state.progress is not None and state.progress.index == index
    qtbot.waitUntil(running, timeout=120_000)


def test_a_long_loop_runs_while_the_window_answers(qtbot, window, tmp_path):
    """10^6 iterations: a 16 ms timer keeps firing, and the result arrives."""
    _open(window, tmp_path, LONG_LOOP)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(16)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    _wait_end(qtbot, window)
    timer.stop()
    results = window.document.run.results
    assert [r.status for r in results] == ["ok", "ok", "ok", "ok"]
    assert results[2].value.names["total"]["value"] == sum(range(10**6))
    assert window.document.output == f"{sum(range(10**6))}\n"
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert gaps and max(gaps) < 1.0, max(gaps)  # never a frozen window


def test_stop_ends_a_loop_at_once_and_finished_steps_keep_their_values(qtbot, window,
                                                                        tmp_path):
    _open(window, tmp_path, "import torch\nx = torch.arange(4)\nwhile True:\n    pass\n")
    _wait_statement(qtbot, window, 2)
    qtbot.waitUntil(window.window_actions["edit.stop"].isEnabled, timeout=2000)  # (after
    start = time.monotonic()  # a quarter of a second, as the status bar's busy line)
    window.window_actions["edit.stop"].trigger()
    _wait_end(qtbot, window, 5000)
    assert time.monotonic() - start < 0.2  # the 200 ms, the window's poll included
    results = window.document.run.results
    assert results[1].status == "error" and results[1].error_type == "KeyboardInterrupt"
    assert results[0].status == "ok"
    assert results[0].value.names["x"]["values"] == [0, 1, 2, 3]  # the kernel's x
    assert window.document.kernel_ended.reason == "stopped"
    assert not window.window_actions["edit.stop"].isEnabled()


def test_the_time_limit_ends_a_run_with_a_message(qtbot, window, tmp_path):
    _open(window, tmp_path, "import torch\nwhile True:\n    pass\n", run_timeout=1.0)
    _wait_end(qtbot, window, 30_000)
    assert window.document.kernel_ended.reason == "timeout"
    assert "1 s" in window.kernel_status.label.text()
    assert window.kernel_status.isVisible()


def test_the_memory_bomb_ends_with_the_budget_named(qtbot, window, tmp_path):
    bomb = "import torch\nxs = []\nwhile True:\n    xs.append(torch.ones(10**6))\n"
    _open(window, tmp_path, bomb, memory_budget=int(1.5 * GIB))
    _wait_end(qtbot, window)
    assert window.document.kernel_ended.reason == "memory"
    assert "1.5 GiB" in window.kernel_status.label.text()
    assert window.document.recipe.source == bomb


@pytest.mark.parametrize(("code", "words"), [
    ("import ctypes\nctypes.string_at(0)\n", "SIGSEGV"),
    ("import os\nos._exit(3)\n", "exit code 3"),
])
def test_a_kernel_that_dies_is_told_and_a_new_one_runs_the_next_edit(qtbot, window, tmp_path,
                                                                      code, words):
    _open(window, tmp_path, "import torch\nx = torch.ones(2)\n" + code)
    _wait_end(qtbot, window)
    assert window.document.kernel_ended.reason == "died"
    assert words in window.kernel_status.label.text()
    window.document.set_source("import torch\nfor i in range(2):\n    print(i)\n")
    _wait_end(qtbot, window)
    assert window.document.output == "0\n1\n"


def test_an_earlier_iterations_tensor_shows_its_own_facts_not_a_rebuilt_ones(qtbot, window,
                                                                               tmp_path):
    """A loop iteration's small tensor comes as its summary: its strides, grad and graph
    are the kernel's tensor's (the window's copy would be a contiguous leaf)."""
    _open(window, tmp_path, "import torch\nw = torch.ones(2, 3, requires_grad=True)\n"
                            "for i in range(3):\n    y = (w * i).t()\n")
    _wait_end(qtbot, window)
    window.document.select(1)
    viewer = window.viewer
    viewer.iterations.pick(1)
    assert viewer.iterations.iteration == 1
    made = (torch.ones(2, 3, requires_grad=True) * 1).t()  # iteration 1's, made here
    facts = dict(line.split(": ", 1) for line in viewer.facts_text().splitlines())
    assert facts == dict(tensor_facts(made))
    assert facts["strides"] == "(1, 3)" and facts["is_leaf"] == "False"  # read by hand


def test_an_output_flood_keeps_the_window_answering_and_a_bounded_tail(qtbot, window,
                                                                        tmp_path):
    _open(window, tmp_path, "import torch\nwhile True:\n    print(1)\n")
    _wait_statement(qtbot, window, 1)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(16)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    qtbot.wait(2000)
    timer.stop()
    window.document.stop()
    _wait_end(qtbot, window, 5000)
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) > 40 and max(gaps) < 0.5, (len(ticks), max(gaps))
    assert 0 < len(window.document.output) <= 256 * 1024
    output = window.document.output
    assert "1\n1\n1\n" in output and output.endswith("KeyboardInterrupt\n")  # as python


def test_a_file_from_elsewhere_shows_the_bar_and_runs_only_after_run(qtbot, window, tmp_path):
    canary = tmp_path / "ran"
    path = tmp_path / "elsewhere.py"
    path.write_text(f"import pathlib\nfor _ in range(1):\n    pathlib.Path({str(canary)!r})"
                    ".touch()\n")
    assert window.open_path(str(path))
    assert window.trust_bar.isVisible() and window.document.held
    qtbot.wait(500)
    assert window.document.kernel_run is None and not canary.exists()
    window.trust_bar.run_button.click()
    _wait_end(qtbot, window)
    assert canary.exists()


def test_a_code_step_saves_verbatim(qtbot, window, tmp_path):
    text = ("import torch\n\n\ndef f(a):  # keep me\n    b = a * 2\n    while b.norm() < 1000:"
            "\n        b = b * 2\n    return b\n\n\nx = torch.ones(3, requires_grad=True)\n")
    _open(window, tmp_path, text)
    _wait_end(qtbot, window)
    x = window.document.recipe.steps[1]
    window.document.recipe.replace_step(1, replace(x, text="torch.ones(4, requires_grad=True)"))
    out = tmp_path / "saved.py"
    window.document.save(out)
    assert out.read_text() == text.replace("torch.ones(3,", "torch.ones(4,")


def test_a_loop_step_shows_iteration_0_57_and_the_last(qtbot, window, tmp_path):
    """Each iteration's values, as python would have them at the end of that iteration."""
    _open(window, tmp_path, "import torch\nx = torch.zeros(3)\nfor i in range(1000):\n"
                            "    x = x + 1\n    square = i * i\n")
    _wait_end(qtbot, window)
    window.document.select(1)
    viewer = window.viewer
    picker = viewer.iterations
    assert picker.isVisible() and picker.iteration == 999  # the last, at first
    status = viewer._status.text()
    assert "1000" in status and "square: int 998001" in status
    for it in (0, 57, 999):
        picker.pick(it)
        assert picker.iteration == it
        text = viewer._status.text()
        assert f"square: int {it * it}" in text and f"i: int {it}" in text
        # the last iteration's x is the one the kernel holds now: the view asks for it
        qtbot.waitUntil(lambda it=it: viewer._table_model.values.tolist() == [
            [float(it + 1)] * 3], timeout=10_000)


def test_a_big_tensor_of_a_code_step_is_asked_for_plane_by_plane(qtbot, window, tmp_path):
    """Large tensors stay in the kernel: the viewer shows a sampled plane and true facts."""
    import torch

    from kernel.queries import sample_steps
    from widgets.viewer.view import HEATMAP_CELLS

    _open(window, tmp_path, "import torch\ntorch.manual_seed(0)\nfor k in range(2):\n"
                            "    big = torch.randn(2, 3000, 2000).transpose(1, 2)\n")
    _wait_end(qtbot, window)
    window.document.select(1)
    viewer = window.viewer
    model = viewer._table_model
    qtbot.waitUntil(lambda: model.values.size > 0, timeout=10_000)
    torch.manual_seed(0)
    torch.randn(2, 3000, 2000)
    big = torch.randn(2, 3000, 2000).transpose(1, 2)
    # a heatmap asks for about its own resolution: every 5th row and column here
    step = sample_steps(2000, 3000, HEATMAP_CELLS)
    assert viewer.mode == "heatmap" and step == (5, 5)
    assert model.address.step == step
    assert model.values.tolist() == big[0, ::step[0], ::step[1]].tolist()
    assert model.headerData(1, Qt.Orientation.Horizontal) == str(step[1])
    assert viewer._fact_values["strides"].text() == "(6000000, 1, 2000)"
    assert viewer._fact_values["is_contiguous"].text() == "False"
    # the grid asks again, for all the cells one answer may carry
    viewer.set_mode("grid")
    full = sample_steps(2000, 3000)
    qtbot.waitUntil(lambda: model.address.step == full, timeout=10_000)
    assert model.values.tolist() == big[0, ::full[0], ::full[1]].tolist()
    viewer.set_mode("heatmap")
    viewer._dims.rows_box.setCurrentIndex(0)  # rows: dim 0, columns: dim 2...
    viewer._dims.index_box(1).setValue(5)  # ...at index 5 of dim 1
    qtbot.waitUntil(lambda: model.values.shape == (2, 3000), timeout=10_000)
    assert model.values.tolist() == big[:, 5, :].tolist()
