"""The steps list: rows changed by a run are laid out with it, in the same frame."""

from __future__ import annotations

import pytest


@pytest.mark.gui
def test_a_row_a_run_changed_is_laid_out_at_once_not_on_the_lists_own_timer(qtbot):
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from widgets.recipe.steps_panel import StepsPanel

    doc = Document()
    doc.recipe.restore(read_recipe("import torch\nx = torch.zeros(2)\n").snapshot())
    steps = StepsPanel(doc, None)
    qtbot.addWidget(steps)
    steps.resize(220, 300)
    steps.show()
    qtbot.waitExposed(steps)
    qtbot.wait(50)  # the first layout, on the list's timer
    bar = steps.list.horizontalScrollBar()
    assert bar.maximum() == 0  # the row fits
    # an edit makes the row far wider than the list: its run (no kernel here: every step
    # waits for one) shows at once, and so does the row's new width, before any timer
    doc.recipe.restore(read_recipe("import torch\nx = torch.full((2,), 1234567890123456789."
                                   "0, dtype=torch.float64, requires_grad=False)\n")
                       .snapshot())
    assert "dtype=torch.float64" in steps.list.item(steps.list.count() - 1).text()
    assert bar.maximum() > 0
