"""Docs at hand: F1 shows the picked op's explanation, signature, example and documentation link."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.catalog import CATALOG
from app.recipe.document import Document
from widgets.recipe.docs_panel import DocsPanel, spec_for_step

pytestmark = pytest.mark.gui


@pytest.fixture
def window(window, qtbot):
    """The shared window, active: F1 and the other shortcuts go to the active window."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def test_f1_shows_the_op_picked_in_the_op_panel(window, qtbot):
    tril = CATALOG.get("torch.tril")
    window.docks["builder"].raise_()
    window.ops.set_op("tril")
    window.docks["ops"].raise_()
    window.ops.op_tree.setFocus()
    qtbot.waitUntil(window.ops.op_tree.hasFocus)
    qtbot.keyClick(window.ops.op_tree, Qt.Key.Key_F1)
    assert window.docks["docs"].isVisible()
    assert window.docs_panel.spec is tril
    text = window.docs_panel.text()
    assert tril.summary in " ".join(text.split())
    assert tril.doc_url in text
    assert "torch.tril(input, diagonal=0)" in text  # the signature
    assert tril.example in text
    html = window.docs_panel.browser.toHtml()
    assert f'href="{tril.doc_url}"' in html


def test_f1_in_the_builder_shows_the_creation_function(window, qtbot):
    window.builder.set_function("linspace")
    window.builder.function_combo.setFocus()
    qtbot.waitUntil(window.builder.function_combo.hasFocus)
    qtbot.keyClick(window.builder.function_combo, Qt.Key.Key_F1)
    assert window.docs_panel.spec is CATALOG.get("torch.linspace")


def test_selecting_a_step_shows_its_op(window):
    window.document.select_name("noise")
    assert window.docs_panel.spec is CATALOG.get("torch.randn")
    assert "Random numbers" in window.docs_panel.text()


def test_operators_and_methods_find_their_entry():
    from app.recipe.reader import read_recipe

    recipe = read_recipe("import torch\nx = torch.ones(2)\ny = x * 2\nz = x.view(2, 1)\n"
                         "w = -x\nv = x.T\nu = x - 1\n")
    specs = [spec_for_step(s) for s in recipe.steps]
    assert specs[0] is CATALOG.get("torch.ones")
    assert specs[1] is not None and specs[1].operator == "*"
    assert specs[2] is CATALOG.get("Tensor.view")
    assert specs[3] is CATALOG.get("torch.neg")  # -x: negation, not subtraction
    assert specs[4] is None  # an attribute, not an op
    assert specs[5] is not None and specs[5].operator == "-"


def test_the_panel_shows_every_catalogue_entry_without_error(qtbot):
    panel = DocsPanel(Document())
    qtbot.addWidget(panel)
    for spec in CATALOG.specs:
        panel.show_spec(spec)
        assert spec.doc_url in panel.text()
    panel.show_spec(None)
    assert panel.hint.isVisibleTo(panel)
