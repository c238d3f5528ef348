"""The window's Module view asks its kernel for a module's tree (query ``module``,
``kernel.queries``): each module's own parameters and buffers and the shapes of its last
call, as torch and a forward hook give them for the same module built here.

Core tier: a real kernel runs each recipe as the window runs it (the training watch live).
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from app.link.session import KernelSession
from protocol.module_data import CallShapes, TensorRow, tree_from
from tests.test_kernel_queries import _ask, _run

MODEL = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(),
                      nn.Sequential(nn.Linear(16, 8), nn.BatchNorm1d(8)))
model[0].bias.requires_grad_(False)
x = torch.randn(8, 2)
out = model(x)
"""


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _same_model() -> tuple[nn.Module, dict]:
    """MODEL's model, called as it is, with torch's own hooks on each module."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(),
                          nn.Sequential(nn.Linear(16, 8), nn.BatchNorm1d(8)))
    model[0].bias.requires_grad_(False)
    calls = {}
    for module in model.modules():
        module.register_forward_hook(lambda m, a, o: calls.__setitem__(
            m, CallShapes(tuple(tuple(t.shape) for t in a), (tuple(o.shape),))))
    model(torch.randn(8, 2))
    return model, calls


def test_a_modules_tree_is_what_torch_says_of_it(session, tmp_path):
    run_id = _run(session, tmp_path, MODEL)
    answer = _ask(session, "module", {"run": run_id, "statement": 3, "name": "model"})
    assert answer.error == ""
    tree = tree_from(answer.data["tree"])
    model, calls = _same_model()
    assert tree.trainable == sum(p.numel() for p in model.parameters() if p.requires_grad)
    assert tree.frozen == 16 and tree.buffers == sum(b.numel() for b in model.buffers())
    for (name, module), node in zip(model.named_modules(), _walk(tree.root), strict=True):
        assert node.type == type(module).__name__ and node.name == name.rpartition(".")[2]
        assert node.parameters == [
            TensorRow(n, tuple(p.shape), str(p.dtype), p.requires_grad, p.numel())
            for n, p in module.named_parameters(recurse=False)]
        assert [r.name for r in node.buffers] == [n for n, _ in
                                                  module.named_buffers(recurse=False)]
        assert node.last_call == calls[module]


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)


def test_a_submodule_by_its_path_and_what_is_no_module(session, tmp_path):
    run_id = _run(session, tmp_path, MODEL)
    inner = _ask(session, "module", {"run": run_id, "name": "model", "path": "2.1"})
    assert tree_from(inner.data["tree"]).root.type == "BatchNorm1d"
    assert tree_from(inner.data["tree"]).root.last_call == CallShapes(((8, 8),), ((8, 8),))
    assert "not a module" in _ask(session, "module", {"run": run_id, "statement": 5,
                                                      "name": "x"}).error
    assert "no submodule" in _ask(session, "module", {"run": run_id, "name": "model",
                                                      "path": "7"}).error


LOOP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(16, 2)
for step in range(400):
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
pred = model(torch.randn(3, 2))
"""


def test_a_call_after_a_live_training_loop_is_the_last_call(session, tmp_path):
    """The loop's lean steps are not hooked; the statement after it is, every call."""
    run_id = _run(session, tmp_path, LOOP)
    answer = _ask(session, "module", {"run": run_id, "statement": 3, "name": "model"})
    tree = tree_from(answer.data["tree"])
    assert tree.root.last_call == CallShapes(((3, 2),), ((3, 1),))
    assert tree.root.children[2].last_call == CallShapes(((3, 8),), ((3, 1),))
