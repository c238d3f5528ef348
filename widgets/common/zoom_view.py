"""A drawing of nodes and arrows that the wheel zooms and a drag pans: what the autograd
graph (``widgets.autograd.graph_view``) and the Model graph (``widgets.model.graph``)
share."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainter, QPolygonF, QWheelEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

MIN_ZOOM, MAX_ZOOM = 0.05, 4.0


class ZoomView(QGraphicsView):
    """A ``QGraphicsView`` of its own scene (``_scene``), antialiased; the wheel zooms
    about the mouse, dragging pans."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._scene = QGraphicsScene(self)
        self.setScene(self._scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor``, within ``MIN_ZOOM`` and ``MAX_ZOOM``."""
        current = self.transform().m11()
        factor = min(max(current * factor, MIN_ZOOM), MAX_ZOOM) / current
        self.scale(factor, factor)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom(1.15 ** steps)
        event.accept()


def arrow_head(tip: QPointF, angle_degrees: float, size: float = 8.0) -> QPolygonF:
    """The triangle of an arrow ending at ``tip``, its line arriving at ``angle_degrees``
    (``QPainterPath.angleAtPercent``)."""
    angle = math.radians(angle_degrees)
    # QPainterPath angles run counter-clockwise with y up; the scene's y runs down
    back = QPointF(-math.cos(angle), math.sin(angle)) * size
    side = QPointF(-back.y(), back.x()) * 0.5
    return QPolygonF([tip, tip + back + side, tip + back - side])
