"""Render the README's screenshots of the Model tab and the Distributions page, offscreen.

    python tools/model_screenshots.py [OUT_DIR]

At 1366x768, in English and in Chinese, and in presenter mode:

- ``model_tree*.png``: the notes' LeNet (recipes/nn_lenet.py) in the Model tab, its
  tree and conv1's activations for the recipe's one image;
- ``model_graph*.png``: its graph, shapes on every edge;
- ``model_live*.png``: the LeNet lesson training (recipes/training_lenet.py), conv1's
  activations taken while the loop runs;
- ``distributions*.png``: the too-large learning rate lesson
  (recipes/training_lr_too_large.py) on the Training tab's Distributions page;
- ``attention*.png``: the attention lesson (recipes/nn_attention.py), a heatmap per head.

PNGs go to ``resources/screenshots`` by default. The recipes run in kernels of their own;
nothing is written to the user's settings.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tools.training_screenshots import settle, wait  # noqa: E402 - after the path

SIZE = (1366, 768)
RECIPES = ROOT / "recipes"


def _window(app, recipe: str, present: bool):
    from app.settings import Settings
    from widgets.launch import make_window

    window = make_window(str(RECIPES / recipe), restore_layout=False, trust=True,
                         settings=Settings(), present=present)
    window.resize(*SIZE)
    window.show()
    return window


def _close(window) -> None:
    window.kernel_hook.close()
    window.confirm_discard = lambda: True
    window.close()


def _select(document, starts: str) -> None:
    document.select(next(i for i, s in enumerate(document.recipe.steps)
                         if document.step_text(i, s).startswith(starts)))


def _pick(app, panel, path: str) -> None:
    wait(app, lambda: panel.tree is not None, "the tree")
    panel.tree_view.setCurrentItem(panel.tree_view.row_of(path))
    wait(app, lambda: panel.activations.tile_count() > 0, f"{path}'s activations")


def shots(app, out: Path, suffix: str, present: bool) -> list[Path]:
    done = []
    window = _window(app, "nn_lenet.py", present)
    try:
        document = window.document
        wait(app, lambda: document.kernel_run is None, "the LeNet recipe")
        _select(document, "net = Net()")
        panel = window.model
        window.views.setCurrentWidget(panel)
        _pick(app, panel, "conv1")
        settle(app, 0.5)
        done.append(out / f"model_tree{suffix}.png")
        window.grab().save(str(done[-1]))
        panel.views.setCurrentWidget(panel.graph_view)
        wait(app, lambda: panel.graph_view.graph is not None, "the graph")
        settle(app, 0.5)
        done.append(out / f"model_graph{suffix}.png")
        window.grab().save(str(done[-1]))
    finally:
        _close(window)
    window = _window(app, "training_lenet.py", present)
    try:
        document = window.document
        panel = window.model
        wait(app, lambda: window.training.loop is not None and window.training.loop.steps > 1,
             "the LeNet loop")
        _select(document, "net = Net()")
        window.views.setCurrentWidget(panel)
        _pick(app, panel, "conv1")
        calls = panel.activations.data["call"]
        wait(app, lambda: (panel.activations.data or {}).get("call", calls) != calls
             or document.kernel_run is None, "a later live sample")
        done.append(out / f"model_live{suffix}.png")
        window.grab().save(str(done[-1]))
        wait(app, lambda: document.kernel_run is None, "the LeNet loop's end")
    finally:
        _close(window)
    window = _window(app, "training_lr_too_large.py", present)
    try:
        document = window.document
        window.views.setCurrentWidget(window.training)
        training = window.training
        training.views.setCurrentWidget(training.distributions)
        wait(app, lambda: document.kernel_run is None, "the too-large learning rate loop")
        training._drawn = -1  # noqa: SLF001 - draw what the loop holds now
        training._on_frame()  # noqa: SLF001
        training.distributions.fit()
        settle(app, 0.8)
        done.append(out / f"distributions{suffix}.png")
        window.grab().save(str(done[-1]))
    finally:
        _close(window)
    window = _window(app, "nn_attention.py", present)
    try:
        document = window.document
        wait(app, lambda: document.kernel_run is None, "the attention recipe")
        panel = window.model
        window.views.setCurrentWidget(panel)
        panel.views.setCurrentWidget(panel.attention_view)
        wait(app, lambda: panel.attention_view.weights is not None, "the attention weights")
        settle(app, 0.5)
        done.append(out / f"attention{suffix}.png")
        window.grab().save(str(done[-1]))
    finally:
        _close(window)
    return done


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QSettings

    from tools.bench import qapp
    from widgets.shell.translators import install_translators

    paths = [a for a in argv[1:] if not a.startswith("--")]
    out = Path(paths[0]) if paths else ROOT / "resources" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tensor-lab-shots-")
    app = qapp()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for language, suffix, present in (("en", "", False), ("zh_CN", "_zh_CN", False),
                                      ("en", "_presenter", True),
                                      ("zh_CN", "_presenter_zh_CN", True)):
        install_translators(language)
        for path in shots(app, out, suffix, present):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
