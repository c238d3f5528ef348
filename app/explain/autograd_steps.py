"""Autograd actions as recipe steps, explanations of autograd errors, Jacobians and Hessians.

Qt-free. The explorer panel's buttons call these: every action becomes a step
(``out.backward()``, ``y.retain_grad()``, ``x.grad.zero_()``) applied with
``widgets.common.undo.push_edit``, so it is written, saved and read back like any other.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from app.recipe.model import Recipe, Step, write_step
from app.recipe.op_call import statement_value
from app.recipe.reader import read_step
from protocol.i18n import QT_TRANSLATE_NOOP, Filled


# -- backward ---------------------------------------------------------------------------------
def needs_gradient(t: Any) -> bool:
    """Whether ``t.backward()`` needs a ``gradient`` argument: ``t`` (a tensor, or anything
    with ``numel()``) has more than one element."""
    return t.numel() != 1


def gradient_explanation(name: str, t: Any) -> Filled:
    """Why a tensor with several elements (``t``, or their count) needs ``gradient=`` for
    backward, in plain words."""
    return Filled(QT_TRANSLATE_NOOP(
        "Lesson", "{name} has {count} elements, so there is no single number to differentiate: "
        "backward needs to know how much each element of {name} counts. "
        "gradient=torch.ones_like({name}) counts every element once, which gives the same "
        "gradients as {name}.sum().backward(). Any tensor of {name}'s shape works: it is the "
        "gradient of some final scalar with respect to {name}."), name=name,
        count=t if isinstance(t, int) else t.numel())


def default_gradient(name: str) -> str:
    """``torch.ones_like(name)``, as text."""
    return f"torch.ones_like({name})"


def _step(text: str) -> Step:
    """The step one statement's ``text`` reads as, every name it reads an earlier step."""
    names = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    return read_step(text, sorted(names - {"torch", "nn", "F"}))


def backward_step(name: str, gradient: str | None = None, retain_graph: bool = False) -> Step:
    """The step ``name.backward(gradient, retain_graph=True)``, leaving out what is default;
    ``gradient`` is an expression's text (``torch.ones_like(z)``, ``g``)."""
    args = ([] if gradient is None else [gradient]) + \
        (["retain_graph=True"] if retain_graph else [])
    return _step(f"{name}.backward({', '.join(args)})")


def add_backward(recipe: Recipe, name: str, gradient: str | None = None,
                 retain_graph: bool = False) -> None:
    """Append ``name.backward(...)`` to ``recipe`` (an edit for ``push_edit``)."""
    recipe.append(backward_step(name, gradient, retain_graph))


# -- zeroing ----------------------------------------------------------------------------------
def zero_grad_step(name: str) -> Step:
    """The step ``name.grad.zero_()``."""
    return _step(f"{name}.grad.zero_()")


def add_zero_grads(recipe: Recipe, names: list[str]) -> None:
    """Append ``name.grad.zero_()`` for each of ``names`` (an edit for ``push_edit``)."""
    for name in names:
        recipe.append(zero_grad_step(name))


# -- retain_grad ------------------------------------------------------------------------------
def _is_retain_grad(step: Step, name: str) -> bool:
    if step.name is not None or step.op != "Tensor.retain_grad":
        return False
    value = statement_value(write_step(step))
    wanted = ast.parse(f"{name}.retain_grad()", mode="eval").body
    return value is not None and ast.dump(value) == ast.dump(wanted)


def has_retain_grad(recipe: Recipe, name: str) -> bool:
    """Whether the recipe calls ``name.retain_grad()``."""
    return any(_is_retain_grad(s, name) for s in recipe.steps)


def set_retain_grad(recipe: Recipe, name: str, on: bool) -> None:
    """Add ``name.retain_grad()`` just after the step making ``name``, or remove every one.

    An edit for ``push_edit``.
    """
    if not on:
        recipe.restore((tuple(s for s in recipe.steps if not _is_retain_grad(s, name)),
                        recipe.docstring))
        return
    if has_retain_grad(recipe, name):
        return
    recipe.insert(recipe.index_of(name) + 1, _step(f"{name}.retain_grad()"))


# -- errors -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class AutogradLesson:
    """The usual cause of an autograd error and its fix, in plain words.

    Both are ``protocol.i18n.Filled`` texts: English, and translatable whole by the views.
    """

    cause: str
    fix: str


# (pattern over torch's message, cause, fix). Cause and fix are ``str.format`` templates over
# the pattern's named groups, marked for translation (the views translate them whole).
_LESSONS: list[tuple[str, str, str]] = [
    (r"backward through the graph a second time",
     QT_TRANSLATE_NOOP("Lesson", "The first backward freed the values the graph saved for it "
                       "(the inputs of each multiplication, the outputs of each activation...) "
                       "to save memory, so the graph cannot be walked again."),
     QT_TRANSLATE_NOOP("Lesson", "Pass retain_graph=True to every backward but the last, for "
                       "example out.backward(retain_graph=True); or compute the result again "
                       "before the next backward.")),
    (r"grad can be implicitly created only for (real )?scalar outputs",
     QT_TRANSLATE_NOOP("Lesson", "backward was called on a tensor with more than one element, "
                       "so torch does not know how much each element counts."),
     QT_TRANSLATE_NOOP("Lesson", "Pass gradient=torch.ones_like(out) (the same as "
                       "out.sum().backward()), or reduce the result to one number first, for "
                       "example with .sum() or .mean().")),
    (r"does not require grad and does not have a grad_fn",
     QT_TRANSLATE_NOOP("Lesson", "backward was called on a tensor autograd never recorded: "
                       "nothing it was computed from requires grad, or it was computed under "
                       "torch.no_grad() or from a detach()-ed tensor."),
     QT_TRANSLATE_NOOP("Lesson", "Create the input leaves with requires_grad=True (or call "
                       "requires_grad_()), and compute the result outside torch.no_grad() and "
                       "without detach().")),
    (r"Mismatch in shape: grad_output\[0\] has a shape of (?P<g>torch\.Size\(\[[^\]]*\]\)) "
     r"and output\[0\] has a shape of (?P<o>torch\.Size\(\[[^\]]*\]\))",
     QT_TRANSLATE_NOOP("Lesson", "The gradient passed to backward has shape {g}, but the tensor "
                       "has shape {o}: they must match element for element."),
     QT_TRANSLATE_NOOP("Lesson", "Pass a gradient of the same shape, for example "
                       "torch.ones_like(out).")),
    (r"can't retain_grad on Tensor that has requires_grad=False",
     QT_TRANSLATE_NOOP("Lesson", "retain_grad() keeps the gradient of a tensor in the graph, "
                       "but this tensor is not in any graph (it does not require grad)."),
     QT_TRANSLATE_NOOP("Lesson", "Compute it from a tensor with requires_grad=True, outside "
                       "torch.no_grad().")),
    (r"you can only change requires_grad flags of leaf variables",
     QT_TRANSLATE_NOOP("Lesson", "The tensor was computed from others, so whether it requires "
                       "grad follows from them; only leaves can be switched."),
     QT_TRANSLATE_NOOP("Lesson", "Call requires_grad_() on the leaf it was computed from, or "
                       "make a new leaf with y.detach().requires_grad_().")),
    (r"a leaf Variable that requires grad is being used in an in-place operation",
     QT_TRANSLATE_NOOP("Lesson", "Autograd needs a leaf's values as they were when the graph "
                       "was built, so a leaf that requires grad cannot be changed in place."),
     QT_TRANSLATE_NOOP("Lesson", "Do the update inside `with torch.no_grad():`, or zero its "
                       "gradient with x.grad.zero_().")),
    (r"is a tensor method, but this is a NoneType|'NoneType' object has no attribute",
     QT_TRANSLATE_NOOP("Lesson", "The tensor's .grad is None: backward has not put a gradient "
                       "there yet (or it is not a leaf, or it does not require grad)."),
     QT_TRANSLATE_NOOP("Lesson", "Run backward first; x.grad.zero_() only makes sense once "
                       "x.grad exists.")),
    (r"only Tensors of floating point dtype can require gradients",
     QT_TRANSLATE_NOOP("Lesson", "Gradients are only defined for floating point tensors; this "
                       "one holds integers."),
     QT_TRANSLATE_NOOP("Lesson", "Create it as floating point, for example torch.arange(3.0) "
                       "or dtype=torch.float32.")),
    (r"modified by an inplace operation",
     QT_TRANSLATE_NOOP("Lesson", "A value the graph saved for backward was changed in place "
                       "afterwards, so the gradient would be computed from the wrong numbers."),
     QT_TRANSLATE_NOOP("Lesson", "Use the out-of-place form (y = y + 1 instead of y.add_(1)) "
                       "before backward.")),
]


def explain_error(error_type: str, message: str) -> AutogradLesson | None:
    """The cause and fix for an autograd error torch raised, or None when it is not one we
    know."""
    for pattern, cause, fix in _LESSONS:
        m = re.search(pattern, message)
        if m is not None:
            groups = {k: v for k, v in m.groupdict().items() if v is not None}
            return AutogradLesson(Filled(cause, **groups), Filled(fix, **groups))
    return None


def is_autograd_step(step: Step) -> bool:
    """A step that calls an autograd entry of the catalogue or reads ``.grad``."""
    from app.catalog import CATALOG

    if step.is_code:
        return False
    if any((spec := CATALOG.get(key)) is not None and spec.category == "autograd"
           for key in step.calls):
        return True
    value = statement_value(write_step(step))
    return value is not None and any(isinstance(n, ast.Attribute) and n.attr == "grad"
                                     for n in ast.walk(value))
