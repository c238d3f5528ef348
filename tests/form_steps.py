"""Steps as a form makes them, for the tests: a statement's text read as the recipe reads
it (``app.recipe.reader.form_step``), and the value python makes of a step's text, with
torch's modules bound as recipes spell them. (The window evaluates no step: the kernel
runs them.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.recipe.model import Step
from app.recipe.reader import form_step


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
