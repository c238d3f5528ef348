"""The training form, the model summary and the docs panel in Chinese.

The settings' labels, help texts and choice names (``app.training.setup``), the form's
page and group titles (``widgets.training.form``), the summary's "parameters: N"
(``app.training.model``) and the parameter docs of the op catalogue (``Param.doc``) are
English in the core, marked with ``QT_TRANSLATE_NOOP``; the widgets translate them. Each
test compares what is shown with ``QCoreApplication.translate`` of the English, and checks
that it is not the English: a text lupdate did not extract, or that the widget did not
translate, fails.
"""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QGroupBox

from app.catalog import CATALOG
from app.recipe.document import Document
from app.training import setup as s
from app.training.setup import CONTEXT, TrainingSettings, _Section
from protocol.i18n import Filled
from widgets.common.i18n_text import translate_core
from widgets.recipe.docs_panel import DocsPanel, param_doc
from widgets.training.form import PAGES, SECTION_TITLES, SettingsForm, tooltip

pytestmark = pytest.mark.gui

_CJK = re.compile(r"[\u4e00-\u9fff]")


def _chinese(context: str, english: str) -> str:
    """The installed translation of ``english``; fails when there is none."""
    shown = QCoreApplication.translate(context, english)
    assert shown != english and _CJK.search(shown), (context, english, shown)
    return shown


def _fields(kind: type = TrainingSettings, prefix: str = "") -> dict[str, typing.Any]:
    """Dotted field name -> metadata, for every plain field of the settings."""
    out: dict[str, typing.Any] = {}
    hints = typing.get_type_hints(kind)
    for f in dataclasses.fields(kind):
        sub = hints[f.name]
        if isinstance(sub, type) and issubclass(sub, _Section):
            out.update(_fields(sub, prefix + f.name + "."))
        else:
            out[prefix + f.name] = f.metadata
    return out


#: Labels that are names (of a PyTorch class, of an attribute) and stay as they are.
NAMES = {"BatchNorm1d", "dtype"}
#: Choice labels that are names or formulas, not words.
CHOICE_NAMES = {"ReLU", "Tanh", "Sigmoid", "GELU", "Identity", "N(0, 1)", "N(0, 0.01)", "XOR",
                "sin(x)", "MSE", "SGD", "Adam", "AdamW", "RMSprop", "float32", "float64"}


@pytest.fixture
def form(qtbot, chinese):
    form = SettingsForm()
    qtbot.addWidget(form)
    form.set_settings(TrainingSettings())
    return form


def test_the_pages_and_group_boxes_are_chinese(form):
    tabs = [form.tabs.tabText(i) for i in range(form.tabs.count())]
    assert tabs == [_chinese(CONTEXT, title) for title, _, _ in PAGES]
    assert tabs[:2] == ["模型", "数据"]
    boxes = {b.title() for b in form.findChildren(QGroupBox)}
    expected = {_chinese(CONTEXT, "Weights"), _chinese(CONTEXT, "Run")}  # the loose fields'
    expected |= {_chinese(CONTEXT, t) for t in SECTION_TITLES.values() if t != "MLP"}
    assert expected <= boxes
    assert "MLP" in boxes  # a name, kept
    assert not {"Weights", "Samples", "Batches", "Run", "Learning-rate schedule"} & boxes


def test_every_field_label_and_help_is_chinese(form):
    fields = _fields()
    assert set(fields) == set(form.names)
    for name, meta in fields.items():
        label = form.label_of(name)
        if meta["label"] in NAMES:
            assert label == meta["label"]
            continue
        assert label == _chinese(CONTEXT, meta["label"]), name
        tip = form.editor(name).toolTip()
        assert tip == tooltip(name, meta) and tip.startswith(label + "。"), (name, tip)
        if meta.get("help"):
            assert _chinese(CONTEXT, meta["help"]) in tip, name
            assert meta["help"] not in tip, name
    assert form.label_of("model.hidden") == "隐藏层宽度"
    assert "允许范围：1 到 4096。" in form.editor("model.hidden").toolTip()


def test_choice_names_are_chinese_and_the_saved_values_english(form):
    combos = {"init": s.INITS, "model.activation": s.ACTIVATIONS, "data.kind": s.DATA,
              "loss": s.LOSSES, "optimizer.name": s.OPTIMIZERS, "schedule.kind": s.SCHEDULES,
              "clip.mode": s.CLIPS, "dtype": s.DTYPES}
    for name, choices in combos.items():
        combo = form.editor(name)
        shown = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
        assert list(shown) == list(choices), name  # the values a recipe saves
        for value, english in choices.items():
            if english in CHOICE_NAMES:
                assert shown[value] == english
            else:
                assert shown[value] == _chinese(CONTEXT, english), (name, value)
    init = form.editor("init")
    assert init.currentData() == "default" and init.currentText() == "PyTorch 默认"




# -- what is wrong with the settings, and the layers' names ---------------------------------------
@pytest.mark.parametrize("change, template, values", [
    ({"steps": 1.5}, "must be a whole number, not {0!r}", (1.5,)),
    ({"steps": 0}, "{0!r} is outside {1}", (0, "[1, 100000000]")),
    ({"optimizer": {"lr": "fast"}}, "must be a number, not {0!r}", ("fast",)),
    ({"loss": "hinge"}, "{0!r} is not one of: {1}", ("hinge", ", ".join(s.LOSSES))),
    ({"device": "gpu"}, "{0!r} is not cpu, cuda, cuda:N or mps", ("gpu",)),
    ({"colour": 1}, "unknown setting; known: {0}", None),
    ({"model": {"outputs": 5}}, "cross-entropy on {0} classes needs {0} outputs", (2,)),
    ({"schedule": {"warmup": 900}, "steps": 100}, "{0} warm-up steps is more than the {1} steps",
     (900, 100)),
])
def test_what_is_wrong_with_the_settings_is_said_in_chinese(chinese, change, template, values):
    literal = TrainingSettings().to_literal()
    for key, value in change.items():
        literal[key] = {**literal[key], **value} if isinstance(value, dict) else value
    with pytest.raises(s.SettingsError) as raised:
        TrainingSettings.from_literal(literal)
    reason = raised.value.reason
    if values is not None:  # the core keeps English, filled in
        assert reason == template.format(*values)
    shown = translate_core(CONTEXT, reason)
    assert shown.startswith(_chinese(CONTEXT, template).split("{")[0])
    if values is not None:
        assert shown == _chinese(CONTEXT, template).format(*values)


# -- the docs panel ------------------------------------------------------------------------------
@pytest.fixture
def docs(qtbot, chinese):
    panel = DocsPanel(Document())
    qtbot.addWidget(panel)
    return panel


def test_the_docs_headings_are_chinese(docs):
    sum_ = CATALOG.get("torch.sum")
    docs.show_spec(sum_)
    text = docs.text()
    for english in ("Signature", "Parameters", "name", "kind", "default", "meaning", "Example",
                    "Official documentation"):
        assert _chinese("DocsPanel", english) in text, english
    for english in ("Signature", "Parameters", "meaning", "Example", "Official documentation"):
        assert english not in text, english


def test_the_parameter_docs_are_chinese(docs):
    sum_ = CATALOG.get("torch.sum")
    docs.show_spec(sum_)
    text = docs.text()
    dim = sum_.params[1]
    assert dim.doc == "The dimension(s) to add up over; None means all."  # English in the core
    assert param_doc(dim) == "沿其求和的维度；None 表示所有维度。"  # filled, then translated
    for p in sum_.params:
        shown = param_doc(p)
        if not isinstance(p.doc, Filled):
            assert shown == _chinese("Param", p.doc), p.name
        assert _CJK.search(shown) and shown in text and p.doc not in text, p.name


def test_every_parameter_doc_is_translated(chinese):
    """Every ``Param.doc`` of the catalogue is marked and has a Chinese translation."""
    params = [p for spec in CATALOG.specs for p in spec.params if p.doc]
    assert len({p.doc for p in params}) > 100
    untranslated = sorted({p.doc for p in params if not _CJK.search(param_doc(p))})
    assert not untranslated, untranslated[:10]


def test_every_op_category_is_marked_and_shown_in_chinese(chinese):
    """The op browser's category rows come from the catalogue's data; each is translated."""
    from app.catalog import CATALOG, CATEGORIES
    from app.catalog.spec import _CATEGORY_NAMES

    used = {spec.category for spec in CATALOG.specs}
    assert used <= set(_CATEGORY_NAMES)
    for name in used:
        assert _CJK.search(QCoreApplication.translate(CATEGORIES, name)), name
