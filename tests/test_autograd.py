"""Autograd in recipes: steps that read and write back, ``run --json``, the graph, the facts.

The six cases of the autograd explorer issue (A-F) run through ``tensor-lab run --json``;
expected values come from torch itself or from arithmetic a person can check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from app.catalog import CATALOG
from app.cli import run_main
from app.explain.autograd_layout import layered_layout
from app.explain.autograd_steps import (
    add_zero_grads,
    backward_step,
    default_gradient,
    explain_error,
    gradient_explanation,
    has_retain_grad,
    is_autograd_step,
    needs_gradient,
    set_retain_grad,
    zero_grad_step,
)
from app.recipe.model import write_step
from app.recipe.reader import read_recipe
from app.recipe.text_recipe import new_text
from kernel.explain.autograd_facts import leaves_with_grad
from kernel.explain.autograd_graph import (
    EDGE_KINDS,
    NODE_KINDS,
    backward_runs,
    build_graph,
    cut_of,
    grad_facts,
    reaches,
    saved_values,
)
from kernel.explain.autograd_source import source_run
from kernel.explain.derivatives import FunctionError, derivative_in, function_of
from tests.python_run import run_python

ROOT = Path(__file__).resolve().parent.parent


def recipe_text(body: str) -> str:
    return "import torch\n\n" + textwrap.dedent(body).strip() + "\n"


CASE_A = recipe_text("""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    fn = y.grad_fn
    x_leaf = x.is_leaf
    y_leaf = y.is_leaf
""")
CASE_B = recipe_text("""
    x = torch.tensor([3.0], requires_grad=True)
    y = torch.tensor([2.0])
    z = x * y * 4
    z.backward()
    g = x.grad
""")
CASE_C = recipe_text("""
    x = torch.tensor([3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.backward()
    gy = y.grad
    gx = x.grad
""")
CASE_D_RETAIN = recipe_text("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    once = x.grad.clone()
    y.backward(retain_graph=True)
    twice = x.grad
""")
CASE_D_ERROR = recipe_text("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
""")
CASE_E = recipe_text("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d.requires_grad_()
    z = (d * 3).sum()
    z.backward()
    gd = d.grad
    gx = x.grad
""")
CASE_F = recipe_text("""
    torch.manual_seed(0)
    x = torch.randn(5, 4)
    target = torch.randn(5, 2)
    W1 = torch.randn(4, 8, requires_grad=True)
    b1 = torch.zeros(8, requires_grad=True)
    W2 = torch.randn(8, 8, requires_grad=True)
    b2 = torch.zeros(8, requires_grad=True)
    W3 = torch.randn(8, 2, requires_grad=True)
    b3 = torch.zeros(2, requires_grad=True)
    h1 = torch.relu(x @ W1 + b1)
    h2 = torch.tanh(h1 @ W2 + b2)
    out = h2 @ W3 + b3
    loss = ((out - target) ** 2).mean()
    loss.backward()
    gW1 = W1.grad
    gb1 = b1.grad
    gW2 = W2.grad
    gb2 = b2.grad
    gW3 = W3.grad
    gb3 = b3.grad
""")
MLP_PARAMS = ["W1", "b1", "W2", "b2", "W3", "b3"]


def run_json(tmp_path: Path, text: str, capsys) -> tuple[int, dict]:
    """``tensor-lab run FILE --json`` in this process: exit code and report."""
    path = tmp_path / "recipe.py"
    path.write_text(text)
    capsys.readouterr()
    code = run_main([str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def run_recipe(text: str):
    """``text`` run by python: its recipe, and the run as the kernel's explanations read
    it (its namespace and the statements of ``text``, ``source_run``), with the ``ok``
    and ``errors`` of its steps' results."""
    recipe = read_recipe(text)
    ran = run_python(recipe)
    run = source_run(text, ran.namespace)
    run.ok, run.errors = ran.ok, ran.errors
    return recipe, run


def mlp_in_torch() -> dict[str, torch.Tensor]:
    """Case F written directly in torch: the gradients to compare with."""
    torch.manual_seed(0)
    x, target = torch.randn(5, 4), torch.randn(5, 2)
    p = {}
    for name, shape, make in (("W1", (4, 8), torch.randn), ("b1", (8,), torch.zeros),
                              ("W2", (8, 8), torch.randn), ("b2", (8,), torch.zeros),
                              ("W3", (8, 2), torch.randn), ("b3", (2,), torch.zeros)):
        p[name] = make(*shape, requires_grad=True)
    h1 = torch.relu(x @ p["W1"] + p["b1"])
    h2 = torch.tanh(h1 @ p["W2"] + p["b2"])
    loss = ((h2 @ p["W3"] + p["b3"] - target) ** 2).mean()
    loss.backward()
    return {k: v.grad for k, v in p.items()}


# -- the catalogue and the recipe format --------------------------------------------------------
def test_autograd_entries_are_described_as_data():
    for key in ("Tensor.backward", "Tensor.retain_grad", "Tensor.requires_grad_",
                "Tensor.zero_", "Tensor.detach_"):
        spec = CATALOG.get(key)
        assert spec is not None and spec.category == "autograd", key
        assert len(spec.summary) > 40
    backward = CATALOG.get("Tensor.backward")
    assert [p.name for p in backward.params] == ["gradient", "retain_graph", "create_graph"]
    gradient = backward.param("gradient")
    assert gradient.kind == "tensor" and gradient.default is None
    for key in ("torch.relu", "F.relu", "Tensor.relu", "torch.tanh", "Tensor.detach"):
        assert key in CATALOG, key


@pytest.mark.parametrize("statement", [
    "x = torch.ones(2, 2, requires_grad=True)",
    "y = x + 2",
    "y.retain_grad()",
    "out.backward()",
    "out.backward(retain_graph=True)",
    "z.backward(torch.ones(2))",
    "z.backward(gradient=torch.ones(2))",
    "g = x.grad",
    "x.grad.zero_()",
    "d = y.detach()",
    "y.detach_()",
    "w = torch.ones(2).requires_grad_()",
    "fn = y.grad_fn",
    "leaf = x.is_leaf",
    "h = torch.relu(x)",
    "h = F.relu(x)",
    "t = x.tanh()",
])
def test_autograd_statements_read_and_write_back(statement):
    prelude = ("import torch\nimport torch.nn.functional as F\n\nx = torch.ones(2)\n"
               "y = x\nout = x\nz = x\n")
    recipe = read_recipe(prelude + statement + "\n")
    assert write_step(recipe.steps[-1]) == statement
    assert read_recipe(new_text(recipe)) == recipe


def test_a_no_grad_block_reads_writes_and_runs():
    text = recipe_text("""
        x = torch.ones(2, requires_grad=True)
        with torch.no_grad():
            a = x * 2
            b = a + 1
        c = x * 3
    """)
    recipe, run = run_recipe(text)
    assert [s.block for s in recipe.steps] == ["", "no_grad", "no_grad", ""]
    assert new_text(recipe) == text
    assert run.ok
    assert not run.value("a").requires_grad and not run.value("b").requires_grad
    assert run.value("c").requires_grad


def test_every_case_runs_as_plain_python_too(tmp_path):
    """The recipes are real scripts: python runs them without error (case D's error aside)."""
    paths = []
    for i, text in enumerate((CASE_A, CASE_B, CASE_C, CASE_D_RETAIN, CASE_E, CASE_F)):
        paths.append(tmp_path / f"case{i}.py")
        paths[-1].write_text(text)
    code = "import runpy\n" + "".join(f"runpy.run_path({str(p)!r})\n" for p in paths)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr


# -- the six cases through run --json -----------------------------------------------------------
def test_case_a_grad_fn_and_leaves(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_A, capsys)
    assert code == 0 and report["errors"] == []
    assert report["values"]["x_leaf"] is True and report["values"]["y_leaf"] is False
    assert report["values"]["fn"].startswith("<AddBackward0 object")
    assert report["tensors"]["y"]["values"] == [[3.0, 3.0], [3.0, 3.0]]
    _, run = run_recipe(CASE_A)
    graph = build_graph(run.value("y"), run, "y")
    assert [n.label for n in graph.of_kind("grad_fn")] == ["AddBackward0"]
    assert graph.leaf_tensor_names() == ["x"]
    facts = grad_facts(run.value("y"), "y", run)
    assert (facts.grad_fn, facts.is_leaf, facts.requires_grad) == ("AddBackward0", False, True)
    assert grad_facts(run.value("x"), "x", run).is_leaf


def test_case_b_gradient_is_8_and_y_is_not_in_the_graph(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_B, capsys)
    assert code == 0 and report["errors"] == []
    assert report["tensors"]["g"]["values"] == [8.0]  # dz/dx = y * 4 = 8
    _, run = run_recipe(CASE_B)
    graph = build_graph(run.value("z"), run, "z")
    assert graph.leaf_tensor_names() == ["x"]
    assert graph.node_for_name("y") is None
    assert all("y" not in n.names for n in graph.nodes.values())
    assert "constant" in grad_facts(run.value("y"), "y", run).why_no_grad


def test_case_c_retained_grad_of_a_non_leaf(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_C, capsys)
    assert code == 0 and report["errors"] == []
    assert report["tensors"]["gy"]["values"] == [1.0]
    assert report["tensors"]["gx"]["values"] == [2.0]
    _, run = run_recipe(CASE_C)
    facts = grad_facts(run.value("y"), "y", run)
    assert facts.retains_grad and facts.grad is not None and facts.grad.item() == 1.0
    assert facts.why_no_grad == ""


def test_case_d_backward_twice_with_retain_graph_doubles(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_D_RETAIN, capsys)
    assert code == 0 and report["errors"] == []
    assert report["tensors"]["once"]["values"] == [2.0, 4.0, 6.0]  # d(sum x²)/dx = 2x
    assert report["tensors"]["twice"]["values"] == [4.0, 8.0, 12.0]


def test_case_d_backward_twice_without_retain_graph_is_explained(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_D_ERROR, capsys)
    assert code == 1
    [error] = report["errors"]
    assert error["line"] == 6 and error["type"] == "RuntimeError"
    with pytest.raises(RuntimeError) as torch_error:  # torch's own words, unchanged
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()
    assert error["message"] == str(torch_error.value)
    lesson = explain_error(error["type"], error["message"])
    assert lesson is not None and "retain_graph=True" in lesson.fix
    assert report["tensors"]["x"]["values"] == [1.0, 2.0, 3.0]


def test_case_e_detach_does_not_reach_the_original_leaf(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_E, capsys)
    assert code == 0 and report["errors"] == []
    assert report["tensors"]["gd"]["values"] == [3.0, 3.0]
    assert report["values"]["gx"] is None  # the report holds None for a missing .grad
    _, run = run_recipe(CASE_E)
    z, x = run.value("z"), run.value("x")
    assert not reaches(z, x)
    graph = build_graph(z, run, "z")
    assert graph.leaf_tensor_names() == ["d"]
    assert "x" not in {name for n in graph.nodes.values() for name in n.names}
    [cut] = graph.of_kind("cut")
    assert cut.names == ("y",)
    assert any(e.kind == "cut" and e.target == cut.id for e in graph.edges)
    assert cut_of("d", run) == ("detach()", ["y"])
    assert "does not reach x" in grad_facts(x, "x", run).why_no_grad


def test_case_f_every_mlp_parameter_is_a_leaf_of_the_loss(tmp_path, capsys):
    code, report = run_json(tmp_path, CASE_F, capsys)
    assert code == 0 and report["errors"] == []
    expected = mlp_in_torch()
    for name in MLP_PARAMS:
        got = torch.tensor(report["tensors"][f"g{name}"]["values"])
        torch.testing.assert_close(got, expected[name])
    _, run = run_recipe(CASE_F)
    graph = build_graph(run.value("loss"), run, "loss")
    assert sorted(graph.leaf_tensor_names()) == sorted(MLP_PARAMS)
    assert sorted(graph.leaf_names.values()) == sorted(MLP_PARAMS)
    for node_id, name in graph.leaf_names.items():
        assert graph.nodes[node_id].label == "AccumulateGrad"
        [leaf] = [graph.nodes[c] for c in graph.children(node_id)]
        assert leaf.kind == "leaf" and leaf.names == (name,)
    assert graph.node_for_name("x") is None and graph.node_for_name("target") is None
    assert {"h1", "h2", "out"} <= {n for g in graph.of_kind("grad_fn") for n in g.names}


def test_run_json_in_a_real_process_with_qt_blocked(tmp_path):
    """``python -m app run --json`` on case C, with the autograd modules importable Qt-free."""
    path = tmp_path / "case_c.py"
    path.write_text(CASE_C)
    code = ("import sys, runpy\n"
            "for m in ('PySide6', 'pyqtgraph', 'shiboken6'): sys.modules[m] = None\n"
            "import kernel.explain.autograd_graph, app.explain.autograd_steps\n"
            "import app.catalog.autograd\n"
            f"sys.argv = ['app', 'run', {str(path)!r}, '--json']\n"
            "runpy.run_module('app', run_name='__main__')\n")
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["tensors"]["gy"]["values"] == [1.0]
    assert report["tensors"]["gx"]["values"] == [2.0]


# -- facts: why .grad is None -------------------------------------------------------------------
def test_why_grad_is_none():
    _, run = run_recipe(recipe_text("""
        a = torch.ones(2, requires_grad=True)
        b = a * 2
        c = torch.ones(2)
        n = torch.arange(3)
        with torch.no_grad():
            m = a * 5
    """))
    reasons = {name: grad_facts(run.value(name), name, run).why_no_grad
               for name in ("a", "b", "c", "n", "m")}
    assert "backward() has not run yet" in reasons["a"]
    assert "not a leaf" in reasons["b"] and "b.retain_grad()" in reasons["b"]
    assert "does not require grad" in reasons["c"]
    assert "int64" in reasons["n"]
    assert "torch.no_grad()" in reasons["m"] and "from a" in reasons["m"]
    assert cut_of("m", run) == ("torch.no_grad()", ["a"])


def test_facts_rows_show_grad_values_as_torch_prints_them():
    _, run = run_recipe(CASE_C)
    rows = dict(grad_facts(run.value("x"), "x", run).rows())
    assert rows == {"is_leaf": "True", "requires_grad": "True", "grad_fn": "None",
                    "retains_grad": "False", ".grad": "tensor([2.])"}


# -- the graph and its layout -------------------------------------------------------------------
def test_saved_tensors_are_named_and_freed_by_backward():
    _, run = run_recipe(recipe_text("""
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
    """))
    saved = {v.name: v for v in saved_values(run.value("c").grad_fn,
                                             _namer(run))}
    assert saved["self"].tensor_name == "a" and saved["other"].tensor_name == "b"
    assert saved["self"].shape == (2,)
    graph = build_graph(run.value("c"), run, "c", saved=True)
    assert sorted(n.note for n in graph.of_kind("saved")) == ["= a", "= b"]
    run.value("c").sum().backward()
    assert all(v.freed for v in saved_values(run.value("c").grad_fn))


def _namer(run):
    from kernel.explain.autograd_graph import _Namer

    return _Namer(run)


def test_a_tensor_used_twice_is_one_edge_counted_twice():
    _, run = run_recipe(recipe_text("""
        x = torch.ones(2, requires_grad=True)
        y = x * x
    """))
    graph = build_graph(run.value("y"), run, "y")
    [mul] = graph.of_kind("grad_fn")
    [edge] = [e for e in graph.edges if e.source == mul.id]
    assert edge.count == 2 and graph.nodes[edge.target].kind == "accumulate"
    assert {n.kind for n in graph.nodes.values()} <= set(NODE_KINDS)
    assert {e.kind for e in graph.edges} <= set(EDGE_KINDS)


def deep_mlp(layers: int) -> str:
    lines = ["torch.manual_seed(0)", "h0 = torch.randn(2, 4)"]
    for i in range(1, layers + 1):
        lines += [f"W{i} = torch.randn(4, 4, requires_grad=True)",
                  f"b{i} = torch.zeros(4, requires_grad=True)",
                  f"h{i} = torch.relu(h{i - 1} @ W{i} + b{i})"]
    return recipe_text("\n".join(lines + [f"loss = h{layers}.sum()"]))


@pytest.mark.parametrize("text", [CASE_F, deep_mlp(28)], ids=["mlp", "198 nodes"])
def test_layout_puts_each_node_in_its_own_place_below_its_parents(text):
    _, run = run_recipe(text)
    graph = build_graph(run.value("loss"), run, "loss", saved=True)
    pos = layered_layout(graph)
    assert set(pos) == set(graph.nodes)
    assert len(set(pos.values())) == len(pos)  # no two nodes on one spot
    for e in graph.edges:
        assert pos[e.target][1] > pos[e.source][1]
    assert pos[graph.root][1] == 0
    for layer in {y for _, y in pos.values()}:  # one unit apart within a layer
        xs = sorted(x for x, y in pos.values() if y == layer)
        assert all(abs((b - a) - 1.0) < 1e-6 for a, b in zip(xs, xs[1:], strict=False))


def test_layout_of_a_tree_has_no_crossing_edges():
    _, run = run_recipe(CASE_F)
    graph = build_graph(run.value("loss"), run, "loss")
    pos = layered_layout(graph)
    edges = [(pos[e.source], pos[e.target]) for e in graph.edges
             if pos[e.target][1] == pos[e.source][1] + 1]
    for (a0, a1) in edges:
        for (b0, b1) in edges:
            if a0[1] == b0[1] and a0[0] < b0[0]:
                assert a1[0] <= b1[0]


def test_graph_of_a_tensor_without_grad_is_one_node():
    _, run = run_recipe(recipe_text("c = torch.ones(3)"))
    graph = build_graph(run.value("c"), run, "c")
    assert [(n.kind, n.label, n.note) for n in graph.nodes.values()] == [
        ("tensor", "c", "requires_grad=False")]
    assert build_graph(3, run).nodes == {}


def test_graph_stops_at_max_nodes():
    _, run = run_recipe(deep_mlp(10))
    graph = build_graph(run.value("loss"), run, "loss", max_nodes=20)
    assert len(graph.nodes) == 20 and graph.truncated


# -- backward helpers ---------------------------------------------------------------------------
def test_backward_steps_as_written():
    assert write_step(backward_step("out")) == "out.backward()"
    assert write_step(backward_step("out", retain_graph=True)) == \
        "out.backward(retain_graph=True)"
    assert write_step(backward_step("z", default_gradient("z"))) == \
        "z.backward(torch.ones_like(z))"
    assert write_step(zero_grad_step("x")) == "x.grad.zero_()"
    assert needs_gradient(torch.ones(2)) and not needs_gradient(torch.ones(1, 1))
    assert "z.sum().backward()" in gradient_explanation("z", torch.ones(2))


def test_gradient_ones_like_equals_backward_of_the_sum():
    recipe, run = run_recipe(recipe_text("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        z = x * x * 3
    """))
    recipe.append(backward_step("z", default_gradient("z")))
    run = run_python(recipe)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x * 3).sum().backward()
    torch.testing.assert_close(run.value("x").grad, x.grad)


def test_zero_grads_resets_every_leaf_with_a_grad():
    recipe, run = run_recipe(CASE_F)
    names = leaves_with_grad(run)
    assert names == MLP_PARAMS
    add_zero_grads(recipe, names)
    run = run_python(recipe)
    assert run.ok
    assert all(run.value(n).grad.abs().sum().item() == 0 for n in MLP_PARAMS)
    assert new_text(recipe).endswith("W1.grad.zero_()\nb1.grad.zero_()\nW2.grad.zero_()\n"
                                         "b2.grad.zero_()\nW3.grad.zero_()\nb3.grad.zero_()\n")


def test_retain_grad_toggle_adds_and_removes_the_step():
    recipe, _ = run_recipe(recipe_text("""
        x = torch.tensor([3.0], requires_grad=True)
        y = x * 2
        y.backward()
    """))
    set_retain_grad(recipe, "y", True)
    assert write_step(recipe.steps[2]) == "y.retain_grad()"
    assert has_retain_grad(recipe, "y")
    set_retain_grad(recipe, "y", True)  # no second copy
    assert len(recipe.steps) == 4
    run = run_python(recipe)
    assert run.value("y").grad.item() == 1.0
    set_retain_grad(recipe, "y", False)
    assert not has_retain_grad(recipe, "y") and len(recipe.steps) == 3


def test_autograd_steps_and_errors_are_recognised():
    recipe = read_recipe(CASE_C)
    assert [is_autograd_step(s) for s in recipe.steps] == [False, False, True, True, True, True]
    message = "grad can be implicitly created only for scalar outputs"
    assert "torch.ones_like" in explain_error("RuntimeError", message).fix
    _, run = run_recipe(recipe_text("""
        x = torch.ones(2, requires_grad=True)
        x.grad.zero_()
    """))
    [error] = run.errors
    assert "backward" in explain_error(error.error_type, error.error).fix
    assert explain_error("RuntimeError", "something else entirely") is None


# -- Jacobian and Hessian -----------------------------------------------------------------------
JACOBIAN_RECIPE = recipe_text("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.0, 0.5, 2.0])
    y = x ** 2 * w
    s = (x ** 3).sum()
    c = torch.ones(2)
""")


def matrix(kind: str, text: str, run, input_name: str, output_name: str) -> torch.Tensor:
    """What the kernel's ``derivative`` query answers, on the values python made from
    ``text``."""
    return derivative_in(kind, run.namespace, input_name, output_name, text)


def test_jacobian_of_an_elementwise_function_is_diagonal():
    _, run = run_recipe(JACOBIAN_RECIPE)
    jac = matrix("jacobian", JACOBIAN_RECIPE, run, "x", "y")
    x, w = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 0.5, 2.0])
    torch.testing.assert_close(jac, torch.diag(2 * x * w))  # d(x² w)/dx = 2 x w


def test_hessian_of_a_sum_of_cubes_is_6x_on_the_diagonal():
    _, run = run_recipe(JACOBIAN_RECIPE)
    hess = matrix("hessian", JACOBIAN_RECIPE, run, "x", "s")
    torch.testing.assert_close(hess, torch.diag(6 * torch.tensor([1.0, 2.0, 3.0])))
    with pytest.raises(FunctionError, match="one-element output"):
        matrix("hessian", JACOBIAN_RECIPE, run, "x", "y")


def test_jacobian_matches_torch_on_the_mlp():
    _, run = run_recipe(CASE_F)
    f = function_of(run.namespace, "b2", "out", CASE_F)
    b2 = run.value("b2").detach()
    torch.testing.assert_close(f(b2), run.value("out"))
    expected = torch.autograd.functional.jacobian(f, b2).reshape(10, 8)
    torch.testing.assert_close(matrix("jacobian", CASE_F, run, "b2", "out"), expected)


def test_jacobian_refuses_unrelated_tensors():
    _, run = run_recipe(JACOBIAN_RECIPE)
    with pytest.raises(FunctionError, match="not computed from"):
        matrix("jacobian", JACOBIAN_RECIPE, run, "w", "c")
    with pytest.raises(FunctionError, match="not computed before"):
        matrix("jacobian", JACOBIAN_RECIPE, run, "y", "x")


def test_a_backward_in_a_loops_body_counts_as_one_that_ran():
    """The run's text is read with ``ast``: a ``y.backward()`` inside a loop ran, so a
    leaf it does not reach is told so (not that no backward has run)."""
    _, run = run_recipe(recipe_text("""
        x = torch.ones(2, requires_grad=True)
        w = torch.ones(2, requires_grad=True)
        for k in range(2):
            y = (x * k).sum()
            y.backward()
    """))
    assert backward_runs(run) == [("y", run.value("y"))]
    why = grad_facts(run.value("w"), "w", run).why_no_grad
    assert "backward ran from y, but that graph does not reach w" in why
    assert run.value("x").grad.tolist() == [1.0, 1.0]  # 0 + 1, as torch accumulates


def test_cuts_are_read_from_the_text_of_the_statement_that_made_the_tensor():
    _, run = run_recipe(recipe_text("""
        a = torch.ones(2, requires_grad=True)
        b = torch.detach(a * 2) + 1
        c = (a * 3).data
        d, e = a.detach(), a * 4
        f = a * 5
        f.detach_()
        with torch.no_grad():
            g = a + 1
    """))
    assert cut_of("b", run) == ("detach()", ["a"])
    assert cut_of("c", run) == (".data", ["a"])
    assert cut_of("d", run) == ("detach()", ["a"])
    assert cut_of("f", run) == ("detach_()", ["a"])
    assert cut_of("g", run) == ("torch.no_grad()", ["a"])
    assert cut_of("a", run) is None


def test_a_jacobian_runs_again_what_the_text_says_a_function_and_a_no_grad_block_too():
    text = recipe_text("""
        def f(a):
            return a.t() * 3

        x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = f(x)
        y += x
        with torch.no_grad():
            k = y * 2
        z = y.sum() + k.sum()
    """)
    _, run = run_recipe(text)
    want = torch.autograd.functional.jacobian(lambda a: a.t() * 3 + a, torch.ones(2, 2))
    torch.testing.assert_close(matrix("jacobian", text, run, "x", "y"), want.reshape(4, 4))
    # k was made under no_grad, and is made so again: no gradient flows through it
    # (3 + 1 for each element through y alone; 12 if k counted)
    torch.testing.assert_close(matrix("jacobian", text, run, "x", "z"), torch.full((1, 4), 4.0))
