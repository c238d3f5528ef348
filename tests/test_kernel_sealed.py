"""The kernel's own machinery is out of the recipe's reach: a recipe that patches builtins,
``json`` or ``sys.modules`` breaks only itself, as under python; the kernel's pipe, codec,
output capture and summaries go on, and the statements after the patch report.

Real processes: ``tensor-lab run`` beside ``python``, and a window's kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.link.supervisor import Kernel
from protocol import messages as msg
from tests.test_kernel_session import _collect

ROOT = Path(__file__).parent.parent
#: Each patch, then ordinary statements: a list, a print, a name.
AFTER = "x = [1, 2]\nprint('after', x)\ny = 3\n"
PATCHES = {
    "len": "import builtins\nbuiltins.len = None\n",
    "isinstance": "import builtins\nbuiltins.isinstance = None\n",
    "json": "import json\njson.dumps = None\njson.loads = None\n",
    "torch": "import sys\nimport torch\nt = torch.ones(2)\ndel sys.modules['torch']\n",
}


@pytest.mark.parametrize("patch", ["len", "isinstance", "json"])
def test_tensor_lab_run_of_a_patch_ends_as_python_does(tmp_path, patch):
    recipe = tmp_path / "patch.py"
    recipe.write_text(PATCHES[patch] + AFTER)
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    python = subprocess.run([sys.executable, str(recipe)], capture_output=True, text=True,
                            timeout=120)
    lab = subprocess.run([sys.executable, "-m", "app", "run", str(recipe)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert (lab.returncode, lab.stdout, lab.stderr) == (
        python.returncode, python.stdout, python.stderr) == (0, "after [1, 2]\n", "")


@pytest.mark.parametrize("patch", list(PATCHES))
def test_the_windows_kernel_reports_the_statements_after_a_patch(tmp_path, patch):
    kernel = Kernel()
    try:
        source = PATCHES[patch] + AFTER
        kernel.run_source(str(tmp_path / "patch.py"), source, str(tmp_path))
        messages = _collect(kernel)
        done = {m.index: m for m in messages if isinstance(m, msg.StepDone)}
        count = source.count("\n")
        assert sorted(done) == list(range(count)) and messages[-1].exit_code == 0
        assert done[count - 3].names["x"]["repr"] == "[1, 2]"
        assert done[count - 1].names == {"y": {"type": "int", "value": 3}}
        printed = "".join(m.text for m in messages if isinstance(m, msg.Output))
        assert printed == "after [1, 2]\n"
        kernel.run_source(str(tmp_path / "next.py"), "z = 6 * 7\n", str(tmp_path))
        assert [m.names for m in _collect(kernel) if isinstance(m, msg.StepDone)] == [
            {"z": {"type": "int", "value": 42}}]  # and the next run too
    finally:
        kernel.close()
