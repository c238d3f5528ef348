"""The window's first paint waits only for what it shows (#33, the start-up figure): the
modules of what it does not show yet are imported when first needed, or right after it.

End to end, in a subprocess: ``tensor-lab`` itself, which names its modules at its first
paint and leaves.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_WINDOW = textwrap.dedent("""
    import os
    import sys

    import widgets.launch as launch

    def said():
        print("imported:", " ".join(sorted(sys.modules)), flush=True)
        os._exit(0)

    launch._first_paint_report = lambda _mode: said
    launch.main([])
""")

#: Imported by the first paint before, and not needed for it: pyqtgraph (the viewer's
#: heatmap, the plots), the exports' text formats, the training setup (New Training...),
#: the link to the kernel (it attaches right after the first paint), the code's colours'
#: background job (after it too), subprocess (the xcb check's, on xcb alone), the trust
#: store (a file opened or saved), the window's copies of values (a view's first look),
#: the kernel's messages (25 dataclasses, ~5 ms: the kernel's first events come after),
#: the viewer's body (no tensor is shown before the kernel has run: its grid, facts and
#: plane picker, ~4 ms), the live training loops (none before a run), the retired
#: training format's converter (the welcome names "training" but holds no ``dict``), the
#: atomic save, the gallery (the lesson's text is ``app.recipe.lesson_text``'s), json
#: (~2 ms: the codec's, with the kernel; a form's plain strings are quoted without it),
#: the window's exports (a copy or an export asked for) and its About box, the text
#: edits (the first paint makes none).
NOT_BEFORE_THE_FIRST_PAINT = ("torch", "pyqtgraph", "widgets.viewer.heatmap_view",
                              "app.recipe.step_edits", "app.recipe.statement_edits",
                              "app.recipe.form_edits",
                              "widgets.shell.exports", "widgets.common.plot_export",
                              "widgets.shell.about",
                              "json",
                              "app.recipe.gallery",
                              "app.training.live", "app.training.write", "app.recipe.saving",
                              "widgets.viewer.body", "widgets.common.tensor_table_model",
                              "widgets.viewer.plane_dims",
                              "app.exports", "app.training.setup", "app.link.session",
                              "app.link.supervisor", "app.link.events",
                              "widgets.common.background", "subprocess", "app.trust",
                              "app.tensor_copy", "protocol.messages")


def test_the_first_paint_imports_none_of_what_it_does_not_show(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TENSOR_LAB_STARTUP_TIMING": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    out = subprocess.run([sys.executable, "-c", _WINDOW], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    line = next((s for s in out.stdout.splitlines() if s.startswith("imported:")), None)
    assert line is not None, out.stdout + out.stderr[-2000:]
    imported = set(line.split()[1:])
    assert "widgets.shell.main_window" in imported
    assert not imported & set(NOT_BEFORE_THE_FIRST_PAINT)
