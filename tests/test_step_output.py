"""Each step shows its own output, and a module shows at least what ``print`` shows of it
(end-to-end: a real window and kernel; the texts are python's own, made here by torch)."""

from __future__ import annotations

from pathlib import Path

from torch import nn

from kernel.summary import MODULE_TEXT_LINES, summarize

NET = '''\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc2(self.fc1(x))


net = Net()
import math
print(net)
for i in range(3):
    print("step", i)
x = torch.ones(2)
'''


class Net(nn.Module):  # the recipe's, as python prints it
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)


def test_print_net_shows_its_text_on_its_step_and_net_shows_its_repr(qtbot, make_window,
                                                                      tmp_path: Path):
    window = make_window()
    path = tmp_path / "net.py"
    path.write_text(NET, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.settle()
    document, viewer = window.document, window.viewer
    labels = [s.label for s in document.recipe.steps]
    printed = str(Net())

    def step(start: str) -> int:
        return next(i for i, label in enumerate(labels) if label.startswith(start))

    document.select(step("net"))
    assert "Net (" in viewer.status_text()  # the one line, and now the whole module
    assert printed in viewer.step_text()

    document.select(step("print"))
    assert printed + "\n" in viewer.step_text()
    assert "bound no new names" not in viewer.status_text()

    document.select(step("for"))
    text = viewer.step_text()
    assert "step 0\nstep 1\nstep 2\n" in text and printed not in text  # its own only
    for it in (1, 0, 2):  # and each iteration's own, as the iteration is picked
        viewer.iterations.pick(it)
        text = viewer.step_text()
        assert text.startswith(f"In iteration {it} it printed:\nstep {it}\n\n")
        assert "The whole loop printed:\nstep 0\nstep 1\nstep 2\n" in text

    document.select(step("import math"))  # a module is bound, and said so
    assert viewer.status_text().startswith("math: ")
    assert "bound no new names" not in viewer.status_text()

    document.select(step("x"))  # printed nothing: no output shown
    assert not viewer.step_text_visible()
    # the Output pane keeps the whole run
    assert document.output == printed + "\nstep 0\nstep 1\nstep 2\n"


def test_a_module_summary_carries_its_repr_bounded_in_lines():
    small = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    assert summarize(small)["text"] == repr(small)
    big = nn.Sequential(*[nn.Linear(1, 1) for _ in range(400)])
    summary, python = summarize(big), repr(big).splitlines()
    assert summary["text"].splitlines() == python[:MODULE_TEXT_LINES]
    assert summary["text_more"] == len(python) - MODULE_TEXT_LINES  # said, never hidden
