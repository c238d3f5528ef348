"""An edit runs again from the first changed statement, from the kernel's checkpoint just
before it, only while nothing since has changed a value that checkpoint holds (core tier:
a real kernel process; expected values worked out by hand or by plain python).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.link.events import RunMessage
from app.link.session import KernelSession
from app.recipe.document import Document
from kernel.checkpoints import Untold, namespace_fingerprint
from protocol import messages


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


class Recorded:
    """A document on a real kernel that remembers where each run resumed."""

    def __init__(self, session: KernelSession, tmp_path: Path, text: str):
        self.path = tmp_path / "lesson.py"
        self.path.write_text(text, encoding="utf-8")
        self.doc = Document()
        self.doc.kernel = session
        self.resumed: list[int] = []
        self.doc.open(self.path)
        self.finish()

    def finish(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while self.doc.kernel_run is not None:
            assert time.monotonic() < deadline, "the kernel run did not end"
            events = self.doc.kernel.poll(0.01)
            self.resumed += [e.message.start for e in events if isinstance(e, RunMessage)
                             and isinstance(e.message, messages.Resumed)]
            self.doc.take_kernel_events(events)
            time.sleep(0.01)

    def edit(self, old: str, new: str) -> None:
        self.doc.set_source(self.doc.recipe.source.replace(old, new))
        self.finish()

    def names(self, step: int) -> dict:
        return self.doc.run.results[step].value.names


RANDOM = '''\
"""Random, then a loop"""
import torch

a = torch.rand(3)
for k in range(3):
    print("loop", k)
b = a * 2
'''


def test_an_edit_runs_only_from_the_changed_statement_and_keeps_the_rest(session, tmp_path):
    r = Recorded(session, tmp_path, RANDOM)
    a = r.names(0)["a"]["values"]
    assert r.names(2)["b"]["values"] == pytest.approx([v * 2 for v in a])
    r.edit("b = a * 2", "b = a * 3")
    assert r.resumed == [4]  # the docstring, import and a and the loop were not run again
    assert r.names(0)["a"]["values"] == a  # no seed: a run from the start would draw anew
    assert r.names(2)["b"]["values"] == pytest.approx([v * 3 for v in a])
    assert [res.status for res in r.doc.run.results] == ["ok", "ok", "ok"]
    assert r.doc.output == "loop 0\nloop 1\nloop 2\n"  # what the kept loop printed stays
    r.doc.run_again()  # the user's Run Again: everything, from the start
    r.finish()
    assert r.resumed == [4] and r.names(0)["a"]["values"] != a


def test_a_value_changed_in_place_since_sends_the_run_back_to_the_start(session, tmp_path):
    text = "import torch\nx = torch.zeros(3)\nfor i in range(2):\n    x.add_(1)\ny = x * 2\n"
    r = Recorded(session, tmp_path, text)
    assert r.names(2)["y"]["values"] == [4.0] * 3
    r.edit("y = x * 2", "y = x * 10")  # x last changed before this checkpoint: go on
    assert r.resumed == [3] and r.names(2)["y"]["values"] == [20.0] * 3
    r.edit("range(2)", "range(5)")  # the loop changed; x was changed in place after the
    # checkpoint before it, so the run goes on from an earlier one, after `import torch`
    assert r.resumed == [3, 1]
    assert r.names(2)["y"]["values"] == [50.0] * 3  # not 70: the adds of the old run gone
    python = subprocess.run([sys.executable, str(r.path)], capture_output=True, text=True)
    assert python.returncode == 0  # the file on disk is the first text; the edit is not
    r.path.write_text(r.doc.recipe.source)
    done = subprocess.run([sys.executable, "-c", f"exec(open({str(r.path)!r}).read()); "
                                                 "print(y.tolist())"],
                          capture_output=True, text=True)
    assert done.stdout.strip() == "[50.0, 50.0, 50.0]"


def test_the_lesson_text_is_not_a_reason_to_run_everything_again(session, tmp_path):
    r = Recorded(session, tmp_path, RANDOM)
    a = r.names(0)["a"]["values"]
    r.edit("Random, then a loop", "Random numbers, then a loop")
    assert r.resumed == [4] and r.names(0)["a"]["values"] == a


def test_a_function_defined_earlier_sees_the_resumed_namespace(session, tmp_path):
    text = ("import torch\nscale = 2\n\n\ndef f(t):\n    return t * scale\n\n\n"
            "y = f(torch.ones(2))\n")
    r = Recorded(session, tmp_path, text)
    r.edit("y = f(torch.ones(2))", "y = f(torch.ones(3))")
    assert r.resumed == [3]
    assert r.names(2)["y"]["values"] == [2.0, 2.0, 2.0]


def test_fingerprints_see_in_place_changes_grads_and_untellable_values():
    import numpy as np
    import torch

    t = torch.zeros(2, requires_grad=True)
    lin = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    items = [1, t]
    ns = {"t": t, "lin": lin, "opt": opt, "items": items}
    before = namespace_fingerprint(ns)
    assert namespace_fingerprint(ns) == before
    (t * 2).sum().backward()  # writes t.grad
    assert namespace_fingerprint(ns) != before
    before = namespace_fingerprint(ns)
    lin(torch.ones(1, 2)).sum().backward()
    opt.step()  # the parameters change in place
    assert namespace_fingerprint(ns) != before
    before = namespace_fingerprint(ns)
    lin.eval()
    assert namespace_fingerprint(ns) != before
    before = namespace_fingerprint(ns)
    items.append(3)
    assert namespace_fingerprint(ns) != before
    with pytest.raises(Untold):
        namespace_fingerprint({"a": np.zeros(3)})  # numpy arrays change without a version


def test_edits_faster_than_runs_keep_the_earlier_steps_results(session, tmp_path):
    """Typing -300 in a spin box makes three edits before the first run reports: each
    resumed run keeps the earlier steps' results from the last run that reported them
    (they showed as not run, found typing into the Ops panel under Xvfb)."""
    r = Recorded(session, tmp_path, RANDOM)
    a = r.names(0)["a"]["values"]
    for factor in ("3", "30", "300"):  # no events taken in between
        r.doc.set_source(RANDOM.replace("a * 2", f"a * {factor}"))
    r.finish()
    assert [res.status for res in r.doc.run.results] == ["ok", "ok", "ok"]
    assert r.names(0)["a"]["values"] == a
    assert r.names(2)["b"]["values"] == pytest.approx([v * 300 for v in a])
    assert r.doc.output == "loop 0\nloop 1\nloop 2\n"  # the loop's output kept too
