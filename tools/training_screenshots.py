"""Render the README's screenshots of the Training tab, offscreen.

    python tools/training_screenshots.py [OUT_DIR]

``training.png``: the main window's views on the LeNet lesson
(recipes/training_lenet.py), the Training tab current, once its loop has run: the loss,
learning rate and each layer's output std and gradient norm the kernel reported live.

``init_compare.png``: the initialisation lesson (recipes/init_depth50.py, a 50-layer tanh
MLP) with its one init line set to N(0, 0.01), N(0, 1), Xavier and Kaiming
(``app.training.write.init_line``), each in a Training tab of its own; their layer plots
(output std by layer, output std and gradient norm over time) side by side, one column
per initialisation.

PNGs go to ``resources/screenshots`` by default (where the README points). The recipes
run in kernels of their own; nothing is written to the user's settings.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: The main window's size for ``training.png``: its views (the tabs, grabbed alone) come
#: out about 1300 x 800.
WINDOW_SIZE = (2200, 1050)

#: The shipped lessons the pictures show.
LENET = ROOT / "recipes" / "training_lenet.py"
DEPTH50 = ROOT / "recipes" / "init_depth50.py"
#: Steps of the 50-layer loop in the picture (the lesson's own 20 are a little short).
DEPTH50_STEPS = 100

#: The initialisations compared, in their columns' order, with their titles.
INITS = (("small_normal", "N(0, 0.01)"), ("normal", "N(0, 1)"),
         ("xavier_normal", "Xavier"), ("kaiming_normal", "Kaiming"))


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


def _save(image, path: Path) -> Path:
    if not image.save(str(path)):
        raise OSError(f"could not write {path}")
    return path


def take_training(app, out_dir: Path) -> Path:
    """The main window on the LeNet loop, its Training tab current, the loop done."""
    from app.settings import Settings
    from widgets.launch import make_window

    window = make_window(str(LENET), restore_layout=False, trust=True, settings=Settings())
    window.resize(*WINDOW_SIZE)  # wide enough that the views take about SIZE
    window.show()
    window.views.setCurrentWidget(window.training)
    document = window.document
    try:
        wait(app, lambda: document.kernel_run is None, "the LeNet loop")
        loop = window.training.loop
        if loop is None or not loop.finished:
            raise RuntimeError(f"the Training tab saw {loop.steps if loop else 0} steps")
        window.training._on_frame()
        window.training.plots.fit()
        window.views.setFocus()  # no text field with a blinking cursor in the picture
        settle(app, 0.5)
        return _save(window.views.grab(), out_dir / "training.png")
    finally:
        window.kernel_hook.close()
        window.confirm_discard = lambda: True
        window.close()


def _layer_plots(app, init: str, title: str):
    """The DEPTH50 loop under ``init``, trained in a Training tab of its own kernel; the
    pictures of its three layer plots."""
    from PySide6.QtGui import QUndoStack

    from app.recipe.document import Document
    from app.recipe.reader import read_recipe
    from app.training.write import init_line
    from widgets.common.kernel_hook import KernelHook
    from widgets.training.panel import TrainingPanel

    text = DEPTH50.read_text(encoding="utf-8")
    text = text.replace(init_line("xavier_normal", "tanh"), init_line(init, "tanh"))
    text = text.replace("steps = 20\n", f"steps = {DEPTH50_STEPS}\n")
    document = Document(read_recipe(text))
    stack = QUndoStack()
    panel = TrainingPanel(document, stack)
    stack.setParent(panel)
    panel.resize(1200, 900)
    panel.show()
    hook = KernelHook(document)  # runs it
    try:
        wait(app, lambda: document.kernel_run is None and panel.loop is not None,
             f"the {title} loop")
        if not panel.loop.finished or panel.loop.steps != DEPTH50_STEPS:
            raise RuntimeError(f"the {title} loop stopped at step {panel.loop.steps}")
        panel._on_frame()
        panel.plots.fit()
        settle(app, 0.5)
        plots, view = panel.plots, panel.plots.graphics
        return [view.grab(view.mapFromScene(plot.sceneBoundingRect()).boundingRect())
                for plot in (plots.std_bar_plot, plots.std_plot, plots.grad_plot)]
    finally:
        hook.close()
        panel.detach()
        panel.close()
        panel.deleteLater()


def take_init_compare(app, out_dir: Path) -> Path:
    """Four initialisations of the 50-layer MLP: their layer plots, one column each."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QFont, QImage, QPainter, QPalette

    columns = [(title, _layer_plots(app, init, title)) for init, title in INITS]
    cell_w = max(p.width() for _, pics in columns for p in pics)
    cell_h = max(p.height() for _, pics in columns for p in pics)
    head = 36
    image = QImage(cell_w * len(columns), head + cell_h * 3, QImage.Format.Format_RGB32)
    palette = app.palette()
    image.fill(palette.color(QPalette.ColorRole.Window))
    painter = QPainter(image)
    font = QFont(painter.font())
    font.setPointSize(13)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(palette.color(QPalette.ColorRole.WindowText))
    for i, (title, pictures) in enumerate(columns):
        painter.drawText(QRect(i * cell_w, 0, cell_w, head), Qt.AlignmentFlag.AlignCenter,
                         title)
        for row, picture in enumerate(pictures):
            painter.drawPixmap(i * cell_w, head + row * cell_h, picture)
    painter.end()
    return _save(image, out_dir / "init_compare.png")


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from tools.bench import qapp

    paths = [a for a in argv[1:] if not a.startswith("--")]
    out_dir = Path(paths[0]) if paths else ROOT / "resources" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tensor-lab-shots-")
    app = qapp()  # set up as the app sets itself up
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    print(take_training(app, out_dir))
    print(take_init_compare(app, out_dir))
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
