"""The Model tab's Activations ask the kernel for one sample of a layer's last output
(query ``activation``, ``kernel.activations``): compared with what a forward hook gives
under plain python for the same seeded model and input.

Core tier: a real kernel runs each recipe as the window runs it (the training watch live).
"""

from __future__ import annotations

import ast
import time

import numpy as np
import pytest
import torch

from app.link.session import KernelSession
from kernel.activations import MAX_SAMPLES, SMALL_BYTES, UNWATCHED_SAMPLES
from tests.test_kernel_queries import _ask, _run
from tests.test_model_panel import LENET


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _statement(text: str, source: str) -> int:
    """The index of the top-level statement whose text is ``source``."""
    return next(i for i, node in enumerate(ast.parse(text).body)
                if ast.get_source_segment(text, node) == source)


def _hooked_conv1() -> torch.Tensor:
    """LeNet's conv1 output under plain python: the recipe's own text, a hook on conv1."""
    seen = []

    def hook(module, _inputs, output):
        if type(module).__name__ == "Conv2d" and not seen:
            seen.append(output.detach().clone())

    handle = torch.nn.modules.module.register_module_forward_hook(hook)
    try:
        exec(LENET.replace("print(out)", ""), {})  # noqa: S102 - the notes' own text
    finally:
        handle.remove()
    return seen[0]


def test_conv1s_activation_is_the_hooked_output_of_its_sample(session, tmp_path):
    run_id = _run(session, tmp_path, LENET)
    statement = _statement(LENET, "net = Net()")
    answer = _ask(session, "activation", {"run": run_id, "statement": statement,
                                          "name": "net", "path": "conv1", "sample": 0})
    assert answer.error == ""
    data = answer.data
    expected = _hooked_conv1()
    assert data["shape"] == [1, 6, 28, 28] == list(expected.shape)
    assert data["form"] == "tiles" and data["batch"] == 1 and data["kept"] == 1
    assert np.array_equal(data["values"], expected[0].numpy())
    assert data["min"] == float(expected[0].min()) and data["max"] == float(expected[0].max())
    assert data["call"] > 0 and data["nonfinite"] == 0
    # asked again with what the window shows: nothing new to send
    again = _ask(session, "activation", {"run": run_id, "statement": statement, "name": "net",
                                         "path": "conv1", "call": data["call"], "shown": 0})
    assert again.data == {"call": data["call"], "same": True}
    fc3 = _ask(session, "activation", {"run": run_id, "statement": statement, "name": "net",
                                       "path": "fc3"}).data
    assert fc3["form"] == "bars" and fc3["values"].shape == (10,)


HOSTILE = """import torch
import torch.nn as nn
torch.manual_seed(0)

class Pair(nn.Module):
    def forward(self, x):
        return {"first": x * 2, "second": x}

class Words(nn.Module):
    def forward(self, x):
        return "not a tensor"

lstm = nn.LSTM(3, 4, batch_first=True)
pair, words, linear, wide = Pair(), Words(), nn.Linear(4, 2), nn.Identity()
seq = torch.randn(5, 7, 3)
out, state = lstm(seq)
doubled = pair(torch.tensor([[1.0, float("nan")], [float("inf"), -3.0]]))
said = words(seq)
empty = linear(torch.zeros(0, 4))
big = wide(torch.randn(200, 3, 40, 40))
huge = nn.Identity()
line = huge(torch.zeros(1, 4_500_000))
"""


def test_odd_outputs_tuples_dicts_words_nothing_nan_and_a_big_batch(session, tmp_path):
    run_id = _run(session, tmp_path, HOSTILE)

    def ask(name, sample=0):
        return _ask(session, "activation", {"run": run_id, "name": name, "sample": sample})

    lstm = ask("lstm", sample=3).data  # (output, (h, c)): its output, sample 3 of 5
    torch.manual_seed(0)
    module = torch.nn.LSTM(3, 4, batch_first=True)
    torch.nn.Linear(4, 2)  # made before the input, as the recipe makes it
    expected, _ = module(torch.randn(5, 7, 3))
    assert lstm["form"] == "heatmap" and lstm["shape"] == [5, 7, 4]
    assert np.allclose(lstm["values"], expected[3].detach().numpy(), atol=1e-6)
    pair = ask("pair", sample=1).data  # a dict: its first tensor, with a NaN and an inf
    assert pair["form"] == "bars" and pair["nonfinite"] == 1
    assert pair["min"] == pair["max"] == -6.0
    assert np.isinf(pair["values"][0]) and pair["values"][1] == -6.0
    assert ask("words").data["missing"] == "not a tensor"
    assert ask("linear").data["missing"] == "no samples"
    # a batch of 200: unasked, its first 8 samples are kept; asked, it is watched by
    # name, and the next run keeps 64. One sample of 18 MB is too large to keep
    # unasked, and asked
    wide = ask("wide", sample=100).data
    assert wide["batch"] == 200 and wide["kept"] == UNWATCHED_SAMPLES == 8
    assert wide["sample"] == 7
    assert 4_500_000 * 4 > SMALL_BYTES
    assert ask("huge").data == {"call": 0, "missing": "not watched"}
    run_id = _run(session, tmp_path, HOSTILE)
    big = ask("wide", sample=100).data
    assert big["batch"] == 200 and big["kept"] == MAX_SAMPLES == 64
    assert big["sample"] == 63 and big["values"].shape == (3, 40, 40)
    assert big["form"] == "tiles"
    huge = ask("huge").data
    assert huge["missing"] == "large" and huge["shape"] == [1, 4_500_000]


def test_a_loops_first_step_is_not_shown_as_its_last_call(session, tmp_path):
    """An unwatched layer's output is kept until the statement's first backward(): a
    loop's first step, not its last, so it is dropped then; the call after the loop
    is kept again."""
    text = ("import torch\nimport torch.nn as nn\nmlp = nn.Sequential(nn.Linear(2, 3))\n"
            "for i in range(5):\n    mlp(torch.full((1, 2), float(i))).sum().backward()\n")
    run_id = _run(session, tmp_path, text)
    asked = {"run": run_id, "name": "mlp", "path": "0"}
    assert _ask(session, "activation", asked).data == {"call": 0, "missing": "not watched"}
    run_id = _run(session, tmp_path, text + "last = mlp(torch.ones(1, 2))\n")
    data = _ask(session, "activation", {**asked, "run": run_id}).data
    assert data["kept"] == 1 and data["form"] == "bars" and data["values"].shape == (3,)


LOOP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(8, 1, 8, 8)
for step in range(200_000):
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
"""


def test_a_watched_layer_follows_a_live_loop(session, tmp_path):
    run_id = _run(session, tmp_path, LOOP, wait_end=False)
    args = {"run": run_id, "name": "model", "path": "0", "sample": 2}
    calls = []
    deadline = time.monotonic() + 60
    while len(set(calls)) < 3 and time.monotonic() < deadline:
        data = _ask(session, "activation", args).data
        if data.get("call"):
            assert data["form"] == "tiles" and data["values"].shape == (4, 6, 6)
            assert data["batch"] == 8 and data["sample"] == 2
            calls.append(data["call"])
        time.sleep(0.2)
    session.stop()
    assert len(set(calls)) >= 3 and calls == sorted(calls)  # new calls, in order
