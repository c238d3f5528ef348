"""Every ``backward()`` of a run is a training step (``kernel.watch``): ``tensor-lab
run --json`` reports each statement whose run called it, with the loss at every step, the
learning rate, and each layer's output std and gradient norm, named by its path from the
recipe's variable. The recipes' code is unchanged, and python prints what it prints.

Core tier: the real command, a kernel process each. Expected values come from the
recipe's own prints or from arithmetic a person can check.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from kernel.watch import MAX_STEPS
from tests.test_cli import tensor_lab

#: The notes' LeNet as they define it (``tests/seeds``), trained for 30 SGD steps on
#: random 32x32 images.
LENET = (Path(__file__).parent / "seeds" / "002_11_define_net.py").read_text(
    encoding="utf-8") + '''
images = torch.randn(30, 4, 1, 32, 32)
targets = torch.randint(0, 10, (30, 4))
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
for step in range(30):
    optimizer.zero_grad()
    loss = criterion(net(images[step]), targets[step])
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
'''


def _report(tmp_path: Path, text: str) -> tuple[dict, str]:
    path = tmp_path / "loop.py"
    path.write_text(text, encoding="utf-8")
    lab = tensor_lab("run", str(path), "--json")
    assert lab.returncode == 0, lab.stderr
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            timeout=120)
    report = json.loads(lab.stdout)
    assert report["stdout"] == python.stdout  # the recipe ran as python runs it
    return report, python.stdout


def test_lenets_loop_reports_every_step_and_its_five_layers(tmp_path):
    report, printed = _report(tmp_path, LENET)
    (entry,) = report["training"]
    assert entry["line"] == LENET.splitlines().index("for step in range(30):") + 1
    assert entry["steps"] == list(range(30))
    # the losses are the ones the loop printed, step by step
    losses = [line.split() for line in printed.splitlines() if line[:1].isdigit()]
    assert [round(v, 4) for v in entry["loss"]] == [float(v) for _, v in losses]
    assert entry["lr"] == [0.01] * 30
    assert sorted(entry["layers"]) == ["net.conv1", "net.conv2", "net.fc1", "net.fc2",
                                       "net.fc3"]
    for path, layer in entry["layers"].items():
        assert len(layer["std"]) == len(layer["grad_norm"]) == 30, path
        assert all(v is not None and math.isfinite(v) and v > 0
                   for v in layer["std"] + layer["grad_norm"]), path


def test_a_hand_written_loop_names_its_layers_by_position_and_leaves_out_validation(
        tmp_path):
    text = '''\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
x, y = torch.randn(64, 2), torch.randn(64, 1)
for step in range(12):
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
        check = model(x * 100)  # validation: its std must not mix in
    print(step, round(loss.item(), 4))
'''
    report, printed = _report(tmp_path, text)
    (entry,) = report["training"]
    assert [round(v, 4) for v in entry["loss"]] == [
        float(line.split()[1]) for line in printed.splitlines()]
    assert entry["lr"] == [None] * 12  # a manual update steps no optimizer
    layers = entry["layers"]
    assert sorted(layers) == ["model.0", "model.1", "model.2"]
    assert layers["model.1"]["grad_norm"] == [None] * 12  # Tanh has no parameters
    assert all(0 < s < 1 for s in layers["model.1"]["std"])  # tanh of the training batch


def test_a_run_without_backward_reports_no_training(tmp_path):
    report, _ = _report(tmp_path, "import torch\nx = torch.ones(3)\nprint(x.sum())\n")
    assert report["training"] == []


LSTM_LOOP = '''\
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(4, 4)
print(lin(torch.randn(2, 4)).shape)  # called once, before the loop: not one of its layers


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 5, batch_first=True)
        self.fc = nn.Linear(5, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


net = Net()
x, y = torch.randn(8, 6, 3), torch.randn(8, 1)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(5):
    optimizer.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
'''

#: The same loop's layer stds, taken by hand in a plain python run: a forward hook on each
#: layer (the LSTM's output tensor is the first item of the tuple it returns).
BY_HAND = '''\
import json
stds = {"net.lstm": [], "net.fc": []}
net.lstm.register_forward_hook(lambda m, i, o: stds["net.lstm"].append(o[0].std().item()))
net.fc.register_forward_hook(lambda m, i, o: stds["net.fc"].append(o.std().item()))
'''


def test_only_the_loops_own_layers_are_listed_an_lstm_by_its_output_tensor(tmp_path):
    report, _ = _report(tmp_path, LSTM_LOOP)
    (entry,) = report["training"]
    hand = tmp_path / "by_hand.py"
    hand.write_text(LSTM_LOOP.replace("for step in range(5):", BY_HAND + "for step in "
                                      "range(5):") + "print(json.dumps(stds))\n",
                    encoding="utf-8")
    python = subprocess.run([sys.executable, str(hand)], capture_output=True, text=True,
                            timeout=120)
    stds = json.loads(python.stdout.splitlines()[-1])
    assert sorted(entry["layers"]) == ["net.fc", "net.lstm"]  # not `lin`
    for path, expected in stds.items():
        assert entry["layers"][path]["std"] == pytest.approx(expected, rel=1e-6), path


def test_a_sampled_long_loop_keeps_its_first_and_last_steps(tmp_path):
    text = '''\
import torch
torch.manual_seed(0)
target = torch.randn(3)
w = torch.zeros(3, requires_grad=True)
for step in range(30_000):
    loss = ((w - target) ** 2).sum() + 0.01 * torch.randn(())
    loss.backward()
    with torch.no_grad():
        w -= 1e-4 * w.grad
        w.grad.zero_()
print(step, repr(loss.item()))
'''
    report, printed = _report(tmp_path, text)
    (entry,) = report["training"]
    last_step, last_loss = printed.split()
    assert entry["steps"][0] == 0 and entry["steps"][-1] == int(last_step) == 29_999
    assert entry["loss"][-1] == float(last_loss)  # python's own number for that step
    assert len(entry["steps"]) <= MAX_STEPS + 1
