"""Every form edit on every gallery recipe changes only the edited literal's bytes.

For each recipe in ``recipes/`` and each step a form shows (the op panel's op steps, the
builder's creation steps), each literal argument the form shows is changed in its editor,
as a user would: an int (up, and to a negative number), a float, a bool, a string, a dtype,
a device, a size (a tuple of ints). The new text must be the old one with that literal's
bytes, found here with ``ast``, replaced by the new value, and nothing else; undo must
give the old text back, byte for byte.
"""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QSpinBox

from app.catalog import Param
from app.dtypes import DType
from app.recipe.call_text import is_method
from app.recipe.document import Document
from app.recipe.literals import data_shown, line_shown
from app.recipe.op_call import (
    bind_node,
    form_spec,
    has_receiver,
    is_dtype_node,
    node_literal,
    op_spec,
)
from app.resources import RECIPES_DIR
from app.text_edits import literal_text
from widgets.ops.builder_panel import BuilderPanel, creation_spec
from widgets.ops.op_panel import OpPanel

RECIPES = sorted(p.name for p in RECIPES_DIR.glob("*.py"))


def test_the_gallery_is_read():
    assert "welcome.py" in RECIPES and len(RECIPES) > 40


@pytest.fixture
def panels(qtbot):
    doc = Document()
    stack = QUndoStack()
    ops, builder = OpPanel(doc, stack), BuilderPanel(doc, stack)
    for panel in (ops, builder):
        qtbot.addWidget(panel)
    stack.setParent(ops)
    return doc, stack, ops, builder


# -- the new values ------------------------------------------------------------------------------
def new_values(node: ast.expr, param: Param) -> list[Any]:
    """The values a user might put in ``param``'s editor instead of ``node``'s."""
    if isinstance(node, ast.List | ast.Tuple) and node.elts and all(
            type(node_literal(e)[1]) is int for e in node.elts):
        items = [node_literal(e)[1] + 1 for e in node.elts]
        return [items if isinstance(node, ast.List) else tuple(items)]
    literal, v = node_literal(node)
    if not literal:
        return []
    if isinstance(v, bool):
        out = [not v]
    elif isinstance(v, int):
        out = [v + 1, -abs(v) - 1]
    elif isinstance(v, float):
        out = [v + 0.5] if math.isfinite(v) else []
    elif isinstance(v, DType):
        out = [DType("float32") if v == DType("float64") else DType("float64")]
    elif isinstance(v, str):
        out = ["meta" if v != "meta" else "cpu"] if param.kind == "device" else [v + "x"]
    else:
        out = []
    return [x for x in out if not (type(x) is type(param.default) and x == param.default)]


def type_into(editor, param: Param, value: Any) -> bool:
    """Put ``value`` in ``editor`` as a user would; False when the editor cannot take it."""
    if isinstance(editor, QSpinBox):
        if not editor.minimum() <= value <= editor.maximum() or value == editor.minimum() \
                and editor.specialValueText():
            return False
        editor.setValue(value)
    elif isinstance(editor, QCheckBox):
        editor.setChecked(value)
    elif isinstance(editor, QLineEdit):
        editor.setText(line_shown(param.kind, literal_text(value)))
    elif isinstance(editor, QPlainTextEdit):
        editor.setPlainText(data_shown(literal_text(value)) or "")
    elif isinstance(editor, QComboBox):
        want = str(value).removeprefix("torch.")
        texts = [editor.itemText(i).split(" — ")[0] for i in range(editor.count())]
        if want not in texts:
            return False
        editor.setCurrentIndex(texts.index(want))
    else:
        return False
    return True


# -- where the literal is, by ``ast`` ------------------------------------------------------------
def statement_call(tree: ast.Module, line: int, nth: int) -> ast.Call:
    """The call of the ``nth`` simple statement starting on ``line``."""
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign | ast.Expr)
             and n.lineno == line and isinstance(n.value, ast.Call)]
    return found[nth].value  # type: ignore[attr-defined]


def literal_nodes(bound: ast.expr) -> list[ast.expr]:
    """The argument nodes that hold a parameter ``bind_node`` bound (a spread size,
    ``x.view(3, 4)``, is several: packed, without positions of its own)."""
    return [bound] if hasattr(bound, "lineno") else list(bound.elts)  # type: ignore[attr-defined]


def offset(text: str, line: int, column: int) -> int:
    """The character offset of ``ast``'s (line, UTF-8 byte column), lines split at \\n."""
    lines = text.split("\n")
    head = sum(len(x) + 1 for x in lines[:line - 1])
    return head + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8"))


def expected_middle(value: Any) -> object:
    return tuple(value) if isinstance(value, list | tuple) else value


def check_edit(old: str, new: str, nodes: list[ast.expr], value: Any) -> str | None:
    """Why ``new`` is not ``old`` with just the literal at ``nodes`` made ``value``."""
    start = offset(old, nodes[0].lineno, nodes[0].col_offset)
    end = offset(old, nodes[-1].end_lineno, nodes[-1].end_col_offset)  # type: ignore[arg-type]
    tail = len(new) - (len(old) - end)
    if not (new.startswith(old[:start]) and new.endswith(old[end:]) and tail >= start):
        return f"other bytes changed: {old[start:end]!r} -> {_diff(old, new)}"
    middle = new[start:tail]
    want = expected_middle(value)
    if isinstance(want, DType):
        return None if middle == str(want) else f"{middle!r} for {want}"
    if isinstance(want, tuple):
        got = ast.literal_eval(middle)
        got = tuple(got) if isinstance(got, list | tuple) else (got,)  # view(6): a spread size
        return None if got == want else f"{middle!r} for {want}"
    return None if middle == repr(want) else f"{middle!r} for {want!r}"


def _diff(old: str, new: str) -> str:
    i = 0
    while i < min(len(old), len(new)) and old[i] == new[i]:
        i += 1
    j = 0
    while j < min(len(old), len(new)) - i and old[-1 - j] == new[-1 - j]:
        j += 1
    return f"{old[i:len(old) - j]!r} became {new[i:len(new) - j]!r}"


# -- the edits ------------------------------------------------------------------------------------
def form_steps(doc: Document) -> list[tuple[int, str]]:
    """The steps a form edits: (index, "ops" or "builder")."""
    out = []
    for i, step in enumerate(doc.recipe.steps):
        if creation_spec(step) is not None:
            out.append((i, "builder"))
        elif op_spec(step) is not None:
            out.append((i, "ops"))
    return out


def form_values(doc: Document, index: int, panel: str) -> tuple[tuple, dict[str, ast.expr]]:
    """The parameters of the step's form, and the values it shows (bound from the call)."""
    step = doc.recipe.steps[index]
    assert isinstance(step.node, ast.Call)
    if panel == "builder":
        spec = creation_spec(step)
        return spec.params, form_values_of(spec, step.node, panel)  # type: ignore[union-attr]
    spec = op_spec(step)
    return form_spec(spec).params, form_values_of(spec, step.node, panel)  # type: ignore[arg-type]


def form_values_of(spec, call: ast.Call, panel: str) -> dict[str, ast.expr]:
    """The values the form shows for ``call`` (the op panel's: the arguments but the one
    "Apply to" picks; a dtype in ``.to``'s device slot shown as the dtype), as the call's
    own nodes."""
    values = bind_node(spec, call, is_method(call))
    if panel == "builder":
        return values
    if is_method(call):
        first = spec.method_params()[0] if spec.method_params() else None
        value = values.get(first.name) if first is not None else None
        if first is not None and first.kind == "device" and value is not None \
                and is_dtype_node(value) and "dtype" not in values:
            values["dtype"] = values.pop(first.name)
        return values if has_receiver(spec) else {**values, spec.receiver: call.func.value}  # type: ignore[attr-defined]
    if has_receiver(spec):
        values.pop(spec.receiver, None)
    return values


def edits_of(doc: Document, index: int, panel: str):
    """(param, new value) for every literal the step's form shows."""
    params, values = form_values(doc, index, panel)
    for param in params:
        if param.name in values:
            for new in new_values(values[param.name], param):
                yield param, new


@pytest.mark.parametrize("name", RECIPES)
def test_a_form_edit_changes_only_its_literal(panels, name):
    doc, stack, ops, builder = panels
    doc.open(RECIPES_DIR / name, run=False)
    problems, edits, kinds = [], 0, set()
    for index, which in form_steps(doc):
        for param, value in list(edits_of(doc, index, which)):
            doc.select(None)
            doc.select(index)
            panel = ops if which == "ops" else builder
            if which == "ops" and ops.editing != index:
                continue  # the op panel does not edit it (its input is no tensor)
            old, step = doc.text, doc.recipe.steps[index]
            spec = creation_spec(step) if which == "builder" else op_spec(step)
            editor = panel.form.editor(param.name)
            if not editor.isEnabled() or not type_into(editor, param, value):
                continue
            if which == "builder":
                builder.update_selected()
            new = doc.text
            where = f"{name}:{step.line} {step.label} {param.name}={value}"
            if new == old:
                problems.append(f"{where}: the text did not change")
                continue
            edits += 1
            kinds.add(type(expected_middle(value)).__name__)
            tree = ast.parse(old)
            nth = sum(1 for s in doc.recipe.steps[:index] if s.line == step.line)
            there = form_values_of(spec, statement_call(tree, step.line, nth), which)
            nodes = literal_nodes(there[param.name])
            why = check_edit(old, new, nodes, value)
            if why:
                problems.append(f"{where}: {why}")
            stack.undo()
            if doc.text != old:
                problems.append(f"{where}: undo did not give the old text back")
                doc.set_source(old)
    assert not problems, "\n".join(problems)


def test_the_gallery_offers_edits_of_each_kind():
    kinds = set()
    for name in RECIPES:
        doc = Document()
        doc.open(RECIPES_DIR / name, run=False)
        for index, which in form_steps(doc):
            kinds.update((p.kind, type(expected_middle(v)).__name__)
                         for p, v in edits_of(doc, index, which))
    assert {("int", "int"), ("dim", "int"), ("size", "tuple"), ("number", "float"),
            ("dtype", "DType"), ("data", "tuple")} <= kinds


# -- a recipe written by hand: what the gallery does not hold --------------------------------
HAND = ("import torch\r\n"
        "\x0c\r\n"  # a page break: a line end for str.splitlines, not for Python
        "# 权重：两行三列\r\n"
        "w = torch.ones(2, 3, device='cpu', requires_grad=False)  # 形状 (2, 3)\r\n"
        "v = w.view(3, 2)\r\n"
        "s = v.sum(dim=0)  # 按列求和\r\n"
        "d = v.to(torch.float64)  # 双精度\r\n"
        "f = torch.full((2,), 0.5)\r\n")


def hand_edits():

    from protocol.devices import Device

    two = [Device("cpu", "CPU"), Device("cuda:0", "GPU")]
    w = "w = torch.ones({}, requires_grad={})  # 形状 (2, 3)"
    return [
        ("builder", 0, "device", "cuda:0", w.format("2, 3, device='cuda:0'", False), two),
        ("builder", 0, "requires_grad", True, w.format("2, 3, device='cpu'", True), None),
        ("builder", 0, "size", (4, 5), w.format("4, 5, device='cpu'", False), None),
        ("ops", 1, "size", (2, 3), "v = w.view(2, 3)", None),
        ("ops", 2, "dim", -1, "s = v.sum(dim=-1)  # 按列求和", None),
        ("ops", 3, "dtype", DType("float32"), "d = v.to(torch.float32)  # 双精度", None),
        ("builder", 4, "fill_value", 1.5, "f = torch.full((2,), 1.5)", None),
    ]


@pytest.mark.parametrize("edit", hand_edits(), ids=lambda e: f"{e[2]}={e[3]}")
def test_a_form_edit_in_a_hand_written_recipe_keeps_every_other_byte(panels, tmp_path, edit):
    from widgets.common.kernel_devices import kernel_devices

    which, index, pname, value, line_after, devices = edit
    doc, stack, ops, builder = panels
    path = tmp_path / "hand.py"
    path.write_bytes(HAND.encode("utf-8"))
    before = kernel_devices().devices
    if devices:
        kernel_devices().set_devices(devices)
    try:
        doc.open(path, run=False)
        doc.select(index)
        panel = ops if which == "ops" else builder
        param = next(p for p in panel.form.spec.params if p.name == pname)
        assert type_into(panel.form.editor(pname), param, value)
        if which == "builder":
            builder.update_selected()
    finally:
        kernel_devices().set_devices(before)
    lines = HAND.split("\r\n")
    lines[3 + index] = line_after
    assert doc.text == "\r\n".join(lines)
    stack.undo()
    assert doc.text == HAND
