"""Render the README's screenshots of the training panel, offscreen, at 1280 x 800.

    python tools/training_screenshots.py [OUT_DIR]

``training.png``: the panel on ``recipes/training_spirals.py`` mid-run, live plots shown.
``init_compare.png``: four initialisations of the 50-layer MLP of
``recipes/init_depth50.py`` trained one after another and overlaid in "Compare runs".
PNGs go to ``resources/screenshots`` by default. Nothing is written to the user's settings.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1280, 800)
#: The initialisations compared, in the order they are trained.
INITS = ("normal", "small_normal", "xavier_normal", "kaiming_normal")


def settle(app, seconds: float = 0.3) -> None:
    """Let layouts, timers and queued signals run."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def wait(app, condition, what: str, timeout: float = 300.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError(f"timed out waiting for {what}")
        app.processEvents()
        time.sleep(0.005)


def _panel(recipe: str, **changes):
    from app.recipe.document import RECIPES_DIR, Document
    from app.recipe.model import Recipe
    from widgets.training.panel import TrainingPanel

    document = Document()
    document.open(RECIPES_DIR / recipe)
    settings = document.recipe.training.replace(**changes)
    panel = TrainingPanel(Document(Recipe(document.recipe.steps, document.recipe.docstring,
                                          settings)))
    panel.resize(*SIZE)
    panel.show()
    return panel


def take_training(app, out_dir: Path) -> Path:
    """The panel mid-run: spirals being learnt, every live plot filling."""
    panel = _panel("training_spirals.py", steps=3000, log_every=25)
    panel.smoothing_spin.setValue(50)
    panel.start()
    wait(app, lambda: panel.run is not None and panel.run.step >= 1400, "step 1400")
    panel.plots.fit()
    panel.views.setFocus()  # no text field with a blinking cursor in the picture
    settle(app, 0.5)  # a few frames at display rate, still training
    path = out_dir / "training.png"
    if not panel.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    panel.shutdown()
    panel.close()
    return path


def take_init_compare(app, out_dir: Path) -> Path:
    """Four initialisations of a 50-layer tanh MLP, overlaid, with their settings."""
    panel = _panel("init_depth50.py", steps=200, log_every=10)
    combo = panel.form.editor("init")
    for init in INITS:
        combo.setCurrentIndex(combo.findData(init))
        combo.activated.emit(combo.currentIndex())
        panel.start()
        wait(app, lambda: panel.record is not None and panel.record.state == "finished",
             f"the {init} run")
    panel.views.setCurrentWidget(panel.compare)
    panel.compare.only_diff.setChecked(True)
    panel.compare.fit()
    panel.views.setFocus()
    settle(app, 0.5)
    path = out_dir / "init_compare.png"
    if not panel.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    panel.shutdown()
    panel.close()
    return path


def main(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    paths = [a for a in argv[1:] if not a.startswith("--")]
    out_dir = Path(paths[0]) if paths else ROOT / "resources" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(argv[:1])
    app.setApplicationName("Tensor Lab screenshots")  # keeps the user's settings out
    print(take_training(app, out_dir))
    print(take_init_compare(app, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
