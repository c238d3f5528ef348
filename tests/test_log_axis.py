"""The log axes of the training plots: which ticks get labels, and how they are written."""

from __future__ import annotations

import math

import pytest

pytestmark = pytest.mark.gui


def labels(qtbot, low: float, high: float) -> list[str]:
    """The labels a log-y plot made by ``new_plot`` gives its left axis for the values
    ``low`` to ``high``, in the order of their ticks, each once."""
    import pyqtgraph as pg

    from widgets.training.plots import new_plot

    plot = new_plot("std", log_y=True)
    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    view.addItem(plot)
    view.resize(300, 200)
    plot.setYRange(math.log10(low), math.log10(high), padding=0)  # a log view: decades
    axis = plot.getAxis("left")
    lo, hi = axis.range
    shown: dict[float, str] = {}
    for spacing, values in axis.tickValues(lo, hi, 150):
        for value, text in zip(values, axis.tickStrings(values, 1, spacing), strict=True):
            if text:
                shown.setdefault(round(value, 9), text)
    return [shown[v] for v in sorted(shown)]


def test_the_plots_log_axes_are_log_axes(qtbot):
    from widgets.common.log_axis import LogAxis
    from widgets.training.plots import new_plot

    assert isinstance(new_plot("std", log_y=True).getAxis("left"), LogAxis)
    assert not isinstance(new_plot("loss").getAxis("left"), LogAxis)


@pytest.mark.parametrize("low, high, expected", [
    (0.08, 11, ["0.1", "1", "10"]),  # two decades and more: powers of ten only
    (0.05, 2.5, ["0.1", "0.2", "0.5", "1", "2"]),  # less: 2 and 5 times them too
    (1, 10, ["2", "5"]),  # (1 and 10 are the ends of the view, where pyqtgraph puts none)
    (2.2, 4, ["3"]),  # too narrow for a 2 or a 5: every tick in between
    (1e-45, 1e15, None),  # checked below: far from 1, powers of ten are written as such
])
def test_log_axis_labels(qtbot, low, high, expected):
    shown = labels(qtbot, low, high)
    if expected is not None:
        assert shown == expected
    else:
        assert "1" in shown and "10⁻⁴⁰" in shown and "10¹⁰" in shown, shown
        assert not any("e" in s for s in shown)


def test_values_far_from_one_are_powers_of_ten():
    from widgets.common.log_axis import _plain

    assert [_plain(x) for x in (1e-45, 2e-5, 0.001, 0.5, 20, 1000, 1e4, 5e4)] == [
        "10⁻⁴⁵", "2·10⁻⁵", "0.001", "0.5", "20", "1000", "10⁴", "5·10⁴"]
