"""Qt-free helpers for the training panel's setup forms.

The forms edit the recipe's training settings as a literal (nested dicts): ``with_value``
sets one dotted field of it, ``harmonise`` makes the model's inputs, outputs and loss fit
the data chosen, and ``summary_text`` describes the model the settings build, without
allocating it (in English: ``widgets.training.panel`` shows it with ``translate_core``).
"""

from __future__ import annotations

import copy
from typing import Any

import torch

from app.training import program
from app.training.model import summary
from app.training.settings import CLASSIFICATION_DATA, REGRESSION_DATA, TrainingSettings


def with_value(literal: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """A deep copy of a settings literal with the dotted field ``name`` set to ``value``."""
    out = copy.deepcopy(literal)
    *path, last = name.split(".")
    target = out
    for part in path:
        target = target[part]
    target[last] = value
    return out


def harmonise(literal: dict[str, Any]) -> dict[str, Any]:
    """The literal with the model's inputs, outputs and loss made to fit its data.

    Used after the data kind, the classes or the loss changed, so that choosing "circles"
    or "sin(x)" gives a setup that trains rather than a list of conflicts.
    """
    out = copy.deepcopy(literal)
    data, model = out["data"], out["model"]
    if data["kind"] in REGRESSION_DATA:
        model["inputs"], model["outputs"], out["loss"] = 1, 1, "mse"
    elif data["kind"] in CLASSIFICATION_DATA:
        model["inputs"] = 2
        if out["loss"] == "mse" and literal["data"]["kind"] in REGRESSION_DATA:
            out["loss"] = "cross_entropy"
        classes = 2 if data["kind"] in ("moons", "xor") else data["classes"]
        if out["loss"] == "cross_entropy" or model["outputs"] not in (1, classes):
            model["outputs"] = classes
    return out


def summary_text(settings: TrainingSettings) -> str:
    """The model's summary, built on the ``meta`` device: no memory, whatever its size."""
    with torch.device("meta"):
        model = program.build_model(settings.to_literal()["model"])
    return summary(model)
