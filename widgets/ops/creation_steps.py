"""The builder's recipe edits and lookups, Qt-free: the seed step, creation steps, examples.

``widgets.ops.builder_panel.BuilderPanel`` uses them; they read and edit a ``Recipe``
and never touch a widget.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from app.catalog import CATALOG, OpSpec
from app.expr import Call, Expr, Ref, walk
from app.recipe.model import Recipe, Step
from app.recipe.op_call import bind
from app.recipe.reader import RecipeError, read_recipe, read_step

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
def example_values(spec: OpSpec) -> dict[str, Expr]:
    """The arguments of ``spec.example`` (read, never run), so a form starts somewhere useful."""
    try:  # the prelude binds the x that the *_like examples use
        recipe = read_recipe(f"import torch\nx = torch.zeros(1)\nexample = {spec.example}\n")
    except RecipeError:
        return {}
    call = recipe.steps[-1].expr
    if not isinstance(call, Call) or call.op != spec.function_key:
        return {}
    bound = bind(spec, call)
    return {k: v for k, v in bound.items() if not any(isinstance(n, Ref) for n in walk(v))}


def creation_spec(step: Step) -> OpSpec | None:
    """The catalogue entry of a creation step the builder can edit, or None."""
    if step.op is None or step.op.startswith("Tensor."):  # an operator, a method
        return None
    spec = CATALOG.get(step.op)
    return spec if spec is not None and spec.category == "creation" else None
