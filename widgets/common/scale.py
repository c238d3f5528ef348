"""The display scale: how much bigger than normal the lab draws everything.

``display_scale()`` is the application's one ``DisplayScale``. Setting its value scales

* the application font (every widget that does not set its own font follows it);
* widgets that do set their own font (code, signatures): their size is kept as a base
  and multiplied;
* the default row heights and column widths of every table (``QHeaderView``);
* the pen widths and marker sizes of every pyqtgraph line, and toolbar icons;

and emits ``changed`` for views that draw sizes of their own. Nothing here stores pixel
geometry, so the layout survives a move to a screen of another resolution. Presenter
mode (``widgets.shell.presenter``) is the switch that sets it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSize, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QDockWidget, QHeaderView, QToolBar, QWidget

from app.settings import MAX_SCALE, MIN_SCALE

#: Toolbar icons at scale 1.
ICON_SIZE = 24

_BASE_FONT_PT = "_tensorlab_base_pt"
_BASE_SECTION = "_tensorlab_base_section"
_SIZE_RESOLVED = 0x0002  # QFont::SizeResolved, which PySide6 does not expose


class DisplayScale(QObject):
    """How much bigger than normal the lab draws everything (1.0 is normal size)."""

    changed = Signal(float)
    """Emitted with the new scale after fonts, tables and plots have been rescaled."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._value = 1.0
        self._base_font: QFont | None = None

    @property
    def value(self) -> float:
        return self._value

    def set_value(self, value: float) -> None:
        """Scale everything by ``value`` (clamped to the settings' limits)."""
        value = round(min(max(float(value), MIN_SCALE), MAX_SCALE), 3)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        if self._base_font is None:
            self._base_font = QFont(app.font())
        if value == self._value:
            return
        self._value = value
        font = QFont(self._base_font)
        base = self._base_font.pointSizeF()
        if base > 0:
            font.setPointSizeF(base * value)
        else:  # a pixel-sized base font
            font.setPixelSize(max(1, round(self._base_font.pixelSize() * value)))
        app.setFont(font)
        for window in app.topLevelWidgets():
            rescale_widgets(window, value)
        self.changed.emit(value)

    def reapply(self) -> None:
        """Rescale again what was made since the last change (after a screen change)."""
        app = QApplication.instance()
        if isinstance(app, QApplication):
            for window in app.topLevelWidgets():
                rescale_widgets(window, self._value)
        self.changed.emit(self._value)


_display_scale: DisplayScale | None = None


def display_scale() -> DisplayScale:
    """The application's one ``DisplayScale``."""
    global _display_scale
    if _display_scale is None:
        _display_scale = DisplayScale(QApplication.instance())
    return _display_scale


def rescale_widgets(root: QWidget, scale: float) -> None:
    """Apply ``scale`` to the explicit fonts, table sections, plots and toolbars under ``root``.

    Each thing's size at scale 1 is remembered on it the first time, so applying a scale
    twice, or going back to 1, gives the original sizes.
    """
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if isinstance(w, QDockWidget):
            _scale_dock_title(w, scale)
            continue
        if w.property(_BASE_FONT_PT) is not None or _has_own_font_size(w):
            base = w.property(_BASE_FONT_PT)
            if base is None:
                base = w.font().pointSizeF()
                w.setProperty(_BASE_FONT_PT, base)
            if base and base > 0:
                font = QFont(w.font())
                font.setPointSizeF(float(base) * scale)
                w.setFont(font)
        if isinstance(w, QHeaderView):
            base = w.property(_BASE_SECTION)
            if base is None:
                base = w.defaultSectionSize()
                w.setProperty(_BASE_SECTION, base)
            w.setDefaultSectionSize(max(8, round(int(base) * scale)))
        elif isinstance(w, QToolBar):
            w.setIconSize(QSize(round(ICON_SIZE * scale), round(ICON_SIZE * scale)))
    _rescale_plots(root, scale)


def _scale_dock_title(dock: QDockWidget, scale: float) -> None:
    """Qt draws a dock's title in the platform's title font, read once when the dock is made,
    unless the dock has a font of its own: give it one while the scale is not 1."""
    if scale == 1.0:
        dock.setFont(QFont())  # inherit again
        return
    font = QFont(QApplication.font())
    font.setStyleStrategy(QFont.StyleStrategy.PreferQuality)  # differs from the class font
    dock.setFont(font)


def _has_own_font_size(w: QWidget) -> bool:
    """A font set on the widget itself with its own size (not inherited from the app)."""
    from PySide6.QtCore import Qt

    if not w.testAttribute(Qt.WidgetAttribute.WA_SetFont):
        return False
    return bool(w.font().resolveMask() & _SIZE_RESOLVED)


def _rescale_plots(root: QWidget, scale: float) -> None:
    try:
        import pyqtgraph as pg
    except ImportError:  # pragma: no cover - pyqtgraph is a dependency
        return
    views = root.findChildren(pg.GraphicsView)
    if isinstance(root, pg.GraphicsView):
        views.append(root)
    for view in views:
        scene = view.scene()
        if scene is None:
            continue
        for item in scene.items():
            if isinstance(item, pg.PlotDataItem):
                _scale_plot_data_item(item, scale)
            elif isinstance(item, pg.InfiniteLine):
                base = getattr(item, "_tensorlab_base_width", None)
                if base is None:
                    base = item.pen.widthF()
                    item._tensorlab_base_width = base
                pen = pg.mkPen(item.pen)
                pen.setWidthF(base * scale)
                item.setPen(pen)


def _scale_plot_data_item(item, scale: float) -> None:
    import pyqtgraph as pg

    base = getattr(item, "_tensorlab_base", None)
    if base is None:
        pen = item.opts.get("pen")
        width = pg.mkPen(pen).widthF() if pen is not None else 1.0
        base = (width, item.opts.get("symbolSize") or 10)
        item._tensorlab_base = base
    width, symbol = base
    if item.opts.get("pen") is not None:
        pen = pg.mkPen(item.opts["pen"])
        pen.setWidthF(max(width, 1.0) * scale if width else scale)
        item.setPen(pen)
    if item.opts.get("symbol") is not None:
        item.setSymbolSize(symbol * scale)
