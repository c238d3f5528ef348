"""What autograd says about one tensor of a recipe: leaf or not, its ``.grad``, and why not.

Qt-free. ``grad_facts`` says whether a tensor is a leaf, whether it requires grad, and why
its ``.grad`` is ``None`` when it is; ``cut_of`` tells where ``detach()``, ``.data`` or
``torch.no_grad()`` cut a tensor from its graph, read from the run's text
(``kernel.explain.autograd_source``). The explanations are English
``protocol.i18n.Filled`` texts marked under the ``Lesson`` context.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kernel import mirror
from kernel.explain.autograd_source import SourceRun, dotted, reads, value_of
from protocol.autograd_data import text_data
from protocol.autograd_nodes import shape_text
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class GradFacts:
    """What autograd knows about one tensor of a recipe.

    Parameters
    ----------
    name : str
    is_leaf, requires_grad, retains_grad : bool
    grad_fn : str or None
        The class name of its backward function, ``AddBackward0``.
    grad : torch.Tensor or None
        ``.grad``, read only where torch fills it in (leaves, and tensors that retain grad).
    why_no_grad : str
        When ``grad`` is None, why, in words a student can act on (a ``Filled`` text, to
        translate); else empty.
    cut : str
        ``detach()``, ``torch.no_grad()``, ``.data`` or ``detach_()`` when that made this
        tensor from one that requires grad; else empty.
    """

    name: str
    is_leaf: bool
    requires_grad: bool
    retains_grad: bool
    grad_fn: str | None
    grad: torch.Tensor | None
    why_no_grad: str
    cut: str = ""

    def rows(self) -> list[tuple[str, str]]:
        """``(label, text)`` pairs for display."""
        grad = "None" if self.grad is None else grad_text(self.grad)
        return [("is_leaf", str(self.is_leaf)), ("requires_grad", str(self.requires_grad)),
                ("grad_fn", self.grad_fn or "None"), ("retains_grad", str(self.retains_grad)),
                (".grad", grad)]


def grad_text(t: torch.Tensor, most: int = 8) -> str:
    """``tensor([2.])`` as ``print`` shows it, on one line, for up to ``most`` elements;
    else the shape."""
    if t.numel() > most:
        return f"tensor {shape_text(tuple(t.shape))}"
    return re.sub(r"\[ +", "[", " ".join(repr(t.detach()).split()))


def read_grad(t: torch.Tensor) -> torch.Tensor | None:
    """``t.grad`` without torch's warning about non-leaves (whose ``.grad`` stays None)."""
    if not (t.is_leaf or t.retains_grad):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return t.grad


def grad_facts(t: torch.Tensor, name: str, run: SourceRun | None = None) -> GradFacts:
    """``is_leaf``, ``requires_grad``, ``grad_fn``, ``.grad`` and why ``.grad`` is None.

    Parameters
    ----------
    t : torch.Tensor
    name : str
        Its recipe name, used in the explanations.
    run : SourceRun, optional
        The run it comes from, to tell whether backward ran and where the graph was cut.
    """
    grad = read_grad(t)
    cut = cut_of(name, run) if run is not None else None
    fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    why = "" if grad is not None else _why_no_grad(t, name, run, cut)
    return GradFacts(name, t.is_leaf, t.requires_grad, t.retains_grad, fn, grad, why,
                     cut[0] if cut else "")


def _why_no_grad(t: torch.Tensor, name: str, run: SourceRun | None,
                 cut: tuple[str, list[str]] | None) -> str:
    import torch

    if not t.requires_grad:
        if cut is not None:
            how, sources = cut
            src = ", ".join(sources)
            if how == "torch.no_grad()":
                return Filled(QT_TRANSLATE_NOOP(
                    "Lesson", "{name} was computed inside `with torch.no_grad():` from {src}, "
                    "so autograd did not record it: the graph is cut here. {name} does not "
                    "require grad and no gradient reaches it."), name=name, src=src)
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "{name} comes from {src} through {how}: it holds the same values but "
                "is cut off from the graph, so it does not require grad and no gradient flows "
                "through it. To make it a new leaf, call {name}.requires_grad_()."),
                name=name, src=src, how=how)
        if not t.is_floating_point() and not t.is_complex():
            return Filled(QT_TRANSLATE_NOOP(
                "Lesson", "{name} holds {dtype} values; only floating point tensors can "
                "require grad, so autograd ignores it."),
                name=name, dtype=str(t.dtype).removeprefix("torch."))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{name} does not require grad: autograd treats it as a constant and it "
            "is not part of any graph. Create it with requires_grad=True, or call "
            "{name}.requires_grad_(), to get a gradient."), name=name)
    if not t.is_leaf and not t.retains_grad:
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{name} is not a leaf (it was computed by {fn}). During backward its "
            "gradient is passed on to the leaves and then thrown away. Call "
            "{name}.retain_grad() before backward to keep it."),
            name=name, fn=type(t.grad_fn).__name__)
    if run is None or not run.statements:  # no text to tell which backward ran
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "{name}.grad is None: no backward() that reaches {name} has run yet. "
            ".grad is filled in by a step such as out.backward()."), name=name)
    ran = backward_runs(run)
    if not ran:
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "backward() has not run yet: .grad is filled in by a step such as "
            "out.backward(), and {name} is waiting for one."), name=name)
    reaching = [src for src, value in ran if isinstance(value, torch.Tensor)
                and reaches(value, t)]
    if not reaching:
        sources = ", ".join(dict.fromkeys(src for src, _ in ran))
        return Filled(QT_TRANSLATE_NOOP(
            "Lesson", "backward ran from {sources}, but that graph does not reach {name}, so "
            "{name} got no gradient. Call backward on a result computed from {name}."),
            sources=sources, name=name)
    return Filled(QT_TRANSLATE_NOOP("Lesson", "{name}.grad is None."), name=name)


def backward_runs(run: SourceRun) -> list[tuple[str, Any]]:
    """``(name, tensor)`` for every ``name.backward(...)`` that ran (in a loop's body
    too), the tensor as the run left ``name``."""
    return [(name, run.namespace[name]) for name in run.method_calls("backward")
            if name in run.namespace]


def reaches(output: torch.Tensor, target: torch.Tensor, limit: int = 100_000) -> bool:
    """Whether backward from ``output`` would reach ``target`` (a leaf, or its grad_fn)."""
    if output is target:
        return True
    want = target.grad_fn
    seen: set[int] = set()
    stack = [output.grad_fn] if output.grad_fn is not None else []
    while stack and len(seen) < limit:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        if fn is want or getattr(fn, "variable", None) is target:
            return True
        stack.extend(f for f, _ in fn.next_functions if f is not None)
    return False


def cut_of(name: str, run: SourceRun | None) -> tuple[str, list[str]] | None:
    """How ``name`` was cut from a graph, and the tensors it was cut from, or None.

    ``detach()``, ``.data`` and ``torch.no_grad()`` in the statement that made it, or a
    later ``name.detach_()``, count when what they read requires grad.
    """
    made = run.made_by(name) if run is not None else None
    if made is None or not made.ran:
        return None
    value = value_of(made.node)
    if name in run.method_calls("detach_"):
        return "detach_()", _graded(reads(value), run) or [name]
    for node in ast.walk(value) if value is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("detach", "detach_"):
            receiver = node.func.value  # x.detach(), or torch.detach(x)
            read = node.args[0] if dotted(receiver) == "torch" and node.args else receiver
            sources = _graded(reads(read), run)
            if sources:
                return "detach()", sources
        if isinstance(node, ast.Attribute) and node.attr == "data":
            sources = _graded(reads(node.value), run)
            if sources:
                return ".data", sources
    if made.no_grad:
        sources = _graded(reads(value), run)
        if sources:
            return "torch.no_grad()", sources
    return None


def _graded(names: list[str], run: SourceRun) -> list[str]:
    """Those of ``names`` that are tensors requiring grad."""
    import torch

    return [n for n in names
            if isinstance(run.namespace.get(n), torch.Tensor) and run.namespace[n].requires_grad]


def gradient_candidates(namespace: dict[str, Any], name: str, t: torch.Tensor) -> list[str]:
    """Other tensors of ``namespace`` that could be ``name.backward``'s ``gradient``:
    floating point, of ``t``'s shape."""
    import torch

    return [other for other, v in namespace.items() if other != name
            and isinstance(v, torch.Tensor) and v.shape == t.shape and v.is_floating_point()]


def leaves_with_grad(run: SourceRun, *, nonzero: bool = False) -> list[str]:
    """Names of the run's leaf tensors whose ``.grad`` is set, in recipe order.

    With ``nonzero``, only those whose ``.grad`` holds something other than zeros.
    """
    import torch

    out: list[str] = []
    seen: set[int] = set()
    for name, value in run.namespace.items():
        if not isinstance(value, torch.Tensor) or not value.is_leaf or id(value) in seen:
            continue
        grad = read_grad(value)
        if grad is not None and (not nonzero or bool(grad.any())):
            seen.add(id(value))
            out.append(name)
    return out


def facts_data(facts: GradFacts) -> dict:
    rows = facts.rows()  # the .grad row is worked out here, where the tensor is
    return {"name": facts.name, "is_leaf": facts.is_leaf, "requires_grad": facts.requires_grad,
            "retains_grad": facts.retains_grad, "grad_fn": facts.grad_fn,
            "grad": None if facts.grad is None else mirror.encode(facts.grad),
            "grad_row": rows[-1][1], "why_no_grad": text_data(facts.why_no_grad),
            "cut": facts.cut}
