"""Views ask the kernel for what they show: large tensors stay in the kernel (core tier).

A real kernel runs each recipe; the answers are compared with what torch itself gives for
the same seeded tensor, worked out here.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import torch

from app.link.events import Answered, Ended, RunMessage
from app.link.session import KernelSession
from app.link.supervisor import Kernel
from kernel.queries import sample_steps
from kernel.tensor_info import tensor_facts, tensor_stats
from protocol import messages
from protocol.limits import MAX_PLANE_CELLS
from tests.conftest import finish

BIG = "import torch\ntorch.manual_seed(0)\nbig = torch.randn(3000, 2000)\nsmall = big[:2, :3] * 2\n"


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _events(session: KernelSession, until, timeout: float = 120) -> list:
    seen: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen += session.poll()
        if any(until(e) for e in seen):
            return seen
        time.sleep(0.005)
    raise AssertionError(f"not within {timeout} s: {seen[-5:]}")


def _run(session: KernelSession, tmp_path, text: str, wait_end: bool = True) -> int:
    path = tmp_path / "recipe.py"
    path.write_text(text, encoding="utf-8")
    run_id = session.run(text, str(path), str(tmp_path))
    if wait_end:
        _events(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)
    return run_id


def _ask(session: KernelSession, kind: str, args: dict) -> Answered:
    query_id = session.ask(kind, args)
    events = _events(session, lambda e: isinstance(e, Answered) and e.query_id == query_id)
    return next(e for e in events if isinstance(e, Answered) and e.query_id == query_id)


def test_a_big_tensor_stays_in_the_kernel_and_its_plane_comes_sampled(session, tmp_path):
    run_id = _run(session, tmp_path, BIG)
    torch.manual_seed(0)
    big = torch.randn(3000, 2000)
    answer = _ask(session, "tensor", {"run": run_id, "statement": 2, "name": "big"})
    assert answer.error == ""
    data = answer.data
    assert [tuple(f) for f in data["facts"]] == tensor_facts(big)
    assert [tuple(s) for s in data["stats"]] == tensor_stats(big)
    step_r, step_c = data["step"]
    assert (step_r, step_c) == sample_steps(3000, 2000) and step_r > 1
    plane = data["plane"]
    assert isinstance(plane, np.ndarray) and plane.size <= MAX_PLANE_CELLS * 1.01
    assert np.array_equal(plane, big[::step_r, ::step_c].numpy())


def test_a_small_tensor_comes_whole_in_the_plane_asked_for(session, tmp_path):
    run_id = _run(session, tmp_path, "import torch\nt = torch.arange(24).reshape(2, 3, 4)\n")
    answer = _ask(session, "tensor", {"run": run_id, "statement": 1, "name": "t",
                                      "rows": 0, "cols": 2, "fixed": {"1": 2}})
    t = torch.arange(24).reshape(2, 3, 4)
    assert answer.data["step"] == [1, 1]
    assert answer.data["plane"].tolist() == t[:, 2, :].tolist()  # rows dim 0, columns dim 2


def test_a_view_may_ask_while_the_recipe_still_runs(session, tmp_path):
    text = BIG + "while True:\n    pass\n"
    run_id = _run(session, tmp_path, text, wait_end=False)
    _events(session, lambda e: isinstance(e, RunMessage) and isinstance(
        e.message, messages.StepStarted) and e.message.index == 4)
    answer = _ask(session, "tensor", {"run": run_id, "statement": 3, "name": "small",
                                      "stats": False})
    torch.manual_seed(0)
    assert answer.data["plane"].tolist() == (torch.randn(3000, 2000)[:2, :3] * 2).tolist()
    assert "stats" not in answer.data
    session.stop()
    _events(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)


def test_what_cannot_be_answered_says_why(session, tmp_path):
    first = _run(session, tmp_path, "import torch\nn = 3\nt = torch.ones(2)\n")
    assert "not a tensor" in _ask(session, "tensor", {"run": first, "statement": 1,
                                                      "name": "n"}).error
    assert "no value named 'x'" in _ask(session, "tensor", {"run": first, "statement": 2,
                                                            "name": "x"}).error
    _run(session, tmp_path, "import torch\nt = torch.zeros(2)\n")
    stale = _ask(session, "tensor", {"run": first, "statement": 2, "name": "t"})
    assert "newer one replaced it" in stale.error
    assert "no such query" in _ask(session, "nothing", {}).error


def test_interrupt_by_message_where_there_are_no_process_groups(tmp_path):
    """Windows' way to Stop, tried here: the reader thread raises KeyboardInterrupt."""
    kernel = Kernel()
    try:
        path = tmp_path / "loop.py"
        kernel.run_source(str(path), "x = 1\nwhile True:\n    x += 1\n", str(tmp_path))
        deadline = time.monotonic() + 60
        while True:
            message = kernel.receive(1)
            if isinstance(message, messages.StepStarted) and message.index == 1:
                break
            assert time.monotonic() < deadline
        time.sleep(0.2)
        start = time.monotonic()
        kernel.send(messages.Interrupt())
        while not isinstance(message, messages.StepDone) or message.index != 1:
            message = kernel.receive(5)
            assert message is not None
        assert message.error == "KeyboardInterrupt"
        assert time.monotonic() - start < 1.0
        assert kernel.alive  # the namespace is kept
        assert math.isfinite(message.elapsed)
    finally:
        kernel.close()


def _opened(session, path, text: str):
    """A document of ``text``, saved at ``path``, that the kernel has run."""
    from app.recipe.document import Document

    path.write_text(text, encoding="utf-8")
    doc = Document()
    doc.kernel = session
    doc.open(path)
    finish(doc)
    return doc


def _question(doc, name: str) -> dict:
    """The tensor viewer's question about ``name``'s value in the document's last run."""
    value = doc.run.result_for(name).value
    return {"run": value.run_id, "statement": value.statement, "name": name,
            "rows": 0, "cols": 1, "fixed": {}, "stats": False}


def test_an_edit_brings_the_views_last_question_answered_with_its_run(session, tmp_path):
    """A view asks about a run; the next run carries the same question, answered as soon
    as its statement is done, so the view's next ask is answered at once, with the new
    run's value (torch's tril of the same seeded tensor)."""
    text = "import torch\ntorch.manual_seed(0)\nx = torch.rand(300, 300)\ny = torch.tril(x)\n"
    doc = _opened(session, tmp_path / "tril.py", text)
    answers: list = []
    assert doc.ask("tensor", _question(doc, "y"), lambda data, error: answers.append(data))
    assert answers == []  # asked: the answer comes later
    finish(doc)
    assert len(answers) == 1
    doc.set_source(text.replace("torch.tril(x)", "torch.tril(x, diagonal=-2)"))  # an edit
    finish(doc)
    assert doc.ask("tensor", _question(doc, "y"), lambda data, error: answers.append(data))
    assert len(answers) == 2  # answered at once: it came with the run
    torch.manual_seed(0)
    expected = torch.tril(torch.rand(300, 300), diagonal=-2)
    assert np.array_equal(answers[1]["plane"], expected.numpy())


def test_an_answer_that_a_later_statement_made_stale_is_asked_again(session, tmp_path):
    """The answer that came with the run told ``y`` as its own statement left it; a later
    ``y.add_(5)`` changed it, so the view's ask goes to the kernel and gets the end state
    (the autograd tab's ``.grad`` after a ``backward()`` is the same case)."""
    text = "import torch\nx = torch.ones(4)\ny = x * 1\ny.add_(5)\n"
    doc = _opened(session, tmp_path / "later.py", text)

    answers: list = []
    doc.ask("tensor", _question(doc, "y"), lambda data, error: answers.append(data))
    finish(doc)
    doc.set_source(text.replace("x * 1", "x * 2"))  # an edit: the question comes with it
    finish(doc)
    doc.ask("tensor", _question(doc, "y"), lambda data, error: answers.append(data))
    assert len(answers) == 1  # not at once: the kept answer was stale
    finish(doc)
    assert np.array_equal(answers[1]["plane"].ravel(), (torch.ones(4) * 2 + 5).numpy())
