"""The training panel's Qt-free helpers: editing a settings literal (``app.training.setup``)
and the runs kept for comparison (``app.training.runs``). Core tests: no QApplication; the
setups are checked by building their model and data with torch and computing the loss."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import torch

from app.i18n import Filled
from app.training import program
from app.training.data import make_dataset
from app.training.history import History
from app.training.model import summary
from app.training.runs import CONTEXT, RunRecord
from app.training.settings import CLASSIFICATION_DATA, REGRESSION_DATA, TrainingSettings
from app.training.setup import harmonise, summary_text, with_value

TS = Path(__file__).resolve().parent.parent / "resources" / "i18n" / "tensor_lab_zh_CN.ts"
SMALL = TrainingSettings().replace(data={"samples": 64})


def test_with_value_sets_one_dotted_field_of_a_copy():
    literal = SMALL.to_literal()
    changed = with_value(literal, "model.hidden", 7)
    assert changed["model"]["hidden"] == 7 and literal["model"]["hidden"] == 64
    assert changed["model"] is not literal["model"]  # a deep copy: the original is kept
    assert with_value(literal, "seed", 3)["seed"] == 3
    assert TrainingSettings.from_literal(changed).model.hidden == 7
    rest = {k: v for k, v in changed.items() if k != "model"}
    assert rest == {k: v for k, v in literal.items() if k != "model"}


def _loss_of(settings: TrainingSettings) -> torch.Tensor:
    """The loss of the settings' untrained model on its own data, as a run computes it."""
    data = make_dataset(settings)
    torch.manual_seed(0)
    model = program.build_model(settings.to_literal()["model"])
    return program.make_loss(settings.loss)(model(data.x), data.y)


@pytest.mark.parametrize("kind", [*CLASSIFICATION_DATA, *REGRESSION_DATA])
@pytest.mark.parametrize("start", ["spirals", "sin"])
def test_harmonise_makes_every_data_kind_train(kind, start):
    literal = with_value(harmonise(with_value(SMALL.to_literal(), "data.kind", start)),
                         "data.kind", kind)
    settings = TrainingSettings.from_literal(harmonise(literal))  # no SettingsError
    loss = _loss_of(settings)
    assert loss.dim() == 0 and math.isfinite(loss.item())
    if kind in REGRESSION_DATA:
        assert (settings.loss, settings.model.inputs, settings.model.outputs) == ("mse", 1, 1)
    else:
        assert settings.model.inputs == 2
        classes = 2 if kind in ("moons", "xor") else settings.data.classes
        if settings.loss == "cross_entropy":
            assert settings.model.outputs == classes
        else:  # mse kept from the regression data: one output, the label as a number
            assert (start, settings.loss, settings.model.outputs) == ("sin", "mse", 1)


def test_harmonise_gives_cross_entropy_one_output_per_class():
    literal = with_value(SMALL.to_literal(), "data.classes", 4)
    literal = with_value(literal, "data.kind", "blobs")
    settings = TrainingSettings.from_literal(harmonise(literal))
    assert settings.model.outputs == 4
    data = make_dataset(settings)
    assert int(data.y.max()) + 1 == 4  # labels 0..3: four logits per sample
    moons = TrainingSettings.from_literal(harmonise(with_value(literal, "data.kind", "moons")))
    assert moons.model.outputs == 2  # two moons, whatever the classes field says


def test_harmonise_keeps_a_single_output_for_mse_on_two_classes():
    literal = with_value(SMALL.to_literal(), "loss", "mse")
    literal = with_value(with_value(literal, "model.outputs", 1), "data.kind", "xor")
    settings = TrainingSettings.from_literal(harmonise(literal))
    assert (settings.loss, settings.model.outputs) == ("mse", 1)
    assert _loss_of(settings).dim() == 0


def test_summary_text_is_the_built_models_summary_without_allocating_it():
    torch.manual_seed(0)
    built = program.build_model(SMALL.to_literal()["model"])
    text = summary_text(SMALL)
    assert text == summary(built) and isinstance(text, Filled)
    assert repr(built) in text
    # 2 -> 64 -> 64 -> 2: weights and biases counted by hand
    assert (2 * 64 + 64) + (64 * 64 + 64) + (64 * 2 + 2) == 4482
    assert "parameters: 4,482" in text and "0.weight: (64, 2)" in text
    huge = SMALL.replace(model={"hidden": 4096, "layers": 100})  # 6.7 GB as float32
    count = (2 * 4096 + 4096) + 99 * (4096 * 4096 + 4096) + (4096 * 2 + 2)
    assert f"parameters: {count:,}" in summary_text(huge)


def test_a_run_record_is_named_for_translation_and_kept_by_identity():
    settings = SMALL
    first = RunRecord(3, settings, History(3))
    twin = RunRecord(3, settings, first.history)
    assert first.name == "Run 3" and first.name.template == "Run {0}"
    assert first.name.args == (3,)
    assert (first.state, first.visible, first.info) == ("new", True, None)
    first.notes.append("lr 0.1 from step 120")
    assert twin.notes == []  # each record has its own notes
    runs = [first, twin]
    runs.remove(twin)  # eq=False: equal fields are still two runs
    assert runs == [first] and runs[0] is first
    translated = {m.findtext("source") for c in ET.parse(TS).getroot().iter("context")
                  if (c.findtext("name") or "") == CONTEXT for m in c.iter("message")
                  if (m.findtext("translation") or "").strip()}
    assert first.name.template in translated
