"""The Model graph's data (query ``module_graph``, ``kernel.module_graph``): a module's
forward call as its leaf modules and the torch calls between them, with the shapes that
flowed, recorded while the recipe's own call ran.

Core tier: a real kernel runs each recipe as the window runs it (the training watch
live). Expected calls and shapes are torch's own, from forward hooks on the same model
run here under plain python, or read off the recipe's ``forward`` (LeNet's functional
calls, in the order its text makes them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from app.explain.module_graph_view import shown_graph
from app.link.session import KernelSession
from protocol.module_graph_data import graph_from
from tests.test_kernel_queries import _ask, _run

LENET = (Path(__file__).parent / "seeds" / "002_13_net_forward.py").read_text(
    encoding="utf-8")

BRANCHY = """import torch
import torch.nn as nn
torch.manual_seed(0)


class Branchy(nn.Module):
    def __init__(self, deep):
        super().__init__()
        self.deep = deep
        self.stem = nn.Linear(3, 8)
        self.block = nn.Linear(8, 8)
        self.skip = nn.Identity()
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        x = self.stem(x)
        for _ in range(self.deep):
            x = torch.tanh(self.block(x))
        if self.deep > 2:
            x = self.skip(x)
        else:
            x = x * 2
        return self.head(x)


model = Branchy(3)
x = torch.randn(4, 3)
out = model(x)
"""

NESTED = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(
    nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Sequential(nn.Conv2d(4, 4, 3), nn.ReLU())),
    nn.Flatten(),
    nn.Sequential(nn.Linear(64, 10), nn.Softmax(dim=1)))
x = torch.randn(2, 1, 8, 8)
out = model(x)
"""

MISMATCH = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)


class Wrong(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.fc2 = nn.Linear(5, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Wrong()
x = torch.randn(3, 4)
out = model(x)
"""

PAIR = """import torch
import torch.nn as nn
torch.manual_seed(0)


class Pair(nn.Module):
    def __init__(self):
        super().__init__()
        self.left = nn.Linear(2, 3)
        self.right = nn.Linear(5, 3)

    def forward(self, pair):
        a, b = pair
        return self.left(a) + self.right(b)


model = Pair()
x = (torch.randn(4, 2), torch.randn(4, 5))
out = model(x)
"""


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _graph(session, tmp_path, text: str, name: str = "model"):
    run_id = _run(session, tmp_path, text)  # (the run's variable: no statement named)
    answer = _ask(session, "module_graph", {"run": run_id, "name": name})
    assert answer.error == ""
    return graph_from(answer.data["graph"])


def _hooked(text: str, name: str = "model", before: str = "\nout = "):
    """The recipe's model run here under plain python, each leaf module's calls in order
    as forward hooks see them: (path, input shapes, output shapes)."""
    space: dict = {}
    head, _, call = text.rpartition(before)
    exec(head, space)  # noqa: S102 - the test's own recipe
    model, calls = space[name], []
    for path, module in model.named_modules():
        if next(module.children(), None) is None:
            module.register_forward_hook(lambda m, i, o, path=path: calls.append(
                (path, [tuple(t.shape) for t in i], tuple(o.shape))))
    try:
        eval(call.strip().split("\n")[0], space)  # noqa: S307 - the recipe's call
    except RuntimeError as e:
        return model, calls, e
    return model, calls, None


def _out_shape(graph, index: int) -> set:
    return {e.shape for e in graph.edges if e.source == index}


def test_lenets_graph_is_its_calls_in_order_with_the_shapes_hooks_see(session, tmp_path):
    graph = _graph(session, tmp_path, LENET, "net")
    # as Net.forward is written: conv1, relu, pool, conv2, relu, pool, view, fc1...
    assert [n.label for n in graph.nodes] == [
        "x", "conv1", "relu", "max_pool2d", "conv2", "relu", "max_pool2d", "view", "fc1",
        "relu", "fc2", "relu", "fc3", "output"]
    _, calls, _ = _hooked(LENET, "net")
    modules = [i for i, n in enumerate(graph.nodes) if n.kind == "module"]
    assert [graph.nodes[i].label for i in modules] == [path for path, _, _ in calls]
    for i, (_path, inputs, output) in zip(modules, calls, strict=True):
        assert _out_shape(graph, i) == {output}
        assert [e.shape for e in graph.edges if e.target == i] == inputs
    conv1 = graph.nodes.index(next(n for n in graph.nodes if n.label == "conv1"))
    assert _out_shape(graph, conv1) == {(1, 6, 28, 28)}
    assert graph.error == "" and not graph.truncated and graph.containers == {}
    # every call made something the next one took: one chain, input to output
    assert [(e.source, e.target) for e in graph.edges] == [
        (i, i + 1) for i in range(len(graph.nodes) - 1)]


def test_a_forwards_loop_and_if_are_drawn_as_they_ran(session, tmp_path):
    graph = _graph(session, tmp_path, BRANCHY)
    _, calls, _ = _hooked(BRANCHY)
    modules = [n for n in graph.nodes if n.kind == "module"]
    # block three times (the loop), skip and not `x * 2` (the if): what hooks saw
    assert [n.label for n in modules] == [path for path, _, _ in calls] == [
        "stem", "block", "block", "block", "skip", "head"]
    assert [n.label for n in graph.nodes if n.kind == "function"] == ["tanh"] * 3
    for node_index, (path, inputs, output) in zip(
            [i for i, n in enumerate(graph.nodes) if n.kind == "module"], calls, strict=True):
        assert graph.nodes[node_index].label == path
        assert _out_shape(graph, node_index) == {output}
        assert [e.shape for e in graph.edges if e.target == node_index] == inputs


def test_nested_sequentials_are_containers_around_their_layers(session, tmp_path):
    graph = _graph(session, tmp_path, NESTED)
    model, calls, _ = _hooked(NESTED)
    containers = {path: type(m).__name__ for path, m in model.named_modules()
                  if path and next(m.children(), None) is not None}
    assert graph.containers == containers == {"0": "Sequential", "0.2": "Sequential",
                                              "2": "Sequential"}
    modules = [n for n in graph.nodes if n.kind == "module"]
    assert [n.label for n in modules] == [path for path, _, _ in calls]
    for n in modules:  # each layer in the box of the container that holds it
        assert n.scope == n.label.rpartition(".")[0]
        assert n.type == type(model.get_submodule(n.label)).__name__
    assert [n.kind for n in graph.nodes] == ["input"] + ["module"] * 7 + ["output"]


def test_a_collapsed_container_is_one_node_with_its_in_and_out_shapes(session, tmp_path):
    graph = _graph(session, tmp_path, NESTED)
    model, _, _ = _hooked(NESTED)
    block = model[0](torch.randn(2, 1, 8, 8))  # what torch makes of the block's input
    shown = shown_graph(graph, {"0"})
    boxed = [n for n in shown.nodes.values() if n.kind == "container"]
    assert [(n.label, n.type) for n in boxed] == [("0", "Sequential")]
    into = [e.shape for e in shown.edges if e.target == boxed[0].id]
    out = [e.shape for e in shown.edges if e.source == boxed[0].id]
    assert into == [(2, 1, 8, 8)] and out == [tuple(block.shape)]
    assert set(shown.boxes) == {"2"}  # "0" and "0.2" are inside the collapsed node
    assert len(shown.nodes) == len(graph.nodes) - 4 + 1
    for e in shown.edges:  # left to right
        assert shown.places[e.target][0] > shown.places[e.source][0]
    opened = shown_graph(graph, set())
    assert set(opened.boxes) == {"0", "0.2", "2"}
    assert opened.boxes["0.2"] == [n.id for n in opened.nodes.values()
                                   if n.label.startswith("0.2.")]


def test_a_shape_error_is_on_the_edge_into_the_call_that_raised(session, tmp_path):
    graph = _graph(session, tmp_path, MISMATCH)
    _, calls, error = _hooked(MISMATCH)
    assert error is not None  # python raises too
    failing = [i for i, n in enumerate(graph.nodes) if n.error]
    assert len(failing) == 1
    node = graph.nodes[failing[0]]
    assert (node.label, node.type) == ("fc2", "Linear")
    assert node.error == f"RuntimeError: {error}" == graph.error
    # the edge into fc2 carries what fc1 and relu made, the shape fc2 could not take
    assert [e.shape for e in graph.edges if e.target == failing[0]] == [calls[0][2]] == [
        (3, 6)]
    assert graph.nodes[-1].kind != "output"  # the call never returned


def test_a_forward_that_takes_a_tuple_has_an_input_per_tensor(session, tmp_path):
    graph = _graph(session, tmp_path, PAIR)
    _, calls, _ = _hooked(PAIR)
    assert [(n.kind, n.label) for n in graph.nodes] == [
        ("input", "pair[0]"), ("input", "pair[1]"), ("module", "left"),
        ("module", "right"), ("function", "+"), ("output", "output")]
    edges = {(graph.nodes[e.source].label, graph.nodes[e.target].label): e.shape
             for e in graph.edges}
    left, right = (out for _, _, out in calls)
    assert edges == {("pair[0]", "left"): (4, 2), ("pair[1]", "right"): (4, 5),
                     ("left", "+"): left, ("right", "+"): right,
                     ("+", "output"): tuple(torch.Size(left))}


def test_a_part_called_by_its_model_has_its_own_part_of_the_graph(session, tmp_path):
    text = """import torch
import torch.nn as nn
torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(4, 3), nn.Sequential(nn.ReLU(), nn.Dropout(0.0)))
decoder = nn.Linear(3, 4)
model = nn.Sequential(encoder, decoder)
x = torch.randn(5, 4)
out = model(x)
"""
    graph = _graph(session, tmp_path, text, "encoder")  # never called by itself
    _, calls, _ = _hooked(text, "encoder")
    assert [(n.kind, n.label) for n in graph.nodes] == [
        ("input", "input"), ("module", "0"), ("module", "1.0"), ("module", "1.1"),
        ("output", "output")] == [("input", "input")] + [
        ("module", path) for path, _, _ in calls] + [("output", "output")]
    assert graph.containers == {"1": "Sequential"}
    assert [n.scope for n in graph.nodes[1:4]] == ["", "1", "1"]
    assert [e.shape for e in graph.edges] == [(5, 4)] + [out for _, _, out in calls]
    leaf = _graph(session, tmp_path, text, "decoder")
    # fed by the model's 0.1.1 (the dropout); itself the model's 1
    assert [(n.kind, n.label) for n in leaf.nodes] == [
        ("input", "0.1.1"), ("module", "1"), ("output", "output")]
    assert [e.shape for e in leaf.edges] == [(5, 3), (5, 4)]


def test_a_live_training_loops_model_has_the_graph_of_a_sampled_step(session, tmp_path):
    from tools.bench_training import RECIPE

    text = RECIPE.format(steps=300, device="cpu")
    graph = _graph(session, tmp_path, text)
    model, calls, _ = _hooked(text, before="\nstart = ")  # the recipe up to its loop
    model(torch.randn(256, 2))  # one step's forward, hooked
    modules = [(n.label, e.shape) for i, n in enumerate(graph.nodes) if n.kind == "module"
               for e in graph.edges if e.source == i]
    assert modules == [(path, out) for path, _, out in calls]  # batch 256, as python's


def test_a_module_never_called_has_no_graph_yet(session, tmp_path):
    run_id = _run(session, tmp_path, "import torch\nnet = torch.nn.Linear(2, 3)\n")
    answer = _ask(session, "module_graph", {"run": run_id, "statement": 1, "name": "net"})
    assert "not been called" in answer.error


# -- the hooks themselves, in this process ------------------------------------------------
def test_tracing_leaves_torch_as_it_was_and_the_forward_as_python_computes_it():
    from torch import nn
    from torch.nn.modules import module as torch_module

    from kernel.module_graph import GraphHooks, graph_of

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    twin = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    twin.load_state_dict(model.state_dict())
    x = torch.randn(5, 3)
    hooks = GraphHooks()
    hooks.hook(True)
    try:
        out = model(x)
        with pytest.raises(RuntimeError):
            model(torch.randn(5, 7))  # a new shape: traced, and it raises
    finally:
        hooks.hook(False)
    assert torch.equal(out, twin(x))  # the same numbers, running statistics and all
    assert torch.equal(model[1].running_mean, twin[1].running_mean)
    assert torch._C._len_torch_function_stack() == 0  # noqa: SLF001 - no mode left behind
    assert not torch_module._global_forward_pre_hooks  # noqa: SLF001 - all taken off
    graph = graph_of(model)
    assert [n.label for n in graph.nodes] == ["input", "0"]  # the last traced call's
    assert "mat1 and mat2" in graph.nodes[1].error


def test_a_statements_first_call_is_traced_and_its_repeats_are_not():
    from torch import nn

    from kernel.module_graph import GraphHooks, graph_of

    model = nn.Linear(2, 2)
    hooks = GraphHooks()
    hooks.hook(True)
    try:
        model(torch.randn(3, 2))
        first = graph_of(model)
        model(torch.randn(3, 2))  # the same shapes at once: not traced again
        assert graph_of(model) is first
        model(torch.randn(4, 2))  # a new shape (a short last batch): traced
        assert graph_of(model).edges[0].shape == (4, 2)
        hooks.new_statement()
        model(torch.randn(4, 2))  # the next statement's first call
        assert graph_of(model) is not first
    finally:
        hooks.hook(False)


def test_the_watch_traces_on_the_steps_its_forward_hook_is_on_only():
    from torch.nn.modules import module as torch_module

    from kernel.watch import TrainingWatch

    watch = TrainingWatch({})
    watch.install()
    try:
        assert len(torch_module._global_forward_pre_hooks) == 1  # noqa: SLF001
        watch._watch_forward(False)  # noqa: SLF001 - a lean step's: torch's fast path
        assert not torch_module._global_forward_pre_hooks  # noqa: SLF001
        assert not torch_module._global_forward_hooks  # noqa: SLF001
    finally:
        watch.uninstall()


def test_a_graph_past_its_cap_keeps_its_first_calls_and_says_so():
    from torch import nn

    from kernel.module_graph import GraphHooks, graph_of
    from protocol.module_graph_data import MAX_GRAPH_NODES

    model = nn.Sequential(*[nn.ReLU() for _ in range(MAX_GRAPH_NODES + 100)])
    hooks = GraphHooks()
    hooks.hook(True)
    try:
        model(torch.randn(2))
    finally:
        hooks.hook(False)
    graph = graph_of(model)
    assert graph.truncated
    assert len(graph.nodes) == MAX_GRAPH_NODES + 1  # the first calls, and the output
    assert [n.label for n in graph.nodes[1:4]] == ["0", "1", "2"]
