"""The one set of colours every view and plot draws with, readable for colour-blind viewers.

Qt-free. The hues are Okabe and Ito's eight colours ("Color Universal Design", 2008),
which stay distinct under the common kinds of colour blindness. Each theme has its own
shades of them so that text and thin lines keep their contrast on its background: the
light theme darkens them a little, the dark theme uses them as published, and the high
contrast theme puts the brightest ones on black.

Widgets never spell a colour themselves: they ask ``widgets.common.theme.current_palette()``
for a ``Palette`` and use its roles (``error``, ``ok``...) or its ``series`` colours.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Okabe–Ito, as published.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#e69f00",
    "sky_blue": "#56b4e9",
    "bluish_green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish_purple": "#cc79a7",
}

#: Theme names a user picks from; ``system`` follows the desktop's light or dark scheme.
THEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class Palette:
    """The colours of one theme, as ``#rrggbb`` strings.

    Parameters
    ----------
    name : str
        ``light``, ``dark`` or ``high_contrast``.
    dark : bool
        Light text on a dark background.
    window, base, text, mid : str
        Panel background, plot and editor background, text and axes, and lines that
        should recede (grid, borders).
    highlight : str
        The selection and the focused element.
    series : tuple of str
        Line and marker colours in the order plots use them.
    ok, error, warning, muted, accent : str
        Roles: a step that ran, a step that failed (and error text), a step blocked by
        a failure, something skipped or inactive, and a mark that draws the eye.
    colormap : str
        The pyqtgraph/matplotlib colour map for heatmaps (perceptually uniform).
    """

    name: str
    dark: bool
    window: str
    base: str
    text: str
    mid: str
    highlight: str
    series: tuple[str, ...]
    ok: str
    error: str
    warning: str
    muted: str
    accent: str
    colormap: str = "viridis"

    def series_colour(self, i: int) -> str:
        """The ``i``-th series colour, cycling."""
        return self.series[i % len(self.series)]

    def role(self, name: str) -> str:
        """A role by name: ``palette.role("error") == palette.error``."""
        if name not in _ROLES:
            raise KeyError(name)
        return str(getattr(self, name))


_ROLES = frozenset({"window", "base", "text", "mid", "highlight", "ok", "error", "warning",
                    "muted", "accent"})

LIGHT = Palette(
    name="light", dark=False,
    window="#efefef", base="#ffffff", text="#1a1a1a", mid="#b8b8b8", highlight="#0072b2",
    # yellow is last: it is the one Okabe–Ito hue too pale for thin lines on white
    series=("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#000000", "#e69f00", "#56b4e9",
            "#f0e442"),
    ok="#00795a", error="#b34700", warning="#8a5a00", muted="#767676", accent="#0072b2",
)

DARK = Palette(
    name="dark", dark=True,
    window="#2b2b2b", base="#1e1e1e", text="#e8e8e8", mid="#5c5c5c", highlight="#3d8fd1",
    series=("#56b4e9", "#e69f00", "#009e73", "#cc79a7", "#f0e442", "#d55e00", "#ffffff",
            "#0072b2"),
    ok="#2bb38a", error="#f07a2f", warning="#e69f00", muted="#9a9a9a", accent="#56b4e9",
)

HIGH_CONTRAST = Palette(
    name="high_contrast", dark=True,
    window="#000000", base="#000000", text="#ffffff", mid="#bfbfbf", highlight="#f0e442",
    series=("#f0e442", "#56b4e9", "#e69f00", "#cc79a7", "#ffffff", "#2bd9a5", "#ff8a3d"),
    ok="#2bd9a5", error="#ff8a3d", warning="#f0e442", muted="#d0d0d0", accent="#56b4e9",
    colormap="cividis",
)


def palette_for(dark: bool, high_contrast: bool = False) -> Palette:
    """The palette of a light or dark theme, or the high contrast one."""
    if high_contrast:
        return HIGH_CONTRAST
    return DARK if dark else LIGHT


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = _luminance(a), _luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
