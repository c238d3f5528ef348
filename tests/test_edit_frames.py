"""An op edit repaints the window once: every view that its results change is laid out
in the take that brings them, so the frame after it is the last (the op re-evaluation
bench times an edit until then). A list's or a header's own delayed layout, left to its
timer, painted a second frame after it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject

pytestmark = pytest.mark.gui


class _Frames(QObject):
    """The window's frames (its repaints) once an edit's results are in."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window, self.count, self.results_in = window, 0, False
        window.installEventFilter(self)
        window.document.evaluated.connect(self._on_model_evaluated)

    def _on_model_evaluated(self, _run) -> None:
        self.results_in = True

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.UpdateRequest and obj is self.window \
                and self.results_in:
            self.count += 1
        return False


# 400x400: the viewer shows a heatmap (the steps list's row is what changes besides);
# 40x40: the grid, whose index headers get new sections
@pytest.mark.parametrize("side", [400, 40])
def test_an_op_edit_repaints_the_window_once(qtbot, make_window, tmp_path, side):
    path = tmp_path / "tril.py"
    path.write_text(f"import torch\nx = torch.rand({side}, {side})\n"
                    "y = torch.tril(x, diagonal=0)\n", encoding="utf-8")
    window = make_window(str(path))
    window.document.select_name("y")
    window.docks["ops"].raise_()  # where the diagonal is edited
    qtbot.wait(100)
    diagonal = window.ops.form.editor("diagonal")
    diagonal.setValue(1)  # (the first edit's views are built: then the edit measured)
    window.settle()
    qtbot.wait(100)
    frames = _Frames(window)
    diagonal.setValue(2)
    window.settle()
    rows = window.steps.list
    assert "diagonal=2" in rows.item(rows.count() - 1).text()
    qtbot.wait(100)  # the frame, and any timer after it
    assert frames.count == 1
