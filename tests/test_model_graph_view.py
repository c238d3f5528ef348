"""The Model graph's drawing (``widgets.model.graph_view``): a click on a container's title
collapses it into one box carrying the shapes that cross its border, a click on that box
opens it again; a call that raised is drawn in the theme's error colour.

Widget tier: the view alone, given the plain data the kernel sends (a graph a person can
check: an input, a ``Sequential`` block of two layers, and an output).
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from protocol.module_graph_data import FlowEdge, FlowNode, ModuleGraph
from widgets.common.theme import qcolour
from widgets.model.graph_view import ModelGraphView

BLOCK = ModuleGraph(
    "Sequential",
    [FlowNode("input", "input", "Tensor"), FlowNode("module", "0.0", "Linear", "0"),
     FlowNode("module", "0.1", "ReLU", "0"), FlowNode("module", "1", "Linear"),
     FlowNode("output", "output", "Tensor")],
    [FlowEdge(0, 1, (8, 2)), FlowEdge(1, 2, (8, 16)), FlowEdge(2, 3, (8, 16)),
     FlowEdge(3, 4, (8, 1))],
    {"0": "Sequential"})


def _click(qtbot, view, item) -> None:
    point = view.mapFromScene(item.sceneBoundingRect().center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_a_containers_title_collapses_it_and_its_box_opens_it(qtbot):
    view = ModelGraphView()
    qtbot.addWidget(view)
    view.resize(900, 300)
    view.show()
    view.set_graph(BLOCK)
    assert ("input", "0.0", "(8, 2)") in view.edge_labels()
    _click(qtbot, view, view.box_titles()["0"])
    assert view.collapsed == {"0"}
    assert view.edge_labels() == [("input", "0", "(8, 2)"), ("0", "1", "(8, 16)"),
                                  ("1", "output", "(8, 1)")]
    box = next(i for i in view.node_items().values() if i.node.kind == "container")
    _click(qtbot, view, box)
    assert view.collapsed == set() and len(view.node_items()) == 5


def test_the_call_that_raised_is_outlined_in_the_error_colour(qtbot):
    nodes = list(BLOCK.nodes[:4])
    nodes[3] = FlowNode("module", "1", "Linear", "", "RuntimeError: mat1 and mat2 shapes "
                        "cannot be multiplied (8x16 and 4x1)")
    view = ModelGraphView()
    qtbot.addWidget(view)
    view.set_graph(ModuleGraph("Sequential", nodes, BLOCK.edges[:3], {"0": "Sequential"},
                               error=nodes[3].error))
    failing = next(i for i in view.node_items().values() if i.node.error)
    assert failing.pen().color() == qcolour("error")
    assert "8x16 and 4x1" in failing.toolTip()
