"""``tensor-lab run --json`` describes every ``nn.Module`` the recipe binds (``"modules"``,
``kernel.modules``): its tree, each module's own parameters and buffers by shape, and
the tensor shapes of its last call.

Core tier: the real command, a kernel process each, beside the same recipe under python
with a forward hook on each of its modules (``_HOOKED``): the report must be what torch
itself says there.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.test_cli import tensor_lab

#: The notes' LeNet (``tests/seeds``), called on one 32x32 image.
LENET = (Path(__file__).parent / "seeds" / "002_11_define_net.py").read_text(
    encoding="utf-8")
LENET_CALL = "input = torch.randn(1, 1, 32, 32)\nout = net(input)\n"

#: Run under python after the recipe's modules are made: a hook on each of them.
_HOOKS = '''
import builtins as _builtins
import json as _json
import torch as _torch
_saved = dict(vars(_builtins))
_calls = {}
def _flat(value, isinstance=isinstance, list=list, tuple=tuple):  # (a recipe may patch them)
    if isinstance(value, _torch.Tensor):
        return [list(value.shape)]
    if isinstance(value, (tuple, list)):
        return [shape for item in value for shape in _flat(item)]
    return []
def _hook(module, args, output, id=id):
    _calls[id(module)] = {"in": _flat(args), "out": _flat(output)}
def _walk(module):  # (not ``modules()``: a module may be unhashable)
    module.register_forward_hook(_hook)
    for _, child in module.named_children():
        _walk(child)
for _value in list(globals().values()):
    if isinstance(_value, _torch.nn.Module):
        _walk(_value)
'''
#: Run under python at the end: each module the recipe binds, as torch describes it.
_DUMP = '''
vars(_builtins).update(_saved)
def _described(module):
    return {"type": type(module).__name__,
            "parameters": {n: list(p.shape) for n, p in module.named_parameters(recurse=False)},
            "buffers": {n: list(b.shape) for n, b in module.named_buffers(recurse=False)},
            "children": {n: _described(c) for n, c in module.named_children()},
            "last_call": _calls.get(id(module))}
print("MODULES " + _json.dumps({k: _described(v) for k, v in list(globals().items())
                                if not k.startswith("_") and isinstance(v, _torch.nn.Module)}))
'''


def _compare(tmp_path: Path, build: str, calls: str, fails: bool = False) -> dict:
    """The report's ``modules`` of ``build + calls``, checked against torch's own hooks
    under python (``calls`` run after the hooks are on, up to its error)."""
    path = tmp_path / "recipe.py"
    path.write_text(build + calls, encoding="utf-8")
    lab = tensor_lab("run", str(path), "--json")
    assert lab.returncode == (1 if fails else 0), lab.stderr
    report = json.loads(lab.stdout)
    assert bool(report["errors"]) == fails
    hooked = tmp_path / "hooked.py"
    hooked.write_text(build + _HOOKS + "try:\n" + textwrap.indent(calls, "    ")
                      + "\nexcept Exception:\n    pass\n" + _DUMP, encoding="utf-8")
    python = subprocess.run([sys.executable, str(hooked)], capture_output=True, text=True,
                            timeout=120)
    assert python.returncode == 0, python.stderr
    printed, want = python.stdout.rsplit("MODULES ", 1)
    assert report["stdout"] == printed  # the recipe ran as python runs it
    assert report["modules"] == json.loads(want)
    return report["modules"]


def test_lenets_tree_and_last_calls_are_what_torchs_hooks_record(tmp_path):
    net = _compare(tmp_path, LENET, LENET_CALL)["net"]
    assert list(net["children"]) == ["conv1", "conv2", "fc1", "fc2", "fc3"]
    assert net["children"]["conv1"]["parameters"] == {"weight": [6, 1, 5, 5], "bias": [6]}
    assert net["children"]["conv1"]["last_call"] == {"in": [[1, 1, 32, 32]],
                                                     "out": [[1, 6, 28, 28]]}
    assert all(c["last_call"] is not None for c in net["children"].values())


CONTAINERS = '''import torch
import torch.nn as nn


class Blocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 8), nn.Linear(8, 8)])
        self.heads = nn.ModuleDict({"score": nn.Linear(8, 1), "label": nn.Linear(8, 3)})
        self.register_buffer("scale", torch.full((8,), 0.5))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        x = x * self.scale
        return self.heads["score"](x), [self.heads["label"](x)]


model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), Blocks())
'''


def test_a_sequential_with_a_module_list_and_dict_is_what_torchs_hooks_record(tmp_path):
    model = _compare(tmp_path, CONTAINERS, "x = torch.randn(5, 3)\nscore, label = model(x)\n")
    blocks = model["model"]["children"]["2"]
    assert blocks["buffers"] == {"scale": [8]} and blocks["parameters"] == {}
    assert list(blocks["children"]["heads"]["children"]) == ["score", "label"]
    assert blocks["children"]["layers"]["last_call"] is None  # a ModuleList is not called
    assert blocks["last_call"] == {"in": [[5, 4]], "out": [[5, 1], [5, 3]]}
    assert set(model["model"]["children"]["1"]["buffers"]) == {
        "running_mean", "running_var", "num_batches_tracked"}


ODD_CALLS = '''import torch
import torch.nn as nn


class Pair(nn.Module):
    def forward(self, x, scale=1.0, *, shift=0):
        return x * scale + shift, (x.sum(0), [x.mean(), "not a tensor"])


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3))

    def forward(self, k, x=None):
        return x * self.w * k


pair = Pair()
same = pair
by_keyword = Scale()
by_position = Scale()
unused = nn.Linear(2, 2)
'''
ODD_CALLED = '''a, b = pair(torch.ones(4, 3), 2.0, shift=3)
c = by_keyword(x=torch.ones(2, 3), k=2)
d = by_position(3, torch.ones(1, 3))
'''


def test_odd_calls_keep_only_their_tensors_shapes(tmp_path):
    modules = _compare(tmp_path, ODD_CALLS, ODD_CALLED)
    assert modules["pair"] == modules["same"]  # one module, two names
    assert modules["pair"]["last_call"] == {"in": [[4, 3]], "out": [[4, 3], [3], []]}
    assert modules["by_keyword"]["last_call"] == {"in": [], "out": [[2, 3]]}
    assert modules["by_position"]["last_call"] == {"in": [[1, 3]], "out": [[1, 3]]}
    assert modules["unused"]["last_call"] is None


BROKEN = '''import torch
import torch.nn as nn


class Broken(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(4, 5)
        self.second = nn.Linear(4, 2)

    def forward(self, x):
        return self.second(self.first(x))


net = Broken()
'''


def test_a_forward_that_raises_keeps_the_calls_before_the_error(tmp_path):
    net = _compare(tmp_path, BROKEN, "out = net(torch.ones(3, 4))\n", fails=True)["net"]
    assert net["children"]["first"]["last_call"] == {"in": [[3, 4]], "out": [[3, 5]]}
    assert net["children"]["second"]["last_call"] is None and net["last_call"] is None


HOSTILE = '''import builtins
import torch
import torch.nn as nn


class Odd(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Linear(2, 3)

    def __getattr__(self, name):
        raise RuntimeError("no attribute here: " + name)

    def __repr__(self):
        raise RuntimeError("no repr")

    def __eq__(self, other):
        return True

    __hash__ = None

    def forward(self, x):
        return self._modules["inner"](x)


odd = Odd()
'''
#: Builtins a recipe may patch and still run under python (and in a kernel: ``tuple`` and
#: ``next`` end it, in ``dataclasses`` and ``contextlib``, before and after ``modules``).
PATCHED = """[setattr(builtins, name, None) for name in ('int', 'str', 'bool', 'len',
    'isinstance', 'type', 'id', 'hash', 'dict', 'repr')]
odd(torch.ones(1, 2))
"""


def test_an_odd_module_class_and_patched_builtins_do_not_break_the_report(tmp_path):
    odd = _compare(tmp_path, HOSTILE, PATCHED)["odd"]
    assert odd["last_call"] == {"in": [[1, 2]], "out": [[1, 3]]}
    assert odd["children"]["inner"]["parameters"] == {"weight": [3, 2], "bias": [3]}


LOOP = '''import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
'''
#: Batches of 4, 4 and 2 rows: the last step's call is the short one.
LOOP_STEPS = '''for batch in torch.randn(10, 2).split(4):
    optimizer.zero_grad()
    loss = model(batch).pow(2).mean()
    loss.backward()
    optimizer.step()
'''


def test_in_a_training_loop_the_last_call_is_the_last_steps(tmp_path):
    model = _compare(tmp_path, LOOP, LOOP_STEPS)["model"]
    assert model["last_call"] == {"in": [[2, 2]], "out": [[2, 1]]}
