"""A training recipe's knobs, found in its text (``app.training.fields``): an optimizer's
``lr``, ``momentum`` and ``weight_decay``, the clip limit, ``device``, and top-level number
assignments; rewriting one changes that literal and nothing else."""

from __future__ import annotations

import ast

from app.training.fields import fields, with_value

LOOP = '''\
"""Ünïcode lesson: columns count characters, not bytes."""
import torch
import torch.nn as nn

device = "cpu"  # where it trains
steps = 100
width = 32
model = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)  # é
for step in range(steps):
    loss = model(torch.randn(8, 2, device=device)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
'''


def test_the_knobs_are_found_where_they_are_written():
    found = fields(LOOP)
    assert {name: f.value for name, f in found.items()} == {
        "device": "cpu", "steps": 100, "width": 32, "lr": 0.3, "momentum": 0.9, "clip": 0.5}
    lines = LOOP.splitlines()
    for f in found.values():
        assert LOOP[f.start:f.end] in lines[f.line - 1]
        assert ast.literal_eval(LOOP[f.start:f.end]) == f.value


def test_a_rewrite_changes_that_literal_only():
    found = fields(LOOP)
    new = with_value(LOOP, found["lr"], 0.03)
    assert new == LOOP.replace("lr=0.3,", "lr=0.03,")
    new = with_value(new, fields(new)["device"], "cuda:0")
    assert new == LOOP.replace("lr=0.3,", "lr=0.03,").replace('device = "cpu"',
                                                             'device = "cuda:0"')
    assert fields(new)["clip"].value == 0.5


def test_hand_written_forms_and_what_is_not_a_field():
    text = ("import torch\nfrom torch import optim\nnet = torch.nn.Linear(2, 1)\n"
            "device = torch.device('cuda:1')\nlr = 1e-3\n"
            "opt = optim.Adam(net.parameters(), 0.01, weight_decay=-0.0)\n"
            "torch.nn.utils.clip_grad_value_(net.parameters(), clip_value=2)\n"
            "name = 'x'\nsize = (2, 3)\n")
    found = fields(text)
    assert {name: f.value for name, f in found.items()} == {
        "device": "cuda:1", "lr": 1e-3, "weight_decay": -0.0, "clip": 2}
    # the top-level `lr = 1e-3` comes first: an optimizer's own lr is the second
    assert found["lr"].line == 5
    assert fields("def broken(:\n") == {}


def test_a_page_break_line_does_not_move_the_fields():
    # A form feed (a page break) ends a line for str.splitlines, not for Python: the
    # fields were found one line off, and the rewrite landed in the comment above.
    source = "\x0c\n# 学习率\nsteps = 100\r\nlr = 0.1\n"
    found = fields(source)
    assert with_value(source, found["steps"], 200) == "\x0c\n# 学习率\nsteps = 200\r\nlr = 0.1\n"
    assert with_value(source, found["lr"], 0.5) == "\x0c\n# 学习率\nsteps = 100\r\nlr = 0.5\n"


def test_a_rewrite_writes_python_for_any_number():
    # repr(float("inf")) is inf: a name, not a number
    source = "steps = 100\nlr = 0.1\nclip = 1.0\n"
    found = fields(source)
    assert with_value(source, found["clip"], float("inf")) == \
        'steps = 100\nlr = 0.1\nclip = float("inf")\n'
    assert with_value(source, found["lr"], -0.5) == "steps = 100\nlr = -0.5\nclip = 1.0\n"
