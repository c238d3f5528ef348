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


@pytest.mark.gui
def test_the_selected_step_stays_in_view_when_the_list_grows_smaller(qtbot):
    """Presenter mode (or a dock dragged smaller) shrinks the list: the step selected,
    seen before, is still seen after."""
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from widgets.recipe.steps_panel import StepsPanel

    doc = Document()
    text = "import torch\n" + "".join(f"x{i} = torch.zeros({i + 1})\n" for i in range(30))
    doc.recipe.restore(read_recipe(text).snapshot())
    steps = StepsPanel(doc, None)
    qtbot.addWidget(steps)
    steps.resize(260, 700)
    steps.show()
    qtbot.waitExposed(steps)
    doc.select(20)
    view = steps.list
    row = view.item(20)

    def seen() -> bool:
        return view.viewport().rect().contains(view.visualItemRect(row))

    qtbot.waitUntil(seen)
    steps.resize(260, 120)  # room for a few rows: row 20 is far below them unless scrolled
    qtbot.waitUntil(lambda: view.viewport().height() < 100)
    assert seen()
    view.scrollToTop()  # scrolled away by the user: a resize does not pull it back
    steps.resize(260, 110)
    qtbot.wait(20)
    assert not seen()

