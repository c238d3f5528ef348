"""A kernel that stays: it runs a recipe for the window, reports every statement with the
names it bound, captures each statement's output, and survives Stop.

Core tests: no QApplication; a real spawned kernel process.
"""

from __future__ import annotations

import time

import pytest
import torch

from app.link.supervisor import Kernel
from protocol import messages as msg

RECIPE = '''\
import torch
torch.manual_seed(0)
x = torch.arange(6).view(2, 3)
total = 0
for i in range(4):
    total += i
    print("step", i)
net = torch.nn.Linear(3, 2)
x.add_(1)
'''


def _collect(kernel: Kernel, timeout: float = 120) -> list:
    messages, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = kernel.receive(0.1)
        if message is not None:
            messages.append(message)
            if isinstance(message, msg.Done):
                return messages
    raise AssertionError(f"no Done within {timeout} s: {messages[-5:]}")


@pytest.fixture
def kernel():
    k = Kernel()
    yield k
    k.close()
    assert not k.alive


def test_every_statement_is_reported_with_its_names_and_output(kernel, tmp_path):
    kernel.run_source(str(tmp_path / "lesson.py"), RECIPE, str(tmp_path))
    messages = _collect(kernel)
    assert isinstance(messages[-1], msg.Done) and messages[-1].exit_code == 0
    done = {m.index: m for m in messages if isinstance(m, msg.StepDone)}
    started = [m.index for m in messages if isinstance(m, msg.StepStarted)]
    assert started == sorted(done) == list(range(7))
    x = done[2].names["x"]
    assert (x["shape"], x["dtype"], x["values"]) == ([2, 3], "torch.int64",
                                                      torch.arange(6).view(2, 3).tolist())
    assert done[3].names == {"total": {"type": "int", "value": 0}}
    assert done[4].names["total"] == {"type": "int", "value": 6}  # the loop's end
    net = done[5].names["net"]
    assert net["module"] and net["parameters"] == {"weight": [2, 3], "bias": [2]}
    assert net["parameter_count"] == 8
    # an in-place change is a change: x is reported again, with its new values
    assert done[6].names["x"]["values"] == (torch.arange(6).view(2, 3) + 1).tolist()
    printed = "".join(m.text for m in messages
                      if isinstance(m, msg.Output) and m.index == 4)
    assert printed == "".join(f"step {i}\n" for i in range(4))
    assert not [m for m in messages if isinstance(m, msg.Output) and m.index != 4]


def test_an_error_names_the_line_inside_the_block(kernel, tmp_path):
    source = "import torch\nfor i in range(3):\n    y = torch.ones(2).view(3)\n"
    kernel.run_source(str(tmp_path / "bad.py"), source)
    messages = _collect(kernel)
    failed = [m for m in messages if isinstance(m, msg.StepDone) and m.error][0]
    assert (failed.index, failed.line, failed.error_line) == (1, 2, 3)
    assert failed.error == "RuntimeError" and "shape '[3]' is invalid" in failed.message
    stderr = "".join(m.text for m in messages
                     if isinstance(m, msg.Output) and m.stream == "stderr")
    assert stderr.startswith("Traceback (most recent call last):") and "line 3" in stderr
    assert messages[-1].exit_code == 1


def test_stop_interrupts_a_loop_and_the_kernel_stays_for_the_next_run(kernel, tmp_path):
    kernel.warm()
    kernel.run_source(str(tmp_path / "loop.py"),
                      "import time\nprint('go', flush=True)\nwhile True:\n    time.sleep(0.01)\n")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the loop statement has started
        message = kernel.receive(0.1)
        if isinstance(message, msg.StepStarted) and message.index == 2:
            break
    else:
        raise AssertionError("the loop never started")
    time.sleep(0.2)
    start = time.monotonic()
    kernel.interrupt()
    messages = _collect(kernel, timeout=10)
    assert time.monotonic() - start < 2
    assert messages[-1].exit_code == 130 and kernel.alive
    stopped = [m for m in messages if isinstance(m, msg.StepDone)][-1]
    assert stopped.error == "KeyboardInterrupt"
    kernel.run_source(str(tmp_path / "again.py"), "import torch\nz = torch.zeros(2)\n")
    again = _collect(kernel)
    assert again[-1].exit_code == 0
    assert [m for m in again if isinstance(m, msg.StepDone)][-1].names["z"]["shape"] == [2]


def test_an_output_flood_arrives_bounded_and_in_order(kernel, tmp_path):
    kernel.run_source(str(tmp_path / "flood.py"),
                      "for i in range(300_000):\n    print(i)\nprint('end')\n")
    messages = _collect(kernel)
    outputs = [m for m in messages if isinstance(m, msg.Output)]
    text = "".join(m.text for m in outputs)
    assert text.endswith("299999\nend\n")
    assert max(len(m.text) for m in outputs) <= 300 * 1024  # bounded batches
    written = sum(len(f"{i}\n") for i in range(300_000)) + len("end\n")
    assert len(text) + sum(m.dropped for m in outputs) == written  # nothing silently lost
