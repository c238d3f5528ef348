"""The Model tab's Activations (``widgets.model.activations``): a layer picked in the tree
shows its last output for one sample, drawn from the kernel's answer.

Widget tier: the main window, its kernel running the recipe; waits on the panel's
answers. Expected values are torch's own, from a forward hook on the same seeded model
and input under plain python.
"""

from __future__ import annotations

import time

import numpy as np

from tests.test_activation_query import LOOP, _hooked_conv1
from tests.test_model_panel import LENET

WAIT = 60_000


def _pick(window, qtbot, step_text: str, layer: str):
    document = window.document
    qtbot.waitUntil(lambda: any(document.step_text(i, s) == step_text and
                                i < len(document.run.results)
                                for i, s in enumerate(document.recipe.steps)), timeout=WAIT)
    document.select(next(i for i, s in enumerate(document.recipe.steps)
                         if document.step_text(i, s) == step_text))
    window.views.setCurrentWidget(window.model)
    panel = window.model
    qtbot.waitUntil(lambda: panel.tree is not None, timeout=WAIT)
    panel.tree_view.setCurrentItem(panel.tree_view.row_of(layer))
    return panel


def test_conv1s_activation_grid_has_6_tiles_of_its_hooked_output(make_window, tmp_path, qtbot):
    expected = _hooked_conv1()[0]  # (6, 28, 28): sample 0 of conv1's output
    recipe = tmp_path / "lenet.py"
    recipe.write_text(LENET, encoding="utf-8")
    window = make_window(str(recipe))
    start = time.perf_counter()
    panel = _pick(window, qtbot, "net = Net()", "conv1")
    view = panel.activations
    qtbot.waitUntil(lambda: view.tile_count() == 6, timeout=WAIT)
    print(f"picked to tiles: {1000 * (time.perf_counter() - start):.0f} ms (tree included)")
    assert view.form() == "tiles" and view.tile_shape() == (28, 28)
    for channel in range(6):
        assert np.array_equal(view.tile(channel), expected[channel].numpy())
    assert view.levels() == (float(expected.min()), float(expected.max()))
    assert "net.conv1" in view.title.text() and "(1, 6, 28, 28)" in view.title.text()
    assert view.sample_label.text() == "sample 1 of 1" and not view.slider.isEnabled()

    panel.tree_view.setCurrentItem(panel.tree_view.row_of("fc3"))  # (1, 10): a bar each
    qtbot.waitUntil(lambda: view.form() == "bars", timeout=WAIT)
    assert view.tile_count() == 0 and len(view.data["values"]) == 10


def test_a_picked_layer_follows_a_live_loop_and_the_slider_picks_a_sample(
        make_window, tmp_path, qtbot):
    window = make_window()
    path = tmp_path / "loop.py"
    path.write_text(LOOP, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    panel = _pick(window, qtbot, LOOP.splitlines()[3], "0")
    view = panel.activations
    calls: list[int] = []

    def grew() -> bool:
        call = (view.data or {}).get("call")
        if call and call not in calls:
            calls.append(call)
        return len(calls) >= 3

    qtbot.waitUntil(grew, timeout=WAIT)
    assert window.document.kernel_run is not None and calls == sorted(calls)
    assert view.tile_count() == 4 and view.tile_shape() == (6, 6)
    assert view.slider.maximum() == 7  # a batch of 8
    view.slider.setValue(5)
    qtbot.waitUntil(lambda: view.data.get("sample") == 5, timeout=WAIT)
    assert view.sample_label.text() == "sample 6 of 8"
    window.document.stop()
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=WAIT)


def test_odd_answers_draw_nan_blank_and_say_what_is_missing(qtbot):
    """The view alone, fed answers as the kernel sends them (``kernel.activations``)."""
    from widgets.model.activations import ActivationView

    view = ActivationView()
    qtbot.addWidget(view)
    view.show_layer("net.conv1")
    tiles = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    tiles[1, 0, 0] = np.nan
    view.show_answer({"call": 1, "shape": [5, 2, 3, 4], "batch": 5, "kept": 5, "sample": 2,
                      "form": "tiles", "values": tiles, "min": 0.0, "max": 23.0,
                      "nonfinite": 1, "step": 1})
    assert view.tile_count() == 2 and view.tile_shape() == (3, 4)
    assert np.isnan(view.tile(1)[0, 0]) and view.tile(0)[2, 3] == 11.0
    assert view.levels() == (0.0, 23.0) and "1 values are NaN" in view.note.text()
    top, left = view.tile_corner(1)  # the second tile's, in the image
    assert view.hovered(left + 3.5, top + 2.5) == "channel 1 [2, 3] = 23"
    assert view.sample_label.text() == "sample 3 of 5" and view.slider.value() == 2
    nothing = np.full((3, 4), np.nan, dtype=np.float32)  # all NaN: no finite min or max
    view.show_answer({"call": 2, "shape": [1, 3, 4], "batch": 1, "kept": 1, "sample": 0,
                      "form": "heatmap", "values": nothing, "min": None, "max": None,
                      "nonfinite": 12, "step": 1})
    assert view.form() == "heatmap" and view.tile_count() == 0
    view.show_answer({"call": 3, "shape": [1, 2, 2, 2, 2], "batch": 1, "kept": 1,
                      "sample": 0, "form": "histogram", "values": np.ones(4, np.float32),
                      "edges": [0.0, 1.0, 2.0, 3.0, 4.0], "min": 0.0, "max": 4.0,
                      "nonfinite": 0, "step": 1})
    assert view.form() == "histogram"
    view.show_answer({"call": 4, "shape": [0, 4], "batch": 0, "sample": 0, "kept": 0,
                      "missing": "no samples"})
    assert view.form() == "" and "empty batch" in view.note.text()
    view.show_answer({"call": 4, "same": True})  # nothing new: nothing changes
    assert "empty batch" in view.note.text()
