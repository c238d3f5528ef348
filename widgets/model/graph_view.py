"""The Model graph's drawing (``widgets.model.graph``): a module's recorded forward call
left to right, each edge labelled with the shape that flowed, containers as dashed boxes
that a click on their title collapses into one node (a click on that node opens it), a
call that raised and the edges into it in the theme's error colour; PNG and SVG export.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QWidget,
)

from app.explain.module_graph_view import ShownGraph, ShownNode, ancestors, shown_graph
from protocol.module_graph_data import ModuleGraph, shape_text
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, qcolour
from widgets.common.zoom_view import MIN_ZOOM, ZoomView, arrow_head

#: Fill of each kind of node (light, so the dark text reads on any theme).
KIND_COLOURS = {"input": "#c8e6c9", "output": "#c8e6c9", "module": "#bbdefb",
                "function": "#e0e0e0", "container": "#ffe0b2"}
_TEXT = QColor("#202020")
_PAD_X, _PAD_Y, _GAP_X, _GAP_Y = 10.0, 4.0, 36.0, 46.0
_MIN_WIDTH, _MAX_WIDTH = 60.0, 220.0
_FIT_ZOOM = (0.9, 1.25)  # a new drawing: readable, a long one scrolls
_BOX_MARGIN, _BOX_STEP = 10.0, 12.0


def short_type(node: ShownNode) -> str:
    """A node's second line: a module's class, a function's name as a recipe writes it
    (``F.relu``, ``Tensor.view``)."""
    if node.kind == "function":
        return (node.type.replace("torch.nn.functional.", "F.")
                .replace("torch.Tensor.", "Tensor."))
    return "" if node.kind in ("input", "output") else node.type


class CallItem(QGraphicsItem):
    """One node: a rounded box with its label and a smaller second line, painted (no
    child items: a 100-layer model's nodes are made in a few milliseconds)."""

    def __init__(self, node: ShownNode, width: float, height: float,
                 lines: list[tuple[str, QFont, float]], tip: str):
        super().__init__()
        self.node = node
        self._rect = QRectF(-width / 2, -height / 2, width, height)
        self._lines = lines  # (text, font, line height)
        self._brush = QBrush(QColor(KIND_COLOURS.get(node.kind, "#ffffff")))
        self._pen = QPen(qcolour("error"), 2.5) if node.error else QPen(QColor("#455a64"),
                                                                          1.2)
        self.setToolTip(tip)
        if node.kind == "container":
            self.setCursor(Qt.CursorShape.PointingHandCursor)

    def pen(self) -> QPen:
        return self._pen

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, _option, _widget=None) -> None:
        painter.setPen(self._pen)
        painter.setBrush(self._brush)
        painter.drawRoundedRect(self._rect, 6, 6)
        painter.setPen(_TEXT)
        y = -sum(h for _, _, h in self._lines) / 2
        for text, font, h in self._lines:
            painter.setFont(font)
            painter.drawText(QRectF(self._rect.left(), y, self._rect.width(), h),
                             Qt.AlignmentFlag.AlignCenter, text)
            y += h


class _Measure:
    """A font's metrics, each text's width measured once per drawing."""

    def __init__(self, font: QFont):
        self.font, self._metrics = font, QFontMetricsF(font)
        self.height = self._metrics.height()
        self._widths: dict[str, float] = {}

    def width(self, text: str) -> float:
        found = self._widths.get(text)
        if found is None:
            found = self._widths[text] = self._metrics.horizontalAdvance(text)
        return found

    def elided(self, text: str, room: float) -> str:
        if self.width(text) <= room:
            return text
        return self._metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)


class BoxTitle(QGraphicsSimpleTextItem):
    """A container box's title: a click collapses the container."""

    def __init__(self, path: str, text: str):
        super().__init__(text)
        self.path = path
        self.setCursor(Qt.CursorShape.PointingHandCursor)


class ModelGraphView(ZoomView):
    """Draws a ``ModuleGraph`` left to right; wheel zooms, drag pans, a container's title
    (or its collapsed node) toggles it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.graph: ModuleGraph | None = None
        self.shown = ShownGraph()
        self.collapsed: set[str] = set()
        self._toggled = False
        self._items: dict[str, CallItem] = {}
        self._labels: list[tuple[str, str, str]] = []
        self._font = QFont(self.font())
        self._font.setBold(True)
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(self.font().pointSizeF() * 0.9, 7.0))
        translated(self, lambda: self.setToolTip(QCoreApplication.translate(
            "ModelGraph", "The module's last traced forward call: its layers and the torch "
            "calls between them, each edge labelled with the shape that flowed. The wheel "
            "zooms, dragging pans; click a container's title to collapse it.")))

    # -- public ------------------------------------------------------------------------
    def set_graph(self, graph: ModuleGraph | None, keep: bool = False) -> None:
        """Draw ``graph`` (None: nothing); ``keep`` keeps the collapsed containers."""
        self.graph = graph
        if not keep:
            self.collapsed = set()
        self._draw(fit=True)

    def toggle(self, path: str) -> None:
        """Collapse container ``path``, or open it again."""
        self.collapsed ^= {path}
        self._draw(fit=False)

    def edge_labels(self) -> list[tuple[str, str, str]]:
        """Each drawn edge as (its source's label, its target's label, its shape's text)."""
        return list(self._labels)

    def node_items(self) -> dict[str, CallItem]:
        return dict(self._items)

    def box_titles(self) -> dict[str, BoxTitle]:
        return {i.path: i for i in self._scene.items() if isinstance(i, BoxTitle)}

    def fit(self) -> None:
        """Zoom to show the whole graph."""
        rect = self._scene.sceneRect()
        if rect.isEmpty():
            return
        self.resetTransform()
        view = self.viewport().rect().adjusted(2, 2, -2, -2)
        scale = max(min(view.width() / rect.width(), view.height() / rect.height(),
                        _FIT_ZOOM[1]), MIN_ZOOM)
        self.scale(scale, scale)
        self.centerOn(rect.center())

    def save(self, path: str) -> None:
        """Write the whole drawing to ``path``: SVG when it ends in ``.svg``, else PNG
        (at twice its size, for slides)."""
        source = self._scene.sceneRect()
        background = QColor(current_palette().base)
        if path.lower().endswith(".svg"):
            from PySide6.QtSvg import QSvgGenerator

            generator = QSvgGenerator()
            generator.setFileName(path)
            generator.setSize(source.size().toSize())
            generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
            generator.setTitle(self.graph.type if self.graph is not None else "")
            painter = QPainter(generator)
            painter.fillRect(QRectF(0, 0, source.width(), source.height()), background)
            self._scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
            painter.end()
            return
        if not os.path.splitext(path)[1]:
            path += ".png"
        size = QSize(max(1, round(source.width() * 2)), max(1, round(source.height() * 2)))
        image = QImage(size, QImage.Format.Format_ARGB32)
        image.fill(background)
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing
                               | QPainter.RenderHint.TextAntialiasing)
        self._scene.render(painter, QRectF(0, 0, size.width(), size.height()), source)
        painter.end()
        image.save(path)

    # -- events ------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        item = self.itemAt(event.position().toPoint())
        while item is not None and not isinstance(item, BoxTitle | CallItem):
            item = item.parentItem()
        path = item.path if isinstance(item, BoxTitle) else (
            item.node.label if isinstance(item, CallItem) and item.node.kind == "container"
            else None)
        if event.button() == Qt.MouseButton.LeftButton and path is not None:
            self._toggled = True  # its release is this click's too
            self.toggle(path)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self._toggled:
            self._toggled = False
            event.accept()
            return
        super().mouseReleaseEvent(event)

    # -- drawing -----------------------------------------------------------------------
    def _draw(self, fit: bool) -> None:
        self._scene.clear()
        self._items.clear()
        self._labels = []
        graph = self.graph
        if graph is None or not graph.nodes:
            self._scene.setSceneRect(QRectF())
            return
        self.collapsed &= set(graph.containers)
        shown = self.shown = shown_graph(graph, self.collapsed)
        big, small = _Measure(self._font), _Measure(self._small)
        height = 2 * _PAD_Y + big.height + small.height
        widths = {n.id: min(max(big.width(n.label), small.width(short_type(n)),
                                _MIN_WIDTH - 24) + 2 * _PAD_X + 4, _MAX_WIDTH)
                  for n in shown.nodes.values()}
        label_width = max((small.width(shape_text(e.shape)) for e in shown.edges),
                          default=0.0)
        column = max(widths.values()) + max(label_width, 20.0) + _GAP_X
        nesting = max((len(ancestors(p, graph.containers)) for p in graph.containers),
                      default=0)
        row = height + _GAP_Y + 2 * _BOX_STEP * nesting
        for node in shown.nodes.values():
            room = widths[node.id] - 2 * _PAD_X
            lines = [(m.elided(text, room), m.font, m.height)
                     for text, m in ((node.label, big), (short_type(node), small)) if text]
            item = CallItem(node, widths[node.id], height, lines, self._node_tip(node))
            layer, place = shown.places[node.id]
            item.setPos(layer * column, place * row)
            item.setZValue(2)
            self._scene.addItem(item)
            self._items[node.id] = item
        colours = (qcolour("muted"), qcolour("error"))
        for edge in shown.edges:
            self._add_edge(edge.source, edge.target, shape_text(edge.shape), edge.error,
                           colours, small)
        self._add_boxes(graph)
        self._scene.setSceneRect(self._scene.itemsBoundingRect().adjusted(-30, -30, 30, 30))
        if fit:
            self._fit_readable()

    def _fit_readable(self) -> None:
        """A new drawing: readable, its inputs in view (a long one is left to scroll)."""
        rect = self._scene.sceneRect()
        view = self.viewport().rect()
        scale = min(view.width() / rect.width(), view.height() / rect.height())
        scale = min(max(scale, _FIT_ZOOM[0]), _FIT_ZOOM[1])
        self.resetTransform()
        self.scale(scale, scale)
        if scale * rect.width() > view.width():
            self.centerOn(rect.left() + view.width() / (2 * scale), rect.center().y())
        else:
            self.centerOn(rect.center())

    def _node_tip(self, node: ShownNode) -> str:
        lines = [f"{node.label}: {node.type}"]
        if node.scope:
            lines.append(QCoreApplication.translate(
                "ModelGraph", "Called inside {0}").format(node.scope))
        if node.kind == "container":
            lines.append(QCoreApplication.translate(
                "ModelGraph", "A container, collapsed: click to open it."))
        if node.error:
            lines.append(QCoreApplication.translate(
                "ModelGraph", "This call raised: {0}").format(node.error))
        return "\n".join(lines)

    def _add_edge(self, source: str, target: str, text: str, error: str,
                  colours: tuple[QColor, QColor], small: _Measure) -> None:
        a, b = self._items[source], self._items[target]
        start = a.pos() + QPointF(a.boundingRect().right() - 2, 0)
        end = b.pos() + QPointF(b.boundingRect().left() + 2, 0)
        path = QPainterPath(start)
        bend = max((end.x() - start.x()) / 2, 12.0)
        path.cubicTo(start + QPointF(bend, 0), end - QPointF(bend, 0), end)
        colour = colours[1] if error else colours[0]
        line = QGraphicsPathItem(path)
        line.setPen(QPen(colour, 2.2 if error else 1.3))
        line.setZValue(1)
        line.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        tip = QCoreApplication.translate(
            "ModelGraph", "{0} → {1}: a tensor of shape {2}").format(
            a.node.label, b.node.label, text)
        if error:
            tip += "\n" + QCoreApplication.translate(
                "ModelGraph", "The call it goes into raised: {0}").format(error)
        line.setToolTip(tip)
        self._scene.addItem(line)
        head = arrow_head(end, path.angleAtPercent(1.0))
        arrow = self._scene.addPolygon(head, QPen(colour, 1), QBrush(colour))
        arrow.setZValue(1)
        label = self._scene.addSimpleText(text, self._small)
        label.setBrush(colour)
        mid = path.pointAtPercent(0.5)
        label.setPos(mid - QPointF(small.width(text) / 2, small.height + 1))
        label.setZValue(3)
        label.setToolTip(tip)
        self._labels.append((a.node.label, b.node.label, text))

    def _add_boxes(self, graph: ModuleGraph) -> None:
        """A dashed box around each open container's calls, its title above it."""
        shown = self.shown
        depth = {p: len(ancestors(p, graph.containers)) for p in shown.boxes}
        deepest = {p: max(depth[q] for q in shown.boxes if q == p or q.startswith(p + "."))
                   for p in shown.boxes}
        for path, members in shown.boxes.items():
            rect = QRectF()
            for node_id in members:
                rect = rect.united(self._items[node_id].sceneBoundingRect())
            margin = _BOX_MARGIN + _BOX_STEP * (deepest[path] - depth[path])
            rect = rect.adjusted(-margin, -margin, margin, margin)
            box = QGraphicsRectItem(rect)
            box.setPen(QPen(qcolour("muted"), 1.2, Qt.PenStyle.DashLine))
            box.setZValue(0)
            self._scene.addItem(box)
            title = BoxTitle(path, f"▾ {path} ({graph.containers[path]})")
            title.setFont(self._small)
            title.setBrush(qcolour("text"))
            title.setPos(rect.left() + 4,
                         rect.top() - QFontMetricsF(self._small).height() - 1)
            title.setZValue(3)
            title.setToolTip(QCoreApplication.translate(
                "ModelGraph", "{0}: click to collapse it into one box").format(path))
            self._scene.addItem(title)
