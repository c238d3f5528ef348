"""The kernel's ``inner_step`` query (``kernel.explain.inner_step_query``), run here on a
namespace built by hand: the op statement inside a loop or a function, the values it read
then, and what it made, compared with torch run directly. Core tests."""

from __future__ import annotations

import torch

import kernel.explain.inner_step_query  # noqa: F401 - registers the query
from app.explain.op_facts import op_table
from kernel import mirror
from kernel.queries import Values, answer


def _ask(source: str, namespace: dict, statement: int, samples: dict | None = None) -> dict:
    values = Values()
    values.source, values.namespace = source, namespace
    return answer(values, "inner_step", {"statement": statement, "samples": samples or {},
                                         "ops": op_table(source)})


def test_a_loop_reads_the_iterations_sample_for_its_counter_and_the_kernel_for_the_rest():
    x = torch.arange(6.0).view(3, 2)
    source = "for i in range(3):\n    y = x[i] * 10\n"
    sample = {"i": {"plain": 1}, "y": mirror.encode(x[1] * 10)}
    found = _ask(source, {"x": x, "i": 2, "y": x[2] * 10}, 0, sample)
    assert found["code"] == "y = x[i] * 10" and found["where"] == "loop"
    assert set(found["inputs"]) == {"x", "i"} and found["inputs"]["i"] == {"plain": 1}
    assert torch.equal(mirror.decode(found["output"]), x[1] * 10)
    assert found["same"] is True  # what the loop made in iteration 1, its sample says


def test_a_loop_statement_that_changes_what_it_reads_is_not_explained():
    found = _ask("for i in range(3):\n    x = x * 2\n", {"x": torch.ones(2), "i": 2}, 0,
                 {"i": {"plain": 2}, "x": mirror.encode(torch.full((2,), 8.0))})
    assert "x changes in the loop's body" in found["why"]


def test_a_sample_that_disagrees_says_so():
    x = torch.arange(4.0)
    found = _ask("for i in range(2):\n    y = x + i\n", {"x": x, "i": 1}, 0,
                 {"i": {"plain": 1}, "y": mirror.encode(x)})  # not x + 1: x changed since
    assert found["same"] is False


def test_a_function_of_one_return_gets_its_arguments_and_defaults():
    x = torch.arange(9.0).view(3, 3)

    def band(a, k=1):
        return torch.triu(a, k)

    source = "def band(a, k=1):\n    return torch.triu(a, k)\ny = band(x.t())\n"
    found = _ask(source, {"x": x, "band": band, "y": band(x.t())}, 1)
    assert found["code"] == "y = torch.triu(a, k)" and found["function"] == "band"
    assert found["line"] == 2 and found["same"] is True
    assert torch.equal(mirror.decode(found["inputs"]["a"]), x.t())
    assert found["inputs"]["k"] == {"plain": 1}
    assert torch.equal(mirror.decode(found["output"]), torch.triu(x.t(), 1))


def test_a_function_is_never_run_and_other_statements_say_nothing():
    ran = []

    def noisy(a):
        ran.append(a)
        return a

    source = "def noisy(a):\n    ran.append(a)\n    return a\ny = noisy(x)\nz = len(x)\n"
    namespace = {"x": torch.ones(2), "noisy": noisy, "len": len}
    assert "not one return" in _ask(source, namespace, 1)["why"]
    assert _ask(source, namespace, 2) == {} and ran == []


def test_an_op_the_window_does_not_name_is_never_called():
    """The kernel calls only the ops the question names (the window's catalogue): without
    them, the loop's statement is not an op statement at all."""
    values = Values()
    values.source, values.namespace = "for i in range(2):\n    y = torch.tril(x)\n", {
        "x": torch.ones(2, 2), "i": 1}
    found = answer(values, "inner_step", {"statement": 0, "samples": {"i": {"plain": 1}}})
    assert "no op statement" in found["why"]

