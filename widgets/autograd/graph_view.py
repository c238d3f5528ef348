"""A pannable, zoomable drawing of an autograd graph (``kernel.explain.autograd_graph``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainterPath,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
    QWidget,
)

from app.explain.autograd_layout import layered_layout
from protocol.autograd_nodes import AutogradGraph, GraphNode, SavedValue
from widgets.common.i18n_text import marked_text
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, qcolour
from widgets.common.zoom_view import MIN_ZOOM, ZoomView, arrow_head

#: Fill colour of each node kind (light, so the dark text reads on any theme).
KIND_COLOURS = {
    "tensor": "#c8e6c9",      # green: the tensor whose graph is drawn
    "grad_fn": "#e0e0e0",     # grey: backward functions
    "accumulate": "#cfd8dc",  # blue-grey: AccumulateGrad
    "leaf": "#bbdefb",        # blue: leaf tensors, where gradients are stored
    "saved": "#ffe0b2",       # orange: tensors saved for backward
    "cut": "#ffffff",         # white, dashed red outline: where detach/no_grad cut the graph
}
_TEXT = QColor("#202020")  # on the light node fills, whatever the theme
# Edges, cuts and the selection take the theme's colours (``widgets.common.theme``) when drawn.
_PAD_X, _PAD_Y, _GAP_X, _GAP_Y = 10.0, 4.0, 24.0, 26.0
_MIN_WIDTH, _MAX_WIDTH = 70.0, 260.0
_FIT_ZOOM = (0.7, 1.25)  # a new drawing's zoom stays within these; Fit goes smaller


class NodeItem(QGraphicsPathItem):
    """One node: a rounded box with its label and a smaller second line."""

    def __init__(self, node: GraphNode, width: float, height: float, font: QFont,
                 small: QFont):
        super().__init__()
        self.node = node
        path = QPainterPath()
        path.addRoundedRect(QRectF(-width / 2, 0, width, height), 6, 6)
        self.setPath(path)
        self.setBrush(QBrush(QColor(KIND_COLOURS.get(node.kind, "#ffffff"))))
        self.set_selected(False)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(_tooltip(node))
        label = QGraphicsSimpleTextItem(_elide(node_label(node), font, width - 2 * _PAD_X),
                                        self)
        label.setFont(font)
        label.setBrush(_TEXT)
        sub = node_subtitle(node)
        top = _PAD_Y if sub else (height - label.boundingRect().height()) / 2
        label.setPos(-label.boundingRect().width() / 2, top)
        self.label_item = label
        if sub:
            second = QGraphicsSimpleTextItem(_elide(sub, small, width - 2 * _PAD_X), self)
            second.setFont(small)
            second.setBrush(_TEXT)
            second.setPos(-second.boundingRect().width() / 2,
                          _PAD_Y + QFontMetricsF(font).height())

    def set_selected(self, on: bool) -> None:
        if on:
            pen = QPen(QColor(current_palette().highlight), 3)
        elif self.node.kind == "cut":
            pen = QPen(qcolour("error"), 1.5, Qt.PenStyle.DashLine)
        else:
            pen = QPen(QColor("#455a64"), 1.2)
        self.setPen(pen)


class GraphView(ZoomView):
    """Draws an ``AutogradGraph`` in layers, the root on top; wheel zooms, drag pans.

    Parameters
    ----------
    parent : QWidget, optional
        The usual Qt parent.
    """

    node_clicked = Signal(str)
    """Emitted with a node's id when the user clicks it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        translated(self, lambda: (
            self.setToolTip(self.tr("The backward graph: click a node to inspect it. The mouse "
                                    "wheel zooms, dragging pans. Arrows point the way backward() "
                                    "walks, from the result down to the leaves."))))
        self._items: dict[str, NodeItem] = {}
        self._graph = AutogradGraph()
        self._selected: str | None = None
        self._font = QFont(self.font())
        self._font.setBold(True)
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(self.font().pointSizeF() * 0.9, 7.0))

    # -- public -------------------------------------------------------------------------------
    @property
    def graph(self) -> AutogradGraph:
        return self._graph

    def node_items(self) -> dict[str, NodeItem]:
        """The drawn nodes by id (for tests and screenshots)."""
        return dict(self._items)

    def node_center(self, node_id: str) -> QPointF:
        """Where node ``node_id`` is, in viewport coordinates."""
        item = self._items[node_id]
        return QPointF(self.mapFromScene(item.sceneBoundingRect().center()))

    def selected(self) -> str | None:
        return self._selected

    def set_graph(self, graph: AutogradGraph, fit: bool = True) -> None:
        """Draw ``graph``, replacing the drawing; fit it in the view, or keep zoom and centre."""
        centre = self.mapToScene(self.viewport().rect().center())
        self._graph = graph
        self._scene.clear()
        self._items.clear()
        self._selected = None
        if not graph.nodes:
            self._scene.setSceneRect(QRectF())
            return
        grid = layered_layout(graph)
        metrics, small = QFontMetricsF(self._font), QFontMetricsF(self._small)
        height = 2 * _PAD_Y + metrics.height() + small.height()
        widths = {n.id: min(max(metrics.horizontalAdvance(node_label(n)),
                                small.horizontalAdvance(node_subtitle(n))) + 2 * _PAD_X + 4,
                            _MAX_WIDTH)
                  for n in graph.nodes.values()}
        widths = {k: max(v, _MIN_WIDTH) for k, v in widths.items()}
        column = max(widths.values()) + _GAP_X
        row = height + _GAP_Y
        for node in graph.nodes.values():
            item = NodeItem(node, widths[node.id], height, self._font, self._small)
            x, layer = grid[node.id]
            item.setPos(x * column, layer * row)
            item.setZValue(1)
            self._scene.addItem(item)
            self._items[node.id] = item
        for edge in graph.edges:
            self._add_edge(edge.source, edge.target, edge.kind, edge.count, height)
        rect = self._scene.itemsBoundingRect().adjusted(-40, -30, 40, 30)
        self._scene.setSceneRect(rect)
        if fit:
            self._fit_readable()
        else:
            self.centerOn(centre)

    def select(self, node_id: str | None) -> None:
        """Outline node ``node_id`` (None clears); does not emit ``node_clicked``."""
        if self._selected in self._items:
            self._items[self._selected].set_selected(False)
        self._selected = node_id if node_id in self._items else None
        if self._selected is not None:
            self._items[self._selected].set_selected(True)

    def fit(self) -> None:
        """Zoom to show the whole graph, every node in the view (never larger than
        readable): what the Fit button does."""
        rect = self._scene.sceneRect()  # the nodes and a margin: no scroll bar comes
        if rect.isEmpty():
            return
        self.resetTransform()
        view = self.viewport().rect().adjusted(2, 2, -2, -2)  # as QGraphicsView.fitInView
        scale = max(min(view.width() / rect.width(), view.height() / rect.height(),
                        _FIT_ZOOM[1]), MIN_ZOOM)
        self.scale(scale, scale)
        self.centerOn(rect.center())

    def _fit_readable(self) -> None:
        """Zoom to show the whole graph within readable limits, the root in view: a new
        drawing (a tall graph is left to scroll, or to Fit)."""
        rect = self._scene.sceneRect()
        if rect.isEmpty():
            return
        view = self.viewport().rect()
        scale = min(view.width() / rect.width(), view.height() / rect.height())
        scale = min(max(scale, _FIT_ZOOM[0]), _FIT_ZOOM[1])
        self.resetTransform()
        self.scale(scale, scale)
        root = self._items.get(self._graph.root or "")
        if root is not None and scale * rect.height() > view.height():
            self.centerOn(root.sceneBoundingRect().center().x(),
                          rect.top() + view.height() / (2 * scale))
        else:
            self.centerOn(rect.center())

    # -- events -------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        item = self.itemAt(event.position().toPoint())
        while item is not None and not isinstance(item, NodeItem):
            item = item.parentItem()
        if isinstance(item, NodeItem) and event.button() == Qt.MouseButton.LeftButton:
            self.select(item.node.id)
            self.node_clicked.emit(item.node.id)
            event.accept()
            return
        super().mousePressEvent(event)

    # -- drawing ------------------------------------------------------------------------------
    def _add_edge(self, source: str, target: str, kind: str, count: int,
                  height: float) -> None:
        a, b = self._items[source], self._items[target]
        start = a.pos() + QPointF(0, height)
        end = b.pos()
        if b.pos().y() <= a.pos().y():  # never happens in a layered layout; keep it visible
            end = b.pos() + QPointF(0, height)
        path = QPainterPath(start)
        bend = max((end.y() - start.y()) / 2, 12.0)
        path.cubicTo(start + QPointF(0, bend), end - QPointF(0, bend), end)
        colour = qcolour("error") if kind == "cut" else qcolour("muted")
        pen = QPen(colour, 1.3)
        if kind in ("saved", "cut"):
            pen.setStyle(Qt.PenStyle.DashLine)
        line = QGraphicsPathItem(path)
        line.setPen(pen)
        line.setZValue(0)
        line.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self._scene.addItem(line)
        head = arrow_head(end, path.angleAtPercent(1.0))
        arrow = self._scene.addPolygon(head, QPen(colour, 1), QBrush(colour))
        arrow.setZValue(0)
        label = self.tr("cut") if kind == "cut" else ""
        if count > 1:
            label = f"×{count}"
        if label:
            text = self._scene.addSimpleText(label, self._small)
            text.setBrush(colour)
            mid = path.pointAtPercent(0.5)
            text.setPos(mid + QPointF(4, -text.boundingRect().height() / 2))
            text.setZValue(2)


def _elide(text: str, font: QFont, width: float) -> str:
    metrics = QFontMetricsF(font)
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def node_label(node: GraphNode) -> str:
    """A node's label in the UI language (a recipe name or a function name stays as it is)."""
    return marked_text(node.label)


def node_subtitle(node: GraphNode) -> str:
    """``GraphNode.subtitle`` in the UI language."""
    return " · ".join(marked_text(part) for part in node.subtitle_parts)


def saved_value_text(value: SavedValue) -> str:
    """A saved value in words (``tensor [2, 2]``, ``freed``, ``(2, 3)``) in the UI language."""
    return marked_text(value.text)


def _tooltip(node: GraphNode) -> str:
    lines = [node_label(node)]
    sub = node_subtitle(node)
    if sub:
        lines.append(sub)
    for v in node.saved:
        named = f" = {v.tensor_name}" if v.tensor_name else ""
        lines.append(QCoreApplication.translate("GraphView", "saved {0}: {1}").format(
            v.name, saved_value_text(v) + named))
    lines.append(QCoreApplication.translate("GraphView", "Click to inspect."))
    return "\n".join(lines)
