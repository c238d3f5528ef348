"""Widget tests of the autograd explorer: click nodes of the drawn graph, check the facts shown.

The six cases of the issue (A-F) as the panel shows them; expected values come from torch
or from arithmetic a person can check.
"""

from __future__ import annotations

import pytest
import torch
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent

from app.recipe.model import write_step
from tests.test_autograd import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_E,
    CASE_F,
    MLP_PARAMS,
    mlp_in_torch,
    recipe_text,
)
from widgets.autograd.panel import AutogradPanel

pytestmark = pytest.mark.gui


def click_node(qtbot, panel: AutogradPanel, node_id: str) -> None:
    """Click a drawn node with the mouse, scrolling it into view first."""
    view = panel.graph_view
    view.centerOn(view.node_items()[node_id])
    with qtbot.waitSignal(view.node_clicked) as blocker:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=view.node_center(node_id).toPoint())
    assert blocker.args == [node_id]
    panel.settle()


def node_id(panel: AutogradPanel, kind: str, name: str | None = None, label: str | None = None
            ) -> str:
    [found] = [n.id for n in panel.graph.nodes.values() if n.kind == kind
               and (name is None or name in n.names) and (label is None or n.label == label)]
    return found


def test_case_a_click_the_sum_and_the_leaf(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, CASE_A, "y")
    add = node_id(panel, "grad_fn", label="AddBackward0")
    click_node(qtbot, panel, add)
    facts = panel.facts()
    assert facts["grad_fn"] == "AddBackward0" and facts["is_leaf"] == "False"
    assert facts["requires_grad"] == "True"
    assert "AddBackward0" in panel.heading_text()
    click_node(qtbot, panel, node_id(panel, "leaf", "x"))
    assert panel.inspected_name == "x"
    assert panel.facts()["is_leaf"] == "True" and panel.facts()["grad_fn"] == "None"
    assert "backward() has not run yet" in panel.facts()["why"]


def test_case_b_x_grad_is_8_and_y_is_not_drawn(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, CASE_B, "z")
    assert all("y" not in n.names for n in panel.graph.nodes.values())
    assert all("y" not in item.node.names for item in panel.graph_view.node_items().values())
    click_node(qtbot, panel, node_id(panel, "leaf", "x"))
    assert panel.facts()[".grad"] == "tensor([8.])"
    assert panel.facts()["why"] == ""


def test_case_c_retain_grad_toggle(qtbot, autograd_panel):
    panel, doc, stack = autograd_panel(qtbot, CASE_C, "y")
    click_node(qtbot, panel, node_id(panel, "tensor", "y"))
    facts = panel.facts()
    assert facts[".grad"] == "tensor([1.])" and facts["retains_grad"] == "True"
    click_node(qtbot, panel, node_id(panel, "leaf", "x"))
    assert panel.facts()[".grad"] == "tensor([2.])"

    click_node(qtbot, panel, node_id(panel, "tensor", "y"))
    box = panel._retain_box
    assert box.isEnabled() and box.isChecked()
    with qtbot.waitSignal(doc.evaluated):
        box.click()  # removes the step y.retain_grad()
        doc.settle()
    assert "y.retain_grad()" not in [write_step(s) for s in doc.recipe.steps]
    assert panel.facts()[".grad"] == "None"
    assert "y.retain_grad()" in panel.facts()["why"]
    stack.undo()
    doc.settle()
    assert panel.facts()[".grad"] == "tensor([1.])" and box.isChecked()


def test_case_d_backward_twice_doubles_then_fails_without_retain_graph(qtbot, autograd_panel):
    panel, doc, stack = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
    """), "y")
    panel._retain_graph_box.setChecked(True)
    doc.settle()
    panel._backward_button.click()
    doc.settle()
    panel._backward_button.click()
    doc.settle()
    assert [write_step(s) for s in doc.recipe.steps[2:]] == [
        "y.backward(retain_graph=True)", "y.backward(retain_graph=True)"]
    click_node(qtbot, panel, node_id(panel, "leaf", "x"))
    assert panel.facts()[".grad"] == "tensor([4., 8., 12.])"  # twice 2x
    assert panel.error_text() == ""

    stack.undo()
    doc.settle()
    stack.undo()
    doc.settle()
    panel._retain_graph_box.setChecked(False)
    doc.settle()
    panel._backward_button.click()
    doc.settle()
    panel._backward_button.click()
    doc.settle()
    error = panel.error_text()
    assert "backward through the graph a second time" in error  # torch's message
    assert "retain_graph=True" in error and "Fix" in error
    assert doc.run.results[-1].status == "error"


def test_case_e_detach_cut_is_drawn_and_explained(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, CASE_E, "z")
    leaves = [item.node for item in panel.graph_view.node_items().values()
              if item.node.kind == "leaf"]
    assert [n.names for n in leaves] == [("d",)]
    cut = node_id(panel, "cut", "y")
    click_node(qtbot, panel, cut)
    assert "cut" in panel.heading_text()
    click_node(qtbot, panel, node_id(panel, "leaf", "d"))
    assert panel.facts()[".grad"] == "tensor([3., 3.])"
    doc.select_name("x")
    doc.settle()
    assert panel.inspected_name == "x"
    assert "does not reach x" in panel.facts()["why"]


def test_case_f_every_parameter_is_drawn_as_a_leaf(qtbot, autograd_panel, tmp_path):
    panel, doc, _ = autograd_panel(qtbot, CASE_F, "loss")
    drawn = {item.node.names[0] for item in panel.graph_view.node_items().values()
             if item.node.kind == "leaf"}
    assert drawn == set(MLP_PARAMS)
    expected = mlp_in_torch()
    click_node(qtbot, panel, node_id(panel, "leaf", "W1"))
    assert panel.facts()[".grad"] == "tensor [4, 8]"
    model = panel._grad_model
    torch.testing.assert_close(torch.from_numpy(model.values.copy()), expected["W1"])
    click_node(qtbot, panel, node_id(panel, "accumulate", "b3"))
    assert panel.inspected_name == "b3" and "AccumulateGrad" in panel.heading_text()

    with qtbot.waitSignal(doc.evaluated):
        panel._zero_button.click()
        doc.settle()
    assert [write_step(s) for s in doc.recipe.steps[-6:]] == [
        f"{p}.grad.zero_()" for p in MLP_PARAMS]
    for p in ("W1", "b3"):  # .grad as the kernel holds it now
        click_node(qtbot, panel, node_id(panel, "leaf", p))
        assert not panel._grad_model.values.any(), p
    assert not panel._zero_button.isEnabled()


def test_non_scalar_backward_asks_for_a_gradient(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        z = x * x * 3
    """), "z")
    assert not panel._gradient_box.isHidden()
    assert panel._gradient_box.currentText() == "torch.ones_like(z)"
    assert "2 elements" in panel._gradient_why.text()
    panel._backward_button.click()
    doc.settle()
    assert write_step(doc.recipe.steps[-1]) == "z.backward(torch.ones_like(z))"
    click_node(qtbot, panel, node_id(panel, "leaf", "x"))
    assert panel.facts()[".grad"] == "tensor([6., 12.])"  # d(3x²)/dx = 6x


def test_jacobian_and_hessian_are_shown_as_matrices(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x ** 2
        s = (x ** 3).sum()
    """), "y")
    assert panel._input_box.currentText() == "x"
    panel._jacobian_button.click()
    doc.settle()
    values = torch.from_numpy(panel._matrix_model.values.copy())
    torch.testing.assert_close(values, torch.diag(torch.tensor([2.0, 4.0, 6.0])))
    assert "d y[i] / d x[j]" in panel._matrix_caption.text()
    panel._hessian_button.click()  # y has 3 elements: explained, not crashed on
    doc.settle()
    assert "one-element output" in panel._matrix_caption.text()
    doc.select_name("s")
    doc.settle()
    panel._hessian_button.click()
    doc.settle()
    values = torch.from_numpy(panel._matrix_model.values.copy())
    torch.testing.assert_close(values, torch.diag(torch.tensor([6.0, 12.0, 18.0])))


def test_saved_tensors_toggle_and_wheel_zoom(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, recipe_text("""
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
    """), "c")
    assert panel.graph.of_kind("saved") == []
    panel._saved_box.setChecked(True)
    doc.settle()
    saved = [item.node for item in panel.graph_view.node_items().values()
             if item.node.kind == "saved"]
    assert sorted(n.note for n in saved) == ["= a", "= b"]
    view = panel.graph_view
    before = view.transform().m11()
    center = QPointF(view.viewport().rect().center())
    event = QWheelEvent(center, view.mapToGlobal(center), QPoint(), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(event)
    assert view.transform().m11() == pytest.approx(before * 1.15 ** 2)
    doc.evaluate()  # a new run of the same tensor keeps the zoom
    doc.settle()
    assert view.transform().m11() == pytest.approx(before * 1.15 ** 2)


def test_no_tensor_selected_and_a_tensor_without_grad(qtbot, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, CASE_B, "z")
    doc.select(None)
    doc.settle()
    assert "Select a step" in panel.status_text()
    assert panel.graph.nodes == {}
    assert not panel._backward_button.isEnabled()
    doc.select_name("y")
    doc.settle()
    assert "does not require grad" in panel.status_text()
    assert "constant" in panel.facts()["why"]
    assert not panel._backward_button.isEnabled()


DEEP_MLP = recipe_text("""
    torch.manual_seed(0)
    x = torch.randn(5, 4)
    Ws = [torch.randn(4, 4, requires_grad=True) for _ in range(6)]
    bs = [torch.zeros(4, requires_grad=True) for _ in range(6)]
    h = x
    for W, b in zip(Ws, bs):
        h = torch.tanh(h @ W + b)
    loss = (h ** 2).mean()
""")


def test_fit_shows_every_node_of_a_forty_node_graph(qtbot, autograd_panel):
    from PySide6.QtWidgets import QPushButton

    panel, _, _ = autograd_panel(qtbot, DEEP_MLP, "loss")
    view = panel.graph_view
    items = view.node_items()
    assert len(items) >= 35  # 6 layers: mm, add, tanh and two leaves each, and the loss

    def outside() -> list[str]:
        shown = view.viewport().rect()
        return [node for node, item in items.items()
                if not shown.contains(view.mapFromScene(item.sceneBoundingRect())
                                      .boundingRect())]

    assert outside()  # drawn at a readable size, the graph does not fit
    [fit] = [b for b in panel.findChildren(QPushButton) if b.text() == "Fit"]
    fit.click()
    assert outside() == []
    view.zoom(4.0)  # zoomed in, and Fit again
    fit.click()
    assert outside() == []
