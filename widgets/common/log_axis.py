"""``LogAxis``: a logarithmic plot axis whose labels stay readable on a short plot.

pyqtgraph labels a log axis with every tick between two powers of ten (2, 3, ... 9, or
0.2 ... 0.9) and writes 10 as ``10¹``. On a plot 150 pixels high the in-between labels
crowd into each other, and "10¹" sits beside "0.1" and "1". This axis writes values
plainly (0.01, 0.1, 1, 10, and ``10⁴`` only past 1000), labels powers of ten only when
the view spans two decades or more, adds 2 and 5 times them when it spans less, and
every in-between tick only when the view is too narrow to hold a 2 or a 5. The tick
marks themselves are pyqtgraph's.
"""

from __future__ import annotations

import math

import pyqtgraph as pg

#: Views spanning this many decades or more label powers of ten only.
DECADES_ONLY = 2.0


class LogAxis(pg.AxisItem):
    """An ``AxisItem`` for a log-mode view (``PlotItem.setLogMode``), with plain labels."""

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        low, high = sorted(self.range)  # the view, in decades (log10 of the values)
        wide = high - low >= DECADES_ONLY
        keep = [self._keeps(v, wide) for v in values]
        if not wide and not any(keep):  # a narrow view between a 1 and the next 2 or 5
            keep = [True] * len(values)
        return [_plain(10.0 ** v * scale) if k else "" for v, k in zip(values, keep,
                                                                       strict=True)]

    @staticmethod
    def _keeps(value: float, wide: bool) -> bool:
        mantissa = round(10.0 ** (value - math.floor(value + 1e-9)), 6)
        return mantissa == 1 or (not wide and mantissa in (2, 5))


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _plain(number: float) -> str:
    """A tick value as a person writes it: ``0.001``, ``0.5``, ``20``, ``1000``, then
    ``10⁴``, ``2·10⁻⁵``: powers of ten where decimals would run long."""
    if 1e-3 <= abs(number) < 1e4:
        return f"{number:.6g}"
    mantissa, exponent = f"{number:.0e}".split("e")
    power = "10" + str(int(exponent)).translate(_SUPERSCRIPTS)
    return power if mantissa == "1" else f"{mantissa}·{power}"
