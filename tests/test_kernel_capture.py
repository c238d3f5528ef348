"""The kernel's output taps and their flusher thread (``app.kernel.capture``)."""

from __future__ import annotations

import threading
import time

from app.kernel import capture
from app.kernel.capture import Flusher, Tap


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
    flusher = Flusher(taps, send)
    real_flush = flusher.flush
    flusher.flush = lambda: (looks.append(time.perf_counter()), real_flush())[1]
    try:
        time.sleep(6 * capture.FLUSH_S)
        assert looks == []  # nothing written: no wake-up at all
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
