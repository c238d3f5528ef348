"""Each layer's weights and gradients over the steps of a live loop, as percentiles
(TensorBoard's "distributions", ``kernel.watch_quantiles``): the kernel computes them, the
window keeps them per layer and draws them as nested bands.

Kernel tier: a real kernel process; the expected percentiles are numpy's, computed by the
recipe itself from the same tensors at the same step.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from protocol import messages
from protocol.limits import LAYER_PERCENTILES, QUANTILE_VALUES
from tests import test_kernel_service, test_training_tab
from tests.test_training_live import MODEL, _batches
from tests.test_training_tab import MLP, WAIT
from widgets.training.bands import MEDIAN

#: One kernel for the module, as in the kernel service's tests.
watcher = test_kernel_service.watcher
#: The Training tab on a document its kernel runs, as in the tab's tests.
tab = test_training_tab.tab

#: net.0 (4x8 weights: every value read) and a wide layer (more than QUANTILE_VALUES
#: weights: an even sample of them), each step's percentiles printed as numpy has them.
BY_HAND = MODEL + """\
import numpy as np

wide = nn.Linear(100, 60)
for step in range({steps}):
    optimizer.zero_grad()
    wide.zero_grad()
    loss = nn.functional.mse_loss(net(x), y) + wide(torch.randn(2, 100)).pow(2).mean()
    loss.backward()
    rows = []
    for w in (net[0].weight, wide.weight):
        stride = -(-w.numel() // {values})
        for t in (w, w.grad):
            rows.append(np.percentile(t.detach().reshape(-1)[::stride].double().numpy(),
                                      {percentiles}).tolist())
    optimizer.step()
    print(step, *[repr(v) for row in rows for v in row])
"""


def _printed(watcher, run_id) -> dict[int, list[list[float]]]:
    out = {}
    n = len(LAYER_PERCENTILES)
    for line in "".join(o.text for o in watcher.messages(run_id, messages.Output)).splitlines():
        step, *values = line.split()
        values = [float(v) for v in values]
        out[int(step)] = [values[i:i + n] for i in range(0, len(values), n)]
    return out


def test_a_sampled_steps_percentiles_are_numpys_of_the_same_weights_and_gradients(
        watcher, tmp_path):
    text = BY_HAND.format(steps=300, values=QUANTILE_VALUES,
                          percentiles=list(LAYER_PERCENTILES))
    run_id = watcher.session.run(text, str(tmp_path / "r.py"))
    assert watcher.ended(run_id).exit_code == 0
    printed = _printed(watcher, run_id)
    assert sum(len(b.layer_steps) for b in _batches(watcher, run_id)) >= 2
    for batch in _batches(watcher, run_id):
        for j, step in enumerate(batch.layer_steps):
            want = printed[step]
            got = {path: (series["weight_q"][j], series["grad_q"][j])
                   for path, series in batch.layers.items()}
            assert got["net.1"] == (None, None)  # Tanh: no weight
            for (w, g), (want_w, want_g) in ((got["net.0"], want[0:2]),
                                             (got["wide"], want[2:4])):
                np.testing.assert_allclose(w, want_w, rtol=1e-9, atol=1e-12)
                np.testing.assert_allclose(g, want_g, rtol=1e-9, atol=1e-12)


def test_non_finite_values_are_left_out_and_a_weight_without_gradient_has_none():
    torch = pytest.importorskip("torch")
    from kernel.watch_quantiles import layer_quantiles

    layer, frozen = torch.nn.Linear(3, 2), torch.nn.Linear(2, 2)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([[1.0, float("nan"), 3.0], [float("inf"), 5.0, 2.0]]))
        frozen.weight.fill_(float("nan"))
    layer.weight.grad = torch.zeros(2, 3)
    (w, g), (fw, fg), (nw, ng) = layer_quantiles([layer, frozen, torch.nn.ReLU()])
    assert w == pytest.approx(np.percentile([1.0, 3.0, 5.0, 2.0], LAYER_PERCENTILES).tolist())
    assert g == [0.0] * len(LAYER_PERCENTILES)
    assert fw == [None] * len(LAYER_PERCENTILES) and fg is None  # all NaN; no gradient
    assert (nw, ng) == (None, None)
    assert not math.isnan(w[0])


def test_a_two_layer_mlp_shows_one_band_set_per_layer_after_50_steps(qtbot, tab):
    """Widget tier: the Distributions page draws a row per layer with a weight (the MLP's
    two Linear layers, not its Tanh), each sampled step's percentiles as the kernel sent
    them: the median between the bands' ends, the bands nested."""
    panel = tab(MLP.format(steps=50))
    panel.views.setCurrentWidget(panel.distributions)
    page = panel.distributions
    qtbot.waitUntil(lambda: panel.loop is not None and panel.loop.finished, timeout=WAIT)
    qtbot.waitUntil(lambda: page.layers == ["model.0", "model.2"], timeout=WAIT)
    history = panel.loop.history
    assert len(page.bands) == 2 and len(page.grid.graphics.ci.items) == 4
    sampled = len(history.weight_q)
    assert sampled >= 2 and history.weight_q.steps[0] == 1  # the first step is sampled
    for (weights, grads), index in zip(page.bands, (0, 2), strict=True):
        for bands, kept in ((weights, history.weight_q), (grads, history.grad_q)):
            qtbot.waitUntil(lambda bands=bands: bands.points == sampled, timeout=WAIT)
            steps, median = bands.median.getData()
            np.testing.assert_array_equal(steps, kept.steps)
            np.testing.assert_array_equal(median, kept.values[:, index, MEDIAN])
            outer_lo, outer_hi = bands.edges(0)
            inner_lo, inner_hi = bands.edges(len(bands.fills) - 1)
            np.testing.assert_array_equal(outer_lo, kept.values[:, index, 0])
            np.testing.assert_array_equal(outer_hi, kept.values[:, index, -1])
            drawn = bands.fills[0].path().boundingRect()  # the min-max polygon's extent
            assert drawn.top() == pytest.approx(outer_lo.min())
            assert drawn.bottom() == pytest.approx(outer_hi.max())
            assert drawn.left() == kept.steps[0] and drawn.right() == kept.steps[-1]
            assert (outer_lo <= inner_lo).all() and (inner_lo <= median).all()
            assert (median <= inner_hi).all() and (inner_hi <= outer_hi).all()
            assert (outer_lo < outer_hi).all()  # 32 and 16 weights: a spread


def test_the_too_large_learning_rate_lesson_says_what_its_run_does():
    """training_lr_too_large's text, checked on its own loop under python: the weights
    of net.fc1 within 0.06 of 0 at the start and past 3.1 by step 70, net.conv1's from
    0.2 to 1.3; from step 50 every gradient of net.conv1 and net.fc1 is 0, by step 80
    net.fc3's too; accuracy at chance (at most 0.11) from step 50."""
    torch = pytest.importorskip("torch")
    from app.recipe.document import RECIPES_DIR

    text = (RECIPES_DIR / "training_lr_too_large.py").read_text(encoding="utf-8")
    seen = []
    hook = ("    seen.append((step, *[float(m.weight.detach().abs().max()) for m in "
            "(net.conv1, net.fc1)], *[float(m.weight.grad.abs().max()) for m in "
            "(net.conv1, net.fc1, net.fc3)]))\n")
    assert text.count("    optimizer.step()\n") == 1
    space = {"seen": seen, "print": lambda *a: seen.append(a)}
    exec(text.replace("    optimizer.step()\n", hook + "    optimizer.step()\n"), space)  # noqa: S102
    steps = {row[0]: row[1:] for row in seen if len(row) == 6 and isinstance(row[1], float)}
    printed = {row[0]: row for row in seen if len(row) == 3 and row[0] != "step"}
    assert steps[0][1] < 0.06 and steps[70][1] > 3.1  # fc1's weights (before step 70's)
    assert round(steps[0][0], 1) == 0.2 and round(steps[99][0], 1) == 1.3  # conv1's
    assert all(steps[s][2] == steps[s][3] == 0.0 for s in range(50, 100))
    assert all(steps[s][4] == 0.0 for s in range(80, 100))
    assert printed[20][2] == 0.89 and all(printed[s][2] <= 0.11 for s in (50, 60, 70, 80, 90))
    assert torch.is_tensor(space["net"].fc1.weight)


def test_layers_of_every_size_in_one_call_each_get_their_own_values_percentiles():
    """The samples travel padded into one matrix: a small layer's percentiles are its own
    values' (the padding is not counted), a wide one's are those of every k-th value."""
    torch = pytest.importorskip("torch")
    from kernel.watch_quantiles import layer_quantiles

    torch.manual_seed(0)
    small, wide, middle = (torch.nn.Linear(2, 1), torch.nn.Linear(100, 50),
                           torch.nn.Linear(10, 10))
    for layer in (small, wide, middle):
        layer.weight.grad = torch.randn_like(layer.weight) * 3
    got = layer_quantiles([small, wide, middle])
    for layer, (w, g) in zip((small, wide, middle), got, strict=True):
        for tensor, quantiles in ((layer.weight, w), (layer.weight.grad, g)):
            flat = tensor.detach().reshape(-1).double().numpy()
            stride = max(1, -(-flat.size // QUANTILE_VALUES))
            expected = np.percentile(flat[::stride], LAYER_PERCENTILES)
            assert quantiles == pytest.approx(expected.tolist(), rel=1e-12, abs=1e-12)
    assert wide.weight.numel() > QUANTILE_VALUES  # the wide one really is sampled


def test_a_short_page_keeps_its_plots_compact_and_presenter_mode_makes_rows_taller(qtbot):
    """Five layers on a short page: compact plots (no x axis title under each, where a
    new title set showed it again), rows at least 130 px, 195 px at presenter mode's 1.5,
    and no scale in the value axis's title (turned on its side, it ran into the next
    row): the ticks read the values themselves."""
    from types import SimpleNamespace

    from app.training.history import History
    from widgets.common.scale import display_scale
    from widgets.training.distributions import DistributionPlots

    names = [f"net.{i}" for i in range(5)]
    page = DistributionPlots()
    qtbot.addWidget(page)
    page.resize(900, 500)
    page.show()
    page.set_run(SimpleNamespace(layer_names=names, steps=100))
    history = History(5)
    rows = np.linspace(-1e-3, 1e-3, len(LAYER_PERCENTILES))
    for kept in (history.weight_q, history.grad_q):
        kept.extend(np.array([1, 2, 3]), np.tile(rows, (3, 5, 1)))
    page.refresh(history)
    assert page.layers == names and page.grid.compact
    plots = [plot for plot, _ in page._pool[:10]]
    assert not any(plot.getAxis("bottom").label.isVisible() for plot in plots)
    assert not any(plot.getAxis("left").autoSIPrefix for plot in plots)
    assert page.graphics.minimumHeight() == 5 * 130
    try:
        display_scale().set_value(1.5)
        assert page.graphics.minimumHeight() == 5 * 195
    finally:
        display_scale().set_value(1.0)
    assert page.graphics.minimumHeight() == 5 * 130
