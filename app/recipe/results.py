"""What a run of a recipe gave each step: a ``StepResult`` per step, in a ``RecipeRun``.

The window's kernel fills them in as it reports (``app.recipe.kernel_results``); the
views read them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.recipe.model import Step


@dataclass
class StepResult:
    """What one step produced.

    Parameters
    ----------
    status : str
        ``ok``, ``error``, ``skipped`` (the run stopped before it, as python stops at an
        error), ``stopped`` (it was running when its kernel had to be ended: Stop, the
        time limit, or the kernel's death; ``error`` says which) or ``kernel`` (its run
        is on its way).
    value : Any
        The assigned value, or what a bare call returned.
    error : str
        torch's message, for ``error``.
    error_type : str
        The exception's class name, such as ``RuntimeError``.
    """

    step: Step
    status: str = "ok"
    value: Any = None
    error: str = ""
    error_type: str = ""
    warnings: list[str] = field(default_factory=list)
    printed: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class RecipeRun:
    """The outcome of evaluating a recipe: one ``StepResult`` per step, in order."""

    results: list[StepResult] = field(default_factory=list)
    namespace: dict[str, Any] = field(default_factory=dict)
    #: The steps whose results changed since the run was made, in order, by index
    #: (``touch``): a view that showed the run when it had ``mark`` changes redraws only
    #: ``changed_since(mark)``, so each report costs the views O(1), not O(steps).
    changes: list[int] = field(default_factory=list, repr=False, compare=False)
    #: What views worked out of the run, by name, for ``changes`` up to a mark (a cache).
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def touch(self, indices: Iterable[int]) -> None:
        """Note that the results of the steps at ``indices`` changed."""
        self.changes.extend(indices)

    @property
    def mark(self) -> int:
        """How many changes the run has had (for ``changed_since``)."""
        return len(self.changes)

    def changed_since(self, mark: int) -> set[int]:
        """The steps whose results changed after the run had ``mark`` changes."""
        return set(self.changes[mark:])

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    @property
    def errors(self) -> list[StepResult]:
        return [r for r in self.results if r.status == "error"]

    def value(self, name: str) -> Any:
        return self.namespace[name]

    def result_for(self, name: str) -> StepResult | None:
        """The result of the last step assigning ``name``."""
        for r in reversed(self.results):
            if r.step.name == name:
                return r
        return None
