"""The evaluator: results match torch called directly; errors and blocked steps; budget."""

from __future__ import annotations

import io

import pytest
import torch

from app.recipe.evaluator import evaluate
from app.recipe.reader import read_recipe

HEAD = "import torch\n"


def run(text: str, **kwargs):
    return evaluate(read_recipe(HEAD + text), stdout=io.StringIO(), **kwargs)


@pytest.mark.parametrize(("code", "expected"), [
    ("torch.zeros(2, 3)", lambda: torch.zeros(2, 3)),
    ("torch.ones((2, 3), dtype=torch.int32)", lambda: torch.ones((2, 3), dtype=torch.int32)),
    ("torch.full((2, 2), 7)", lambda: torch.full((2, 2), 7)),
    ("torch.eye(3, 4)", lambda: torch.eye(3, 4)),
    ("torch.arange(1, 10, 2)", lambda: torch.arange(1, 10, 2)),
    ("torch.linspace(0, 1, 5)", lambda: torch.linspace(0, 1, 5)),
    ("torch.logspace(0, 2, 3, base=2)", lambda: torch.logspace(0, 2, 3, base=2)),
    ("torch.tensor([[1, 2], [3, 4]], dtype=torch.float64)",
     lambda: torch.tensor([[1, 2], [3, 4]], dtype=torch.float64)),
])
def test_creation_matches_torch(code, expected):
    result = run(f"x = {code}\n")
    assert result.ok
    got, want = result.namespace["x"], expected()
    assert got.dtype == want.dtype and torch.equal(got, want)


def test_random_steps_follow_the_seed():
    result = run("torch.manual_seed(7)\na = torch.randn(3)\nb = torch.randint(0, 9, (4,))\n"
                 "c = torch.randperm(5)\nd = torch.normal(1.0, 2.0, (2,))\n")
    torch.manual_seed(7)
    expected = [torch.randn(3), torch.randint(0, 9, (4,)), torch.randperm(5),
                torch.normal(1.0, 2.0, (2,))]
    for name, want in zip("abcd", expected, strict=True):
        assert torch.equal(result.namespace[name], want), name


def test_error_keeps_torchs_message_and_blocks_dependants_only():
    result = run("a = torch.ones(2)\nb = torch.randint(5, 2, (3,))\nc = torch.zeros_like(b)\n"
                 "d = torch.zeros_like(a)\n")
    statuses = [r.status for r in result.results]
    assert statuses == ["ok", "error", "blocked", "ok"]
    with pytest.raises(RuntimeError) as info:
        torch.randint(5, 2, (3,))
    assert result.results[1].error == str(info.value)
    assert result.results[2].blocked_by == "b"


def test_stop_on_error_skips_the_rest_like_python():
    result = run("a = torch.randint(5, 2, (3,))\nb = torch.ones(2)\n", stop_on_error=True)
    assert [r.status for r in result.results] == ["error", "skipped"]


def test_print_writes_what_python_prints():
    out = io.StringIO()
    evaluate(read_recipe(HEAD + "x = torch.arange(3)\nprint(x)\nprint(x.shape, x.dtype)\n"),
             stdout=out)
    x = torch.arange(3)
    assert out.getvalue() == f"{x}\n{x.shape} {x.dtype}\n"


def test_allocations_over_budget_are_refused_before_torch_tries():
    result = run("x = torch.zeros(10**12)\ny = torch.ones(100000, 100000)\n"
                 "z = torch.eye(10**7)\nw = torch.arange(10**12)\n", budget_bytes=2**30)
    assert [r.status for r in result.results] == ["error"] * 4
    assert all("budget" in r.error for r in result.results)


def test_runaway_number_arithmetic_is_refused():
    result = run("x = torch.zeros(10 ** 10 ** 10)\n")
    assert result.results[0].status == "error"
    assert "too large" in result.results[0].error


def test_string_repetition_is_refused():
    result = run('x = torch.tensor("a" * 1000000)\n')
    assert result.results[0].status == "error"


def test_no_grad_block_turns_off_gradient_recording():
    result = run("x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n"
                 "    y = torch.zeros_like(x, requires_grad=True)\nz = x.grad\n")
    assert result.ok
    assert result.namespace["x"].requires_grad
    assert result.namespace["z"] is None
