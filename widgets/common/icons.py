"""Tensor Lab's icons: one set of 24x24 line icons in ``resources/icons``, drawn in the theme's ink.

The SVG files draw with ``currentColor``; ``icon(name)`` fills that in with the
palette's text colour and renders the SVG at a few sizes, so the icons are sharp at
presenter scale and readable on light, dark and high contrast themes alike.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from app.resources import ICONS_DIR

_SIZES = (16, 24, 32, 48, 64, 96)


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
    path = ICONS_DIR / f"{name}.svg"
    svg = path.read_text(encoding="utf-8")
    result = QIcon()
    for colour, mode in ((ink, QIcon.Mode.Normal), (disabled, QIcon.Mode.Disabled)):
        renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", colour).encode()))
        for size in _SIZES:
            pixmap = QPixmap(size, size)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            renderer.render(painter, QRectF(0, 0, size, size))
            painter.end()
            result.addPixmap(pixmap, mode)
    return result
