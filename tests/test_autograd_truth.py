"""A step shows what it bound or changed itself, never a tensor an earlier statement left
under a name that another object changed in place: ``optimizer.step()`` after the notes'
``for f in net.parameters()`` (end-to-end, the main window)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui

# The course notes' manual update (002, block 24), then their optim block (block 25):
# ``f`` is left holding net's last parameter, which optimizer.step() then moves.
SGD = """import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
input = torch.randn(8, 4)
target = torch.randn(8, 1)
criterion = nn.MSELoss()
loss = criterion(net(input), target)
net.zero_grad()
loss.backward()
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()
"""

LOOP = SGD.replace("optimizer.zero_grad()\noutput = net(input)\nloss = criterion(output, "
                   "target)\nloss.backward()\noptimizer.step()\n",
                   "for epoch in range(3):\n    optimizer.zero_grad()\n"
                   "    batch_loss = criterion(net(input), target)\n"
                   "    batch_loss.backward()\n"
                   "    optimizer.step()\n")


def _open(make_window, tmp_path, text: str):
    window = make_window()
    path = tmp_path / "sgd.py"
    path.write_text(text, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.settle()
    window.views.setCurrentWidget(window.autograd)
    return window


def _select(window, start: str) -> None:
    labels = [s.label for s in window.document.recipe.steps]
    window.document.select(next(i for i, label in enumerate(labels) if label.startswith(start)))
    window.settle()


def test_optimizer_step_shows_no_tensor_left_under_f_by_an_earlier_loop(make_window, tmp_path):
    window = _open(make_window, tmp_path, SGD)
    _select(window, "for f in")  # the loop's own f: shown, and its graph (a leaf)
    assert "\nf: Tensor (1)" in window.viewer.status_text()  # fc3.bias, at the end
    assert "leaves: f." in window.autograd.status_text()
    _select(window, "optimizer.step()")
    assert "f:" not in window.viewer.status_text()
    assert "bound no new names" in window.viewer.status_text()  # as python: it binds none
    # what it did to f (the bias it moved) is said, as a change, not as its value
    assert window.viewer.status_text().endswith(
        "It changed in place, through another object: f")
    assert "leaves: f" not in window.autograd.status_text()
    assert window.autograd.status_text().startswith("Select a step that makes a tensor")


def test_a_training_loop_after_the_f_loop_shows_its_own_names_only(make_window, tmp_path):
    window = _open(make_window, tmp_path, LOOP)
    _select(window, "for epoch in")
    status = window.viewer.status_text()
    assert "epoch: " in status and "batch_loss: " in status
    assert "f: " not in status
    # its own first tensor's graph (whose leaves are net's parameters: f, the last bias,
    # is one of them, and is named as such)
    assert window.autograd.status_text().startswith("Backward graph of batch_loss:")
