"""The Autograd and Memory tabs on tensors a kernel run made, inside a function, a
``while`` loop and a ``for`` loop (widget tier, a real kernel): the graph and the storage
map are read in the kernel and come back as data. Expected graphs, gradients, strides and
values are worked out by torch in this process.
"""

from __future__ import annotations

from pathlib import Path

import torch
from PySide6.QtCore import Qt

from app.explain.autograd_remote import facts_from
from app.recipe.kernel_results import KernelValue
from app.tensor_copy import TensorCopy
from kernel.explain.autograd_facts import facts_data
from kernel.explain.autograd_graph import build_graph, grad_facts
from kernel.explain.autograd_source import SourceRun
from protocol.autograd_data import graph_data, graph_from

RECIPE = '''\
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)


def f(a):
    h = a * w
    while h.norm() < 10:
        h = h * 2
    return (h + b).sum()


out = f(torch.tensor([0.5, 1.0]))
out.backward()
'''


def _expected():
    """The same recipe run here: the graph of ``out`` and ``w.grad``."""
    namespace: dict = {}
    exec(compile(RECIPE, "<recipe>", "exec"), namespace)
    run = SourceRun(namespace={k: v for k, v in namespace.items() if not k.startswith("__")})
    return build_graph(namespace["out"], run, "out"), namespace["w"].grad


def _open(window, tmp_path: Path, qtbot) -> None:
    path = tmp_path / "grad_loop.py"
    path.write_text(RECIPE, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=120_000)


def test_a_graph_made_in_a_function_and_a_loop_is_drawn_and_inspected(
        qtbot, make_window, tmp_path):
    window = make_window()
    _open(window, tmp_path, qtbot)
    doc = window.document
    index = next(i for i, s in enumerate(doc.recipe.steps) if s.label.startswith("out ="))
    assert isinstance(doc.run.results[index].value, KernelValue)
    window.views.setCurrentWidget(window.autograd)
    doc.select(index)
    panel = window.autograd
    want, w_grad = _expected()
    qtbot.waitUntil(lambda: len(panel.graph.nodes) == len(want.nodes), timeout=30_000)
    labels = sorted(n.label for n in panel.graph.nodes.values())
    assert labels == sorted(n.label for n in want.nodes.values())
    assert [n.label for n in panel.graph.nodes.values()].count("MulBackward0") == 4
    assert panel.graph.leaf_tensor_names() == want.leaf_tensor_names()
    # click w's leaf: its facts come from the kernel, .grad as torch has it
    [leaf] = [n.id for n in panel.graph.nodes.values() if n.kind == "leaf" and "w" in n.names]
    view = panel.graph_view
    view.centerOn(view.node_items()[leaf])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.node_center(leaf).toPoint())
    qtbot.waitUntil(lambda: panel.facts().get("is_leaf") == "True", timeout=30_000)
    assert panel.inspected_name == "w"
    facts = panel.facts()
    assert facts["requires_grad"] == "True" and facts["grad_fn"] == "None"
    assert w_grad is not None and bool(w_grad.any())
    assert facts[".grad"] == dict(grad_facts(_leaf_with(w_grad), "w").rows())[".grad"]
    assert not window.errors


def _leaf_with(grad: torch.Tensor) -> torch.Tensor:
    t = torch.zeros_like(grad, requires_grad=True)
    t.grad = grad.clone()
    return t


def test_graph_and_facts_survive_the_trip_as_data():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    run = SourceRun(namespace={"x": x, "y": y})
    graph = build_graph(y, run, "y", saved=True)
    back = graph_from(graph_data(graph))
    assert back == graph
    facts = grad_facts(x, "x", run)  # no backward yet: a translatable reason
    again = facts_from(facts_data(facts))
    assert again.rows() == facts.rows() and again.why_no_grad == facts.why_no_grad
    assert getattr(again.why_no_grad, "template", None) == facts.why_no_grad.template
    y.backward()
    again = facts_from(facts_data(grad_facts(x, "x", run)))
    assert isinstance(again.grad, TensorCopy)  # the window's copy: no torch
    assert again.grad.values.tolist() == x.grad.tolist() == [2.0, 4.0]
    assert again.rows()[-1] == (".grad", "tensor([2., 4.])")


MEMORY = """\
import torch

x = torch.arange(12.0)
for k in range(2):
    v = x.view(3, 4)[:, 1:3]
c = x.clone()
v.add_(100)
"""


def test_the_memory_tab_shows_a_view_made_in_a_loop_beside_its_base(
        qtbot, make_window, tmp_path):
    window = make_window()
    path = tmp_path / "views.py"
    path.write_text(MEMORY, encoding="utf-8")
    assert window.open_path(str(path), trust=True)
    qtbot.waitUntil(lambda: window.document.kernel_run is None, timeout=120_000)
    doc = window.document
    storage = window.storage_view
    window.views.setCurrentWidget(storage)
    doc.select(next(i for i, s in enumerate(doc.recipe.steps) if s.label.startswith("for")))
    qtbot.waitUntil(lambda: bool(storage.row_text("v")) and storage.selected == "v"
                    and storage.selected_card.isVisible(), timeout=30_000)
    assert storage.groups == [["x", "v"], ["c"]]
    x = torch.arange(12.0)
    v = x.view(3, 4)[:, 1:3]
    v.add_(100)
    assert storage.row_text("v")[1:5] == ["view of x", "(3, 2)", "(4, 1)", "1"]
    shown = storage._remote_values  # copies, as the window holds them: no torch
    assert isinstance(shown["v"], TensorCopy) and isinstance(shown["x"], TensorCopy)
    assert shown["v"].values.tolist() == v.tolist() and shown["x"].values.tolist() == x.tolist()
    assert shown["v"].strides == v.stride()  # the strides it has in the kernel
    marked = storage.other_card.grid.table_model
    assert len(marked._marks) == v.numel()  # the base's elements v reads, lit up


def test_the_viewer_shows_the_kernel_tensors_own_grad_facts(qtbot, make_window, tmp_path):
    """Facts of the tensor itself, not of a detached copy: its graph is part of them."""
    window = make_window()
    _open(window, tmp_path, qtbot)
    doc = window.document
    namespace: dict = {}
    exec(compile(RECIPE, "<recipe>", "exec"), namespace)
    out = namespace["out"]
    window.views.setCurrentWidget(window.viewer)
    doc.select(next(i for i, s in enumerate(doc.recipe.steps) if s.label.startswith("out =")))
    facts = window.viewer._fact_values
    qtbot.waitUntil(lambda: facts["grad_fn"].text() == type(out.grad_fn).__name__,
                    timeout=30_000)
    assert facts["requires_grad"].text() == str(out.requires_grad)
    assert facts["is_leaf"].text() == str(out.is_leaf)


JACOBIAN = '''\
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([1.0, 0.5, 2.0])
x2 = torch.pow(x, 2)  # code, not a form: torch.pow is not in the catalogue
y = torch.mul(x2, w)
s = (x ** 3).sum()
'''


def test_jacobian_and_hessian_of_kernel_tensors_are_worked_out_in_the_kernel(
        qtbot, make_window, tmp_path):
    path = tmp_path / "jacobian.py"
    path.write_text(JACOBIAN, encoding="utf-8")
    window = make_window()
    assert window.open_path(str(path), trust=True)
    window.settle()
    doc, page = window.document, window.autograd.jacobian_page
    x, w = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 0.5, 2.0])
    window.views.setCurrentWidget(window.autograd)
    doc.select_name("y")
    window.settle()
    assert isinstance(doc.run.result_for("y").value, KernelValue)
    inputs = [page.input_box.itemText(i) for i in range(page.input_box.count())]
    assert inputs[0] == "x" and set(inputs) == {"x", "w", "x2"}  # the leaf first
    page.jacobian_button.click()
    window.settle()
    assert page.matrix_model.values.size, page.caption.text()
    torch.testing.assert_close(torch.from_numpy(page.matrix_model.values),
                               torch.diag(2 * x * w))  # d(x² w)/dx = 2 x w
    page.hessian_button.click()  # y has three elements: no Hessian, and the page says why
    window.settle()
    assert "one-element output" in page.caption.text()
    doc.select_name("s")
    window.settle()
    page.hessian_button.click()
    window.settle()
    torch.testing.assert_close(torch.from_numpy(page.matrix_model.values),
                               torch.diag(6 * x))  # d²(Σx³)/dx² = diag(6x)


def test_a_kernel_step_is_timed_in_the_kernel_on_every_device(qtbot, make_window, tmp_path):
    path = tmp_path / "timed.py"
    path.write_text("import torch\nx = torch.ones(300, 300)\ny = torch.matmul(x, x)\n",
                    encoding="utf-8")
    window = make_window()
    assert window.open_path(str(path), trust=True)
    window.settle()
    window.document.select_name("y")
    view = window.ops.timing_view
    assert view.time_button.isEnabled()
    view.min_run_time = 0.02
    with qtbot.waitSignal(view.finished, timeout=60_000):
        view.time_button.click()
    assert [t.device for t in view.timings] == [d.id for d in window.document.kernel.devices]
    assert all(t.ok and t.runs > 0 and t.median_s > 0 for t in view.timings), view.timings
    assert view.table.rowCount() == len(view.timings)


def test_the_explanations_kernel_queries_import_without_the_windows_recipe():
    """The queries the views add to the kernel read the run's text with ``ast``: they
    load with ``app.recipe`` and ``app.catalog`` unavailable (a kernel
    package will hold them, importing neither)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "for m in ('app.recipe', 'app.catalog', 'PySide6'):\n"
            "    sys.modules[m] = None\n"
            "import kernel.explain.kernel_queries\n"
            "print('imported')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert done.stdout.strip() == "imported", done.stderr
