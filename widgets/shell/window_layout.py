"""Where the main window puts its panels: the view tabs, the docks and the status bar.

``MainWindow`` makes the panels; these functions place them. Their texts keep the
``MainWindow`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QTabWidget, QWidget

from app.link.places import chosen
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import translated
from widgets.shell.lazy_panels import LazyPanels


def add_view_tabs(views: QTabWidget, viewer: QWidget, lazy: LazyPanels,
                  pages: dict[str, Callable[[], QWidget]]) -> None:
    """Make the viewer and the ``pages`` (the autograd graph, Op explained, Memory,
    Training and Model: built by ``lazy`` when first needed) the tabs of ``views``, with
    their titles and tooltips."""
    views.setDocumentMode(True)
    views.addTab(viewer, "")
    for name, build in pages.items():
        lazy.add_tab(name, views, build)
    translated(views, lambda: _set_view_tab_texts(views))


def _set_view_tab_texts(views: QTabWidget) -> None:
    tabs = (
        (QCoreApplication.translate("MainWindow", "Tensor"),
         QCoreApplication.translate("MainWindow", "The selected step's tensor: facts, "
                                    "statistics, every value")),
        (QCoreApplication.translate("MainWindow", "Autograd graph"),
         QCoreApplication.translate("MainWindow", "The backward graph of the selected tensor: "
                                    "grad_fn nodes, leaves and their gradients")),
        (QCoreApplication.translate("MainWindow", "Op explained"),
         QCoreApplication.translate("MainWindow", "The selected step's inputs and output side "
                                    "by side; hover an output cell to see where it came from")),
        (QCoreApplication.translate("MainWindow", "Memory"),
         QCoreApplication.translate("MainWindow", "Which tensors share memory: views versus "
                                    "copies, with data_ptr, offset and strides")),
        (QCoreApplication.translate("TrainingPanel", "Training"),
         QCoreApplication.translate("TrainingPanel", "The recipe's training loop, live: loss, "
                                    "learning rate, each layer's output std and gradient "
                                    "norm")),
        (QCoreApplication.translate("MainWindow", "Model"),
         QCoreApplication.translate("MainWindow", "The nn.Module the selected step made: its "
                                    "layers, their parameters and buffers, and the shapes "
                                    "of their last call")),
    )
    for index, (title, tip) in enumerate(tabs[:views.count()]):
        views.setTabText(index, title)
        views.setTabToolTip(index, tip)


def dock_panels(window: QMainWindow, panels: dict[str, QWidget], lazy: LazyPanels,
                later: dict[str, Callable[[], QWidget]]) -> dict[str, QDockWidget]:
    """Put each of ``panels``, and of the panels ``later``'s builders make (built by
    ``lazy`` when first needed), in its dock around ``window``'s centre; the docks, by key.

    Steps and the lesson on the left; the builder, ops, docs and gallery tabbed on the
    right; code and output tabbed at the bottom.
    """
    docks: dict[str, QDockWidget] = {}

    def dock(key: str, area: Qt.DockWidgetArea) -> QDockWidget:
        docks[key] = QDockWidget(window)
        docks[key].setObjectName(f"dock_{key}")
        if key in panels:
            docks[key].setWidget(panels[key])
        else:
            lazy.add_dock(key, docks[key], later[key])
        window.addDockWidget(area, docks[key])
        return docks[key]

    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    dock("steps", left)
    dock("lesson", left)
    builder = dock("builder", right)
    ops = dock("ops", right)
    window.tabifyDockWidget(builder, ops)
    docs = dock("docs", right)
    window.tabifyDockWidget(ops, docs)
    gallery = dock("gallery", right)
    window.tabifyDockWidget(docs, gallery)
    builder.raise_()
    code = dock("code", bottom)
    output = dock("output", bottom)
    translated(window, lambda: _set_dock_titles(docks))
    window.tabifyDockWidget(code, output)
    code.raise_()
    window.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas, QTabWidget.TabPosition.North)
    # The builder and op forms need the height more than the code pane needs the width.
    window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
    window.resizeDocks([docks["steps"], builder], [300, 340], Qt.Orientation.Horizontal)
    window.resizeDocks([code], [230], Qt.Orientation.Vertical)
    window.resizeDocks([docks["steps"], docks["lesson"]], [330, 200], Qt.Orientation.Vertical)
    return docks


def _set_dock_titles(docks: dict[str, QDockWidget]) -> None:
    titles = {"steps": QCoreApplication.translate("MainWindow", "Steps"),
              "lesson": QCoreApplication.translate("MainWindow", "Lesson"),
              "builder": QCoreApplication.translate("MainWindow", "Builder"),
              "ops": QCoreApplication.translate("MainWindow", "Ops"),
              "docs": QCoreApplication.translate("MainWindow", "Docs"),
              "gallery": QCoreApplication.translate("MainWindow", "Gallery"),
              "code": QCoreApplication.translate("MainWindow", "Code"),
              "output": QCoreApplication.translate("MainWindow", "Output")}
    for key, dock in docks.items():
        dock.setWindowTitle(titles[key])


class TorchInfo(QLabel):
    """The kernel's torch build, the default device and the devices the kernel can reach.

    The kernel says (``widgets.common.kernel_devices``): the window never imports torch.
    Until it has, the label says that PyTorch is starting.
    """

    def __init__(self, default_device: str):
        super().__init__()
        self._default_device = default_device
        translated(self, lambda: self.setToolTip(QCoreApplication.translate(
            "MainWindow", "The default device, the kernel's PyTorch build and the devices "
            "it can reach")))
        kernel_devices().changed.connect(self._show_info)
        translated(self, self._show_info)

    def _show_info(self) -> None:
        self.setText(torch_info_text(self._default_device))


def torch_info_text(default_device: str) -> str:
    """The status bar's line: the kernel's torch build, ``default_device`` and the kernel's
    devices, or that PyTorch is starting (or missing from the kernel)."""
    torch = kernel_devices().torch
    ids = [d.id for d in kernel_devices().devices]  # the kernel's, not this machine's
    if torch is None:
        return QCoreApplication.translate(
            "MainWindow", "│  PyTorch: starting… · default device: {0}").format(default_device)
    if not torch.version:
        return QCoreApplication.translate(
            "MainWindow", "│  PyTorch: not found by the kernel · default device: {0}").format(
            default_device)
    gpu = torch.cuda and any(i.startswith("cuda") for i in ids)
    cuda = f" · CUDA {torch.cuda}" if gpu else ""
    text = QCoreApplication.translate(
        "MainWindow", "│  torch {0}{1} · default device: {2} · devices: {3}").format(
        torch.version, cuda, default_device, ", ".join(ids))
    server = chosen()
    if server is not None:  # the kernel's machine is that server
        text = QCoreApplication.translate("MainWindow", "│  on {0} ").format(server) + text
    return text


def add_status_labels(window: QMainWindow, default_device: str) -> QLabel:
    """Put the torch build and the devices in ``window``'s status bar; the shape label.

    The returned label, left of them, is for the selected tensor's shape and dtype.
    """
    info = TorchInfo(default_device)
    shape_label = QLabel()
    translated(shape_label, lambda: shape_label.setToolTip(QCoreApplication.translate(
        "MainWindow", "Shape and dtype of the selected step's tensor")))
    window.statusBar().addPermanentWidget(shape_label)
    window.statusBar().addPermanentWidget(info)
    return shape_label
