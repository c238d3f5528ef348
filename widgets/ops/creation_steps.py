"""The builder's recipe edits and lookups, Qt-free: the seed step, creation steps, examples.

``widgets.ops.builder_panel.BuilderPanel`` uses them; they read and edit a ``Recipe``
and never touch a widget.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import replace

from app.catalog import CATALOG, OpSpec
from app.catalog.call_keys import call_key
from app.recipe.call_text import bind_texts, parse_call
from app.recipe.model import RESERVED_NAMES, Recipe, Step
from app.recipe.reader import read_step

SEED_OP = "torch.manual_seed"
#: Creation calls whose values come from the random number generator.
#: (The catalogue could carry this as a flag on ``OpSpec``.)
RANDOM_OPS = frozenset({"torch.rand", "torch.randn", "torch.randint", "torch.randperm",
                        "torch.normal", "torch.rand_like", "torch.randn_like",
                        "torch.randint_like"})


# -- the seed step -------------------------------------------------------------------------
def seed_index(recipe: Recipe) -> int | None:
    """Index of the recipe's first bare ``torch.manual_seed(N)`` step, or None."""
    return recipe.derived("seed_index", _first_seed)


def _first_seed(steps: tuple) -> int | None:
    for i, step in enumerate(steps):
        if step.name is None and step.op == SEED_OP:
            return i
    return None


def seed_recipe(recipe: Recipe, seed: int | None) -> None:
    """Set, replace or (with None) remove the recipe's seed step.

    A new seed step goes just before the first random step, or first of all.
    """
    index = seed_index(recipe)
    if seed is None:
        if index is not None:
            recipe.remove(index)
        return
    step = read_step(f"{SEED_OP}({int(seed)})")
    if index is not None:
        old = recipe.steps[index]
        recipe.replace_step(index, replace(step, comment=old.comment, block=old.block))
        return
    first_random = next((i for i, s in enumerate(recipe.steps)
                         if RANDOM_OPS.intersection(s.calls)),
                        0)
    recipe.insert(first_random, step)


# -- creation steps ------------------------------------------------------------------------
@functools.cache
def example_values(spec: OpSpec) -> dict[str, str]:
    """The arguments' texts of ``spec.example`` (read, never run), so a form starts
    somewhere useful; arguments that name a tensor (``x`` in ``torch.zeros_like(x)``)
    are left out."""
    call = parse_call(spec.example)
    if call is None or call_key(call.func) != spec.function_key:
        return {}
    return {k: v for k, v in bind_texts(spec, spec.example).items() if not any(
        isinstance(n, ast.Name) and n.id not in RESERVED_NAMES
        for n in ast.walk(ast.parse(v, mode="eval")))}


def creation_spec(step: Step) -> OpSpec | None:
    """The catalogue entry of a creation step the builder can edit, or None."""
    if step.op is None or step.op.startswith("Tensor."):  # an operator, a method
        return None
    spec = CATALOG.get(step.op)
    return spec if spec is not None and spec.category == "creation" else None
