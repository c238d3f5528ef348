"""Themes: the dark theme changes the palette, and views and plots draw with its colours."""

from __future__ import annotations

import pytest

from app.palette import DARK, HIGH_CONTRAST, LIGHT, OKABE_ITO, contrast_ratio


@pytest.mark.parametrize("palette", [LIGHT, DARK, HIGH_CONTRAST], ids=lambda p: p.name)
def test_text_roles_are_readable_on_their_background(palette):
    """WCAG AA asks 4.5:1 for text: every role used for text meets it."""
    for role in ("text", "ok", "error", "warning", "muted", "accent"):
        assert contrast_ratio(palette.role(role), palette.base) >= 4.5, role


def test_plot_series_are_okabe_ito_hues():
    # the light and dark series are exactly the eight published colours, in another order
    for palette in (LIGHT, DARK):
        assert set(palette.series) == set(OKABE_ITO.values()) - {"#000000"} | (
            {"#000000"} if palette is LIGHT else {"#ffffff"})
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)


# -- with Qt -------------------------------------------------------------------------------------
@pytest.fixture
def theme(qapp):
    from widgets.common.theme import apply_theme, current_theme

    before = current_theme()
    yield apply_theme
    apply_theme(*before)


@pytest.mark.gui
def test_dark_theme_changes_the_application_palette(theme, qapp):
    from PySide6.QtGui import QPalette

    from widgets.common.theme import current_palette

    light_window = qapp.palette().color(QPalette.ColorRole.Window)
    assert theme("dark") is DARK
    window = qapp.palette().color(QPalette.ColorRole.Window)
    text = qapp.palette().color(QPalette.ColorRole.Text)
    assert window.name() == DARK.window and window.lightness() < 80 < text.lightness()
    assert current_palette() is DARK
    theme("light")
    assert qapp.palette().color(QPalette.ColorRole.Window) == light_window
    assert theme("light", high_contrast=True) is HIGH_CONTRAST
    assert qapp.palette().color(QPalette.ColorRole.Base).name() == "#000000"


@pytest.mark.gui
def test_views_redraw_in_the_new_theme(theme, qtbot, run_in_kernel):
    from PySide6.QtWidgets import QLabel

    from app.recipe.document import Document
    from widgets.common.theme import error_style
    from widgets.recipe.steps_panel import StepsPanel
    from widgets.viewer.heatmap_view import HeatmapView

    doc = Document()
    doc.open_welcome()
    run_in_kernel(doc)  # its first step ran: it shows in the "ok" colour
    steps = StepsPanel(doc, None)
    heatmap = HeatmapView()
    label = QLabel("a failure")
    for w in (steps, heatmap, label):
        qtbot.addWidget(w)
    label.setStyleSheet(error_style())
    theme("light")
    assert steps.list.item(0).foreground().color().name() == LIGHT.ok
    theme("dark")
    assert steps.list.item(0).foreground().color().name() == DARK.ok
    assert DARK.error in label.styleSheet() and LIGHT.error not in label.styleSheet()
    background = heatmap._graphics.backgroundBrush().color()
    assert background.name() == DARK.base


@pytest.mark.gui
def test_plot_pens_use_palette_colours(theme, qtbot):
    import pyqtgraph as pg

    from widgets.common.theme import current_palette, role_pen, series_pen

    for name in ("light", "dark"):
        palette = theme(name)
        assert series_pen(0).color().name() == palette.series[0]
        assert series_pen(len(palette.series) + 1).color().name() == palette.series[1]
        assert role_pen("error").color().name() == palette.error
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    curve = plot.plot([0, 1], [0, 1], pen=series_pen(2))
    assert curve.opts["pen"].color().name() == current_palette().series[2]


@pytest.mark.gui
def test_theme_menu_switches_and_remembers(theme, qtbot):
    from app.recipe.document import Document
    from app.settings import Settings
    from widgets.common.theme import current_palette
    from widgets.shell.main_window import MainWindow
    from widgets.shell.settings_store import load_settings

    window = MainWindow(Document(), settings=Settings())
    qtbot.addWidget(window)
    window.window_actions["view.theme.dark"].trigger()
    assert current_palette() is DARK
    assert window.settings.theme == "dark" and load_settings().theme == "dark"
    window.window_actions["view.high_contrast"].trigger()
    assert current_palette() is HIGH_CONTRAST and load_settings().high_contrast
    window.window_actions["view.high_contrast"].trigger()
    window.window_actions["view.theme.system"].trigger()
    assert load_settings().theme == "system"


@pytest.mark.gui
def test_every_icon_loads(qapp):
    from widgets.common.icons import icon, icon_names

    names = icon_names()
    assert {"new", "open", "save", "undo", "redo", "run", "step-next", "presenter",
            "zoom-in", "export"} <= set(names)
    for name in names:
        assert not icon(name).pixmap(24, 24).isNull(), name


@pytest.mark.gui
def test_an_icon_is_drawn_only_at_the_sizes_shown_in_the_theme_ink(qapp, monkeypatch):
    from PySide6.QtGui import QIcon, QPalette
    from PySide6.QtSvg import QSvgRenderer

    import widgets.common.icons as icons

    drawn = []

    class CountingRenderer(QSvgRenderer):
        def render(self, *args):
            drawn.append(args[-1].width())
            return super().render(*args)

    monkeypatch.setattr(icons, "QSvgRenderer", CountingRenderer)
    icons._icon.cache_clear()
    made = icons.icon("stop")
    assert drawn == []  # making the toolbar draws no icon: its first paint does
    image = made.pixmap(40, 40).toImage()
    assert drawn == [40] and image.width() == 40  # one size, drawn there, not scaled
    made.pixmap(40, 40)
    assert drawn == [40]
    palette = qapp.palette()
    for mode, group in ((QIcon.Mode.Normal, QPalette.ColorGroup.Active),
                        (QIcon.Mode.Disabled, QPalette.ColorGroup.Disabled)):
        image = made.pixmap(24, 24, mode).toImage()
        colours = {image.pixelColor(x, y).name() for x in range(24) for y in range(24)
                   if image.pixelColor(x, y).alpha() == 255}
        assert colours == {palette.color(group, QPalette.ColorRole.WindowText).name()}
    icons._icon.cache_clear()
