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

import pytest
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QSpinBox

from app.catalog import Param
from app.expr import Call, Const, DType, Expr, Seq
from app.recipe.document import Document
from app.recipe.literals import data_shown, line_shown
from app.recipe.op_call import bind, form_spec, has_receiver, op_spec
from app.recipe.writer import write_expr
from app.resources import RECIPES_DIR
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
def new_values(expr: Expr, param: Param) -> list[Expr]:
    """The values a user might put in ``param``'s editor instead of ``expr``."""
    if isinstance(expr, Seq) and expr.items and all(
            isinstance(e, Const) and type(e.value) is int for e in expr.items):
        return [Seq(tuple(Const(e.value + 1) for e in expr.items), expr.kind)]  # type: ignore[union-attr]
    if not isinstance(expr, Const):
        return []
    v = expr.value
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
    return [Const(x) for x in out if not (type(x) is type(param.default) and x == param.default)]


def type_into(editor, param: Param, value: Expr) -> bool:
    """Put ``value`` in ``editor`` as a user would; False when the editor cannot take it."""
    if isinstance(editor, QSpinBox):
        v = value.value  # type: ignore[union-attr]
        if not editor.minimum() <= v <= editor.maximum() or v == editor.minimum() \
                and editor.specialValueText():
            return False
        editor.setValue(v)
    elif isinstance(editor, QCheckBox):
        editor.setChecked(value.value)  # type: ignore[union-attr]
    elif isinstance(editor, QLineEdit):
        editor.setText(line_shown(param.kind, write_expr(value)))
    elif isinstance(editor, QPlainTextEdit):
        editor.setPlainText(data_shown(write_expr(value)) or "")
    elif isinstance(editor, QComboBox):
        v = value.value  # type: ignore[union-attr]
        want = str(v).removeprefix("torch.")
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


def literal_nodes(node: ast.Call, call: Call, bound: Expr) -> list[ast.expr]:
    """The argument nodes of ``node`` that hold ``bound``, an argument of ``call`` (a
    spread size, ``x.view(3, 4)``, is several)."""
    args = list(call.args[1:] if call.is_method else call.args)
    for i, arg in enumerate(args):
        if arg is bound:
            return [node.args[i]]
    for keyword, (_, arg) in zip(node.keywords, call.kwargs, strict=True):
        if arg is bound:
            return [keyword.value]
    if isinstance(bound, Seq):
        at = [i for i, arg in enumerate(args) if any(arg is item for item in bound.items)]
        if len(at) == len(bound.items):
            return [node.args[i] for i in at]
    raise AssertionError(f"{bound} is not an argument of {call}")


def offset(text: str, line: int, column: int) -> int:
    """The character offset of ``ast``'s (line, UTF-8 byte column), lines split at \\n."""
    lines = text.split("\n")
    head = sum(len(x) + 1 for x in lines[:line - 1])
    return head + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8"))


def expected_middle(value: Expr) -> object:
    if isinstance(value, Seq):
        return tuple(e.value for e in value.items)  # type: ignore[union-attr]
    return value.value  # type: ignore[union-attr]


def check_edit(old: str, new: str, nodes: list[ast.expr], value: Expr) -> str | None:
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


def form_values(doc: Document, index: int, panel: str) -> tuple[tuple, dict[str, Expr]]:
    """The parameters of the step's form, and the values it shows (bound from the call)."""
    step = doc.recipe.steps[index]
    call = step.expr
    assert isinstance(call, Call)
    if panel == "builder":
        spec = creation_spec(step)
        return spec.params, bind(spec, call)  # type: ignore[union-attr]
    spec = op_spec(step)
    return form_spec(spec).params, form_values_of(spec, call)  # type: ignore[arg-type]


def form_values_of(spec, call: Call) -> dict[str, Expr]:
    """The values the op panel's form shows for ``call`` (the arguments but the one
    "Apply to" picks; a dtype in ``.to``'s device slot shown as the dtype), as the
    call's own nodes."""
    values = bind(spec, call)
    if call.is_method:
        first = spec.method_params()[0] if spec.method_params() else None
        value = values.get(first.name) if first is not None else None
        if first is not None and first.kind == "device" and isinstance(value, Const) \
                and isinstance(value.value, DType) and "dtype" not in values:
            values["dtype"] = values.pop(first.name)
        return values if has_receiver(spec) else {**values, spec.receiver: call.args[0]}
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
            old_value = form_values(doc, index, which)[1][param.name]
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
            nodes = literal_nodes(statement_call(tree, step.line, nth), step.expr,
                                  old_value)  # type: ignore[arg-type]
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
        ("builder", 0, "device", Const("cuda:0"), w.format("2, 3, device='cuda:0'", False), two),
        ("builder", 0, "requires_grad", Const(True), w.format("2, 3, device='cpu'", True), None),
        ("builder", 0, "size", Seq((Const(4), Const(5)), "tuple"),
         w.format("4, 5, device='cpu'", False), None),
        ("ops", 1, "size", Seq((Const(2), Const(3)), "tuple"), "v = w.view(2, 3)", None),
        ("ops", 2, "dim", Const(-1), "s = v.sum(dim=-1)  # 按列求和", None),
        ("ops", 3, "dtype", Const(DType("float32")), "d = v.to(torch.float32)  # 双精度", None),
        ("builder", 4, "fill_value", Const(1.5), "f = torch.full((2,), 1.5)", None),
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
