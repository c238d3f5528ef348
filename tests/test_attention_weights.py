"""Attention weights per head (``kernel.attention``, query ``attention``): what torch
returns for the same call asked for every head's weights, for ``nn.MultiheadAttention``
and for ``F.scaled_dot_product_attention`` (whose weights torch never returns: the
test computes ``softmax(q kᵀ/√d)`` itself, with numpy).

Core tier: a real kernel runs each recipe as the window runs it; the expected weights
come from the same seed and code run here under plain python.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from app.link.events import Ended, RunMessage
from app.link.session import KernelSession
from protocol import messages
from tests.test_kernel_queries import _ask, _events, _run

MHA = """import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(16, 2, batch_first=True)
x = torch.randn(3, 5, 16)
mask = torch.ones(5, 5, dtype=torch.bool).triu(1)
out, averaged = mha(x, x, x, attn_mask=mask)
"""

SDPA = """import torch
import torch.nn.functional as F
torch.manual_seed(1)
q, k, v = torch.randn(2, 4, 6, 8), torch.randn(2, 4, 7, 8), torch.randn(2, 4, 7, 8)
out = F.scaled_dot_product_attention(q, k, v)
causal = F.scaled_dot_product_attention(q, q, q, is_causal=True)
"""


@pytest.fixture(scope="module")
def session():
    s = KernelSession()
    yield s
    s.close()


def _calls(session, run_id) -> dict[str, dict]:
    answer = _ask(session, "attention", {"run": run_id})
    assert answer.error == ""
    return {c["label"]: c for c in answer.data["calls"]}


def test_a_multihead_attentions_weights_per_head_are_torchs_with_its_mask(session, tmp_path):
    run_id = _run(session, tmp_path, MHA)
    call = _calls(session, run_id)["mha"]
    assert (call["heads"], call["queries"], call["keys"], call["samples"]) == (2, 5, 5, 3)
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(16, 2, batch_first=True)
    x = torch.randn(3, 5, 16)
    mask = torch.ones(5, 5, dtype=torch.bool).triu(1)
    _, want = mha(x, x, x, attn_mask=mask, average_attn_weights=False)
    for sample in range(3):
        got = _ask(session, "attention", {"run": run_id, "call": call["key"],
                                          "sample": sample}).data["weights"]
        np.testing.assert_allclose(got, want[sample].detach().numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got.sum(axis=-1), 1.0, rtol=1e-5)  # rows sum to 1
        assert (got[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0).all()


def test_scaled_dot_product_attentions_weights_are_softmax_of_q_k(session, tmp_path):
    run_id = _run(session, tmp_path, SDPA)
    calls = _calls(session, run_id)
    plain = next(c for label, c in calls.items() if "line 5" in label)
    causal = next(c for label, c in calls.items() if "line 6" in label)
    torch.manual_seed(1)
    q, k = torch.randn(2, 4, 6, 8).numpy(), torch.randn(2, 4, 7, 8).numpy()
    for call, (keys, mask) in ((plain, (k, None)), (causal, (q, np.tril(np.ones((6, 6)))))):
        scores = q @ keys.swapaxes(-1, -2) / np.sqrt(8)
        if mask is not None:
            scores = np.where(mask == 1, scores, -np.inf)
        want = np.exp(scores - scores.max(-1, keepdims=True))
        want /= want.sum(-1, keepdims=True)
        assert (call["heads"], call["queries"], call["samples"]) == (4, 6, 2)
        for sample in range(2):
            got = _ask(session, "attention", {"run": run_id, "call": call["key"],
                                              "sample": sample}).data["weights"]
            np.testing.assert_allclose(got, want[sample], rtol=1e-5, atol=1e-6)


def test_no_call_is_kept_from_a_statement_an_edit_ran_again_without_it(session, tmp_path):
    run_id = _run(session, tmp_path, MHA)
    assert "mha" in _calls(session, run_id)
    run_id = _run(session, tmp_path, MHA.replace("out, averaged = mha(x, x, x, attn_mask=mask)",
                                                 "out = x"))
    assert _calls(session, run_id) == {}
    answer = _ask(session, "attention", {"run": run_id, "call": ["module", "mha"]})
    assert answer.error  # said, not raised


SCRIPTED = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Attend(nn.Module):
    def forward(self, q):
        return F.scaled_dot_product_attention(q, q, q)


torch.manual_seed(0)
mha = torch.jit.script(nn.MultiheadAttention(8, 2))
attend = torch.jit.script(Attend())
x = torch.randn(4, 1, 8)
print(round(float(mha(x, x, x)[0].detach().sum()), 4), round(float(attend(x).sum()), 4))
"""


def test_torchscript_compiles_attention_as_under_python(session, tmp_path):
    """The kernel's watch of attention calls leaves ``torch.jit.script`` of a multi-head
    attention and of a module calling ``F.scaled_dot_product_attention`` working, with
    what python prints."""
    import subprocess
    import sys

    path = tmp_path / "recipe.py"
    path.write_text(SCRIPTED, encoding="utf-8")
    want = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          check=True, timeout=120).stdout
    run_id = session.run(SCRIPTED, str(path), str(tmp_path))
    events = _events(session, lambda e: isinstance(e, Ended) and e.run_id == run_id)
    ended = next(e for e in events if isinstance(e, Ended) and e.run_id == run_id)
    printed = "".join(e.message.text for e in events if isinstance(e, RunMessage)
                      and e.run_id == run_id and isinstance(e.message, messages.Output))
    assert ended.exit_code == 0 and printed == want


def test_the_attention_page_draws_a_heatmap_per_head_whose_rows_sum_to_one(
        qtbot, run_in_kernel):
    """Widget tier: ``nn.MultiheadAttention(16, 2)`` on a length-5 sequence: two 5x5
    heatmaps, each head's weights as torch gives them for that sample."""
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from widgets.model.attention import AttentionView

    document = run_in_kernel(Document(read_recipe(MHA)))
    view = AttentionView(document)
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.show()
    qtbot.waitUntil(lambda: view.weights is not None, timeout=60_000)
    assert view.call["label"] == "mha" and len(view.images) == 2
    view.sample_box.setValue(2)
    qtbot.waitUntil(lambda: "sample 2 of" in view.note.text(), timeout=60_000)
    qtbot.waitUntil(lambda: document.asking is False, timeout=60_000)
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(16, 2, batch_first=True)
    x = torch.randn(3, 5, 16)
    _, want = mha(x, x, x, attn_mask=torch.ones(5, 5, dtype=torch.bool).triu(1),
                  average_attn_weights=False)
    for head, image in enumerate(view.images):
        shown = image.image
        assert shown.shape == (5, 5)
        np.testing.assert_allclose(shown.sum(axis=1), 1.0, rtol=1e-5)
        np.testing.assert_allclose(shown, want[2, head].detach().numpy(), rtol=1e-5,
                                   atol=1e-6)


def test_the_model_tabs_attention_page_shows_the_attention_lesson(make_window):
    """The gallery's attention lesson in the main window: the Model tab's Attention page
    has its one call, 2 heads of 5x5 whose rows sum to 1, zero above the diagonal."""
    from app.recipe.document import RECIPES_DIR

    window = make_window(str(RECIPES_DIR / "nn_attention.py"))
    panel = window.model
    window.views.setCurrentWidget(panel)
    panel.views.setCurrentWidget(panel.attention_view)
    view = panel.attention_view
    window.settle()
    assert view.call is not None and view.call["label"] == "attention"
    assert [image.image.shape for image in view.images] == [(5, 5), (5, 5)]
    for image in view.images:
        np.testing.assert_allclose(image.image.sum(axis=1), 1.0, rtol=1e-5)
        assert (np.triu(image.image, 1) == 0).all()
