"""The tensor viewer shows what it shows without torch in the window (issue #33).

A big plane's heatmap is pooled in the kernel (``kernel.explain.heatmap``); a loop
iteration's small tensor shows from its summary: the kernel's statistics
(``tensor_stats``'s texts), its facts, and its planes as numpy arrays. The checks compare
with torch, which only the tests import.
"""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from kernel.explain.heatmap import pooled
from kernel.summary import summarize
from kernel.tensor_info import plane as tensor_plane
from kernel.tensor_info import plane_array, tensor_stats
from protocol.tensor_summary import plane, summary_array, summary_stats

ROOT = Path(__file__).resolve().parents[1]
#: The viewer's modules, and those of app/ it imports that issue #33 made torch-free.
TORCH_FREE = [*sorted((ROOT / "widgets" / "viewer").glob("*.py")),
              ROOT / "protocol" / "tensor_summary.py", ROOT / "kernel" / "summary.py"]

NAN, INF = float("nan"), float("inf")


def _torch_pooled(image: np.ndarray, block: tuple[int, int]) -> np.ndarray:
    t = torch.from_numpy(np.ascontiguousarray(image))[None, None]
    return torch.nn.functional.avg_pool2d(t, block, ceil_mode=True)[0, 0].numpy()


@pytest.mark.parametrize("shape, block", [
    ((7, 5), (3, 2)),      # partial blocks at the bottom and the right
    ((1, 9), (1, 4)),      # one row (a 1-D tensor's plane)
    ((9, 1), (4, 1)),      # one column
    ((6, 6), (6, 6)),      # one block: the whole plane
    ((5, 5), (4, 4)),      # a last block of one row and one column
])
def test_the_kernels_heatmap_is_block_means_and_the_whole_planes_finite_levels(shape, block):
    for dtype in (torch.float32, torch.float64):
        plane_t = torch.arange(math.prod(shape), dtype=dtype).reshape(shape) - 3.5
        image, levels = pooled(plane_t, block)
        np.testing.assert_array_equal(image, _torch_pooled(plane_t.numpy(), block))
        assert image.dtype == plane_t.numpy().dtype
        assert levels == (-3.5, math.prod(shape) - 4.5)
        for holes in ([NAN], [INF], [-INF], [INF, -INF]):
            marked = plane_t.clone()
            marked.view(-1)[-len(holes):] = torch.tensor(holes, dtype=dtype)
            image, levels = pooled(marked, block)
            want = _torch_pooled(marked.numpy(), block)
            assert np.isnan(image[-1, -1])  # the block with the hole: missing
            np.testing.assert_array_equal(image[np.isfinite(want)], want[np.isfinite(want)])
            finite = marked[torch.isfinite(marked)]
            assert levels == (finite.min().item(), finite.max().item())
        image, levels = pooled(torch.full(shape, NAN, dtype=dtype), block)
        assert np.isnan(image).all() and levels == (0.0, 1.0)


def test_the_kernels_heatmap_widens_what_the_window_draws_as_numbers():
    ints = torch.tensor([[2**40, 0], [1, 3]])
    image, levels = pooled(ints, (2, 2))
    assert image.dtype == np.float64 and image[0, 0] == (2**40 + 4) / 4
    assert levels == (0.0, float(2**40))
    image, levels = pooled(torch.tensor([[True, False, True]]), (1, 2))
    assert image.dtype == np.float32 and image.tolist() == [[0.5, 1.0]]
    assert levels == (0.0, 1.0)
    image, _ = pooled(torch.tensor([[3 + 4j, 0j]]), (1, 2))
    assert image.tolist() == [[2.5]]  # by magnitude
    image, levels = pooled(torch.full((4, 4), 7, dtype=torch.int8), (2, 2))
    assert image.dtype == np.float32 and (image == 7).all() and levels == (3.5, 10.5)


def _tensors() -> dict[str, torch.Tensor]:
    torch.manual_seed(0)
    holes = torch.randn(4, 5)
    holes[0, 1], holes[2, 3], holes[3, 0] = NAN, INF, -INF
    return {
        "float32": torch.randn(8, 8), "float64": torch.randn(3, 7, dtype=torch.float64),
        "float16": torch.randn(5, 3).half(), "bfloat16": torch.randn(2, 6).bfloat16(),
        "nan and inf": holes, "all nan": torch.full((3,), NAN),
        "int64": torch.randint(-10**12, 10**12, (4, 4)), "int8": torch.randint(-9, 9, (6,)),
        "uint8": torch.randint(0, 255, (2, 3), dtype=torch.uint8),
        "bool": torch.rand(3, 4) > 0.5, "one element": torch.tensor([2.5]),
        "complex64": torch.randn(3, 2, dtype=torch.complex64),
        "complex with nan": torch.tensor([1 + 2j, complex(NAN, 1), 3j]),
        "3-d": torch.randn(2, 3, 4), "grad": torch.randn(3, 2, requires_grad=True) * 2,
        "empty": torch.zeros(0), "empty 2-d": torch.zeros(2, 0),
        "empty int": torch.zeros(0, 3, dtype=torch.int32),
        "0-d": torch.tensor(3.14159265), "0-d nan": torch.tensor(NAN),
        "0-d inf": torch.tensor(-INF), "0-d int": torch.tensor(-7),
        "0-d bool": torch.tensor(True), "0-d half": torch.tensor(0.1, dtype=torch.float16),
        "0-d complex": torch.tensor(3 + 4j),
    }


def _sent(t: torch.Tensor) -> dict:
    """``t``'s summary as the window gets it: through JSON."""
    return json.loads(json.dumps(summarize(t)))


@pytest.mark.parametrize("name", list(_tensors()))
def test_a_summarys_statistics_are_tensor_stats(name):
    t = _tensors()[name]
    summary = _sent(t)
    assert summary_stats(summary) == tensor_stats(t)
    if t.dim() == 0 and not t.is_complex():  # its one value tells them (a loop's sample)
        assert "stats" not in summary


@pytest.mark.parametrize("name", list(_tensors()))
def test_a_summarys_planes_are_the_tensors(name):
    t = _tensors()[name]
    values = summary_array(_sent(t))
    assert values is not None and values.shape == tuple(t.shape)
    dims = [(0, 1, {})] if t.dim() < 3 else [(0, 1, {2: 3}), (2, 0, {1: 2}), (-1, -2, {})]
    for rows, cols, fixed in dims:
        want = plane_array(tensor_plane(t, rows, cols, fixed))
        got = plane(values, rows, cols, fixed)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def _torch_imports(path: Path) -> list[int]:
    """The lines of ``path`` that import torch, at any depth (in functions too)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(n == "torch" or n.startswith("torch.") for n in names):
            lines.append(node.lineno)
    return lines


def test_the_viewers_modules_never_import_torch():
    found = {str(p.relative_to(ROOT)): _torch_imports(p) for p in TORCH_FREE}
    assert len(found) > 5 and not any(found.values()), found


def test_the_viewer_imports_with_torch_unavailable():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import widgets.viewer.panel  # noqa\n"
            "print('imported')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.stdout.strip() == "imported", done.stderr


@pytest.mark.gui
def test_a_loop_iterations_small_tensor_shows_without_torch(qtbot, run_in_kernel,
                                                            monkeypatch):
    """An earlier iteration's tensor comes as its summary: grid, facts and statistics show
    with ``import torch`` failing in the window."""
    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from kernel.tensor_info import tensor_facts
    from widgets.viewer.panel import ViewerPanel

    doc = run_in_kernel(Document(read_recipe(
        "import torch\nw = torch.ones(2, 3, requires_grad=True)\nfor i in range(3):\n"
        "    y = (w * i).t()\n    y[0, 0] = float('nan') if i == 1 else y[0, 0]\n")))
    viewer = ViewerPanel(doc)
    qtbot.addWidget(viewer)
    doc.select(1)  # the loop ("import torch" is no step)
    doc.settle()
    assert viewer.iterations.iteration == 2  # the last, which the kernel holds
    made = (torch.ones(2, 3, requires_grad=True) * 1).t()  # iteration 1's, made here
    made[0, 0] = NAN
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails from here on
    viewer.iterations.pick(1)
    cells = viewer.table_model.values.copy()
    facts = viewer.facts_text()
    stats = viewer.stats_text()
    monkeypatch.undo()
    assert viewer.iterations.iteration == 1
    np.testing.assert_array_equal(cells, made.detach().numpy())
    assert cells.dtype == np.float32
    assert dict(line.split(": ", 1) for line in facts.splitlines()) == dict(tensor_facts(made))
    assert stats == "   ".join(f"{k} {v}" for k, v in tensor_stats(made))
    assert "NaN 1" in stats and "min 1" in stats  # read by hand
