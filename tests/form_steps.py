"""Steps as a form makes them, for the tests: a statement's text read as the recipe reads
it (``app.recipe.reader.form_step``), and the value python makes of a step's text, with
torch's modules bound as recipes spell them. (The window evaluates no step: the kernel
runs them.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import torch

from app.recipe.literals import InputError
from app.recipe.model import Step
from app.recipe.reader import form_step
from protocol.i18n import Filled

#: A creation form's values, the call it writes (defaults left out, and what torch
#: accepts: ``arange(end=12, step=2)`` is no overload, so ``start`` is written), and what
#: torch makes of it directly.
CREATION_CALLS = [
    ({"end": "12"}, "torch.arange(12)", lambda: torch.arange(12)),
    ({"start": "0", "end": "12"}, "torch.arange(12)", lambda: torch.arange(12)),
    ({"start": "3", "end": "12"}, "torch.arange(3, 12)", lambda: torch.arange(3, 12)),
    ({"end": "12", "step": "2"}, "torch.arange(0, 12, 2)", lambda: torch.arange(0, 12, 2)),
    ({"high": "10", "size": "(2,)"}, "torch.randint(10, (2,))",
     lambda: torch.randint(10, (2,))),
]


def input_error(parse, *args) -> Filled:
    """The message of the ``InputError`` that ``parse(*args)`` raises (a ``Filled``)."""
    with pytest.raises(InputError) as caught:
        parse(*args)
    message = caught.value.message
    assert isinstance(message, Filled) and str(caught.value) == message
    return message


def step(name: str | None, value: str, comment: str = "") -> Step:
    """The form step ``name = value`` (a bare ``value`` for no name)."""
    made = form_step(name, value)
    assert made is not None, f"{value!r} is no form step"
    return replace(made, comment=comment)


def value_of(text: str, namespace: dict[str, Any]) -> Any:
    """The value of the expression ``text`` with the names it reads taken from
    ``namespace``."""
    import torch

    modules = {"torch": torch, "F": torch.nn.functional, "nn": torch.nn}
    return eval(text, modules, dict(namespace))  # noqa: S307 - a test's own expression
