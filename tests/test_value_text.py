"""A step's names read as python shows their values, once: a module an import bound is a
name, and a value whose ``repr`` names its type is not prefixed with that type again
(core and end-to-end tiers; the expected texts are python's own ``repr``, made here).
"""

from __future__ import annotations

import collections
import math
from pathlib import Path

import torch

from kernel.summary import changed, summarize, user_names
from protocol.tensor_summary import summary_text

RECIPE = '''\
import torch
import torch.nn as nn
import math
from os import path as ospath
from collections import OrderedDict
device = torch.device("cpu")
size = torch.Size([2, 3])
g = torch.Generator()
'''


def test_a_value_whose_repr_names_its_type_reads_as_python_shows_it():
    class Point:  # a recipe's own class, with a repr of its own
        def __repr__(self):
            return "Point(x=1)"

    for value in (torch.device("cpu"), torch.Size([2, 3]), torch.Generator(), math,
                  collections.OrderedDict(a=1), range(3), Point()):
        assert summary_text(summarize(value)) == repr(value)
    # a repr that does not name its type keeps the type in front of it, once
    assert summary_text(summarize(["list"])) == "list ['list']"
    assert summary_text(summarize(torch.float32)) == "dtype torch.float32"


def test_an_import_binds_its_module_as_a_name():
    namespace: dict = {"__name__": "__main__"}
    for statement, bound in [("import math", ["math"]), ("import os.path", ["os"]),
                             ("import collections as c", ["c"]),
                             ("from os import path", ["path"]),
                             ("from math import pi", ["pi"])]:
        before = user_names(namespace)
        exec(statement, namespace)  # noqa: S102 - python itself binds the names
        assert changed(before, namespace) == bound, statement


def test_an_import_step_says_the_module_it_bound(qtbot, make_window, tmp_path: Path):
    (tmp_path / "imports.py").write_text(RECIPE, encoding="utf-8")
    window = make_window()
    assert window.open_path(str(tmp_path / "imports.py"), trust=True)
    window.settle()
    labels = [s.label for s in window.document.recipe.steps]
    assert not any(label.startswith("import torch") for label in labels)  # not steps
    from collections import OrderedDict
    from os import path as ospath

    expected = {"import math": f"math: {math!r}",
                "from os": f"ospath: {ospath!r}",
                "from collections": f"OrderedDict: type {OrderedDict!r}",
                "device": f"device: {torch.device('cpu')!r}",
                "size": f"size: {torch.Size([2, 3])!r}",
                "g": "g: <torch._C.Generator object at "}
    for start, text in expected.items():
        window.document.select(next(i for i, label in enumerate(labels)
                                    if label.startswith(start)))
        status = window.viewer.status_text().replace("\u200b", "")  # (its wrap points)
        assert text in status, (start, status)
        assert "bound no new names" not in status
