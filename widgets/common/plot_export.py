"""Plots out of the window: PNG or SVG files, right-click export menus, CSV tables.

Plot widgets anywhere in the lab use these helpers:

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

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QRectF, Qt
from PySide6.QtGui import QAction, QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import QFileDialog, QWidget

from widgets.common.retranslate import translated

PLOT_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"


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
    import pyqtgraph as pg  # (here: the window imports this module before its first paint)

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
    import pyqtgraph as pg
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
    action = QAction(widget)
    translated(widget, lambda: (
        action.setText(_tr("Save Plot as PNG or SVG...")),
        action.setToolTip(_tr("Write this plot to an image (PNG) or a drawing (SVG)")),
        action.setStatusTip(action.toolTip())))
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
    from app.exports import table_csv

    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(table_csv(columns))
    return path


