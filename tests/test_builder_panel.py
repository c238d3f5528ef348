"""The tensor builder: widget tier, a Document wrapped in a BuilderPanel."""

from __future__ import annotations

import math

import pytest
import shiboken6
import torch
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QSpinBox

from app.catalog import CATALOG
from app.recipe.call_text import bind_texts, call_text
from app.recipe.document import Document
from app.recipe.literals import InputError, parse_data, parse_size
from app.recipe.model import Recipe, Step
from app.recipe.reader import read_recipe
from app.recipe.text_recipe import new_text
from app.text_edits import literal_text
from tests.form_steps import CREATION_CALLS, step
from tests.kernel_values import kernel_value
from tests.python_run import run_python
from widgets.ops.builder_panel import RANDOM_OPS, BuilderPanel, example_values, seed_index
from widgets.ops.param_form import ParamForm

SEED = 1234
BASE = step("base", "torch.ones(2, 3)")

#: For every creation function: what to type in the form, and the same call made directly.
CASES = {
    "tensor": ({"data": "[[1, -2.5], [3, 4e2]]", "dtype": "float64"},
               lambda base: torch.tensor([[1, -2.5], [3, 4e2]], dtype=torch.float64)),
    "zeros": ({"size": "2, 3", "dtype": "int32"},
              lambda base: torch.zeros(2, 3, dtype=torch.int32)),
    "ones": ({"size": "4", "requires_grad": True}, lambda base: torch.ones(4, requires_grad=True)),
    "empty": ({"size": "(2, 5)", "device": "cpu"}, lambda base: torch.empty(2, 5, device="cpu")),
    "full": ({"size": "2, 2", "fill_value": "7"}, lambda base: torch.full((2, 2), 7)),
    "eye": ({"n": 3, "m": 4}, lambda base: torch.eye(3, 4)),
    "arange": ({"start": "1", "end": "10", "step": "2.5"}, lambda base: torch.arange(1, 10, 2.5)),
    "linspace": ({"start": "-1", "end": "1", "steps": 5}, lambda base: torch.linspace(-1, 1, 5)),
    "logspace": ({"start": "0", "end": "3", "steps": 4, "base": "2"},
                 lambda base: torch.logspace(0, 3, 4, 2)),
    "rand": ({"size": "3, 2"}, lambda base: torch.rand(3, 2)),
    "randn": ({"size": "2, 3", "dtype": "float64"},
              lambda base: torch.randn(2, 3, dtype=torch.float64)),
    "randint": ({"low": 5, "high": 10, "size": "3,"}, lambda base: torch.randint(5, 10, (3,))),
    "randperm": ({"n": 6}, lambda base: torch.randperm(6)),
    "normal": ({"mean": "1", "std": "0.5", "size": "2, 2"},
               lambda base: torch.normal(1.0, 0.5, (2, 2))),
    "zeros_like": ({"input": "base"}, lambda base: torch.zeros_like(base)),
    "ones_like": ({"input": "base", "dtype": "int8"},
                  lambda base: torch.ones_like(base, dtype=torch.int8)),
    "empty_like": ({"input": "base"}, lambda base: torch.empty_like(base)),
    "rand_like": ({"input": "base"}, lambda base: torch.rand_like(base)),
    "randn_like": ({"input": "base"}, lambda base: torch.randn_like(base)),
    "full_like": ({"input": "base", "fill_value": "2.5"}, lambda base: torch.full_like(base, 2.5)),
    "randint_like": ({"input": "base", "low": 1, "high": 4},
                     lambda base: torch.randint_like(base, 1, 4)),
}
CREATION = [spec.name for spec in CATALOG.in_category("creation")]


def fill(form: ParamForm, values: dict) -> None:
    """Type ``values`` into the form's editors, as a user would."""
    for name, value in values.items():
        editor = form.editor(name)
        if isinstance(editor, QLineEdit):
            editor.setText(value)
        elif isinstance(editor, QPlainTextEdit):
            editor.setPlainText(value)
        elif isinstance(editor, QSpinBox):
            editor.setValue(value)
        elif isinstance(editor, QCheckBox):
            editor.setChecked(value)
        elif isinstance(editor, QComboBox):
            texts = [editor.itemText(i).split(" — ")[0] for i in range(editor.count())]
            editor.setCurrentIndex(texts.index(value))
        else:
            raise TypeError(type(editor))


@pytest.fixture
def make_panel(qtbot, run_in_kernel):
    def make(*steps: Step) -> tuple[BuilderPanel, Document, QUndoStack]:
        doc = run_in_kernel(Document(Recipe(steps)))
        stack = QUndoStack()
        panel = BuilderPanel(doc, stack)
        stack.setParent(panel)  # deleted with the panel, by Qt (see conftest)
        qtbot.addWidget(panel)
        panel.resize(380, 700)
        # grab() lays the hidden panel out, so clicks land on the buttons; show() would
        # make the offscreen platform warn about propagateSizeHints.
        panel.grab()
        return panel, doc, stack
    return make


def click(qtbot, button) -> None:
    """Click ``button``, then wait for the kernel to run what the click changed."""
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    panel = button
    while panel is not None and not isinstance(panel, BuilderPanel):
        panel = panel.parentWidget()
    settle = getattr(panel._document, "settle", None) if panel is not None else None
    if settle is not None:
        settle()


def test_cases_cover_every_creation_function():
    assert sorted(CASES) == sorted(CREATION)


def test_random_ops_are_the_random_creation_functions():
    said_random = {s.function_key for s in CATALOG.in_category("creation")
                   if "random" in s.summary.lower()}
    assert said_random == RANDOM_OPS


def test_form_round_trips_every_catalogue_op(qtbot):
    """The one generic form handles every op: its call binds back to the same values."""
    form = ParamForm()
    qtbot.addWidget(form)
    for spec in CATALOG.specs:
        if spec.function_key is None:
            continue
        form.set_spec(spec, ["a", "b"])
        values = form.values()
        if form.errors():
            continue  # a required field waits for input
        form.set_values(bind_texts(spec, call_text(spec, values)))
        assert form.values() == values and form.errors() == {}, spec.name


@pytest.mark.parametrize("name", CREATION)
def test_add_matches_torch(qtbot, make_panel, name):
    values, direct = CASES[name]
    panel, doc, _ = make_panel(BASE)
    random = f"torch.{name}" in RANDOM_OPS
    if random:
        panel.seed_spin.setValue(SEED)
        click(qtbot, panel.seed_check)
    panel.set_function(name)
    fill(panel.form, values)
    panel.name_edit.setText("t")
    assert panel.form.errors() == {}
    click(qtbot, panel.add_button)

    assert doc.recipe.steps[-1].name == "t"
    assert doc.selected == len(doc.recipe.steps) - 1
    doc.settle()
    assert doc.run.ok, doc.run.errors[0].error if doc.run.errors else ""
    got = kernel_value(doc, "t")
    if random:
        torch.manual_seed(SEED)
    expected = direct(torch.ones(2, 3))
    assert (got.shape, got.dtype, got.requires_grad) == (
        expected.shape, expected.dtype, expected.requires_grad)
    if name not in ("empty", "empty_like"):  # uninitialised memory has no value to compare
        assert torch.equal(got, expected)


def test_round_trip_through_the_file_format(qtbot, make_panel):
    panel, doc, _ = make_panel()
    click(qtbot, panel.seed_check)
    for name, fn, values in [
        ("a", "tensor", {"data": "[[1, 2.5], [-3, 4]]", "dtype": "float64"}),
        ("b", "randn", {"size": "2, 2", "requires_grad": True}),
        ("c", "full_like", {"input": "a", "fill_value": "-7"}),
        ("d", "arange", {"end": "5"}),
        ("e", "eye", {"n": 2}),
        ("f", "randint", {"high": 9, "size": "4,", "dtype": "int16"}),
    ]:
        panel.set_function(fn)
        fill(panel.form, values)
        panel.name_edit.setText(name)
        click(qtbot, panel.add_button)
    doc.settle()
    assert doc.run.ok
    text = new_text(doc.recipe)
    back = read_recipe(text)
    assert back.steps == doc.recipe.steps
    run = run_python(back)
    for name in "abcdef":
        got, expected = run.value(name), kernel_value(doc, name)
        assert got.dtype == expected.dtype and torch.equal(got, expected), name


def test_code_preview_shows_the_step(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("zeros")
    fill(panel.form, {"size": "2, 3", "dtype": "float64"})
    panel.name_edit.setText("z")
    assert panel.preview.text() == "z = torch.zeros(2, 3, dtype=torch.float64)"


def test_name_is_prefilled_and_unique(qtbot, make_panel):
    panel, doc, _ = make_panel(step("x", "torch.ones(1)"))
    assert panel.name_edit.text() == "x1"


@pytest.mark.parametrize("name", ["1x", "for", "torch", "", "base"])
def test_bad_name_shows_a_message_and_disables_add(make_panel, name):
    panel, _, _ = make_panel(BASE)
    panel.name_edit.setText(name)
    assert not panel.add_button.isEnabled()
    assert not panel.name_message.isHidden()
    assert panel.name_message.text()
    panel.name_edit.setText("fine")
    assert panel.add_button.isEnabled()
    assert panel.name_message.isHidden()


def test_bad_size_shows_a_message(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("zeros")
    fill(panel.form, {"size": "2, x"})
    assert panel.form.errors() == {"size": "size: 'x' is not an integer"}
    message = panel.form._messages["size"]
    assert message.text() == "size: 'x' is not an integer" and not message.isHidden()
    assert not panel.add_button.isEnabled()
    fill(panel.form, {"size": "2, 3"})
    assert panel.form.errors() == {} and message.isHidden()
    assert panel.add_button.isEnabled()


@pytest.mark.parametrize("text, shown", [
    ("[[1, 2], [3, 4, 5]]", "row data[1] has 3 items, but row data[0] has 2 items"),
    ("[[[1, 2], [3, 4]], [[1], [2]]]", "row data[1][0] has 1 item, but row data[0][0] has 2 items"),
    ("[[1, 2], 3]", "row data[1] is a number, but row data[0] has 2 items"),
])
def test_ragged_rows_are_refused_with_the_row_named(make_panel, text, shown):
    panel, _, _ = make_panel()
    panel.set_function("tensor")
    fill(panel.form, {"data": text})
    assert panel.form.errors()["data"] == f"data: ragged rows: {shown}"
    assert not panel.add_button.isEnabled()


@pytest.mark.parametrize("text", ["__import__('os').system('ls')", "[1, x]", "{1: 2}",
                                  "[1, 2] + [3]", "print(1)", "'a'", "..."])
def test_data_refuses_anything_but_numbers(text):
    with pytest.raises(InputError):
        parse_data(text)


def test_data_reads_nan_inf_and_signs():
    value = parse_data("[nan, inf, -inf, -nan, +2, True, 1e3, .5]")
    assert math.isnan(value[0]) and math.isnan(value[3])
    assert value[1:3] == [math.inf, -math.inf]
    assert value[4:] == [2, True, 1000.0, 0.5]
    assert parse_data("(1, 2)") == [1, 2]
    assert parse_data(" 3 ") == 3


def test_nan_data_evaluates(qtbot, make_panel):
    panel, doc, _ = make_panel()
    fill(panel.form, {"data": "[1.0, nan, -inf]"})
    click(qtbot, panel.add_button)
    got = kernel_value(doc, "x")
    assert torch.isnan(got[1]) and got[2] == -math.inf
    assert 'float("nan")' in new_text(doc.recipe)


def test_size_parsing():
    assert parse_size("2, 3") == (2, 3)
    assert parse_size("(4,)") == (4,)
    assert parse_size("[1, 2, 3]") == (1, 2, 3)
    for bad in ("", "2,,3", "-1", "2.5", "a"):
        with pytest.raises(InputError):
            parse_size(bad)


def test_number_keeps_int_or_float_as_typed(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("full")
    fill(panel.form, {"size": "2", "fill_value": "7"})
    assert panel.form.values()["fill_value"] == "7"
    fill(panel.form, {"fill_value": "7.0"})
    assert panel.form.values()["fill_value"] == "7.0"
    fill(panel.form, {"fill_value": "seven"})
    assert panel.form.errors() == {"fill_value": "fill_value: 'seven' is not a number"}


def test_optional_params_left_at_default(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("eye")
    fill(panel.form, {"n": 3})
    assert panel.form.editor("m").text() == "default"
    assert panel.form.editor("requires_grad").isChecked() is False
    assert panel.current_call() == "torch.eye(3)"
    panel.set_function("arange")
    fill(panel.form, {"start": "", "end": "4", "step": ""})
    assert panel.form.editor("step").placeholderText() == "default: 1"
    assert panel.preview.text().endswith("torch.arange(4)")  # as people write it


def test_every_field_has_a_tooltip(make_panel):
    panel, _, _ = make_panel(BASE)
    for spec in CATALOG.in_category("creation"):
        panel.set_function(spec.name)
        for p in spec.params:
            assert p.doc in panel.form.editor(p.name).toolTip()
    for widget in (panel.function_combo, panel.name_edit, panel.add_button, panel.update_button,
                   panel.seed_check, panel.seed_spin, panel.preview):
        assert widget.toolTip()


def test_device_menu_shows_names_but_writes_ids(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("zeros")
    fill(panel.form, {"size": "1", "device": "cpu"})
    combo = panel.form.editor("device")
    assert combo.currentText().startswith("cpu — ")
    assert panel.form.values()["device"] == '"cpu"'


def test_tensor_menu_lists_the_recipes_tensors(qtbot, make_panel):
    panel, _, _ = make_panel(BASE, step("n", "torch.manual_seed(0)"))
    panel.set_function("zeros_like")
    combo = panel.form.editor("input")
    assert [combo.itemText(i) for i in range(combo.count())] == ["base"]
    assert panel.form.values()["input"] == "base"


def test_like_function_without_tensors_says_so(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("ones_like")
    assert "no tensor" in panel.form.errors()["input"]
    assert not panel.add_button.isEnabled()


def test_panel_stops_listening_when_destroyed(qtbot):
    doc = Document(Recipe([BASE]))
    panel = BuilderPanel(doc, None)
    shiboken6.delete(panel)  # the C++ half goes; the Python wrapper stays
    doc.recipe.append(step("y", "torch.zeros(1)"))  # no dead-widget error
    doc.select(1)


def test_undo_removes_the_step_and_redo_restores_it(qtbot, make_panel):
    panel, doc, stack = make_panel()
    panel.set_function("ones")
    fill(panel.form, {"size": "2"})
    click(qtbot, panel.add_button)
    added = doc.recipe.steps
    assert len(added) == 1
    stack.undo()
    assert doc.recipe.steps == () and "x" not in doc.run.namespace
    assert panel.name_edit.text() == "x"
    stack.redo()
    assert doc.recipe.steps == added
    assert torch.equal(kernel_value(doc, "x"), torch.ones(2))


def test_seed_control_inserts_manual_seed_at_the_top(qtbot, make_panel):
    panel, doc, stack = make_panel()
    panel.set_function("randn")
    fill(panel.form, {"size": "3, 4"})
    panel.name_edit.setText("r")
    click(qtbot, panel.add_button)
    panel.seed_spin.setValue(7)
    click(qtbot, panel.seed_check)
    assert doc.recipe.steps[0] == step(None, "torch.manual_seed(7)")
    torch.manual_seed(7)
    assert torch.equal(kernel_value(doc, "r"), torch.randn(3, 4))

    panel.seed_spin.setValue(8)  # replaces, not adds
    assert seed_index(doc.recipe) == 0 and len(doc.recipe.steps) == 2
    torch.manual_seed(8)
    assert torch.equal(kernel_value(doc, "r"), torch.randn(3, 4))

    click(qtbot, panel.seed_check)
    assert seed_index(doc.recipe) is None and len(doc.recipe.steps) == 1
    stack.undo()
    assert seed_index(doc.recipe) == 0 and panel.seed_check.isChecked()
    assert panel.seed_spin.value() == 8


def test_seed_goes_before_the_first_random_step_and_selection_follows(make_panel):
    rand = step("r", "torch.rand(2)")
    panel, doc, _ = make_panel(BASE, rand)
    doc.select(1)
    panel.set_seed(3)
    assert seed_index(doc.recipe) == 1
    assert doc.recipe.steps[doc.selected] == rand
    panel.set_seed(None)
    assert doc.recipe.steps == (BASE, rand) and doc.selected == 1


def test_selecting_another_kind_of_step_frees_the_name(make_panel):
    show = step(None, "print(base)")
    panel, doc, _ = make_panel(BASE, show)
    doc.select(0)
    assert panel.name_edit.text() == "base" and not panel.add_button.isEnabled()
    doc.select(1)
    assert panel.name_edit.text() == "x" and panel.add_button.isEnabled()
    assert not panel.update_button.isEnabled()


def test_selecting_a_creation_step_loads_it_and_update_replaces_it(qtbot, make_panel):
    full = step("f", "torch.full((2, 2), 1.5, dtype=torch.float64)")
    later = step("g", "torch.zeros_like(f)")
    panel, doc, stack = make_panel(BASE, full, later)
    assert not panel.update_button.isEnabled()
    doc.select(1)
    assert panel.spec.name == "full"
    assert panel.form.values() == {"size": "(2, 2)", "fill_value": "1.5",
                                   "dtype": "torch.float64"}
    assert panel.name_edit.text() == "f"
    assert not panel.add_button.isEnabled()  # its own name: only Update may use it
    assert not panel.update_button.isEnabled()  # nothing changed yet

    fill(panel.form, {"fill_value": "4"})
    panel.name_edit.setText("h")
    click(qtbot, panel.update_button)
    assert [s.name for s in doc.recipe.steps] == ["base", "h", "g"]
    assert doc.recipe.steps[2].text == "torch.zeros_like(h)"
    assert torch.equal(kernel_value(doc, "h"), torch.full((2, 2), 4, dtype=torch.float64))
    stack.undo()
    assert doc.recipe.steps[1] == full
    doc.settle()  # the views follow when the kernel has run it
    assert panel.form.values()["fill_value"] == "1.5"  # the form follows the undo


def test_unknown_arguments_are_reported_not_dropped(make_panel):
    odd = step("o", "torch.zeros(base, out=base)")
    panel, doc, _ = make_panel(BASE, odd)
    doc.select(1)
    errors = panel.form.errors()
    assert "out" in errors and "size" in errors
    assert not panel.update_button.isEnabled()


@pytest.mark.parametrize("call, expected", [
    ("torch.arange(12)", {"end": "12"}),
    ("torch.arange(1, 5)", {"start": "1", "end": "5"}),
    ("torch.randint(10, (2,))", {"high": "10", "size": "(2,)"}),
    ("torch.randint_like(a, 4)", {"input": "a", "high": "4"}),
    ("torch.zeros(2, 3)", {"size": "(2, 3)"}),
])
def test_bind_knows_leading_optional_overloads(call, expected):
    assert bind_texts(CATALOG.get(call.split("(")[0]), call) == expected


@pytest.mark.parametrize("values, code, direct", CREATION_CALLS)
def test_make_call_writes_what_torch_accepts_and_bind_reads_back(values, code, direct):
    """arange(end=12, step=2) is no overload of torch's: a later optional writes start."""
    spec = CATALOG.get(code.split("(")[0])
    text = call_text(spec, values)
    assert text == code
    assert _set(spec, bind_texts(spec, text)) == _set(spec, values)
    torch.manual_seed(0)
    ours = eval(text, {"torch": torch})  # noqa: S307 - the call just written
    torch.manual_seed(0)
    assert torch.equal(ours, direct())


def _set(spec, values: dict) -> dict:
    """``values`` (texts) without the parameters left at their defaults."""
    params = {p.name: p for p in spec.params}
    return {k: v for k, v in values.items()
            if params[k].required or v != literal_text(params[k].default)}


def test_one_argument_arange_loads_as_end(make_panel):
    panel, doc, _ = make_panel(step("x", "torch.arange(12)"))
    doc.select(0)
    assert panel.form.values() == {"end": "12"} and panel.form.errors() == {}
    assert not panel.update_button.isEnabled()  # arange(end=12) is no change
    fill(panel.form, {"end": "6"})
    assert panel.update_button.isEnabled()


def test_examples_prefill_the_form():
    assert example_values(CATALOG.get("torch.linspace")) == {
        "start": "0", "end": "1", "steps": "5"}
    assert example_values(CATALOG.get("torch.arange")) == {"end": "12"}
    assert "input" not in example_values(CATALOG.get("torch.full_like"))


def test_function_switch_keeps_matching_values(make_panel):
    panel, _, _ = make_panel()
    panel.set_function("zeros")
    fill(panel.form, {"size": "5, 6", "dtype": "int16"})
    panel.set_function("ones")
    assert panel.form.values() == {"size": "(5, 6)"}  # not dtype
    assert panel.summary.text() == CATALOG.get("torch.ones").summary


def test_failed_step_shows_its_error(qtbot, make_panel):
    panel, doc, _ = make_panel()
    panel.set_function("randint")
    fill(panel.form, {"low": 5, "high": 2, "size": "2"})
    click(qtbot, panel.add_button)
    assert not doc.run.ok
    assert not panel.status.isHidden() and "x failed" in panel.status.text()


def test_a_step_no_creation_function_makes_is_named_as_its_text_has_it(qtbot, make_panel):
    """The note on a selected step the form cannot show quotes the recipe's own text
    (torch.long), not the step written again (torch.int64)."""
    panel, doc, _ = make_panel()
    doc.set_source("import torch\nx = torch.ones(2)\ny = x.to(torch.long)  # mine\n")
    doc.settle()
    doc.select_name("y")
    assert "not made by a creation function" in panel.status.text()
    assert "y = x.to(torch.long)" in panel.status.text()


def test_the_seed_control_shows_the_recipes_seed_as_its_text_has_it(qtbot, make_panel):
    panel, doc, _ = make_panel()
    doc.set_source("import torch\ntorch.manual_seed( 1234 )  # mine\nx = torch.rand(2)\n")
    doc.settle()
    assert panel.seed_check.isChecked() and panel.seed_spin.value() == 1234


def test_the_builder_behind_the_ops_tab_catches_up_with_runs_when_its_tab_is_chosen(
        make_window, qtbot):
    """A run's result costs the Builder nothing while the Ops tab hides it (its seed box,
    names and preview are brought up to date once, when its tab is chosen)."""
    from app.recipe.reader import read_step

    window = make_window()
    builder = window.builder
    window.docks["ops"].raise_()
    qtbot.waitUntil(lambda: window.docks["builder"].visibleRegion().isEmpty())
    seen = []
    real = builder._on_model_evaluated
    builder._on_model_evaluated = lambda run: (seen.append(run), real(run))
    window.document.recipe.insert(0, read_step("torch.manual_seed(7)"))
    window.settle()
    assert seen == [] and builder.seed_spin.value() != 7
    window.docks["builder"].raise_()
    qtbot.waitUntil(lambda: len(seen) == 1)
    assert builder.seed_check.isChecked() and builder.seed_spin.value() == 7
