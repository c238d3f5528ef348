"""The nn lessons (issue 6): module classes in recipes, read without running anything.

Every ``recipes/nn_*.py`` reads back to the same steps after writing, and runs in the
kernel without error (``tests/test_gallery.py`` checks that the lab prints what python
prints). Around that: what the lessons show, checked against torch or by hand; a class,
and whatever else the forms cannot show, is a code step holding its exact text.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch import nn

from app.catalog import CATALOG
from app.recipe.document import RECIPES_DIR
from app.recipe.model import Recipe
from app.recipe.reader import read_recipe, read_recipe_file
from app.recipe.results import RecipeRun
from app.recipe.text_recipe import new_text
from tests.python_run import run_python

NN_RECIPES = sorted(RECIPES_DIR.glob("nn_*.py"))
#: The nn lessons whose every step is a form (the others, LeNet's, have code steps: the
#: kernel runs them, and ``tests/test_gallery.py`` checks them against python).
FORM_RECIPES = [p for p in NN_RECIPES
                if not any(s.is_code for s in read_recipe_file(str(p)).steps)]
HEAD = "import torch\nimport torch.nn as nn\n"


def lab(recipe: Recipe) -> RecipeRun:
    """The values the recipe's steps make, run by python (``tests.python_run``)."""
    return run_python(recipe)


def test_the_nn_lessons_are_shipped() -> None:
    names = {p.stem for p in NN_RECIPES}
    assert {"nn_parameter_buffer", "nn_containers", "nn_embedding", "nn_dropout",
            "nn_linear_allclose"} <= names


@pytest.mark.parametrize("path", NN_RECIPES, ids=lambda p: p.stem)
def test_recipe_runs_and_round_trips(path: Path) -> None:
    recipe = read_recipe_file(str(path))
    run = lab(recipe)
    assert run.ok, [(r.step.label, r.error) for r in run.results if not r.ok]
    again = read_recipe(new_text(recipe))
    assert again.steps == recipe.steps and again.docstring == recipe.docstring
    assert new_text(again) == new_text(recipe)


@pytest.mark.parametrize("path", NN_RECIPES, ids=lambda p: p.stem)
def test_lesson_text_in_english_then_chinese(path: Path) -> None:
    doc = read_recipe_file(str(path)).docstring
    english, _, rest = doc.partition("\n\n")
    assert english.isascii() and english.strip()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in rest)
    first_chinese = next(i for i, ch in enumerate(doc) if "\u4e00" <= ch <= "\u9fff")
    assert doc[:first_chinese].count("\n\n") >= 2  # the English lesson text comes first


# -- what the lessons show ---------------------------------------------------------------------
def _run(path: str) -> RecipeRun:
    run = lab(read_recipe_file(str(RECIPES_DIR / path)))
    assert run.ok
    return run


def test_parameter_buffer_and_plain_attribute_end_up_where_torch_puts_them() -> None:
    m = _run("nn_parameter_buffer.py").value("m")

    class Scaler(nn.Module):  # the same module written in plain torch
        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(3))
            self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]))
            self.register_buffer("calls", torch.zeros(1), persistent=False)
            self.note = torch.tensor([7.0, 8.0, 9.0])

    ref = Scaler()
    assert list(m.state_dict()) == list(ref.state_dict()) == ["scale", "mean"]
    assert [n for n, _ in m.named_parameters()] == ["scale"]
    assert [n for n, _ in m.named_buffers()] == ["mean", "calls"]
    assert torch.equal(m.note, ref.note) and "note" not in m.state_dict()
    assert torch.equal(m(torch.tensor([1.0, 2.0, 3.0])), torch.tensor([0.5, 1.5, 2.5]))


def test_containers_name_their_parameters_by_position_and_key() -> None:
    run = _run("nn_containers.py")
    assert list(run.value("seq").state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert run.value("y").shape == (5, 2) and run.value("box").shape == (5, 4)
    assert run.value("label").shape == (5, 3)
    net = run.value("net")
    assert isinstance(net.blocks, nn.ModuleList) and isinstance(net.heads, nn.ModuleDict)
    x = run.value("x")
    h = torch.relu(net.blocks[1](torch.relu(net.blocks[0](net.body(x)))))
    assert torch.equal(run.value("box"), net.heads["box"](h))


def test_embedding_adds_one_dimension_and_looks_rows_up() -> None:
    run = _run("nn_embedding.py")
    emb, batch = run.value("emb"), run.value("batch")
    assert run.value("vectors").shape == (3, 4)
    assert run.value("batch_vectors").shape == (2, 3, 4)
    assert torch.equal(run.value("batch_vectors"), emb.weight[batch])


def test_dropout_drops_in_train_and_passes_through_in_eval() -> None:
    run = _run("nn_dropout.py")
    x = run.value("x")
    train_out = run.value("train_out")
    assert set(train_out.unique().tolist()) == {0.0, 2.0}  # dropped, or scaled by 1/(1-p)
    assert torch.equal(run.value("eval_out"), x)
    torch.manual_seed(0)
    assert torch.equal(train_out, nn.functional.dropout(torch.ones(2, 8), 0.5))


def test_linear_is_x_at_w_transposed_plus_b_within_tolerance() -> None:
    run = _run("nn_linear_allclose.py")
    lin, x, y = run.value("lin"), run.value("x"), run.value("y")
    assert torch.allclose(y, x @ lin.weight.T + lin.bias, atol=1e-6)
    diff = (y - run.value("by_sum")).abs().max().item()
    assert 0 < diff < 1e-6  # rounding in float32, a few epsilons
    assert (run.value("y64") - run.value("sum64")).abs().max().item() < 1e-12


def test_readme_example_is_read_as_it_says(tmp_path: Path) -> None:
    """The README's recipe: forms for x and y, the loop a code step; python runs it."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("## The recipe format", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    recipe = read_recipe(example)
    assert [(s.label, s.is_code) for s in recipe.steps] == [
        ("torch.manual_seed", False), ("x", False), ("y", False),
        ("for i in range(3):", True)]
    assert recipe.steps[1].comment == "Comments just above a step are kept with it."
    path = tmp_path / "readme.py"
    path.write_text(example, encoding="utf-8")

    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "0 tensor(12)"


def test_document_opens_an_nn_recipe(kernel_document) -> None:
    doc = kernel_document(read_recipe_file(str(RECIPES_DIR / "nn_containers.py")))
    assert doc.run.ok and doc.recipe.steps[0].is_code
    assert doc.recipe.steps[0].label == "class TwoHeads(nn.Module):"
    assert doc.output.startswith("Sequential(")


CLASS = HEAD + '''

# A comment above the class.
class Net(nn.Module):
    """Two layers."""

    def __init__(self, hidden=8):
        super().__init__()
        self.fc = nn.Linear(4, hidden)

    def forward(self, x):
        return torch.relu(self.fc(x))


torch.manual_seed(0)
net = Net(hidden=3)
y = net(torch.ones(2, 4))
'''


def test_a_class_is_a_code_step_kept_verbatim_and_its_module_is_torchs() -> None:
    recipe = read_recipe(CLASS)
    cls = recipe.steps[0]
    assert cls.is_code and cls.comment == "A comment above the class."
    assert cls.text == CLASS[CLASS.index("class Net"):CLASS.index("\n\n\ntorch.")]
    assert cls.binds == ("Net",)
    assert [s.is_code for s in recipe.steps[1:]] == [False, True, True]  # seed, Net(), net(x)
    assert read_recipe(new_text(recipe)) == recipe  # a new text of these steps reads as them
    run = lab(recipe)
    assert run.ok and type(run.value("net")).__name__ == "Net"
    torch.manual_seed(0)
    fc = nn.Linear(4, 3)
    assert torch.equal(run.value("y"), torch.relu(fc(torch.ones(2, 4))))


# -- what the forms cannot show ------------------------------------------------------------
def _class(init: str = "", forward: str = "        return x\n", head: str = "") -> str:
    return (HEAD + "\n\nclass Net(nn.Module):\n" + head + "    def __init__(self):\n"
            "        super().__init__()\n" + init + "\n    def forward(self, x):\n" + forward)


# class on line 5, super().__init__() on 7, further __init__ lines from 8, forward's body on
# line 10 plus the number of those
@pytest.mark.parametrize(("source", "line", "column", "words"), [
    (_class(head="    def helper(self):\n        return 1\n\n"), 6, 5, "method 'helper'"),
    (_class("        for i in range(3):\n            pass\n"), 8, 9, "loops"),
    (_class("        while True:\n            pass\n"), 8, 9, "loops"),
    (_class("        exec('import os')\n"), 8, 9, "__init__ may only assign"),
    (_class(forward="        y = exec('x')\n        return x\n"), 10, 13,
     "unknown function 'exec'"),
    (_class(forward="        y = eval('x')\n        return x\n"), 10, 13,
     "unknown function 'eval'"),
    (_class("        self.__dict__ = {}\n"), 8, 9, "dunder"),
    (_class(forward="        return self.__dict__\n"), 10, 16, "dunder"),
    (_class(forward="        c = self.__class__\n        return x\n"), 10, 13, "dunder"),
    (_class(forward="        c = x.__class__.__bases__\n        return x\n"), 10, 13, "dunder"),
    (_class("        self.fc = nn.Linear(2, 2)\n",
            "        c = self.fc.weight.__class__\n        return x\n"), 11, 13, "dunder"),
    (_class(forward="        return self._modules\n"), 10, 16, "private"),
    (_class(forward="        return getattr(self, 'fc')\n"), 10, 16, "unknown function 'getattr'"),
    (_class(forward="        return vars(self)\n"), 10, 16, "unknown function 'vars'"),
    (_class(forward="        return type(x)\n"), 10, 16, "unknown function 'type'"),
    (_class(forward="        return super().forward(x)\n"), 10, 16, "unknown function 'super'"),
    (_class(forward="        return self.forward(x)\n"), 10, 16, "method of nn.Module"),
    (_class(forward="        return self(x)\n"), 10, 16, "cannot call itself"),
    (_class(forward="        if x:\n            return x\n        return x\n"), 10, 9, "if"),
    (_class(forward="        return x\n        y = x\n"), 10, 9, "last statement"),
    (_class(forward="        y = x\n"), 10, 9, "ends with return"),
    (_class(forward="        self.y = x\n        return x\n"), 10, 9, "plain names only"),
    (_class(forward="        f = lambda: 1\n        return x\n"), 10, 13, "lambda"),
    (_class(forward="        del x\n        return 1\n"), 10, 9, "del"),
    (_class(forward="        global y\n        return x\n"), 10, 9, "global"),
    (_class(forward="        '''doc'''\n        return x\n"), 10, 9, "docstring goes on the class"),
    (_class(forward="        class A(nn.Module):\n            pass\n        return x\n"), 10, 9,
     "class definitions"),
    (_class("        import os\n"), 8, 9, "__init__ may only assign"),
    (_class("        self.forward = nn.Linear(2, 2)\n"), 8, 9, "hide nn.Module's own"),
    (_class("        self.training = 3\n"), 8, 9, "hide nn.Module's own"),
    (_class("        self.register_buffer('__class__', torch.ones(2))\n"), 8, 30,
     "register_buffer's name"),
    (_class("        self.register_buffer('parameters', torch.ones(2))\n"), 8, 30,
     "hide nn.Module's own"),
    (_class("        w = torch.ones(2)\n"), 8, 9, "attributes of self only"),
    (_class("        super().__init__()\n"), 8, 9, "__init__ may only assign"),
    (HEAD + "class Net(nn.Module):\n    def __init__(self):\n        self.a = 1\n", 5, 9,
     "starts with super().__init__()"),
    (HEAD + "class Net(nn.Module):\n    def __init__(self):\n        super(Net, self).__init__()\n",
     5, 9, "starts with super().__init__()"),
    (HEAD + "class Net(nn.Module):\n    size = 3\n", 4, 5, "class attributes"),
    (HEAD + "class Net(nn.Module):\n    @staticmethod\n    def forward(x):\n        return x\n",
     4, 6, "decorators"),
    (HEAD + "@nn.Module\nclass Net(nn.Module):\n    pass\n", 3, 2, "decorators"),
    (HEAD + "class Net(object):\n    pass\n", 3, 11, "derives from nn.Module"),
    (HEAD + "class Net(nn.Module, dict):\n    pass\n", 3, 1, "derives from nn.Module"),
    (HEAD + "class Net(nn.Module, metaclass=type):\n    pass\n", 3, 22, "class keywords"),
    (HEAD + "class Net(nn.Module):\n    def __init__(self, n=print('hi')):\n"
            "        super().__init__()\n", 4, 26, "a default must be a literal"),
    (HEAD + "class Net(nn.Module):\n    def forward(self, *xs):\n        return xs\n", 4, 24,
     "only plain parameters"),
    (HEAD + "class Net(nn.Module):\n    def forward(self, x, **kw):\n        return x\n", 4, 28,
     "only plain parameters"),
    (HEAD + "class Net(nn.Module):\n    def forward(self, x: open('f')):\n        return x\n",
     4, 26, "annotations"),
    (HEAD + "class Net(nn.Module):\n    def forward(x):\n        return x\n", 4, 5,
     "takes self as its first parameter"),
    (HEAD + "class Net(nn.Module):\n    async def forward(self, x):\n        return x\n", 4, 5,
     "method 'forward'"),
    (HEAD + "class Net(nn.Module):\n    def forward(self, x):\n        return x\n"
            "    def forward(self, x):\n        return x\n", 6, 5, "defined twice"),
    (HEAD + "w = torch.ones(2)\nclass Net(nn.Module):\n    def forward(self, x):\n"
            "        return x * w\n", 6, 20, "'w' is not defined"),
    (HEAD + "with torch.no_grad():\n    class Net(nn.Module):\n        pass\n", 4, 5,
     "top level"),
    (HEAD + "class torch(nn.Module):\n    pass\n", 3, 1, "cannot name a class"),
    ("import torch\nclass Net(nn.Module):\n    pass\n", 2, 11, "before 'import torch.nn as nn'"),
    (HEAD + "x = {'a': 1}\n", 3, 5, "dicts are not allowed"),
    (HEAD + "x = nn.Sequential({'a': nn.ReLU()})\n", 3, 19, "dicts are not allowed"),
    (HEAD + "x = nn.ModuleDict({1: nn.ReLU()})\n", 3, 20, "keys of this dict are strings"),
    (HEAD + "x = nn.ModuleDict({**{}})\n", 3, 22, "unpacking"),
    (HEAD + "x = torch.ones(2)\ny = x(3)\n", 4, 5, "not a module"),
    (HEAD + "m = nn.Module()\n", 3, 5, "unknown function 'nn.Module'"),
    (HEAD + "lin = nn.Linear(2, 2)\nf = lin.forward(torch.ones(2))\n", 4, 5,
     "method of nn.Module"),
    (HEAD + "lin = nn.Linear(2, 2)\nf = lin.apply\n", 4, 5, "method of nn.Module"),
    (HEAD + "lin = nn.Linear(2, 2)\nf = lin.__dict__\n", 4, 5, "dunder"),
    (HEAD + "x = torch.ones(2)\nf = x.weight\n", 4, 5, "attribute 'weight' is not allowed"),
])
def test_code_the_forms_cannot_show_is_a_code_step(source: str, line: int, column: int,
                                                   words: str) -> None:
    """What was refused (for ``words``, at ``line``) is now a code step holding that line:
    its exact text is kept and only the kernel runs it, never the window."""
    del column
    recipe = read_recipe(source)
    lines = source.splitlines()
    holding = [s for s in recipe.steps if s.is_code and s.line <= line
               <= s.line + s.text.count("\n")]
    assert len(holding) == 1, (words, recipe.steps)
    step = holding[0]
    assert step.text.splitlines()[0] == lines[step.line - 1]


def test_catalogue_describes_the_nn_callables() -> None:
    for key in ("nn.Linear", "nn.Embedding", "nn.Dropout", "nn.ReLU", "nn.Tanh", "nn.Sigmoid",
                "nn.Sequential", "nn.ModuleList", "nn.ModuleDict", "nn.Parameter",
                "torch.allclose", "torch.equal", "Tensor.abs", "Tensor.max", "len", "list"):
        spec = CATALOG.get(key)
        assert spec is not None and spec.summary and spec.example, key
        run = lab(read_recipe(HEAD + f"example = {spec.example}\n"))
        assert run.ok, (key, run.results[0].error)
