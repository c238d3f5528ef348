"""Op explained's window side runs no torch (#33): its modules import none, not even
inside a function, and importing them loads none. The kernel works out what needs torch
(``kernel.explain.provenance_query``, ``kernel.explain.inner_step_query``), and those modules
need none of the window's. Core tests."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WINDOW_SIDE = ["app/explain/step_view.py", "protocol/provenance_data.py",
               "app/explain/op_facts.py",
               "app/recipe/kernel_results.py", "app/tensor_copy.py",
               "widgets/explain/op_explained_controller.py",
               "widgets/explain/op_explained_view.py", "widgets/explain/explained_grid.py",
               "widgets/explain/extras_values.py", "widgets/explain/extras_shape.py",
               "widgets/explain/shape_diagrams.py", "widgets/explain/op_view.py",
               "widgets/explain/op_extras.py", "widgets/explain/extra_base.py"]


def _torch_imports(path: Path) -> list[int]:
    """The lines of ``path`` that import torch, anywhere in it."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if any(n == "torch" or n.startswith("torch.") for n in names):
            lines.append(node.lineno)
    return lines


def test_op_explained_modules_import_no_torch_anywhere_in_them():
    found = {p: lines for p in WINDOW_SIDE if (lines := _torch_imports(ROOT / p))}
    assert found == {}


def _fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter, in the repository, offscreen."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={"QT_QPA_PLATFORM": "offscreen",
                                                      "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_importing_op_explained_loads_no_torch():
    modules = [p.removesuffix(".py").replace("/", ".") for p in WINDOW_SIDE]
    assert _fresh_python("import sys\n" + "".join(f"import {m}\n" for m in modules)
                         + "print('torch' in sys.modules)\n") == "False"


def test_op_explaineds_kernel_queries_import_without_the_windows_modules():
    """They read statements with ``ast`` and get the ops they may call with each
    question: they load with ``app.recipe``, ``app.catalog`` and Qt
    unavailable (a kernel package will hold them, importing neither)."""
    blocked = ("app.recipe", "app.catalog", "PySide6")
    assert _fresh_python("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n"
                                                  for m in blocked)
                         + "import kernel.explain.provenance_query\n"
                         + "import kernel.explain.inner_step_query\nprint('ok')\n") == "ok"
