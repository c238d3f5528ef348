"""A dtype a form step names (``torch.float64``) is held by its name, ``DType``: reading a
recipe imports no torch, a text edit spells it as torch does, and the
parameter form's dtype menu reads and shows names (widget tier for the menu).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

from app.dtypes import DType
from app.recipe.model import write_step
from app.recipe.op_call import node_literal
from app.recipe.reader import read_recipe
from app.recipe.text_recipe import SourceRecipe

ROOT = Path(__file__).resolve().parent.parent


def test_reading_a_recipe_with_dtypes_imports_no_torch() -> None:
    script = textwrap.dedent("""
        import sys
        from app.recipe.reader import read_recipe
        from app.recipe.text_recipe import SourceRecipe
        r = read_recipe("import torch\\nx = torch.ones(2, dtype=torch.float64)\\n"
                        "y = x.to(torch.long)\\n")
        SourceRecipe(r.steps, r.docstring, None).source
        from app.recipe.op_call import node_literal
        print(repr(node_literal(r.steps[1].node.args[0])[1]), "torch" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == "DType(name='int64') False", out.stdout + out.stderr


def test_a_dtype_alias_is_held_by_torchs_own_name() -> None:
    import torch

    for alias in ("half", "float", "double", "short", "int", "long", "bool", "bfloat16"):
        held = read_recipe(f"import torch\nx = torch.ones(2, dtype=torch.{alias})\n") \
            .steps[0].node.keywords[0].value
        literal, held = node_literal(held)
        assert literal and held == DType(alias)
        assert str(held) == str(getattr(torch, alias))  # torch.float64 for torch.double


def test_a_dtype_edited_in_a_form_is_written_as_torch_spells_it() -> None:
    text = "import torch\nx = torch.ones(2)\ny = x.to(torch.double)  # 双\n"
    read = read_recipe(text)
    recipe = SourceRecipe(read.steps, read.docstring, text)
    y = recipe.steps[1]
    recipe.replace_step(1, replace(y, text=f"x.to({DType('int8')})"))
    assert recipe.source == "import torch\nx = torch.ones(2)\ny = x.to(torch.int8)  # 双\n"
    assert write_step(recipe.steps[1]) == "y = x.to(torch.int8)"


def test_a_dtype_menu_holds_names_and_reads_dtype_names(qtbot) -> None:
    from app.catalog import CATALOG
    from widgets.ops.param_form import ParamForm

    form = ParamForm()
    qtbot.addWidget(form)
    form.set_spec(CATALOG.get("torch.zeros"), [])
    form.set_values({"size": "(2,)", "dtype": "torch.complex64"})
    combo = form.editor("dtype")
    assert combo.currentText() == "complex64"  # not in the menu: added, by its name
    assert form.values()["dtype"] == "torch.complex64"
    combo.setCurrentIndex(combo.findText("int8"))
    assert form.values()["dtype"] == "torch.int8"
