"""The window's own questions about a run, answered in the kernel between statements
(``kernel.child.Prefetch``): on one torch thread, and torch's threads as the recipe
left them afterwards."""

from __future__ import annotations

import torch

from kernel import child, queries
from protocol import messages


class _Channel:
    def __init__(self) -> None:
        self.sent: list = []

    def send(self, message: object) -> None:
        self.sent.append(message)


def test_prefetched_answers_run_on_one_thread_and_the_recipes_threads_come_back():
    seen: list[int] = []
    queries.register("threads_seen", lambda values, args: seen.append(
        torch.get_num_threads()) or {"threads": seen[-1]})
    before = torch.get_num_threads()
    channel = _Channel()
    try:
        for recipe_threads in (2, 1):
            torch.set_num_threads(recipe_threads)  # as the recipe set them
            prefetch = child.Prefetch(channel, queries.Values(),
                                      [[7, "threads_seen", {"statement": 0}],
                                       [8, "threads_seen", {"statement": 3}]])
            prefetch.answer(lambda statement: statement == 0)
            assert torch.get_num_threads() == recipe_threads
            prefetch.answer(lambda statement: True)
            assert torch.get_num_threads() == recipe_threads
    finally:
        torch.set_num_threads(before)
    assert seen == [1, 1, 1, 1]
    answers = [m for m in channel.sent if isinstance(m, messages.Answer)]
    assert [(a.id, a.data, a.error) for a in answers] == [(7, {"threads": 1}, ""),
                                                          (8, {"threads": 1}, "")] * 2
