"""The Ops panel offers only the tensors the recipe's run made: never a module, nor a
name whose step has not run (end-to-end, the main window)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui

MODEL = ("import torch\nimport torch.nn as nn\n\n"
         "x = torch.randn(2, 3, 4)\ny = torch.zeros(2, 3, 4, dtype=torch.long)\n"
         "model = nn.Linear(4, 4)\nout = model(x)\n")


def offered(panel) -> list[str]:
    return [panel.input_combo.itemText(i) for i in range(panel.input_combo.count())]


def open_recipe(make_window, tmp_path, text: str):
    window = make_window()
    path = tmp_path / "recipe.py"
    path.write_text(text, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    return window


def test_gather_is_never_offered_on_a_module_while_the_run_is_on_its_way(make_window,
                                                                          tmp_path):
    window = open_recipe(make_window, tmp_path, MODEL)
    ops, labels = window.ops, [s.label for s in window.document.recipe.steps]
    window.document.select(labels.index("model"))  # before the kernel has said a word
    ops.set_op("gather")
    assert "model" not in offered(ops)
    assert "model" not in ops.preview.text()
    window.settle()  # the run says: x and y are tensors, model an nn.Linear
    assert offered(ops) == ["x", "y"]
    assert ops.preview.text() == "gather = torch.gather(y, 0, y)"


def test_a_module_after_a_failed_step_is_not_offered_as_a_tensor(make_window, tmp_path):
    window = open_recipe(make_window, tmp_path, MODEL.replace(
        "model =", "bad = torch.ones(2) @ torch.ones(3)\nmodel ="))
    window.settle()
    ops, labels = window.ops, [s.label for s in window.document.recipe.steps]
    assert window.document.run.results[labels.index("model")].status == "skipped"
    window.document.select(labels.index("model"))
    ops.set_op("gather")
    assert offered(ops) == ["x", "y"]  # made by the run; bad failed, model never ran
    assert "model" not in ops.preview.text()


def test_the_input_chosen_goes_when_the_run_says_it_holds_no_tensor(make_window, tmp_path):
    window = open_recipe(make_window, tmp_path, MODEL)
    window.settle()
    ops, labels = window.ops, [s.label for s in window.document.recipe.steps]
    window.document.select(labels.index("y"))
    ops.set_op("gather")
    ops.set_input("x")
    assert ops.preview.text() == "gather = torch.gather(x, 0, y)"
    window.code.editor.setPlainText(MODEL.replace("randn(2, 3, 4)", "nn.Linear(4, 4)")
                                    .replace("out = model(x)\n", ""))
    window.code.commit()  # as the code pane does after the last key
    window.settle()  # now x is an nn.Linear, as the run says
    assert offered(ops) == ["y"]
    assert ops.preview.text() == "gather = torch.gather(y, 0, y)"


def test_a_modules_float_is_not_edited_as_the_tensor_op_float(make_window, tmp_path):
    window = open_recipe(make_window, tmp_path, MODEL + "half = model.float()\n")
    ops, labels = window.ops, [s.label for s in window.document.recipe.steps]
    window.document.select(labels.index("half"))  # before the run: its text reads as x.float()
    window.settle()  # the run says model is an nn.Linear: Module.float, no tensor op
    assert ops.editing is None
    assert offered(ops) == ["x", "y"]
    assert "model" not in ops.preview.text() and "Changing" not in ops.mode_label.text()
    window.document.select(labels.index("y"))
    window.document.select(labels.index("half"))  # selected again, after the run
    assert ops.editing is None and offered(ops) == ["x", "y"]
    assert not ops.mode_button.isVisible()  # no "Edit half": it is no op on a tensor
