"""The MLP of a training setup: building it, its layers for statistics, its printed summary.

The building itself is ``program.build_model`` and ``program.init_weights``, the code that
recipes carry; this module adds what the lab shows about the model.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn as nn

from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.training import program
from app.training.settings import TrainingSettings


@dataclass(frozen=True)
class Layer:
    """One layer as the plots count them: a Linear and the module whose output is its output.

    Parameters
    ----------
    name : str
        ``hidden 1`` ... ``hidden N``, then ``output``, marked for translation (the
        ``TrainingSettings`` context; a view shows them with ``translate_core``).
    linear : nn.Linear
        Its weights and bias (their gradients give the layer's gradient norm).
    output : nn.Module
        The activation of a hidden layer, the Linear itself for the output layer.
    """

    name: str
    linear: nn.Linear
    output: nn.Module


def build(settings: TrainingSettings) -> nn.Sequential:
    """The initialised MLP on the CPU in float32, with the weights a run starts from.

    A run seeds, makes its data, then builds the model, so this does the same; the
    caller's random state is left as it was.
    """
    literal = settings.to_literal()
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(settings.seed)
        program.make_data(literal)
        model = program.build_model(literal["model"])
        program.init_weights(model, literal["init"], literal["model"]["activation"])
    finally:
        torch.random.set_rng_state(state)
    return model


def layers(model: nn.Sequential) -> list[Layer]:
    """The model's layers, first to last, as ``program.build_model`` lays them out."""
    found: list[Layer] = []
    modules = list(model)
    for i, module in enumerate(modules):
        if not isinstance(module, nn.Linear):
            continue
        output: nn.Module = module
        for later in modules[i + 1:]:
            if isinstance(later, nn.Linear):
                break
            if not isinstance(later, (nn.BatchNorm1d, nn.Dropout)):
                output = later  # the activation
        found.append(Layer(Filled(QT_TRANSLATE_NOOP("TrainingSettings", "hidden {0}"),
                                  len(found) + 1), module, output))
    if found:
        last = found[-1]
        found[-1] = Layer(QT_TRANSLATE_NOOP("TrainingSettings", "output"), last.linear,
                          last.output)
    return found


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def summary(model: nn.Module) -> str:
    """The ``nn.Sequential`` repr, the parameter count and every parameter's shape.

    English, as a ``Filled`` text: a view shows it in the UI language with
    ``widgets.common.i18n_text.translate_core(CONTEXT, text)`` (only "parameters: N" is words;
    the repr and the shapes are code and stay as they are).
    """
    count = Filled(QT_TRANSLATE_NOOP("TrainingSettings", "parameters: {0}"),
                   f"{parameter_count(model):,}")
    shapes = "".join(f"\n  {name}: {tuple(p.shape)}" for name, p in model.named_parameters())
    return Filled("{0}\n\n{1}{2}", repr(model), count, shapes)
