"""Form steps that the kernel runs come back with small copies of what they read and
made (``kernel.mirror``), so Op explained shows them element by element; values
too large to copy stay in the kernel. Expected values come from torch in this process.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch

from app.explain.step_view import make_step_view
from app.link.session import KernelSession
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.tensor_copy import TensorCopy
from kernel import mirror
from protocol.limits import MIRROR_CELLS
from tests.kernel_values import as_torch

RECIPE = '''\
import torch

torch.manual_seed(0)
x = torch.arange(12.0).reshape(3, 4)
y = torch.tril(x, diagonal=-1)
x.add_(100)
for i in range(2):
    pass
h = torch.ones(2, 2, dtype=torch.bfloat16, requires_grad=True)
parts = torch.chunk(x, 2)
big = torch.ones(300, 300)
z = torch.tril(big)
'''


def _run(tmp_path: Path, session: KernelSession) -> Document:
    path = tmp_path / "lesson.py"
    path.write_text(RECIPE, encoding="utf-8")
    doc = Document()
    doc.kernel = session
    doc.open(path)
    doc.held = False
    doc.evaluate()
    deadline = time.monotonic() + 120
    while doc.kernel_run is not None:
        assert time.monotonic() < deadline, "the kernel run did not end"
        doc.take_kernel_events(session.poll(0.01))
        time.sleep(0.01)
    return doc


def _step(doc: Document, name: str) -> int:
    return next(i for i, s in enumerate(doc.recipe.steps) if s.name == name)


def test_a_form_step_shows_its_inputs_as_they_were_before_it_ran(tmp_path, kernel_session):
    doc = _run(tmp_path, kernel_session)
    doc.select(_step(doc, "y"))
    sv = make_step_view(doc)
    assert isinstance(sv.result.value, KernelValue)
    x = torch.arange(12.0).reshape(3, 4)
    # x.add_(100) ran later in the kernel: the copy is of x before ``y = ...`` ran
    assert torch.equal(as_torch(sv.inputs["x"]), x)
    assert torch.equal(as_torch(sv.output), torch.tril(x, diagonal=-1))


def test_dtypes_grad_flags_and_parts_come_back(tmp_path, kernel_session):
    doc = _run(tmp_path, kernel_session)
    h = doc.run.results[_step(doc, "h")].value
    assert isinstance(h, KernelValue)
    # a copy, no torch: its values (bfloat16 widened to float32), dtype and grad flag;
    # its history stays in the kernel
    assert isinstance(h.output, TensorCopy) and h.output.values.dtype == np.float32
    assert h.output.dtype == "bfloat16" and h.output.requires_grad
    parts = doc.run.results[_step(doc, "parts")].value.output
    x = torch.arange(12.0).reshape(3, 4) + 100
    assert isinstance(parts, tuple) and len(parts) == 2
    for got, want in zip(parts, torch.chunk(x, 2), strict=True):
        assert torch.equal(as_torch(got), want)


def test_a_large_value_is_not_copied_and_the_hint_says_so(tmp_path, kernel_session):
    doc = _run(tmp_path, kernel_session)
    value = doc.run.results[_step(doc, "z")].value
    assert isinstance(value, KernelValue)
    assert value.output is None and "big" not in value.inputs  # 90,000 > MIRROR_CELLS
    assert value.names["z"]["shape"] == [300, 300]


def test_encode_and_decode_keep_values():
    t = torch.randn(3, 5, dtype=torch.float64)
    data = mirror.encode(t)
    assert isinstance(data["tensor"], np.ndarray)
    assert torch.equal(mirror.decode(data), t)
    assert mirror.decode(mirror.encode([1, 2.5, None, "a"])) == [1, 2.5, None, "a"]
    assert mirror.decode(mirror.encode(torch.int8)) is torch.int8
    assert mirror.encode(torch.zeros(MIRROR_CELLS + 1)) is None
    assert mirror.encode(object()) is None
    assert torch.equal(mirror.decode(mirror.encode(torch.tensor([1 + 2j]))),
                       torch.tensor([1 + 2j]))


def test_a_form_steps_large_values_come_when_asked_unless_changed_since(kernel_document):
    """90,000 cells do not come with the report; Op explained asks for them
    (``step_values``), and gets them as the step saw them, or hears that a later
    statement changed them in place."""
    from tests.conftest import finish

    doc = kernel_document("import torch\nx = torch.arange(90000.0).view(300, 300)\n"
                          "y = torch.tril(x, diagonal=1)\nx.add_(1)\n")
    value = doc.run.result_for("y").value
    assert value.inputs == {} and value.output is None  # too large for the report
    answers: list = []
    doc.ask("step_values", {"run": value.run_id, "statement": value.statement},
            lambda data, error: answers.append((data, error)))
    finish(doc)
    (data, error), = answers
    assert error == "" and data["changed"] == ["x"] and data["inputs"] == {}
    expected = torch.tril(torch.arange(90000.0).view(300, 300), diagonal=1)
    assert torch.equal(mirror.decode(data["output"]), expected)


def test_a_reports_values_are_made_copies_only_when_a_view_reads_them(monkeypatch):
    """Taking a run's reports makes no copy; reading a step's inputs or output makes
    them, once, equal to what the kernel copied."""
    import app.tensor_copy as tensor_copy  # (kernel_results imports it at the first read)

    made = []
    real = tensor_copy.copy_of
    monkeypatch.setattr(tensor_copy, "copy_of", lambda d: made.append(d) or real(d))
    x = torch.arange(6.0).reshape(2, 3)
    value = KernelValue({}, mirror={"inputs": {"x": mirror.encode(x)},
                                    "output": mirror.encode(x.t())})
    assert made == []
    assert torch.equal(as_torch(value.output), x.t())
    assert torch.equal(as_torch(value.inputs["x"]), x)
    assert len(made) == 2
    value.inputs["x"]  # noqa: B018 - read again: nothing made again
    assert len(made) == 2
    value.output = None  # a view's larger answer replaces it (op_explained_controller)
    assert value.output is None and torch.equal(as_torch(value.inputs["x"]), x)
