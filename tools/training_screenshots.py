"""Render the README's screenshots of the Training tab, offscreen.

    python tools/training_screenshots.py [OUT_DIR]

``training.png``: the main window's views on ``LENET`` (recipes/nn_lenet.py's network
with a training loop on a synthetic 10-class image task), the Training tab current, once
the loop has run: the loss, learning rate and each layer's output std and gradient norm
the kernel reported live.

``init_compare.png``: ``DEPTH50``, a 50-layer tanh MLP, trained under four
initialisations (N(0, 0.01), N(0, 1), Xavier, Kaiming), each in a Training tab of its
own; their layer plots (output std by layer, output std and gradient norm over time)
side by side, one column per initialisation.

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

#: LeNet (recipes/nn_lenet.py) trained on 32 x 32 images of ten noisy class templates.
LENET = '''\
"""LeNet trained on ten noisy image templates"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cpu"


class Net(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net().to(device)
templates = torch.randn(10, 1, 32, 32, device=device)
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for step in range(600):
    labels = torch.randint(0, 10, (64,), device=device)
    images = templates[labels] + 2.0 * torch.randn(64, 1, 32, 32, device=device)
    optimizer.zero_grad()
    loss = F.cross_entropy(net(images), labels)
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(step, round(loss.item(), 4))
'''

#: A 50-layer tanh MLP on two spirals, its Linear layers initialised by ``{init}``.
DEPTH50 = '''\
"""A 50-layer tanh MLP: {title}"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cpu"
init = "{init}"
layers = [nn.Linear(2, 64), nn.Tanh()]
for _ in range(49):
    layers += [nn.Linear(64, 64), nn.Tanh()]
model = nn.Sequential(*layers, nn.Linear(64, 2)).to(device)
for layer in model:
    if isinstance(layer, nn.Linear):
        if init == "small_normal":
            nn.init.normal_(layer.weight, 0.0, 0.01)
        elif init == "normal":
            nn.init.normal_(layer.weight, 0.0, 1.0)
        elif init == "xavier_normal":
            nn.init.xavier_normal_(layer.weight, gain=nn.init.calculate_gain("tanh"))
        else:
            nn.init.kaiming_normal_(layer.weight, nonlinearity="tanh")
        nn.init.zeros_(layer.bias)
label = torch.arange(256) % 2
t = torch.rand(256)
angle = 3 * math.pi * t + math.pi * label
x = torch.stack([t * torch.cos(angle), t * torch.sin(angle)], dim=1).to(device)
y = label.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
for step in range(100):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
'''
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


def take_training(app, out_dir: Path, folder: Path) -> Path:
    """The main window on the LeNet loop, its Training tab current, the loop done."""
    from app.settings import Settings
    from widgets.launch import make_window

    recipe = folder / "lenet_training.py"
    recipe.write_text(LENET, encoding="utf-8")
    window = make_window(str(recipe), restore_layout=False, trust=True, settings=Settings())
    window.resize(*WINDOW_SIZE)  # wide enough that the views take about SIZE
    window.show()
    window.views.setCurrentWidget(window.training)
    document = window.document
    try:
        wait(app, lambda: document.kernel_run is None, "the LeNet loop")
        loop = window.training.loop
        if loop is None or loop.steps != 600:
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
    from widgets.common.kernel_hook import KernelHook
    from widgets.training.panel import TrainingPanel

    document = Document(read_recipe(DEPTH50.format(init=init, title=title)))
    stack = QUndoStack()
    panel = TrainingPanel(document, stack)
    stack.setParent(panel)
    panel.resize(1200, 900)
    panel.show()
    hook = KernelHook(document)  # runs it
    try:
        wait(app, lambda: document.kernel_run is None and panel.loop is not None,
             f"the {title} loop")
        if not panel.loop.finished or panel.loop.steps != 100:
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
    with tempfile.TemporaryDirectory() as folder:
        print(take_training(app, out_dir, Path(folder)))
    print(take_init_compare(app, out_dir))
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
