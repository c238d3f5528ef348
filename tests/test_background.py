"""Background jobs (``widgets.common.background``): widget tier, with a QApplication.

Jobs that must still be running when the test looks wait on a ``threading.Event`` that
the test sets; nothing sleeps for a fixed time.
"""

from __future__ import annotations

import threading
import warnings

import pytest
from PySide6.QtCore import QObject, QThread

from widgets.common.background import JobError, running_jobs, start_job, wait_for_jobs

pytestmark = pytest.mark.gui
WAIT = 10_000  # ms


class Receiver(QObject):
    """Records what reaches it, with the thread it ran on."""

    def __init__(self, log: list):
        super().__init__()
        self.log = log

    def on_done(self, key: object, result: object) -> None:
        self.log.append(("done", key, result, QThread.currentThread()))

    def on_progress(self, key: object, value: object) -> None:
        self.log.append(("progress", key, value, QThread.currentThread()))


@pytest.fixture
def receiver(qapp):
    log: list = []
    r = Receiver(log)
    yield r
    r.deleteLater()


def _finish(qtbot, job) -> None:
    """Wait until the job's work is over and everything it sends has been delivered."""
    with qtbot.waitSignal(job.finished, timeout=WAIT):
        pass


def _double(x: int) -> int:
    return 2 * x


def _fail(message: str) -> None:
    raise ValueError(message)


def _count(n: int, ran: list):
    for i in range(n):
        yield i
        ran.append(i)
    ran.append("end")
    return n


def _gated(gate: threading.Event, ran: list):
    """Yields 0, then waits for the gate; would go on to yield 1, 2, 3 and end."""
    for i in range(4):
        yield i
        assert gate.wait(WAIT / 1000)
        ran.append(i)
    ran.append("end")
    return "ended"


def _wait_for(gate: threading.Event, value: object) -> object:
    assert gate.wait(WAIT / 1000)
    return value


def test_a_function_result_arrives_on_the_gui_thread_with_its_key(qtbot, qapp, receiver):
    worker_threads: list[QThread] = []

    def work(x: int) -> int:
        worker_threads.append(QThread.currentThread())
        return _double(x)

    job = start_job(work, 21, on_done=receiver.on_done, key=("generation", 7))
    _finish(qtbot, job)
    assert [entry[:3] for entry in receiver.log] == [("done", ("generation", 7), 42)]
    assert receiver.log[0][3] is qapp.thread()
    assert worker_threads and worker_threads[0] is not qapp.thread()  # it did run elsewhere


def test_an_exception_arrives_as_a_job_error(qtbot, receiver):
    job = start_job(_fail, "no such tensor", on_done=receiver.on_done, key=1)
    _finish(qtbot, job)
    assert [entry[:3] for entry in receiver.log] == [
        ("done", 1, JobError("ValueError", "no such tensor"))]


def test_a_runtime_error_in_a_generator_arrives_as_a_job_error(qtbot, receiver):
    def broken():
        yield "started"
        raise RuntimeError("shape mismatch")

    job = start_job(broken, on_done=receiver.on_done, on_progress=receiver.on_progress)
    _finish(qtbot, job)
    assert [entry[:3] for entry in receiver.log] == [
        ("progress", None, "started"), ("done", None, JobError("RuntimeError", "shape mismatch"))]


def test_a_generators_progress_arrives_in_order_then_its_return_value(qtbot, qapp, receiver):
    ran: list = []
    job = start_job(_count, 50, ran, on_done=receiver.on_done,
                    on_progress=receiver.on_progress, key="k")
    _finish(qtbot, job)
    assert [entry[:3] for entry in receiver.log] == (
        [("progress", "k", i) for i in range(50)] + [("done", "k", 50)])
    assert all(entry[3] is qapp.thread() for entry in receiver.log)
    assert ran[-1] == "end"


def test_cancel_stops_a_generator_at_its_next_yield(qtbot, receiver):
    gate, ran = threading.Event(), []
    job = start_job(_gated, gate, ran, on_done=receiver.on_done,
                    on_progress=receiver.on_progress)
    qtbot.waitUntil(lambda: len(receiver.log) == 1, timeout=WAIT)  # 0 has been yielded
    job.cancel()
    gate.set()
    _finish(qtbot, job)
    assert not job.running and job.cancelled
    # It went on from the yield it was at, up to the next one, and stopped there.
    assert ran == [0]
    assert [entry[:3] for entry in receiver.log] == [("progress", None, 0)]


def test_a_result_for_a_deleted_receiver_is_dropped(qtbot, qapp):
    log: list = []
    gone = Receiver(log)
    gate = threading.Event()
    job = start_job(_wait_for, gate, "late", on_done=gone.on_done)
    with qtbot.waitSignal(gone.destroyed, timeout=WAIT):
        gone.deleteLater()
    gate.set()
    _finish(qtbot, job)  # no error: the uncaught-exception check in conftest would fail
    assert log == []


def test_wait_for_jobs_returns_true_once_all_have_finished(qtbot, receiver):
    gate = threading.Event()
    jobs = [start_job(_wait_for, gate, k, on_done=receiver.on_done, key=k) for k in range(3)]
    assert all(job.running for job in jobs) and running_jobs() >= 3
    assert not wait_for_jobs(50)  # held at the gate: not in time
    gate.set()
    assert wait_for_jobs(WAIT)
    assert not any(job.running for job in jobs)
    # the results come by the event loop, after the wait
    qtbot.waitUntil(lambda: len(receiver.log) == 3, timeout=WAIT)
    assert sorted(entry[1:3] for entry in receiver.log) == [(0, 0), (1, 1), (2, 2)]


def test_waiting_with_cancel_stops_the_jobs_as_quitting_does(qtbot, receiver):
    def endless():
        i = 0
        while True:
            yield i
            i += 1

    job = start_job(endless, on_done=receiver.on_done, on_progress=receiver.on_progress)
    qtbot.waitUntil(lambda: len(receiver.log) > 0, timeout=WAIT)
    assert wait_for_jobs(WAIT, cancel=True)  # it ends only when cancelled
    assert not job.running and job.cancelled
    _finish(qtbot, job)
    assert all(entry[0] == "progress" for entry in receiver.log)  # and nothing came after


def test_a_job_leaves_the_warnings_machinery_alone(qtbot, receiver):
    """The GUI thread records warnings; a running job must not swap them."""
    gate = threading.Event()
    before = (warnings.showwarning, list(warnings.filters))
    job = start_job(_wait_for, gate, "x", on_done=receiver.on_done)
    qtbot.waitUntil(lambda: job.worker.is_running, timeout=WAIT)
    assert (warnings.showwarning, list(warnings.filters)) == before
    gate.set()
    _finish(qtbot, job)
    assert (warnings.showwarning, list(warnings.filters)) == before


# -- the views on it ------------------------------------------------------------------------------
def test_time_it_moves_its_progress_bar_with_each_device(qtbot, monkeypatch, run_in_kernel):
    """The kernel times the step, one device per question; the bar moves with each."""
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from protocol.devices import Device
    from widgets.common.kernel_devices import KernelDevices
    from widgets.ops import timing_view
    from widgets.ops.timing_view import TimingView

    cpu = Device("cpu", "CPU")
    two = KernelDevices()  # a kernel with two devices (both the CPU: this machine's)
    two.set_devices([cpu, cpu])
    monkeypatch.setattr(timing_view, "kernel_devices", lambda: two)
    doc = run_in_kernel(Document(read_recipe("import torch\na = torch.ones(8, 8)\nb = a @ a\n")))
    doc.select(1)
    view = TimingView(doc)
    qtbot.addWidget(view)
    view.min_run_time = 0.01
    view.show()
    seen: list[tuple[int, str]] = []
    show = view._show_progress

    def shown(key: object, progress: tuple) -> None:  # what the bar shows for each device
        show(key, progress)
        seen.append((view.progress.value(), view.progress.format()))
    monkeypatch.setattr(view, "_show_progress", shown)
    with qtbot.waitSignal(view.finished, timeout=WAIT):
        view.start()
        assert view.running and view.progress.maximum() == 2
    assert seen == [(0, "Timing on cpu (1/2)"), (1, "Timing on cpu (2/2)")]
    assert [t.device for t in view.timings] == ["cpu", "cpu"] and view.table.rowCount() == 2
    assert all(t.ok and t.median_s > 0 for t in view.timings)
    assert not view.running and not view.progress.isVisibleTo(view)
