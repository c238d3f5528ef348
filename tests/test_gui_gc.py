"""The window's garbage collector: on the GUI thread, the young in small steps, and the
older generations not while objects pour in (a run's 5,000 reports), but once they stop
(they took 80 to 190 ms of the window's thread in the middle of a run)."""

from __future__ import annotations

import gc

import pytest

from widgets.common import gui_gc
from widgets.common.gui_gc import BUSY_S, MAX_WAIT_S, GuiCollector


@pytest.fixture
def collector(qapp):
    """A collector on a clock of its own (``collector.now``), its timer stopped."""
    now = [1000.0]
    made = GuiCollector(clock=lambda: now[0])
    made.timer.stop()
    made.now = now
    while made.check() is not None:  # what was due before the test: collected now
        pass
    yield made
    made.deleteLater()


def _pour(collector: GuiCollector, kept: list, looks: int, objects: int = 1000) -> list:
    """``looks`` checks 0.1 s apart, each after ``objects`` new objects that stay; what
    each collected."""
    found = []
    for _ in range(looks):
        kept.append([[] for _ in range(objects)])
        found.append(collector.check())
        collector.now[0] += 0.1
    return found


def test_the_collector_turns_automatic_collection_off_and_collects_the_young(collector):
    assert not gc.isenabled()
    kept = [[] for _ in range(2000)]
    assert collector.check() == 0
    assert gc.get_count()[0] < 700
    del kept


def test_the_middle_generation_waits_while_objects_pour_in_and_goes_once_they_stop(
        collector):
    kept: list = []
    looks = _pour(collector, kept, 40)  # 4 s of a flood: a young collection at each look
    assert set(looks) == {0}
    assert gc.get_count()[1] >= 10  # due for some 3 s already
    collector.now[0] += BUSY_S  # quiet
    assert collector.check() == 1


def test_the_middle_generation_waits_no_longer_than_its_limit(collector):
    kept: list = []
    looks = _pour(collector, kept, round((MAX_WAIT_S[1] + 2) / 0.1))
    assert looks.count(1) == 1 and looks.index(1) > MAX_WAIT_S[1] / 0.1


def test_a_full_collection_waits_for_a_quiet_moment_too(collector, monkeypatch):
    monkeypatch.setattr(gui_gc, "GEN2_THRESHOLD", 0)
    kept: list = []
    collector.forget_old()  # as after gc.freeze: nothing old is left
    looks = _pour(collector, kept, round((MAX_WAIT_S[1] + 1) / 0.1))
    assert 1 in looks and 2 not in looks  # the middle went at its limit: objects poured in
    assert collector.full_due  # objects are old now, and the full collection waits
    collector.now[0] += BUSY_S  # quiet
    assert collector.check() == 2
    assert not collector.full_due


def test_the_launchers_collector_first_looks_when_the_start_is_frozen(qapp, monkeypatch):
    # A look while the window was built found a collection due (nothing was collected
    # meanwhile) and held up the first paint by it.
    made = GuiCollector(looking=False)
    assert not made.timer.isActive() and not gc.isenabled()
    monkeypatch.setattr(gui_gc, "_collector", made)
    try:
        gui_gc.freeze_start()
        assert made.timer.isActive()
    finally:
        gc.unfreeze()
        made.timer.stop()
        made.deleteLater()
