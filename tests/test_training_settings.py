"""Training settings: defaults, literal round trip, and errors that name the field."""

from __future__ import annotations

import dataclasses

import pytest

from app.training.setup import (
    ACTIVATIONS,
    INITS,
    ModelSettings,
    OptimizerSettings,
    SettingsError,
    TrainingSettings,
)


def test_literal_round_trip_is_exact():
    settings = TrainingSettings().replace(
        model={"layers": 50, "activation": "tanh", "dropout": 0.25, "batchnorm": True},
        init="xavier_normal", optimizer={"name": "sgd", "lr": 0.1, "momentum": 0.9,
                                         "nesterov": True},
        schedule={"kind": "cosine", "warmup": 10}, clip={"mode": "norm", "value": 0.5},
        accumulate=4, dtype="float64", device="cuda:0")
    literal = settings.to_literal()
    assert literal["model"]["layers"] == 50 and literal["optimizer"]["nesterov"] is True
    assert TrainingSettings.from_literal(literal) == settings
    assert hash(TrainingSettings.from_literal(literal)) == hash(settings)


def test_missing_keys_take_defaults_and_ints_become_floats():
    settings = TrainingSettings.from_literal({"optimizer": {"lr": 1}, "steps": 7})
    assert settings.optimizer.lr == 1.0 and isinstance(settings.optimizer.lr, float)
    assert settings.steps == 7 and settings.model == ModelSettings()


@pytest.mark.parametrize("literal, field", [
    ({"optimizer": {"lr": -1.0}}, "optimizer.lr"),
    ({"optimizer": {"lr": "fast"}}, "optimizer.lr"),
    ({"optimizer": {"name": "lbfgs"}}, "optimizer.name"),
    ({"optimizer": {"nesterov": True}}, "optimizer.nesterov"),
    ({"model": {"layers": 101}}, "model.layers"),
    ({"model": {"hidden": 64.5}}, "model.hidden"),
    ({"model": {"activation": "swish"}}, "model.activation"),
    ({"model": {"inputs": 3}}, "model.inputs"),
    ({"model": {"outputs": 3}}, "model.outputs"),
    ({"model": {"dropout": 1.0}}, "model.dropout"),
    ({"model": {"batchnorm": 1}}, "model.batchnorm"),
    ({"model": {"widht": 3}}, "model.widht"),
    ({"data": {"kind": "sin"}}, "model.inputs"),
    ({"data": {"kind": "sin"}, "model": {"inputs": 1, "outputs": 1}}, "loss"),
    ({"data": {"kind": "csv"}}, "data.path"),
    ({"data": {"validation": 0.95}}, "data.validation"),
    ({"batch": {"size": 0}}, "batch.size"),
    ({"batch": {"size": 900, "drop_last": True}}, "batch.size"),
    ({"model": {"batchnorm": True}, "data": {"samples": 65, "validation": 0.0}},
     "batch.drop_last"),
    ({"schedule": {"kind": "warmup", "warmup": 600}}, "schedule.warmup"),
    ({"clip": {"mode": "value", "value": 0.0}}, "clip.value"),
    ({"init": "orthogonal"}, "init"),
    ({"steps": 0}, "steps"),
    ({"dtype": "float16"}, "dtype"),
    ({"device": "tpu"}, "device"),
    ({"model": 3}, "model"),
    ({"epochs": 3}, "epochs"),
])
def test_errors_name_the_field(literal, field):
    with pytest.raises(SettingsError) as info:
        TrainingSettings.from_literal(literal)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_replace_validates_and_names_the_section_field():
    with pytest.raises(SettingsError) as info:
        TrainingSettings().replace(optimizer={"momentum": 2.0})
    assert info.value.field == "optimizer.momentum"
    with pytest.raises(SettingsError, match="model.outputs"):
        TrainingSettings().replace(data={"kind": "blobs", "classes": 4})
    ok = TrainingSettings().replace(data={"kind": "blobs", "classes": 4}, model={"outputs": 4})
    assert ok.data.n_classes == 4


def test_settings_are_frozen_and_fields_carry_form_metadata():
    settings = TrainingSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.steps = 3  # type: ignore[misc]
    meta = {f.name: f.metadata for f in dataclasses.fields(OptimizerSettings)}
    assert meta["lr"]["label"] == "Learning rate" and meta["lr"]["range"][0] > 0
    model_meta = {f.name: f.metadata for f in dataclasses.fields(ModelSettings)}
    assert model_meta["layers"]["range"] == (0, 100)
    assert set(model_meta["activation"]["choices"]) == set(ACTIVATIONS)
    assert {"default", "normal", "small_normal", "xavier_uniform", "xavier_normal",
            "kaiming_uniform", "kaiming_normal", "zeros"} == set(INITS)
