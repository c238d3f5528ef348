"""Sparse, meta, nested and quantized tensors are described, never fatal (core tier).

``tolist()``, ``shape`` and ``numpy()`` raise on these kinds; the ``--json`` report, the
window kernel's per-statement summaries, its queries and its checkpoints must describe
them instead, and every later statement still runs. Expected values are torch's own,
worked out here on the same tensors.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch

from app.link.events import Ended, RunMessage
from app.link.session import KernelSession
from kernel.tensor_info import tensor_facts, tensor_stats
from protocol import messages as msg
from tests.test_cli import tensor_lab
from tests.test_kernel_queries import _ask, _events

RECIPE = """\
import torch
s = torch.eye(3).to_sparse()
c = torch.eye(3).to_sparse_csr()
m = torch.empty(3, device='meta')
n = torch.nested.nested_tensor([torch.ones(2), torch.arange(3.0)])
q = torch.quantize_per_tensor(torch.tensor([0.1, 0.25, 0.3, 0.4]), 0.1, 0, torch.quint8)
for i in range(3):
    k = torch.nested.nested_tensor([torch.ones(i + 1)])
    z = torch.quantize_per_tensor(torch.tensor(0.5), 0.1, 0, torch.quint8)
after = 1
"""


def _tensors() -> dict[str, torch.Tensor]:
    """The recipe's tensors, made here as the recipe makes them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's beta/prototype/deprecation notes
        namespace: dict = {}
        exec(RECIPE, namespace)  # noqa: S102 - the test's own recipe text
    return namespace


def test_json_reports_sparse_meta_nested_and_quantized_tensors_with_their_values(tmp_path):
    path = tmp_path / "kinds.py"
    path.write_text(RECIPE, encoding="utf-8")
    lab = tensor_lab("run", str(path), "--json")
    assert lab.returncode == 0, lab.stderr
    report = json.loads(lab.stdout)
    assert report["errors"] == [] and report["values"]["after"] == 1
    t, got = _tensors(), report["tensors"]
    for name in "sc":
        assert got[name]["shape"] == [3, 3] and got[name]["nnz"] == t[name]._nnz()
        assert got[name]["values"] == t[name].to_dense().tolist()
    assert got["s"]["layout"] == "sparse_coo" and got["c"]["layout"] == "sparse_csr"
    assert got["m"]["shape"] == [3] and got["m"]["device"] == "meta"
    assert "values" not in got["m"] and got["m"]["no_values"]
    assert got["n"]["shape"] is None and got["n"]["shapes"] == [[2], [3]]
    assert [c["values"] for c in got["n"]["components"]] == [
        c.tolist() for c in t["n"].unbind()]
    q = t["q"]
    assert got["q"]["dtype"] == "torch.quint8" and got["q"]["qscheme"] == "per_tensor_affine"
    assert (got["q"]["scale"], got["q"]["zero_point"]) == (q.q_scale(), q.q_zero_point())
    assert got["q"]["values"] == q.dequantize().tolist()


def test_a_large_sparse_tensor_is_reported_by_its_stored_entries(tmp_path):
    path = tmp_path / "big.py"
    path.write_text("import torch\nb = torch.sparse_coo_tensor([[0, 999], [5, 999]], "
                    "[1.5, -2.0], (1000, 1000)).to_sparse_csr()\n", encoding="utf-8")
    lab = tensor_lab("run", str(path), "--json")
    assert lab.returncode == 0, lab.stderr
    got = json.loads(lab.stdout)["tensors"]["b"]
    assert "values" not in got
    assert got["coo"] == {"indices": [[0, 999], [5, 999]], "values": [1.5, -2.0]}


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _run(session: KernelSession, path, text: str, resume: bool = False
         ) -> tuple[int, list]:
    path.write_text(text, encoding="utf-8")
    run_id = session.run(text, str(path), str(path.parent), resume=resume)
    events = _events(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)
    return run_id, [e.message for e in events
                    if isinstance(e, RunMessage) and e.run_id == run_id]


def test_the_window_kernel_runs_on_past_each_kind_and_its_views_answer(session, tmp_path):
    run_id, messages = _run(session, tmp_path / "kinds.py", RECIPE)
    done = {m.index: m for m in messages if isinstance(m, msg.StepDone)}
    assert sorted(done) == list(range(8)) and all(m.error is None for m in done.values())
    assert done[7].names["after"] == {"type": "int", "value": 1}  # the step after them
    t = _tensors()
    names = {name: summary for m in done.values() for name, summary in m.names.items()}
    assert names["s"]["values"] == t["s"].to_dense().tolist()
    assert names["q"]["values"] == t["q"].dequantize().tolist()
    assert names["q"]["scale"] == t["q"].q_scale()
    assert names["n"]["shapes"] == [[2], [3]] and names["k"]["shapes"] == [[3]]
    assert names["z"]["values"] == 0.5 and "no_values" in names["m"]
    by_name = {name: i for i, m in done.items() for name in m.names}
    for name, values in [("s", t["s"].to_dense()), ("c", t["c"].to_dense()),
                         ("q", t["q"].dequantize())]:
        answer = _ask(session, "tensor", {"run": run_id, "statement": by_name[name],
                                          "name": name})
        assert answer.error == "", name
        assert np.array_equal(answer.data["plane"], values.reshape(-1, values.shape[-1]))
        assert [tuple(s) for s in answer.data["stats"]] == tensor_stats(values)
    nested = _ask(session, "tensor", {"run": run_id, "statement": 4, "name": "n"})
    assert nested.error == "" and "plane" not in nested.data
    assert "nested" in nested.data["plane_error"]
    flat = torch.cat([c.reshape(-1) for c in t["n"].unbind()])
    assert [tuple(s) for s in nested.data["stats"]] == tensor_stats(flat)
    meta = _ask(session, "tensor_stats", {"run": run_id, "statement": 3, "name": "m"})
    assert meta.error == "" and {v for _, v in meta.data["stats"]} == {"—"}
    # the checkpoints held them too: an edit of the last statement runs only that one
    _, again = _run(session, tmp_path / "kinds.py", RECIPE.replace("after = 1", "after = 2"),
                    resume=True)
    assert [m.start for m in again if isinstance(m, msg.Resumed)] == [len(done) - 1]
    assert [m.names for m in again if isinstance(m, msg.StepDone)] == [
        {"after": {"type": "int", "value": 2}}]


def test_the_viewers_facts_of_each_kind_say_what_torch_says():
    t = _tensors()
    facts = {name: dict(tensor_facts(t[name])) for name in "scmnq"}
    assert facts["s"]["shape"] == "(3, 3)" and facts["s"]["strides"].endswith(
        f"sparse_coo, nnz {t['s']._nnz()}")  # no strides: its layout, and what it stores
    assert facts["n"]["shape"] == "nested (2,), (3,)"
    assert facts["n"]["numel"] == str(t["n"].numel())
    q = t["q"]
    assert facts["q"]["dtype"] == (f"{q.dtype} (per_tensor_affine, scale {q.q_scale()}, "
                                   f"zero_point {q.q_zero_point()})")
    assert facts["m"]["strides"] == str(t["m"].stride())
