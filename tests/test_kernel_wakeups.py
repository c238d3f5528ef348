"""Who wakes whom: the kernel's output flusher thread (``kernel.capture``) and the
event queue that wakes the window (``app.link.events``)."""

from __future__ import annotations

import threading
import time

from kernel import capture
from kernel.capture import Flusher, Tap


def test_output_goes_out_soon_after_it_is_written_and_the_thread_sleeps_meanwhile():
    """What is written is sent about ``FLUSH_S`` later, with no flush asked for; while
    nothing is written the thread does not wake to look (a thread that woke 20 times a
    second took the GIL from a training loop each time)."""
    sent: list[tuple[int, str, str, int]] = []
    arrived = threading.Event()

    def send(index: int, stream: str, text: str, dropped: int) -> None:
        sent.append((index, stream, text, dropped))
        arrived.set()

    taps = [Tap("stdout"), Tap("stderr")]
    looks = []
    before = set(threading.enumerate())
    flusher = Flusher(taps, send)
    real_flush = flusher.flush
    flusher.flush = lambda: (looks.append(time.perf_counter()), real_flush())[1]
    try:
        time.sleep(6 * capture.FLUSH_S)
        assert looks == []  # nothing written: no wake-up at all
        # nor a thread: most statements print nothing, and starting and joining one for
        # every run was a quarter of a millisecond of each edit's run
        assert [t.name for t in set(threading.enumerate()) - before] == []
        taps[0].index = 3
        written = time.perf_counter()
        taps[0].write("loss 0.25\n")
        taps[0].write("loss 0.20\n")
        assert arrived.wait(20 * capture.FLUSH_S)
        assert sent == [(3, "stdout", "loss 0.25\nloss 0.20\n", 0)]
        assert looks[0] - written >= capture.FLUSH_S * 0.9  # gathered, not sent per write
        time.sleep(6 * capture.FLUSH_S)
        assert len(looks) == 1  # and asleep again
    finally:
        flusher.close()
    taps[1].write("late\n")  # after close: nothing sends it any more
    assert [s[2] for s in sent] == ["loss 0.25\nloss 0.20\n"]


def test_the_event_queue_wakes_the_window_for_a_first_event_and_for_a_runs_end():
    """A first event in an empty queue wakes the window (it gathers what follows for a
    moment); a run's ``Ended`` wakes it even behind others, marked so: nothing of the run
    is left to gather, the window takes it all at once."""
    from app.link.events import Ended, EventQueue, RunMessage
    from protocol import messages

    queue = EventQueue()
    calls: list[bool] = []
    queue.on_ready = calls.append
    queue.put(RunMessage(1, messages.StepStarted(0, 1)))
    queue.put(RunMessage(1, messages.Done(0)))
    assert calls == [False]  # the second waits with the first
    queue.put(Ended(1, "", 0))
    assert calls == [False, True]
    assert [type(e).__name__ for e in queue.take(0.01)] == ["RunMessage"] * 2 + ["Ended"]
    queue.put(Ended(2, "stopped", 130))
    assert calls == [False, True, True]


def test_a_print_when_no_thread_can_start_still_reaches_the_window_at_the_statements_end(
        monkeypatch):
    """The flusher's thread starts at the first write: when none can be had then (a recipe
    at its memory cap), ``print`` must not fail, and the statement's flush sends it."""
    sent: list[tuple[int, str, str, int]] = []
    taps = [Tap("stdout")]
    flusher = Flusher(taps, lambda *message: sent.append(message))

    def refuse(*_args):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(capture._thread, "start_new_thread", refuse)  # noqa: SLF001
    taps[0].index = 2
    assert taps[0].write("still here\n") == len("still here\n")
    flusher.flush()  # what the kernel does after each statement
    assert sent == [(2, "stdout", "still here\n", 0)]
    flusher.close()
