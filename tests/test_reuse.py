"""Re-evaluation takes over the unchanged leading steps, and only when that is safe.

Every case compares the run that reused a prefix against a fresh run of the same recipe:
with a seed, they must hold the same values.
"""

from __future__ import annotations

import io

import torch

from app.expr import BinOp, Const, Ref
from app.recipe.document import Document
from app.recipe.evaluator import evaluate
from app.recipe.model import Step
from app.recipe.reader import read_recipe
from app.recipe.reuse import may_change_values


def _run_after_edit(before: str, after: str):
    """The run of ``after`` given the run of ``before``, and a fresh run of ``after``."""
    previous = evaluate(read_recipe(before), stdout=io.StringIO())
    out = io.StringIO()
    reused = evaluate(read_recipe(after), stdout=out, previous=previous)
    fresh_out = io.StringIO()
    fresh = evaluate(read_recipe(after), stdout=fresh_out)
    assert out.getvalue() == fresh_out.getvalue()
    return reused, fresh


def _same_values(a, b) -> None:
    assert [r.status for r in a.results] == [r.status for r in b.results]
    for ra, rb in zip(a.results, b.results, strict=True):
        if isinstance(rb.value, torch.Tensor):
            assert torch.equal(ra.value, rb.value), ra.step.name
            if rb.value.is_leaf and rb.value.grad is not None:
                assert torch.equal(ra.value.grad, rb.value.grad), ra.step.name


HEAD = "import torch\ntorch.manual_seed(0)\nx = torch.rand(4, 4)\nprint(x.sum())\n"


def test_an_edit_at_the_end_reuses_the_steps_before_it_and_their_random_state():
    reused, fresh = _run_after_edit(
        HEAD + "y = torch.tril(x, diagonal=0)\nz = torch.rand(3)\n",
        HEAD + "y = torch.tril(x, diagonal=1)\nz = torch.rand(3)\n")
    assert reused.reused == 3  # the seed, x and the print
    assert reused.results[1].value is not fresh.results[1].value  # really taken over...
    _same_values(reused, fresh)  # ... and z drew the same numbers as a fresh run


def test_an_in_place_op_after_the_prefix_makes_everything_run_again():
    before = HEAD + "y = torch.tril(x, diagonal=0)\nx.add_(1)\n"
    reused, fresh = _run_after_edit(before, before.replace("diagonal=0", "diagonal=1"))
    assert reused.reused == 0
    _same_values(reused, fresh)  # x was added to once, not twice


def test_an_in_place_op_inside_the_prefix_is_kept_once():
    before = HEAD + "x.add_(1)\ny = torch.tril(x, diagonal=0)\n"
    reused, fresh = _run_after_edit(before, before.replace("diagonal=0", "diagonal=1"))
    assert reused.reused == 4
    _same_values(reused, fresh)


def test_an_in_place_module_after_the_prefix_makes_everything_run_again():
    before = HEAD + "z = x * 2\ny = torch.nn.functional.relu(x, inplace=True)\n"
    reused, fresh = _run_after_edit(before, before.replace("x * 2", "x * 3"))
    assert reused.reused == 0
    _same_values(reused, fresh)


def test_a_tensor_that_requires_grad_ends_the_prefix():
    before = (HEAD + "w = torch.randn(3, requires_grad=True)\nloss = (w * w).sum()\n"
              "loss.backward()\ng = w.grad * 2\n")
    reused, fresh = _run_after_edit(before, before.replace("w.grad * 2", "w.grad * 3"))
    assert reused.reused == 3  # stops at w: a second backward would add to w.grad
    _same_values(reused, fresh)


def test_failures_in_the_prefix_still_block_the_steps_that_read_them():
    before = HEAD + "bad = x.view(5)\nc = bad + 1\nd = x * 2\n"
    reused, fresh = _run_after_edit(before, before.replace("x * 2", "x * 4"))
    assert reused.reused == 5
    assert [r.status for r in reused.results[-3:]] == ["error", "blocked", "ok"]
    _same_values(reused, fresh)


def test_a_change_near_the_top_runs_everything_after_it():
    before = HEAD + "y = x + 1\n"
    reused, fresh = _run_after_edit(before, before.replace("rand(4, 4)", "rand(4, 5)"))
    assert reused.reused == 1
    _same_values(reused, fresh)


def test_what_counts_as_changing_values():
    steps = read_recipe("import torch\nx = torch.zeros(3)\nx.add_(1)\ny = x + 1\n"
                        "z = torch.relu(x)\nlin = torch.nn.Linear(3, 2)\nout = lin(x)\n").steps
    assert [may_change_values(s) for s in steps] == [False, True, False, False, False, True]


def test_the_document_shows_the_prefix_output_once_after_an_edit():
    doc = Document(read_recipe(HEAD + "y = x + 1\n"))
    printed = doc.output
    assert printed.count("tensor(") == 1
    index = doc.recipe.index_of("y")
    doc.recipe.replace_step(index, Step("y", BinOp("+", Ref("x"), Const(2))))
    assert doc.run.reused == 3
    assert doc.output == printed
