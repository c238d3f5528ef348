"""PySide6 6.12.0 on Python < 3.12 leaks references to None: excluded and guarded against."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def _pyside_requirements() -> list[Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs = [Requirement(r) for r in data["project"]["dependencies"]]
    return [r for r in reqs if r.name.lower() == "pyside6-essentials"]


@pytest.mark.parametrize("python", ["3.10", "3.11"])
def test_pyproject_excludes_6_12_0_before_python_3_12(python):
    env = {"python_version": python, "python_full_version": f"{python}.0"}
    active = [r for r in _pyside_requirements() if r.marker is None or r.marker.evaluate(env)]
    assert active, "no PySide6-Essentials requirement applies"
    assert all(Version("6.12.0") not in r.specifier for r in active)
    assert all(Version("6.11.3") in r.specifier for r in active)


def test_pyside6_meta_package_is_not_a_dependency():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = {Requirement(r).name.lower() for r in data["project"]["dependencies"]}
    assert "pyside6" not in names


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_none_refcount_is_stable_across_1000_plot_updates(qtbot):
    import pyqtgraph as pg
    from PySide6.QtCore import QTimer

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.show()
    curve = plot.plot(pen=pg.mkPen("#0072b2", width=1))
    timer = QTimer()
    x = np.arange(200, dtype=float)
    before = sys.getrefcount(None)
    for i in range(1000):
        curve.setData(x, np.sin(x / 10 + i / 50))
        timer.start(1000)  # a Qt call that returns nothing, as in the 6.12.0 report
        timer.stop()
        if i % 50 == 0:
            plot.repaint()
    after = sys.getrefcount(None)
    # 6.12.0 loses at least one reference per call above, thousands in all.
    assert after >= before - 100, f"None lost {before - after} references"
