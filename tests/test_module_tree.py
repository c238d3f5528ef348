"""A module's tree as the kernel describes it (``kernel.modules``, ``protocol.module_data``),
checked against what torch itself says of the same module: its own parameters and
buffers, totals as ``parameters()`` counts them (each shared parameter once), and last
calls as a forward hook sees them. Core tier, in this process.
"""

from __future__ import annotations

import gc
import time
import weakref

import torch
from torch import nn
from torch.nn.modules.module import register_module_forward_hook

from kernel.modules import describe, last_call, record
from protocol.module_data import MAX_MODULES, TensorRow, headless, tree_data, tree_from


def _recorded(model: nn.Module, *args):
    """``model(*args)`` with ``record`` as the global forward hook (as the watch has it)."""
    handle = register_module_forward_hook(record)
    try:
        return model(*args)
    finally:
        handle.remove()


def test_rows_are_each_modules_own_parameters_and_buffers_as_torch_lists_them():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    model[2].weight.requires_grad_(False)
    tree = describe(model)
    for node, (_, module) in zip(tree.root.children, model.named_children(), strict=True):
        assert node.parameters == [
            TensorRow(n, tuple(p.shape), str(p.dtype), p.requires_grad, p.numel())
            for n, p in module.named_parameters(recurse=False)]
        assert [(r.name, r.shape) for r in node.buffers] == [
            (n, tuple(b.shape)) for n, b in module.named_buffers(recurse=False)]
    assert tree.trainable == sum(p.numel() for p in model.parameters() if p.requires_grad)
    assert tree.frozen == model[2].weight.numel()
    assert tree.buffers == sum(b.numel() for b in model.buffers())
    assert tree.modules == len(list(model.modules()))


def test_a_shared_parameter_counts_once_in_the_totals():
    model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10, bias=False))
    model[1].weight = model[0].weight  # tied, as a language model's are
    tree = describe(model)
    assert tree.parameters == sum(p.numel() for p in model.parameters()) == 40
    assert [r.name for n in tree.root.children for r in n.parameters] == ["weight", "weight"]


def test_each_modules_own_count_is_what_its_parameters_give_a_shared_one_once():
    """A row's count (the Model tab's "Param #") is ``parameters()``'s: its submodules'
    included, a parameter two of them share counted once; trainable likewise."""
    inner = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10, bias=False))
    inner[1].weight = inner[0].weight
    model = nn.Sequential(inner, nn.Linear(10, 3))
    model[1].bias.requires_grad_(False)
    root = describe(model).root
    for node, module in [(root, model), (root.children[0], inner),
                         (root.children[0].children[1], inner[1]),
                         (root.children[1], model[1])]:
        assert node.count == sum(p.numel() for p in module.parameters())
        assert node.trainable == sum(p.numel() for p in module.parameters() if p.requires_grad)
    assert root.children[0].count == 40 and root.count == 40 + 33
    assert root.trainable == 40 + 30


def test_last_call_is_what_a_forward_hook_sees_and_keeps_no_tensor():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    seen = {}
    hooks = [m.register_forward_hook(
        lambda m, a, o: seen.__setitem__(m, ([tuple(a[0].shape)], [tuple(o.shape)])))
        for m in model.modules()]
    out = _recorded(model, torch.ones(5, 3))
    for hook in hooks:
        hook.remove()
    for module in model.modules():
        call = last_call(module)
        assert (list(call.inputs), list(call.outputs)) == seen[module]
    gone = weakref.ref(out)
    del out
    assert gone() is None  # only its shape was kept
    dropped = weakref.ref(model)
    seen.clear()
    del model, module
    gc.collect()
    assert dropped() is None  # and the module is not kept either


def test_a_module_inside_itself_ends_the_walk():
    model = nn.Sequential(nn.Linear(2, 2))
    model._modules["again"] = model  # noqa: SLF001
    tree = describe(model)
    assert [c.name for c in tree.root.children] == ["0"]


def test_a_huge_model_is_described_quickly_and_cut_at_max_modules():
    model = nn.Sequential(*(nn.Linear(4, 4) for _ in range(MAX_MODULES + 10)))
    start = time.perf_counter()
    tree = describe(model)
    took = time.perf_counter() - start
    assert tree.truncated and tree.modules == MAX_MODULES
    assert took < 1.0, took
    giant = nn.Linear(100_000, 100_000, device="meta")  # 10^10 parameters, no memory
    assert describe(giant).trainable == 100_000 * 100_000 + 100_000


def test_a_lazy_modules_parameters_have_no_shape_yet():
    lazy = nn.LazyLinear(3)
    assert [(r.name, r.shape, r.numel) for r in describe(lazy).root.parameters] == [
        ("weight", None, 0), ("bias", None, 0)]
    _recorded(lazy, torch.ones(2, 5))
    assert headless(describe(lazy).root)["parameters"] == {"weight": [3, 5], "bias": [3]}


def test_the_tree_crosses_the_pipe_unchanged():
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2))
    _recorded(model, torch.ones(1, 1, 5, 5))
    tree = describe(model)
    assert tree_from(tree_data(tree)) == tree
