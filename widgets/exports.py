"""Exports from the window: tensors to the clipboard, plots to PNG or SVG, the lesson as HTML.

The text formats are made by ``app.exports`` (Qt-free); this module adds what needs
Qt: the clipboard, file dialogs, PNG images of heatmaps and views, and pyqtgraph's
exporters. Plot widgets anywhere in the lab use the general helpers:

* ``save_plot(target, path)`` writes a pyqtgraph plot (a ``PlotItem``, a ``PlotWidget``,
  a ``GraphicsLayoutWidget`` or any widget holding one) as PNG or SVG, by suffix;
* ``add_plot_export_actions(widget, target)`` gives a widget a right-click menu with
  "Save Plot as PNG or SVG...";
* ``save_table_csv(parent, columns, name)`` asks for a file and writes named columns
  (training metrics) as CSV.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pyqtgraph as pg
import torch
from PySide6.QtCore import (QBuffer, QByteArray, QCoreApplication, QIODevice, QObject, QRectF,
                            Qt)
from PySide6.QtGui import QAction, QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import QFileDialog, QLabel, QWidget

from app.document import Document
from app.exports import Figure, lesson_html, plane_csv, table_csv, tensor_csv, tensor_literal
from app.writer import write_recipe, write_step

PLOT_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"
HEATMAP_EXPORT_SIZE = (560, 440)


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


# -- general helpers ---------------------------------------------------------------------------
def copy_text(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


def png_bytes(image: QImage | QPixmap) -> bytes:
    """``image`` encoded as PNG."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def grab_png(widget: QWidget) -> bytes:
    """A PNG of ``widget`` as it is drawn now."""
    return png_bytes(widget.grab())


def plot_target(target: object) -> object:
    """The pyqtgraph item or scene to export for ``target``.

    A ``PlotItem`` or other graphics item is itself; a ``PlotWidget`` gives its plot item;
    a ``GraphicsLayoutWidget`` or other ``GraphicsView`` its scene; any other widget the
    first ``GraphicsView`` inside it.
    """
    if isinstance(target, (pg.GraphicsItem, pg.GraphicsScene)):
        return target
    if isinstance(target, pg.PlotWidget):
        return target.getPlotItem()
    if isinstance(target, pg.GraphicsView):
        return target.scene()
    if isinstance(target, QWidget):
        view = target.findChild(pg.GraphicsView)
        if view is not None:
            return plot_target(view)
    raise TypeError(f"no pyqtgraph plot in {target!r}")


def save_plot(target: object, path: str, width: int | None = None) -> None:
    """Write the plot ``target`` to ``path``: SVG when it ends in ``.svg``, else PNG.

    ``width`` (pixels, PNG only) defaults to the plot's size on screen.
    """
    from pyqtgraph.exporters import ImageExporter

    item = plot_target(target)
    if path.lower().endswith(".svg"):
        # Qt's own SVG writer, not pyqtgraph's SVGExporter: that one fails on the closed
        # paths newer Qt writes (pyqtgraph#3495) and leaves items in export mode.
        _render_svg(item, path)
        return
    exporter = ImageExporter(item)
    if width:
        exporter.parameters()["width"] = int(width)
    if not os.path.splitext(path)[1]:
        path += ".png"
    exporter.export(path)


def _render_svg(item, path: str) -> None:
    """Draw ``item`` (a graphics item or scene) into an SVG with Qt's own SVG writer."""
    from PySide6.QtGui import QPainter, QPicture
    from PySide6.QtSvg import QSvgGenerator

    scene = item if isinstance(item, pg.GraphicsScene) else item.scene()
    source = scene.sceneRect() if item is scene else item.sceneBoundingRect()
    generator = QSvgGenerator()
    # pyqtgraph draws axes through a QPicture, which a painter rescales by the ratio of
    # resolutions: give the SVG the picture's resolution so they line up.
    generator.setResolution(QPicture().logicalDpiX())
    generator.setFileName(path)
    generator.setSize(source.size().toSize())
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(_tr("Tensor Lab plot"))
    painter = QPainter(generator)
    # in export mode pyqtgraph draws markers as shapes rather than cached pixmaps
    items = [i for i in scene.items() if isinstance(i, pg.GraphicsItem)]
    try:
        for i in items:
            i.setExportMode(True, {"antialias": True, "painter": painter})
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
    finally:
        painter.end()
        for i in items:
            i.setExportMode(False)


def ask_save_plot(parent: QWidget, target: object, name: str = "plot") -> str | None:
    """Ask where to save ``target`` and save it; returns the path, or None when cancelled."""
    path, chosen = QFileDialog.getSaveFileName(
        parent, _tr("Save Plot"), os.path.join(os.path.expanduser("~"), f"{name}.png"),
        PLOT_FILTER)
    if not path:
        return None
    if not os.path.splitext(path)[1]:
        path += ".svg" if "svg" in chosen.lower() else ".png"
    save_plot(target, path)
    return path


def add_plot_export_actions(widget: QWidget, target: object | None = None,
                            name: str = "plot") -> QAction:
    """Give ``widget`` a right-click "Save Plot as PNG or SVG..." for ``target`` (or itself)."""
    action = QAction(_tr("Save Plot as PNG or SVG..."), widget)
    action.setToolTip(_tr("Write this plot to an image (PNG) or a drawing (SVG)"))
    action.setStatusTip(action.toolTip())
    plot = target if target is not None else widget
    action.triggered.connect(lambda _=False: ask_save_plot(widget, plot, name))
    widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    widget.addAction(action)
    return action


def save_table_csv(parent: QWidget, columns: Mapping[str, Sequence[object]],
                   name: str = "metrics") -> str | None:
    """Ask for a file and write ``columns`` as CSV (a header row, then the values)."""
    path, _ = QFileDialog.getSaveFileName(
        parent, _tr("Save as CSV"), os.path.join(os.path.expanduser("~"), f"{name}.csv"),
        _tr("CSV files (*.csv);;All files (*)"))
    if not path:
        return None
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(table_csv(columns))
    return path


def heatmap_image(values: np.ndarray, size: tuple[int, int] = HEATMAP_EXPORT_SIZE) -> QImage:
    """A heatmap of the 2-D array ``values`` with its colour bar, as the viewer draws it."""
    from widgets.heatmap_view import HeatmapView

    view = HeatmapView()
    try:
        for label in view.findChildren(QLabel):  # the hover read-out says nothing in a picture
            label.hide()
        view.resize(*size)
        view.set_plane(values)
        view.ensurePolished()
        return view.grab().toImage()
    finally:
        view.deleteLater()


# -- the selected tensor -------------------------------------------------------------------
def selected_tensor(document: Document) -> torch.Tensor | None:
    """The tensor of the selected step, if it is a tensor that ran."""
    index = document.selected
    results = document.run.results
    if index is None or not 0 <= index < len(results):
        return None
    value = results[index].value
    return value.detach() if isinstance(value, torch.Tensor) else None


class TensorExports(QObject):
    """Copy and save the selected tensor and the recipe's code; export the lesson.

    Parameters
    ----------
    window : QWidget
        The main window: its ``document``, ``viewer`` (for the plane shown) and
        ``views`` (for figures) are used; messages go to its status bar.
    """

    def __init__(self, window):
        super().__init__(window)
        self._window = window

    @property
    def document(self) -> Document:
        return self._window.document

    def _plane(self) -> np.ndarray | None:
        viewer = getattr(self._window, "viewer", None)
        if viewer is None or selected_tensor(self.document) is None:
            return None
        values = viewer.table_model.values
        return values if values.size else None

    def _say(self, text: str) -> None:
        bar = getattr(self._window, "statusBar", None)
        if bar is not None:
            bar().showMessage(text, 5000)

    def _need_tensor(self) -> torch.Tensor | None:
        t = selected_tensor(self.document)
        if t is None:
            self._say(_tr("Select a step whose value is a tensor first."))
        return t

    # -- clipboard -----------------------------------------------------------------------
    def copy_literal(self) -> bool:
        """Copy the selected tensor as ``torch.tensor([...], dtype=...)``."""
        t = self._need_tensor()
        if t is None:
            return False
        try:
            copy_text(tensor_literal(t))
        except ValueError as e:
            self._say(str(e))
            return False
        self._say(_tr("Copied the tensor as Python."))
        return True

    def copy_csv(self) -> bool:
        """Copy the selected tensor (or, above two dimensions, the plane shown) as CSV."""
        t = self._need_tensor()
        if t is None:
            return False
        if t.ndim <= 2:
            copy_text(tensor_csv(t))
        else:
            plane = self._plane()
            if plane is None:
                return False
            copy_text(plane_csv(plane))
        self._say(_tr("Copied the values as CSV."))
        return True

    def copy_heatmap(self) -> bool:
        """Copy a heatmap of the plane shown as an image."""
        plane = self._plane()
        if plane is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return False
        QGuiApplication.clipboard().setImage(heatmap_image(plane))
        self._say(_tr("Copied the heatmap as an image."))
        return True

    def copy_step_code(self) -> bool:
        index = self.document.selected
        if index is None:
            self._say(_tr("Select a step first."))
            return False
        copy_text(write_step(self.document.recipe.steps[index]) + "\n")
        self._say(_tr("Copied the step's code."))
        return True

    def copy_recipe_code(self) -> bool:
        copy_text(write_recipe(self.document.recipe))
        self._say(_tr("Copied the whole recipe."))
        return True

    # -- files -------------------------------------------------------------------------------
    def save_heatmap(self) -> str | None:
        """Save the heatmap of the plane shown as PNG or SVG."""
        plane = self._plane()
        if plane is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return None
        heatmap = self._window.viewer.heatmap
        if heatmap.values.shape != plane.shape or heatmap.values.size == 0:
            heatmap.set_plane(plane)  # the grid tab was shown: draw the heatmap first
        name = self.document.recipe.steps[self.document.selected].label
        return ask_save_plot(self._window, heatmap, name)

    def save_csv(self) -> str | None:
        t = self._need_tensor()
        if t is None:
            return None
        text = tensor_csv(t) if t.ndim <= 2 else plane_csv(self._plane())
        name = self.document.recipe.steps[self.document.selected].label
        path, _ = QFileDialog.getSaveFileName(
            self._window, _tr("Save as CSV"),
            os.path.join(os.path.expanduser("~"), f"{name}.csv"),
            _tr("CSV files (*.csv);;All files (*)"))
        if not path:
            return None
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

    def lesson_page(self) -> str:
        """The lesson as one HTML page: text, figures of the current views, code, output."""
        recipe = self.document.recipe
        title, _, body = recipe.docstring.strip().partition("\n")
        figures: list[Figure] = []
        views = getattr(self._window, "views", None)
        if views is not None and views.currentWidget() is not None:
            figures.append(Figure(
                _tr("{0}: {1}").format(views.tabText(views.currentIndex()),
                                       self._selected_label()),
                grab_png(views.currentWidget())))
        plane = self._plane()
        if plane is not None and plane.shape[0] > 1:
            figures.append(Figure(_tr("Heatmap of {0}").format(self._selected_label()),
                                  png_bytes(heatmap_image(plane))))
        return lesson_html(title.strip() or recipe.title, body.strip(), write_recipe(recipe),
                           figures, self.document.output, labels={
                               "figures": _tr("Figures"), "code": _tr("The recipe"),
                               "output": _tr("Output"),
                               "generator": _tr("Made with Tensor Lab")})

    def export_lesson(self, path: str | None = None) -> str | None:
        """Write ``lesson_page()`` to ``path`` (asked for when not given)."""
        if path is None:
            base = os.path.splitext(self.document.path or os.path.join(
                os.path.expanduser("~"), "lesson.py"))[0]
            path, _ = QFileDialog.getSaveFileName(
                self._window, _tr("Export Lesson as HTML"), base + ".html",
                _tr("Web pages (*.html);;All files (*)"))
            if not path:
                return None
        page = self.lesson_page()
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        self._say(_tr("Exported the lesson to {0}").format(path))
        return path

    def _selected_label(self) -> str:
        index = self.document.selected
        if index is None or index >= len(self.document.recipe.steps):
            return self.document.recipe.title
        return self.document.recipe.steps[index].label

    # -- context menus ------------------------------------------------------------------------
    def install_viewer_menus(self, viewer) -> list[QAction]:
        """Right-click menus on the viewer's grid and heatmap."""
        made: list[QAction] = []
        for widget in (viewer.table_view, viewer.heatmap):
            widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
            for text, tip, slot in (
                    (_tr("Copy as Python"), _tr("Copy the tensor as torch.tensor([...]), "
                                                "ready to paste into a recipe"),
                     self.copy_literal),
                    (_tr("Copy as CSV"), _tr("Copy the values as comma-separated numbers"),
                     self.copy_csv),
                    (_tr("Copy Heatmap Image"), _tr("Copy the plane as a heatmap picture"),
                     self.copy_heatmap),
                    (_tr("Save Heatmap as PNG or SVG..."),
                     _tr("Write the heatmap to an image or a drawing"), self.save_heatmap)):
                action = QAction(text, widget)
                action.setToolTip(tip)
                action.setStatusTip(tip)
                action.triggered.connect(lambda _=False, s=slot: s())
                widget.addAction(action)
                made.append(action)
        return made
