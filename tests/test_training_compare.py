"""What differs between runs (``app.training.compare``): the knobs whose literals differ,
by name, and any other changed line by its text."""

from __future__ import annotations

from app.training.compare import Difference, differences

BASE = """\
import torch
import torch.nn as nn

device = "cpu"
steps = 100
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
nn.init.xavier_normal_(model[0].weight)
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
for step in range(steps):
    loss = model(torch.randn(4, 2)).pow(2).mean()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
"""


def test_a_changed_learning_rate_is_one_row_by_name():
    other = BASE.replace("lr=0.3", "lr=0.03")
    assert differences([BASE, other]) == [Difference("lr", ("0.3", "0.03"))]
    assert differences([BASE, BASE]) == [] and differences([BASE]) == []


def test_other_changes_are_rows_by_line_and_every_run_has_a_column():
    normal = BASE.replace("nn.init.xavier_normal_(model[0].weight)",
                          "nn.init.normal_(model[0].weight, std=0.01)")
    no_clip = BASE.replace("    nn.utils.clip_grad_norm_(model.parameters(), 0.5)\n", "")
    rows = differences([BASE, normal, no_clip.replace("steps = 100", "steps = 50")])
    assert rows[0] == Difference("steps", ("100", "100", "50"))
    assert rows[1] == Difference("clip", ("0.5", "0.5", ""))
    by_label = {r.label: r.values for r in rows}
    assert by_label["line 7"] == ("nn.init.xavier_normal_(model[0].weight)",
                                  "nn.init.normal_(model[0].weight, std=0.01)", "")
    assert len(rows) == 3  # the deleted clip line is the clip row; steps is its own row
