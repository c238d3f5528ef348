"""The autograd graph tab in Chinese: node explanations, "why is .grad None", node subtitles.

``kernel.explain.autograd_graph`` keeps English (``protocol.i18n.Filled`` texts, marked under
``Lesson``); the panel and the drawing translate them with the installed translation.
"""

from __future__ import annotations

import re

import pytest

from app.explain.autograd_layout import node_explanation
from kernel.explain.autograd_graph import build_graph, grad_facts
from tests.test_autograd import recipe_text, run_recipe
from tests.test_autograd_panel import node_id
from widgets.common.i18n_text import lesson_text
from widgets.shell.translators import install_translators

_CJK = re.compile(r"[\u4e00-\u9fff]")

RECIPE = recipe_text("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    doubled = x * 2
    total = doubled.sum()
""")


def test_the_core_keeps_english_and_the_translation_has_chinese(chinese):
    _, run = run_recipe(RECIPE)
    graph = build_graph(run.value("total"), run, "total")
    root = graph.nodes[graph.root]
    english = node_explanation(root)
    assert english == "The tensor whose graph is drawn; its grad_fn is where backward starts."
    assert lesson_text(english) == "正在绘制其计算图的张量；backward 从它的 grad_fn 开始。"
    why = grad_facts(run.value("doubled"), "doubled", run).why_no_grad
    assert why.startswith("doubled is not a leaf (it was computed by MulBackward0).")
    shown = lesson_text(why)
    assert "doubled 不是叶子张量" in shown and "MulBackward0" in shown
    assert "doubled.retain_grad()" in shown and "is not a leaf" not in shown


@pytest.mark.gui
def test_the_inspect_tab_explains_in_chinese(qtbot, chinese, autograd_panel):
    panel, doc, _ = autograd_panel(qtbot, RECIPE, "total")
    heading = panel.heading_text()
    assert "正在绘制其计算图的张量" in heading
    assert "The tensor whose graph is drawn" not in heading
    why = panel.facts()["why"]
    assert why.startswith("total 不是叶子张量") and "SumBackward0" in why

    accumulate = node_id(panel, "accumulate", "x")
    panel.inspect(accumulate)
    assert "AccumulateGrad 是 backward 到达 x 的终点" in panel.heading_text()
    items = panel.graph_view.node_items()
    assert "累加到 x.grad" in items[accumulate].toolTip()
    assert "标量" in items[panel.graph.root].toolTip()  # total is 0-D

    doc.select_name("x")
    doc.settle()
    panel.inspect(node_id(panel, "leaf", "x"))
    assert "叶子张量：用 requires_grad=True 直接创建" in panel.heading_text()


@pytest.mark.gui
def test_cut_and_saved_nodes_are_described_in_chinese(qtbot, chinese, autograd_panel):
    panel, _, _ = autograd_panel(qtbot, recipe_text("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        frozen = y.detach()
    """), "frozen")
    assert "frozen 是由 y 经过 detach() 得到的" in panel.facts()["why"]
    items = panel.graph_view.node_items()
    assert "被 detach() 截断" in items[panel.graph.root].toolTip()
    cut = node_id(panel, "cut", "y")
    assert "不在此计算图中" in items[cut].toolTip()
    panel.inspect(cut)
    assert "截断了计算图" in panel.heading_text()


@pytest.mark.gui
def test_recipe_names_are_never_translated(qtbot, chinese, autograd_panel):
    """A tensor named like a marked word (``scalar``, ``leaf``) keeps its name."""
    panel, _, _ = autograd_panel(qtbot, recipe_text("""
        scalar = torch.ones(2, requires_grad=True)
        leaf = (scalar * 2).sum()
    """), "leaf")
    items = panel.graph_view.node_items()
    assert items[panel.graph.root].toolTip().splitlines()[:2] == ["leaf", "标量"]
    named = node_id(panel, "leaf", "scalar")
    assert items[named].toolTip().splitlines()[0] == "scalar"
    panel.inspect(named)
    assert panel.heading_text().startswith("<b>scalar</b>")


@pytest.mark.gui
def test_english_again_after_switching_back(qtbot, chinese, autograd_panel):
    install_translators("en")
    panel, _, _ = autograd_panel(qtbot, RECIPE, "total")
    assert "The tensor whose graph is drawn" in panel.heading_text()
    assert not _CJK.search(panel.heading_text() + panel.facts()["why"])
