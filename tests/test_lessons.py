"""Errors are lessons: every pattern is checked against the message torch really gives.

Each case triggers the error in torch itself, so a change in torch's wording shows up
here instead of as a silent loss of the explanation. Core tests: no QApplication.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
import torch.nn.functional as F

from app.catalog.error_lessons import PATTERNS, Lesson, dtype_name, explain, op_name
from tests.python_run import run_python

x = torch.arange(12.0).view(3, 4)

#: (op key, how to trigger the error, words the cause or fix must contain)
CASES: list[tuple[str | None, Callable[[], object], tuple[str, ...]]] = [
    # dims
    ("Tensor.sum", lambda: x.sum(dim=2), ("[-2, 1]", "2-D tensor", "2")),
    ("torch.cat", lambda: torch.cat((x, x), dim=2), ("[-2, 1]", "2-D tensor")),
    ("Tensor.sum", lambda: torch.ones(2, 3, 4).sum(dim=-4), ("[-3, 2]", "3-D tensor", "-4")),
    ("Tensor.sum", lambda: torch.tensor(1.0).sum(dim=1), ("[-1, 0]", "0-D")),
    ("Tensor.unsqueeze", lambda: x.unsqueeze(5), ("[-3, 2]", "2-D tensor", "3 places")),
    ("torch.stack", lambda: torch.stack((x, x), dim=4), ("[-3, 2]", "new dimension")),
    ("Tensor.squeeze", lambda: x.squeeze(3), ("[-2, 1]", "2-D tensor")),
    ("Tensor.transpose", lambda: x.transpose(0, 2), ("[-2, 1]",)),
    ("Tensor.t", lambda: torch.ones(2, 3, 4).t(), ("3-D", "transpose(dim0, dim1)")),
    ("torch.tril", lambda: torch.tril(torch.ones(3)), ("tril", "2 dimensions")),
    ("Tensor.permute", lambda: x.permute(0, 1, 2), ("2 dimensions", "3 were given")),
    ("Tensor.permute", lambda: x.permute(0, 0), ("exactly once",)),
    # view and reshape
    ("Tensor.view", lambda: x.t().view(12), ("`.contiguous()`", "`reshape`", "strides")),
    ("Tensor.view", lambda: x.view(5, 3), ("15 elements", "12", "(3, 4)")),
    ("Tensor.reshape", lambda: x.reshape(5, -1), ("multiply to 5", "not a multiple")),
    ("Tensor.view", lambda: x.view(-1, -1), ("Only one size can be -1",)),
    ("Tensor.expand", lambda: x.expand(3, 5), ("size 1", "dimension 1 has size 4", "repeat")),
    ("Tensor.expand", lambda: x.expand(4), ("every existing dimension (2)", "1")),
    ("Tensor.repeat", lambda: x.repeat(2), ("every dimension",)),
    ("torch.zeros", lambda: torch.zeros(-1, 3), ("negative",)),
    ("torch.randperm", lambda: torch.randperm(-1), ("negative",)),
    # indexing
    ("torch.gather", lambda: torch.gather(x, 1, torch.tensor([[5]])),
     ("[0, 3]", "dim 1", "size 4", "5")),
    ("torch.gather", lambda: torch.gather(x, 1, torch.tensor([[-1]])), ("[0, 3]", "negative")),
    (None, lambda: x[5], ("size 3", "0 to 2", "-3 to -1")),
    ("torch.index_select", lambda: torch.index_select(x, 0, torch.tensor([7])),
     ("index_select",)),
    ("torch.gather", lambda: torch.gather(x, 1, torch.tensor([1])), ("as many dimensions",)),
    ("torch.gather", lambda: torch.gather(x, 1, torch.zeros(4, 1, dtype=torch.long)),
     ("[4, 1]", "[3, 4]", "dimension 0")),
    ("torch.gather", lambda: torch.gather(x, 1, torch.zeros(3, 1)), ("int64", ".long()")),
    ("torch.index_select", lambda: torch.index_select(x, 0, torch.tensor([0.0])), ("int64",)),
    ("torch.index_select", lambda: torch.index_select(x, 0, torch.tensor([[0]])), ("1-D",)),
    (None, lambda: x[torch.tensor([0.5])], ("whole numbers",)),
    (None, lambda: x[0, 0, 0], ("2 dimensions",)),
    ("Tensor.masked_fill", lambda: x.masked_fill(x, 0.0), ("bool", "float32", "mask == 0")),
    ("Tensor.masked_fill", lambda: x.masked_fill(x.long(), 0.0), ("int64",)),
    ("Tensor.masked_fill", lambda: x.masked_fill(x > 1, torch.ones(2)), ("1-D", "where")),
    ("torch.where", lambda: torch.where(x, x, x), ("bool", "float32")),
    # joining
    ("torch.cat", lambda: torch.cat((x, torch.ones(3, 5)), dim=0),
     ("dim 0", "tensor number 1", "5", "4")),
    ("torch.cat", lambda: torch.cat((x, torch.ones(4)), dim=0), ("2", "1", "unsqueeze")),
    ("torch.cat", lambda: torch.cat([]), ("empty",)),
    ("torch.stack", lambda: torch.stack([]), ("empty",)),
    ("torch.stack", lambda: torch.stack((x, torch.ones(3, 5))), ("[3, 4]", "[3, 5]", "cat")),
    ("torch.split", lambda: torch.ones(5).split([2, 2]), ("5", "[2, 2]", "adds up to 4")),
    ("Tensor.chunk", lambda: torch.ones(3).chunk(0), ("at least 1", "0")),
    # linear algebra
    ("torch.mm", lambda: torch.mm(x, x), ("3x4", "columns", "4 is not 3")),
    ("@", lambda: torch.ones(2, 3) @ torch.ones(4, 5), ("2x3", "4x5", "3 is not 4")),
    ("torch.matmul", lambda: torch.ones(3) @ torch.ones(4), ("3", "4", "same length")),
    ("torch.bmm", lambda: torch.bmm(x, x), ("3-D", "batch1", "unsqueeze(0)")),
    ("torch.bmm", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
     ("[2, 4]", "[3, 4]")),
    ("torch.mv", lambda: torch.mv(x, torch.ones(5)), ("(3x4)", "4 elements", "not 5")),
    ("torch.mv", lambda: torch.mv(torch.ones(3), torch.ones(3)), ("2-D matrix",)),
    ("torch.dot", lambda: torch.dot(torch.ones(3), torch.ones(4)), ("3", "4", "same length")),
    ("torch.dot", lambda: torch.dot(x, x), ("1-D", "2-D", "matmul")),
    ("@", lambda: torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.long),
     ("float32", "int64")),
    ("torch.mm", lambda: torch.mm(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)),
     ("float32", "float64")),
    ("torch.dot", lambda: torch.dot(torch.ones(3), torch.ones(3, dtype=torch.long)),
     ("float32", "int64")),
    (None, lambda: torch.addmm(torch.ones(2, 2), torch.ones(2, 2),
                               torch.ones(2, 2, dtype=torch.float64)), ("float32", "float64")),
    ("F.cross_entropy", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0])),
     ("cross_entropy", "int64", ".long()")),
    ("torch.einsum", lambda: torch.einsum("ij", torch.ones(2, 3, 4)),
     ("operand 0", "3 dimensions", "2 letters")),
    ("torch.einsum", lambda: torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(4, 5)),
     ("Letter j", "4", "3")),
    ("torch.einsum", lambda: torch.einsum("ij,jk->ik", torch.ones(2, 3)), ("one tensor per",)),
    # broadcasting and in-place
    ("+", lambda: torch.ones(2, 3) + torch.ones(2, 4),
     ("dimension 1", "size 3", "4", "neither is 1")),
    ("torch.mul", lambda: torch.ones(3) * torch.ones(4), ("dimension 0",)),
    ("Tensor.add_", lambda: torch.ones(3).add_(torch.ones(2, 3)), ("[3]", "[2, 3]")),
    ("Tensor.add_", lambda: torch.arange(3).add_(0.5), ("int64", "float32")),
    ("Tensor.add_", lambda: torch.ones(3, requires_grad=True).add_(1),
     ("requires_grad=True", "torch.no_grad()")),
    ("Tensor.requires_grad_", lambda: torch.arange(3).requires_grad_(), ("floating point",)),
    ("Tensor.backward", lambda: torch.ones(2).sum().backward(), ("requires_grad=True",)),
    # dtypes
    ("torch.rand_like", lambda: torch.rand_like(torch.arange(3)),
     ("rand_like", "int64", "dtype=torch.float32")),
    ("torch.randn_like", lambda: torch.randn_like(torch.arange(3)), ("randn_like", "int64")),
    ("&", lambda: x & x, ("float32", "(x > 0) & (x < 5)")),
    ("Tensor.softmax", lambda: torch.arange(3).softmax(0), ("softmax", "int64", "x.float()")),
    ("Tensor.mean", lambda: torch.arange(3).mean(), ("mean", "int64", "x.float()")),
    ("Tensor.std", lambda: torch.arange(3).std(), ("floating point",)),
    ("torch.multinomial", lambda: torch.multinomial(torch.tensor([1, 1]), 1), ("int64",)),
    ("-", lambda: torch.tensor([True]) - torch.tensor([False]), ("bool", "^")),
    ("-", lambda: -torch.tensor([True]), ("~mask",)),
    ("//", lambda: torch.arange(3) // 0, ("zero",)),
    ("F.one_hot", lambda: F.one_hot(torch.tensor([1.0])), ("int64", ".long()")),
    ("F.one_hot", lambda: F.one_hot(torch.tensor([5]), 3), ("num_classes",)),
    ("F.one_hot", lambda: F.one_hot(torch.tensor([-1]), 3), ("negative",)),
    ("Tensor.item", lambda: x.item(), ("12 elements", "tolist()")),
    # sampling
    ("torch.multinomial", lambda: torch.multinomial(torch.tensor([-1.0, 1.0]), 1),
     ("non-negative",)),
    ("torch.multinomial", lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1), ("0",)),
    ("torch.multinomial", lambda: torch.multinomial(torch.tensor([1.0, 1.0]), 3),
     ("replacement=True",)),
    # arguments and creation
    ("torch.clamp", lambda: torch.clamp(x), ("min", "max")),
    ("torch.argmax", lambda: torch.ones(0).argmax(), ("empty",)),
    ("torch.arange", lambda: torch.arange(0, 5, -1), ("negative step",)),
    ("torch.linspace", lambda: torch.linspace(0, 1, -2), ("steps",)),
    ("torch.randint", lambda: torch.randint(5, 3, (2,)), ("low=5", "high=3")),
    ("torch.normal", lambda: torch.normal(0.0, -1.0, (2,)), ("-1",)),
    ("torch.tensor", lambda: torch.tensor([[1, 2], [3]]), ("same length", "2", "1")),
    ("torch.full", lambda: torch.full(3, 1.0), ("'size'", "tuple of ints", "int")),
    ("Tensor.to", lambda: x.to("gpu"), ("'gpu'",)),
    ("Tensor.to", lambda: torch.ones(2, device="meta") + torch.ones(2), ("same device",)),
]


def _trigger(make: Callable[[], object]) -> BaseException:
    try:
        make()
    except Exception as e:  # noqa: BLE001 - the error is the point
        return e
    raise AssertionError("torch did not fail")


@pytest.mark.parametrize(("op_key", "make", "words"), CASES,
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_real_torch_errors_have_lessons(op_key: str | None, make: Callable[[], object],
                                        words: tuple[str, ...]) -> None:
    error = _trigger(make)
    lesson = explain(op_key, type(error).__name__, str(error))
    assert isinstance(lesson, Lesson), f"no lesson for {type(error).__name__}: {error}"
    text = f"{lesson.cause} {lesson.fix}"
    for word in words:
        assert word in text, f"{word!r} not in {text!r} (torch said: {error})"
    assert "{" not in text and "}" not in text, text  # every template field was filled


def test_cuda_on_a_cpu_build_is_explained() -> None:
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    error = _trigger(lambda: torch.ones(2).to("cuda"))
    lesson = explain("Tensor.to", type(error).__name__, str(error))
    assert lesson is not None and "cpu" in lesson.fix


def test_the_issues_two_examples_word_for_word() -> None:
    dim = explain("Tensor.sum", "IndexError",
                  "Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    assert dim is not None and "dim must be in [-2, 1] for a 2-D tensor" in dim.cause
    view = explain("Tensor.view", "RuntimeError",
                   "view size is not compatible with input tensor's size and stride (at least "
                   "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                   "instead.")
    assert view is not None
    assert "`view` needs compatible strides: call `.contiguous()` first or use `reshape`" \
        in view.fix


def test_unknown_errors_have_no_lesson() -> None:
    assert explain("torch.zeros", "RuntimeError", "something nobody has seen") is None


def test_op_specific_patterns_only_apply_to_their_op() -> None:
    message = "index 5 is out of bounds for dimension 1 with size 4"
    gather = explain("torch.gather", "RuntimeError", message)
    plain = explain(None, "IndexError", message)
    assert gather is not None and plain is not None
    assert "gather" in gather.cause and "gather" not in plain.cause


def test_op_names_from_keys_and_operators() -> None:
    assert [op_name(k) for k in ("Tensor.view", "torch.cat", "F.softmax", "view", "@", None)] \
        == ["view", "cat", "softmax", "view", "matmul", ""]
    assert dtype_name("long int") == "int64" and dtype_name("Float") == "float32"


def test_every_pattern_is_exercised_by_a_real_error() -> None:
    """Each entry of the table matches at least one real message above (no dead patterns)."""
    messages = []
    for op_key, make, _ in CASES:
        error = _trigger(make)
        messages.append((op_key, str(error)))
    messages.append(("Tensor.to", "Torch not compiled with CUDA enabled"))
    messages.append((None, "budget: y would need 37.3 GiB; the lab's budget is 2.0 GiB per "
                           "tensor"))
    messages.append(("torch.zeros", "zeros() received an invalid combination of arguments"))
    unused = [p.pattern for p in PATTERNS
              if not any(p.regex.search(m) for _, m in messages)]
    assert not unused


def test_lessons_for_a_recipe_run() -> None:
    """The step's op key and the error python raised are all explain needs."""
    runs = [run_python("import torch\na = torch.zeros(2, 3)\n" + line)
            for line in ("b = a.t().view(6)\n", "c = torch.cat((a, a), dim=2)\n")]
    lessons = [explain(r.step.op, r.error_type, r.error) for run in runs
               for r in run.errors]
    assert [lesson is not None for lesson in lessons] == [True, True]
    assert "contiguous" in lessons[0].fix
    assert "[-2, 1]" in lessons[1].cause
