"""Tensor Lab's icons: one set of 24x24 line icons in ``resources/icons``, drawn in the theme's ink.

The SVG files draw with ``currentColor``; ``icon(name)`` fills that in with the
palette's text colour (and its disabled text colour for a disabled action) and draws
the SVG at whatever size it is shown, when it is first shown there, so the icons are
sharp at presenter scale and readable on light, dark and high contrast themes alike.
Drawing every size of every icon up front took a fifth of the window's building before
its first paint.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from app.resources import ICONS_DIR


def icon_names() -> list[str]:
    """The icons in the set, without ``.svg``."""
    return sorted(p.stem for p in ICONS_DIR.glob("*.svg"))


def icon(name: str) -> QIcon:
    """The icon ``name`` (``"save"``, ``"step-next"``...) in the current text colour."""
    app = QApplication.instance()
    ink = app.palette().color(QPalette.ColorRole.WindowText).name() if isinstance(
        app, QApplication) else "#000000"
    disabled = app.palette().color(QPalette.ColorGroup.Disabled,
                                   QPalette.ColorRole.WindowText).name() if isinstance(
        app, QApplication) else "#808080"
    return _icon(name, ink, disabled)


@lru_cache(maxsize=256)
def _icon(name: str, ink: str, disabled: str) -> QIcon:
    svg = (ICONS_DIR / f"{name}.svg").read_text(encoding="utf-8")
    return QIcon(SvgIconEngine(svg.replace("currentColor", ink).encode(),
                               svg.replace("currentColor", disabled).encode()))


class SvgIconEngine(QIconEngine):
    """An icon drawn from SVG text at the size asked, once per size and mode: ``ink``'s
    for every mode but Disabled, which draws ``disabled``'s."""

    def __init__(self, ink: bytes, disabled: bytes):
        super().__init__()
        self._svgs = (ink, disabled)
        self._renderers: dict[bool, QSvgRenderer] = {}
        self._pixmaps: dict[tuple[int, int, bool], QPixmap] = {}

    def _renderer(self, mode: QIcon.Mode) -> QSvgRenderer:
        grey = mode == QIcon.Mode.Disabled
        renderer = self._renderers.get(grey)
        if renderer is None:
            renderer = self._renderers[grey] = QSvgRenderer(QByteArray(self._svgs[grey]))
        return renderer

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode,
              _state: QIcon.State) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._renderer(mode).render(painter, QRectF(rect))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        key = (size.width(), size.height(), mode == QIcon.Mode.Disabled)
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = QPixmap(size)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            self.paint(painter, pixmap.rect(), mode, state)
            painter.end()
            self._pixmaps[key] = pixmap
        return pixmap

    def clone(self) -> QIconEngine:
        return SvgIconEngine(*self._svgs)
