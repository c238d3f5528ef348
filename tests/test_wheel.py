"""The wheel holds everything the lab reads at run time, and the lab runs from it.

``pip wheel`` builds it from this checkout; the test lists its files, then unpacks it
into a folder of its own and starts the lab from there, outside the clone, with the
editable install out of the way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=300, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("tensor_lab-*.whl")
    return built


@pytest.fixture(scope="module")
def names(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_the_wheel_holds_every_recipe(names):
    recipes = sorted(p.name for p in (ROOT / "recipes").glob("*.py"))
    assert len(recipes) > 30
    missing = [r for r in recipes if f"app/shipped/recipes/{r}" not in names]
    assert missing == []


def test_the_wheel_holds_the_translations_and_icons(names):
    for ts in (ROOT / "resources" / "i18n").glob("*.ts"):
        assert f"app/shipped/resources/i18n/{ts.with_suffix('.qm').name}" in names
    icons = sorted(p.name for p in (ROOT / "resources" / "icons").glob("*.svg"))
    assert len(icons) > 10
    assert [i for i in icons if f"app/shipped/resources/icons/{i}" not in names] == []


def test_the_wheel_holds_every_module_and_no_screenshots(names):
    modules = sorted(str(p.relative_to(ROOT)) for package in ("app", "widgets")
                     for p in (ROOT / package).rglob("*.py"))
    assert [m for m in modules if m not in names] == []
    assert not [n for n in names if n.endswith(".png")], "README screenshots do not ship"


def test_the_lab_runs_from_the_unpacked_wheel(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "QT_QPA_PLATFORM": "offscreen",
           "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "TENSOR_LAB_DATA_DIR": str(tmp_path / "data")}
    where = subprocess.run(
        [sys.executable, "-c",
         "import app.resources as r, widgets.common.icons as i\n"
         "from PySide6.QtCore import QCoreApplication as A\n"
         "from PySide6.QtWidgets import QApplication\n"
         "from widgets.shell.translators import install_translators\n"
         "q = QApplication([]); install_translators('zh_CN')\n"
         "print(r.__file__); print(r.RECIPES_DIR); print(len(i.icon_names()))\n"
         "print(A.translate('', '&File'))"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert where.returncode == 0, where.stderr
    module, recipes, icons, file_menu = where.stdout.split()
    assert Path(module).is_relative_to(site) and Path(recipes).is_relative_to(site)
    assert int(icons) > 10
    assert file_menu == "文件(&F)"  # the .qm in the wheel, loaded
    for lang in ("en", "zh_CN"):
        out = tmp_path / f"window_{lang}.png"
        shot = subprocess.run([sys.executable, "-m", "widgets", "--lang", lang,
                               "--screenshot", str(out)],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=180)
        assert shot.returncode == 0, shot.stderr
        assert out.stat().st_size > 20_000
