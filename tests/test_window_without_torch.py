"""The window never imports torch: ``tensor-lab --screenshot`` on a recipe paints every
view from what its kernel answers, and ``torch`` is not in the window's ``sys.modules``
after it (#33). Torch runs in the kernel, a process of its own.

End to end, in a subprocess: the window process is ``tensor-lab`` itself, with an import
hook that names the window's own module that first imported torch, if one did.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_WINDOW = textwrap.dedent("""
    import sys
    import traceback

    class TorchWatch:
        '''Remembers the window's frames (app/, widgets/) that first imported torch.'''

        importer = None

        def find_spec(self, name, path=None, target=None):
            if name == "torch" and TorchWatch.importer is None:
                ours = [f"{f.filename}:{f.lineno}" for f in traceback.extract_stack()
                        if "/app/" in f.filename or "/widgets/" in f.filename]
                TorchWatch.importer = " <- ".join(reversed(ours[-4:])) or "?"
            return None

    sys.meta_path.insert(0, TorchWatch())
    import widgets.launch as launch

    code = launch.main(sys.argv[1:])
    print("torch in the window:", "torch" in sys.modules, flush=True)
    print("imported by:", TorchWatch.importer, flush=True)
    sys.exit(code)
""")


@pytest.mark.parametrize("recipe", [None, "recipes/create_tensors.py", "recipes/nn_lenet.py",
                                    "recipes/shape_view.py"])
def test_a_screenshot_of_the_window_imports_no_torch(tmp_path, recipe):
    shot = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    args = [sys.executable, "-c", _WINDOW, "--screenshot", str(shot)] + (
        [str(ROOT / recipe)] if recipe else [])
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and shot.stat().st_size > 0, out.stdout + out.stderr
    assert "torch in the window: False" in out.stdout, out.stdout
