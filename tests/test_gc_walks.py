"""A theme change walks every widget; garbage collection must not free widgets under the
walk (it crashed CI once, in ``test_theme``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("gc_walk_child.py")


@pytest.mark.gui
def test_widget_garbage_collected_during_a_theme_change_does_not_crash():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MALLOC_PERTURB_="165")
    done = subprocess.run([sys.executable, str(CHILD)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    # the ten garbage panels were freed after the walk; the kept one is left
    in_one_panel, in_application = map(int, done.stdout.split())
    assert in_one_panel < in_application < 2 * in_one_panel
