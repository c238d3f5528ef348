"""Which leading steps of the last run an edit leaves valid, so they need not run again.

Changing ``tril``'s diagonal in the last step should not re-create the big random tensor
above it. A run's leading steps can be taken over when they are unchanged and nothing
since could have changed their values:

- each reused value is plain data: a CPU tensor that does not require grad (so no
  ``backward`` can write its ``.grad``), a number, a string, a dtype, the default
  random generator, or a short tuple or list of those; a module, optimizer or recipe
  class ends the prefix, since calling it changes its state;
- no step after the prefix, in the run being reused, calls an in-place op (``add_``),
  passes ``inplace=...``, or calls a module: any of those may have changed a reused
  tensor's elements;
- the random state is restored to what the prefix left (the evaluator keeps it after
  every step). Only the CPU generator is tracked, so nothing is reused once CUDA has
  been initialised, or where MPS is available.

With a seed in the recipe, a run that reuses a prefix gives the same values as running
everything again; without one, the reused tensors simply keep their values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import torch

from app.catalog import CATALOG
from app.expr import Call, walk
from app.recipe.modules import MODULE_CALL

if TYPE_CHECKING:
    from app.recipe.evaluator import RecipeRun, StepResult
    from app.recipe.model import Recipe, Step

#: Longest tuple or list a reused value may be (checking it costs a walk over it).
MAX_ITEMS = 64
_PLAIN = (type(None), bool, int, float, complex, str, torch.dtype, torch.device, torch.Size)


def reusable_prefix(recipe: Recipe, previous: RecipeRun) -> int:
    """How many leading steps of ``recipe`` can take ``previous``'s results as they are."""
    if _other_generators_in_use() or len(previous.rng_states) != len(previous.results) \
            or any(step.is_code for step in recipe.steps):
        return 0  # a recipe with code runs in the kernel, which keeps its own checkpoints
    count = 0
    for step, old in zip(recipe.steps, previous.results, strict=False):
        if old.step != step or step.is_code or not _plain_result(old):
            break  # a code step's results are the kernel's, from its own run
        count += 1
    if any(may_change_values(r.step) for r in previous.results[count:]):
        return 0
    return count


def may_change_values(step: Step) -> bool:
    """Whether ``step`` may change the elements of a tensor it is given."""
    if step.is_code:
        return True  # any Python may
    for node in walk(step.expr):
        if not isinstance(node, Call):
            continue
        if node.op == MODULE_CALL or any(k == "inplace" for k, _ in node.kwargs):
            return True
        spec = CATALOG.get(node.op)
        if spec is None or spec.in_place or any(p.name == "inplace" for p in spec.params):
            return True
    return False


def _plain_result(result: StepResult) -> bool:
    return result.status != "ok" or _plain(result.value)


def _plain(value: Any) -> bool:
    if isinstance(value, torch.Tensor):
        return not value.requires_grad and value.grad is None and value.device.type == "cpu"
    if isinstance(value, (tuple, list)):
        return len(value) <= MAX_ITEMS and all(_plain(v) for v in value)
    # torch.manual_seed returns the default generator, whose state the evaluator keeps;
    # a generator of the recipe's own would advance unseen.
    return isinstance(value, _PLAIN) or value is torch.default_generator


def _other_generators_in_use() -> bool:
    """Whether a generator other than the CPU's may be drawn from (CUDA started, or MPS)."""
    return torch.cuda.is_initialized() or torch.backends.mps.is_available()
