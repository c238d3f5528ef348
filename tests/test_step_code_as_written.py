"""A step's code, where a view shows it or the clipboard takes it, is the recipe's own
text: ``torch.long`` as written, never the writer's ``torch.int64`` (end to end: a real
window and kernel)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

TEXT = """\
import torch
y = torch.zeros(2, 3, dtype=torch.long)  # 长整数
z = torch.ones(
    2,
    3)
a = 1; b = torch.ones(2)
"""


def test_the_steps_list_the_viewer_and_copy_step_show_the_code_as_written(make_window,
                                                                          tmp_path: Path):
    window = make_window()
    path = tmp_path / "long.py"
    path.write_text(TEXT, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    window.settle()
    document = window.document
    rows = [window.steps.list.item(i).text()[3:] for i in range(window.steps.list.count())]
    labels = [s.label for s in document.recipe.steps]
    y, z, b = labels.index("y"), labels.index("z"), labels.index("b")
    assert rows[y] == "y = torch.zeros(2, 3, dtype=torch.long)"  # the comment is not code
    assert rows[z] == "z = torch.ones( 2, 3)"  # its lines, on one row
    assert rows[b] == "b = torch.ones(2)"  # shares its line: the writer's form, the same

    document.select(y)
    assert window.viewer.code_text() == "y = torch.zeros(2, 3, dtype=torch.long)"
    assert window.exports.copy_step_code()
    assert QApplication.clipboard().text() == "y = torch.zeros(2, 3, dtype=torch.long)\n"
    document.select(z)
    assert window.viewer.code_text() == "z = torch.ones(\n    2,\n    3)"
