"""The Histogram page shows a sample only when it is of the layer chosen: the one held
when the user picks another layer is of the old layer, and the new layer's sample may
arrive before the page draws again (the race CI met once)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from app.training.history import History
from widgets.training.histogram import HistogramPlots


def _sample(history: History, layer: str, values: list[float]) -> None:
    history.weights = np.asarray(values)
    history.grads = np.asarray(values) * 0.5
    history.sample_layer = layer


def _counts(plots: HistogramPlots):
    return plots.weights.hist.getData()[1]


def test_the_new_layers_sample_shows_even_when_it_arrives_before_a_frame(qtbot):
    plots = HistogramPlots()
    qtbot.addWidget(plots)
    plots.set_run(SimpleNamespace(layer_names=["a", "b"], steps=100))
    history = History(2)
    _sample(history, "a", [1.0, 2.0, 3.0])
    plots.refresh(history)
    assert _counts(plots).sum() == 3
    plots.layer_combo.setCurrentIndex(1)
    plots.layer_combo.activated.emit(1)  # the user picks "b"
    plots.refresh(history)  # a frame while the held sample is still a's
    assert _counts(plots) is None or _counts(plots).sum() == 0  # a's values are not b's
    _sample(history, "b", [4.0, 5.0, 6.0, 7.0])
    plots.refresh(history)
    assert _counts(plots).sum() == 4


def test_a_sample_of_b_arriving_before_the_first_frame_after_the_choice_shows(qtbot):
    plots = HistogramPlots()
    qtbot.addWidget(plots)
    plots.set_run(SimpleNamespace(layer_names=["a", "b"], steps=100))
    history = History(2)
    _sample(history, "a", [1.0, 2.0])
    plots.refresh(history)
    plots.layer_combo.setCurrentIndex(1)
    plots.layer_combo.activated.emit(1)
    _sample(history, "b", [4.0, 5.0, 6.0, 7.0, 8.0])  # arrives first, then the frame
    plots.refresh(history)
    assert _counts(plots).sum() == 5
    np.testing.assert_allclose(plots.weights.hist.getData()[0][[0, -1]], [4.0, 8.0])


def test_the_layer_chosen_stays_chosen_until_the_kernel_samples_it(qtbot):
    """Until the kernel's next sample, it still reports the old layer: the choice shows,
    not the old layer again."""
    plots = HistogramPlots()
    qtbot.addWidget(plots)
    plots.set_run(SimpleNamespace(layer_names=["a", "b", "c"], steps=100))
    plots.show_layer("a")
    plots.layer_combo.setCurrentIndex(1)
    plots.layer_combo.activated.emit(1)  # the user picks "b"
    plots.show_layer("a")  # a frame: the kernel's latest sample is still a's
    assert plots.layer == "b"
    plots.show_layer("b")  # its sample of b
    plots.show_layer("c")  # later the kernel samples another (a new run's first, say)
    assert plots.layer == "c"
