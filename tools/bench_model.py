"""The Model tab's figure for ``tools/bench.py`` (``--only model``): ``module view, 100
layers``.

A main window on a recipe that makes a 64x64 tensor and a 100-layer model (an
``nn.Sequential`` of 100 ``Linear(64, 64)``) and calls it once. Each pair:

- the tensor's step selected with the Tensor tab showing, until the viewer has laid out
  and painted the plane the kernel sent (the baseline: ``tensor viewer``'s own path);
- the model's step selected with the Model tab's Tree showing, until the tree the kernel
  described is laid out and painted; then its Graph tab chosen, until the graph the
  kernel traced is drawn and painted. The two times add up: what a user waits for to
  see both.

Target: the model's time at most twice the tensor's.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

RECIPE = """import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.rand(64, 64)
model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(100)])
out = model(torch.randn(8, 64))
"""


def bench_model_view(pairs: int, figure, interleave, qapp, settle) -> list:
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.settings import Settings
    from widgets.launch import make_window

    qapp()
    folder = tempfile.TemporaryDirectory(prefix="tensor-lab-bench-model-")
    path = Path(folder.name) / "model.py"
    path.write_text(RECIPE, encoding="utf-8")
    window = make_window(str(path), restore_layout=False, trust=True, settings=Settings())
    window.resize(1280, 800)
    window.show()
    document = window.document
    panel = window.model  # built now, as after a first paint
    shown: list[str] = []
    for owner, name in ((window.viewer, "show_plane"), (panel.tree_view, "show_tree"),
                        (panel.graph_view.view, "set_graph")):
        real = getattr(owner, name)
        setattr(owner, name, lambda *a, _real=real, _name=name, **k: (
            _real(*a, **k), shown.append(_name))[0])

    def idle(limit: float = 120.0) -> None:
        deadline = time.monotonic() + limit
        while document.kernel_run is not None or document.asking \
                or document.waiting_since is not None:
            if time.monotonic() > deadline:
                raise RuntimeError("the kernel did not answer")
            QApplication.processEvents()

    def until(name: str, widget) -> None:
        deadline = time.monotonic() + 60
        while name not in shown:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing came through {name}")
            QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        widget.repaint()

    def unselect(tab) -> None:
        document.select(None)
        window.views.setCurrentWidget(tab)
        idle()
        settle()
        shown.clear()

    steps = [document.step_text(i, s) for i, s in enumerate(document.recipe.steps)]
    tensor_step, model_step = steps.index("x = torch.rand(64, 64)"), next(
        i for i, text in enumerate(steps) if text.startswith("model = "))

    def tensor() -> float:
        unselect(window.viewer)
        start = time.perf_counter()
        document.select(tensor_step)
        until("show_plane", window.viewer)
        return time.perf_counter() - start

    def module() -> float:
        unselect(panel)
        panel.views.setCurrentWidget(panel.splitter)
        settle()
        start = time.perf_counter()
        document.select(model_step)
        until("show_tree", panel)
        tree = time.perf_counter() - start
        start = time.perf_counter()
        panel.views.setCurrentWidget(panel.graph_view)
        until("set_graph", panel)
        return tree + time.perf_counter() - start

    try:
        idle()
        tensor(), module()  # warm: the first drawing of each imports its modules
        tensors, modules = interleave(tensor, module, pairs)
    finally:
        window.kernel_hook.close()
        window.confirm_discard = lambda: True
        window.close()
        folder.cleanup()
    ratios = [m / t for t, m in zip(tensors, modules, strict=True)]
    return [figure("module view, 100 layers",
                   f"{statistics.median(tensors) * 1e3:.1f} ms tensor step",
                   f"{statistics.median(modules) * 1e3:.1f} ms tree and graph",
                   statistics.median(ratios), "", "<= 2",
                   f"selecting a 100-layer nn.Sequential's step until its tree is painted, "
                   f"then its Graph tab until the graph is, against selecting a 64x64 "
                   f"tensor's step until the viewer painted its plane; {len(ratios)} pairs "
                   f"(ratios {min(ratios):.2f} to {max(ratios):.2f})")]
