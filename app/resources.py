"""Where the files the lab ships live: the gallery's recipes, the icons, the translations.

In the source tree they sit at the top, in ``recipes/`` and ``resources/``. A wheel carries
them inside the ``app`` package, as ``app/shipped/recipes`` and ``app/shipped/resources``
(``pyproject.toml`` maps them there). The lab looks inside its installed package first and
falls back to the checkout, so an editable install and a wheel both find them.
"""

from __future__ import annotations

import os
from pathlib import Path


def _shipped(name: str) -> Path:
    here = Path(__file__).resolve().parent  # (not importlib.resources: 1 ms at start)
    inside = here / "shipped" / name  # a wheel (or sdist) install
    return inside if inside.is_dir() else here.parent / name  # else the source checkout


#: The gallery's recipes, ``welcome.py`` among them.
RECIPES_DIR = _shipped("recipes")
#: Icons (``*.svg``) and compiled translations (``i18n/tensor_lab_<locale>.qm``).
RESOURCES_DIR = _shipped("resources")
ICONS_DIR = RESOURCES_DIR / "icons"
I18N_DIR = RESOURCES_DIR / "i18n"


def is_gallery(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is one of the gallery's own recipes (a lesson the lab ships)."""
    return os.path.dirname(os.path.realpath(path)) == os.path.realpath(RECIPES_DIR)
