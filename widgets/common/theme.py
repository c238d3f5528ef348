"""Light, dark and high contrast themes, and the plot colours that go with them.

``apply_theme(name, high_contrast)`` sets the application palette; every widget then
gets Qt's ``PaletteChange`` event, and ``theme_notifier().changed`` is emitted with the
new ``app.palette.Palette`` for views that draw their own colours (plots, diagrams).
``"system"`` follows the desktop's colour scheme (``QStyleHints.colorScheme()``, Qt 6.5+),
also while the lab runs.

Views never spell colours: ``current_palette().error``, ``qcolour("ok")``,
``series_pen(0)`` for the first plot line (its width follows the presenter scale).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget

from app.palette import HIGH_CONTRAST, LIGHT, THEMES, Palette, palette_for
from widgets.common.gc_pause import cyclic_gc_paused


class ThemeNotifier(QObject):
    """Tells views that the theme changed."""

    changed = Signal(object)
    """Emitted with the new ``app.palette.Palette`` after the application palette is set."""


_theme = "system"
_high_contrast = False
_palette: Palette = LIGHT
_native_style: str | None = None
_notifier: ThemeNotifier | None = None
_own_sheet = ""  # the application style sheet this module set, if any


def theme_notifier() -> ThemeNotifier:
    """The application's one ``ThemeNotifier`` (made on first use)."""
    global _notifier
    if _notifier is None:
        _notifier = ThemeNotifier(QApplication.instance())
        hints = QGuiApplication.styleHints()
        hints.colorSchemeChanged.connect(_on_system_scheme_changed)
    return _notifier


def current_theme() -> tuple[str, bool]:
    """The theme chosen (``system``, ``light`` or ``dark``) and whether high contrast is on."""
    return _theme, _high_contrast


def current_palette() -> Palette:
    """The palette of the theme in use: plot colours and colour roles."""
    return _palette


def qcolour(role: str) -> QColor:
    """A ``QColor`` of the current palette's role (``"error"``, ``"ok"``, ``"text"``...)."""
    return QColor(_palette.role(role))


def series_colour(i: int) -> QColor:
    return QColor(_palette.series_colour(i))


def series_pen(i: int, width: float = 2.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """The pen of the ``i``-th plot line, ``width`` scaled by the presenter scale."""
    from widgets.common.scale import display_scale

    pen = QPen(series_colour(i), width * display_scale().value, style)
    pen.setCosmetic(True)  # width in screen pixels, whatever the plot's zoom
    return pen


def role_pen(role: str, width: float = 2.0,
             style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen in a palette role's colour (``"error"`` for a marker line...)."""
    from widgets.common.scale import display_scale

    pen = QPen(qcolour(role), width * display_scale().value, style)
    pen.setCosmetic(True)
    return pen


def role_style(role: str, prefix: str = "color") -> str:
    """A style sheet fragment in a role's colour: ``role_style("error") == "color: #b34700;"``.

    Style sheets set with it follow later theme changes (``apply_theme`` rewrites them).
    """
    return f"{prefix}: {_palette.role(role)};"


def error_style() -> str:
    """The style sheet of error text in the current theme."""
    return role_style("error")


def system_is_dark() -> bool:
    """Whether the desktop asks for dark colours (False where Qt cannot tell)."""
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(theme: str = "system", high_contrast: bool = False) -> Palette:
    """Set the application's palette for ``theme``; return the plot palette now in use.

    Light uses the style's own palette; dark and high contrast use the Fusion style, the
    one every platform draws correctly with a dark palette.
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; one of {', '.join(THEMES)}")
    with cyclic_gc_paused():  # every widget is restyled
        palette = _apply(theme, high_contrast)
    theme_notifier().changed.emit(palette)
    return palette


def _apply(theme: str, high_contrast: bool) -> Palette:
    global _theme, _high_contrast, _palette, _native_style, _own_sheet
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    if _native_style is None:
        _native_style = app.style().name()
    _theme, _high_contrast = theme, high_contrast
    dark = system_is_dark() if theme == "system" else theme == "dark"
    palette = palette_for(dark, high_contrast)
    if palette.dark:
        if app.style().name().lower() != "fusion":
            app.setStyle("Fusion")
        app.setPalette(qpalette_for(palette))
    else:
        if app.style().name() != _native_style:
            app.setStyle(_native_style)
        app.setPalette(app.style().standardPalette())
    # Fusion draws grid lines and frames a shade darker than the window: on the black of the
    # high contrast theme they vanish, so grid lines get the palette's line colour there.
    sheet = f"QTableView {{ gridline-color: {palette.mid}; }}" if palette is HIGH_CONTRAST else ""
    if app.styleSheet() in ("", _own_sheet) and app.styleSheet() != sheet:
        app.setStyleSheet(sheet)  # never replaces a style sheet someone else set
        _own_sheet = sheet
    old, _palette = _palette, palette
    if old is not palette:
        _restyle(app, old, palette)
    return palette


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Give ``widget`` the style sheet ``sheet``, unless it has it already.

    Setting one, even the same, re-polishes the widget and re-lays out its parents: in a
    refresh that runs on every edit that is a repaint of half the window.
    """
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


#: Roles whose colours widgets put in style sheets (see ``role_style``).
_STYLE_ROLES = ("error", "ok", "warning", "muted", "accent")


def _restyle(app: QApplication, old: Palette, new: Palette) -> None:
    """Rewrite the role colours of ``old`` in every widget's style sheet to those of ``new``."""
    mapping = {old.role(r): new.role(r) for r in _STYLE_ROLES}
    pattern = re.compile("|".join(re.escape(c) for c in mapping), re.IGNORECASE)
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet and pattern.search(sheet):
            widget.setStyleSheet(pattern.sub(lambda m: mapping[m.group(0).lower()], sheet))


def qpalette_for(p: Palette) -> QPalette:
    """A full ``QPalette`` for a dark or high contrast ``Palette``."""
    window, base, text = QColor(p.window), QColor(p.base), QColor(p.text)
    mid, highlight = QColor(p.mid), QColor(p.highlight)
    button = window.lighter(125) if not p.name == "high_contrast" else QColor("#000000")
    disabled_text = QColor(p.muted).darker(130)
    q = QPalette()
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: window,
        QPalette.ColorRole.Text: text, QPalette.ColorRole.Button: button,
        QPalette.ColorRole.ButtonText: text, QPalette.ColorRole.BrightText: QColor(p.error),
        QPalette.ColorRole.Highlight: highlight,
        QPalette.ColorRole.HighlightedText: QColor("#000000" if p.name == "high_contrast"
                                                   else "#ffffff"),
        QPalette.ColorRole.ToolTipBase: window.lighter(140) if p.name != "high_contrast"
        else QColor("#000000"),
        QPalette.ColorRole.ToolTipText: text, QPalette.ColorRole.PlaceholderText: QColor(p.muted),
        QPalette.ColorRole.Link: QColor(p.accent), QPalette.ColorRole.LinkVisited: QColor(
            p.series[3]),
        QPalette.ColorRole.Mid: mid, QPalette.ColorRole.Midlight: mid.lighter(130),
        QPalette.ColorRole.Dark: base.darker(150) if p.name != "high_contrast" else mid,
        QPalette.ColorRole.Shadow: QColor("#000000"), QPalette.ColorRole.Light: mid.lighter(160),
    }
    for role, colour in roles.items():
        q.setColor(QPalette.ColorGroup.All, role, colour)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.ButtonText):
        q.setColor(QPalette.ColorGroup.Disabled, role, disabled_text)
    if p.name == "high_contrast":
        q.setColor(QPalette.ColorRole.Mid, QColor(p.text))
    return q


def _on_system_scheme_changed(_scheme: Qt.ColorScheme) -> None:
    if _theme == "system":
        apply_theme("system", _high_contrast)
