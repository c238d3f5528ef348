"""``tensor-lab run`` as a user runs it: a real process, its output and exit code."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import torch

from app.recipe.document import RECIPES_DIR, WELCOME


def tensor_lab(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "widgets", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_run_prints_what_python_prints():
    python = subprocess.run([sys.executable, str(WELCOME)], capture_output=True, text=True)
    lab = tensor_lab("run", str(WELCOME))
    assert lab.returncode == 0, lab.stderr
    assert lab.stdout == python.stdout
    assert lab.stdout.startswith("tensor([ 0,  1,  2")


def test_run_runs_the_file_as_python_does_the_user_asked_for_it(tmp_path):
    """``tensor-lab run FILE`` is ``python FILE``: it runs code the lab's reader refuses."""
    marker = tmp_path / "ran.txt"
    recipe = tmp_path / "any.py"
    recipe.write_text(f'import torch\nimport os\nprint("hello")\nopen({str(marker)!r}, "w")\n')
    lab = tensor_lab("run", str(recipe))
    assert (lab.returncode, lab.stdout) == (0, "hello\n"), lab.stderr
    assert marker.exists()
    marker.unlink()
    # with code steps, the JSON report is of a run in a kernel too, as python runs it
    as_json = tensor_lab("run", str(recipe), "--json")
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert (report["stdout"], report["errors"], report["tensors"]) == ("hello\n", [], {})
    assert marker.exists()


def test_json_of_code_steps_names_the_error_and_keeps_the_traceback_in_the_report(tmp_path):
    recipe = tmp_path / "loop.py"
    recipe.write_text("import torch\nx = torch.arange(3)\nfor i in range(3):\n"
                      "    print(i)\n    y = x.view(2, 2)\n")
    python = subprocess.run([sys.executable, str(recipe)], capture_output=True, text=True)
    lab = tensor_lab("run", str(recipe), "--json")
    assert (lab.returncode, lab.stderr) == (1, "")
    report = json.loads(lab.stdout)
    assert (report["stdout"], report["stderr"]) == (python.stdout, python.stderr)
    assert report["errors"] == [{"line": 5, "step": "for i in range(3):", "type": "RuntimeError",
                                 "message": python.stderr.strip().splitlines()[-1].split(
                                     ": ", 1)[1]}]
    assert report["tensors"]["x"]["values"] == [0, 1, 2] and report["values"]["i"] == 0


def test_json_report_shape_and_special_values(tmp_path):
    recipe = tmp_path / "r.py"
    recipe.write_text('import torch\nx = torch.tensor([1.0, float("nan"), float("inf"), '
                      'float("-inf")])\nm = torch.eye(2, dtype=torch.int64)\nprint(m)\n')
    lab = tensor_lab("run", str(recipe), "--json")
    assert lab.returncode == 0, lab.stderr
    report = json.loads(lab.stdout)
    assert list(report["tensors"]) == ["x", "m"]
    assert report["tensors"]["x"] == {"shape": [4], "dtype": "torch.float32", "device": "cpu",
                                      "values": [1.0, "nan", "inf", "-inf"]}
    assert report["tensors"]["m"]["values"] == torch.eye(2, dtype=torch.int64).tolist()
    assert report["errors"] == []
    assert not math.isnan(report["tensors"]["x"]["values"][0])


def test_a_failing_step_exits_1_with_pythons_traceback_and_json_names_it(tmp_path):
    recipe = tmp_path / "r.py"
    recipe.write_text("import torch\nx = torch.ones(2)\ny = torch.randint(5, 2, (3,))\n")
    try:
        torch.randint(5, 2, (3,))
    except RuntimeError as e:
        message = str(e)
    python = subprocess.run([sys.executable, str(recipe)], capture_output=True, text=True)
    lab = tensor_lab("run", str(recipe))
    assert (lab.returncode, lab.stdout, lab.stderr) == (1, python.stdout, python.stderr)
    assert lab.stderr.strip().splitlines()[-1] == f"RuntimeError: {message}"
    lab = tensor_lab("run", str(recipe), "--json")
    assert lab.returncode == 1 and lab.stderr == ""
    report = json.loads(lab.stdout)  # python's traceback is the run's stderr, in the report
    assert report["stderr"] == python.stderr and report["stdout"] == python.stdout
    assert report["errors"] == [{"line": 3, "step": "y", "message": message,
                                 "type": "RuntimeError"}]
    assert list(report["tensors"]) == ["x"]


def test_missing_file_exits_2(tmp_path):
    assert tensor_lab("run", str(tmp_path / "nope.py")).returncode == 2


def test_run_imports_no_qt(tmp_path):
    """``tensor-lab run`` goes through the window's own entry point and still loads no Qt."""
    code = (f"import sys; sys.argv=['tensor-lab','run',{str(WELCOME)!r}];"
            "from widgets.launch import main; rc = main(); "
            "assert not any(m.startswith(('PySide6','pyqtgraph','shiboken')) "
            "for m in sys.modules), 'Qt imported'; sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_core_runs_with_pyside6_unavailable():
    """Every core module imports, and a recipe runs in a kernel, with PySide6 and pyqtgraph
    blocked."""
    code = (
        "import importlib, pkgutil, sys\n"
        "for m in ('PySide6', 'pyqtgraph', 'shiboken6'): sys.modules[m] = None\n"
        "import app, app.recipe.document\n"
        "names = [m.name for m in pkgutil.walk_packages(app.__path__, 'app.')\n"
        "         if m.name != 'app.__main__']\n"
        "for name in names: importlib.import_module(name)\n"
        "assert len(names) > 40, names\n"
        "from app.link.session import KernelSession\n"
        "doc = app.recipe.document.Document(); doc.kernel = KernelSession()\n"
        f"doc.open({str(WELCOME)!r})\n"
        "while doc.kernel_run is not None: doc.take_kernel_events(doc.kernel.poll(0.05))\n"
        "assert doc.run.ok and doc.run.result_for('x').value.names['x']['shape'] == [12]\n"
        "doc.kernel.close()\n"
        "print('core ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "core ok" in proc.stdout


def test_the_welcome_and_a_training_recipe_run():
    for path in (RECIPES_DIR / "welcome.py", RECIPES_DIR / "gather.py"):
        assert tensor_lab("run", str(path)).returncode == 0, path


def test_an_error_lesson_exits_1_by_design():
    path = RECIPES_DIR / "view_after_transpose.py"
    assert "Error lesson:" in path.read_text()
    lab = tensor_lab("run", str(path))
    assert lab.returncode == 1
    assert lab.stderr.startswith("Traceback (most recent call last):")  # python's own
    assert "view size is not compatible" in lab.stderr.strip().splitlines()[-1]
