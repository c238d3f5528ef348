"""The Model tab (``widgets.model``): the notes' LeNet as a tree in torchinfo's columns,
each layer's last-call shapes, and a parameter opened in the tensor viewer.

Widget tier: the main window, its kernel running the recipe; waits on the document's
answers. Expected shapes and counts are torch's own, computed here with the same class
under plain python (forward hooks), or counts a person can check (LeNet has 5 layers,
each with a weight and a bias).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from widgets.model.tree import COLUMNS, KIND_ROLE

#: The notes' LeNet (notes 002, block 13): ``net = Net()``, called once on a 32x32 image.
LENET = (Path(__file__).parent / "seeds" / "002_13_net_forward.py").read_text(
    encoding="utf-8")


def _hooked_shapes():
    """Each LeNet layer's (input shapes, output shapes) under plain python."""
    torch = pytest.importorskip("torch")
    space: dict = {}
    exec(LENET.split("# --- block 13")[0], space)  # noqa: S102 - the notes' own text
    net, seen = space["net"], {}
    for name, module in net.named_children():
        module.register_forward_hook(lambda m, i, o, name=name: seen.__setitem__(
            name, ([tuple(t.shape) for t in i], [tuple(o.shape)])))
    net(torch.randn(1, 1, 32, 32))
    return net, seen


def _text(shapes) -> str:
    return ", ".join("(" + ", ".join(map(str, s)) + ")" for s in shapes)


def _lenets_model_tab(make_window, tmp_path):
    """The main window on LeNet's recipe, its ``net = Net()`` step selected, the Model tab
    shown."""
    recipe = tmp_path / "lenet.py"
    recipe.write_text(LENET, encoding="utf-8")
    window = make_window(str(recipe))
    document = window.document
    document.select(next(i for i in range(len(document.recipe.steps))
                         if document.step_text(i, document.recipe.steps[i]) == "net = Net()"))
    assert window.views.currentWidget() is window.model  # selected from the Tensor tab
    return window


def test_lenets_tree_shapes_and_a_parameter_opened_in_the_viewer(make_window, tmp_path, qtbot):
    net, seen = _hooked_shapes()
    window = _lenets_model_tab(make_window, tmp_path)
    panel = window.model
    qtbot.waitUntil(lambda: panel.tree is not None, timeout=60_000)
    view = panel.tree_view
    # the root, its 5 layers, and a weight and a bias each
    assert view.rows() == 1 + 5 + 10
    assert panel.tree.parameters == sum(p.numel() for p in net.parameters()) == 61706
    column = {name: i for i, name in enumerate(COLUMNS)}
    for name, module in net.named_children():
        row = view.row_of(name)
        assert row.text(column["type"]) == type(module).__name__
        assert row.text(column["count"]) == f"{sum(p.numel() for p in module.parameters()):,}"
        inputs, outputs = seen[name]
        assert row.text(column["input"]) == _text(inputs)
        assert row.text(column["output"]) == _text(outputs)
    assert view.row_of("conv1").text(column["output"]) == "(1, 6, 28, 28)"
    weight = view.row_of("conv1.weight")
    assert weight.data(0, KIND_ROLE) == "parameter"
    assert weight.text(column["shape"]) == "(6, 1, 5, 5)" == _text([net.conv1.weight.shape])

    view.itemActivated.emit(weight, 0)  # a double-click: opens it in the viewer
    assert window.views.currentWidget() is window.viewer
    window.settle()
    viewer = window.viewer
    qtbot.waitUntil(lambda: "shape: (6, 1, 5, 5)" in viewer.facts_text(), timeout=60_000)
    assert "net.conv1.weight" in viewer.status_text()
    qtbot.waitUntil(lambda: not viewer.stats_pending(), timeout=60_000)
    low, high = (float(viewer.stats_text().split(k)[1].split()[0]) for k in ("min ", "max "))
    assert -0.2 <= low < high <= 0.2  # Conv2d(1, 6, 5)'s init: U(-1/5, 1/5)


def test_a_module_step_shows_the_model_tab_and_the_next_tensor_step_the_tensor_tab(
        make_window, tmp_path):
    recipe = tmp_path / "lenet.py"
    recipe.write_text(LENET, encoding="utf-8")
    window = make_window(str(recipe))
    document, views = window.document, window.views
    texts = [document.step_text(i, s) for i, s in enumerate(document.recipe.steps)]
    document.select(texts.index("net = Net()"))
    assert views.currentWidget() is window.model
    document.select(texts.index("input = torch.randn(1, 1, 32, 32)"))
    assert views.currentWidget() is window.viewer
    views.setCurrentWidget(window.autograd)  # the user's own choice stays
    document.select(texts.index("net = Net()"))
    assert views.currentWidget() is window.autograd


def test_lenets_graph_has_conv1s_output_shape_on_its_edge_and_exports(make_window, tmp_path,
                                                                       qtbot):
    net, seen = _hooked_shapes()
    panel = _lenets_model_tab(make_window, tmp_path).model
    graph = panel.graph_view
    assert graph.graph is None  # asked only once its tab is shown
    panel.views.setCurrentWidget(graph)
    qtbot.waitUntil(lambda: graph.graph is not None, timeout=60_000)
    labels = graph.view.edge_labels()
    after = {source: shape for source, _target, shape in labels}
    # each layer's outgoing edge carries the output shape torch's hook saw
    for name, _module in net.named_children():
        assert after[name] == _text(seen[name][1])
    assert ("conv1", "relu", "(1, 6, 28, 28)") in labels
    assert ("x", "conv1", _text(seen["conv1"][0])) in labels

    svg, png = tmp_path / "lenet.svg", tmp_path / "lenet.png"
    graph.view.save(str(svg))
    graph.view.save(str(png))
    text = svg.read_text(encoding="utf-8")
    assert "(1, 6, 28, 28)" in text and "conv1" in text
    from PySide6.QtGui import QImage

    image = QImage(str(png))
    scene = graph.view.scene().sceneRect()
    assert (image.width(), image.height()) == (round(scene.width() * 2),
                                               round(scene.height() * 2))
