"""A recipe run by Python itself, in the test's process: the values its steps made, for
tests of what the views and the writer do with them.

It uses the kernel's own runner (``kernel.runner``), statement by statement, as a
kernel does, and gives each step the value its statement bound: what the window gets
from its kernel, but as the live objects.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any

from app.recipe.model import Recipe
from app.recipe.results import RecipeRun, StepResult
from app.recipe.text_recipe import SourceRecipe
from kernel.runner import Runner


@contextlib.contextmanager
def as_a_kernel() -> Iterator[None]:
    """This process as a kernel's for the block: python's own excepthook (pytest-qt has
    its own); ``__main__``, argv and ``sys.path`` put back afterwards, which the runner
    makes the recipe's, or a later test's spawned child cannot start."""
    kept = sys.modules["__main__"], sys.argv, list(sys.path), sys.excepthook
    sys.excepthook = sys.__excepthook__
    try:
        yield
    finally:
        sys.modules["__main__"], sys.argv, sys.path[:], sys.excepthook = kept


def run_python(recipe: Recipe | str, path: str = "recipe.py") -> RecipeRun:
    """Run ``recipe`` (or its text) as ``python`` would; ``run.namespace`` holds the names
    it left (as the kernel's does: dunder names left out), and each step's result the
    value its statement bound, or its error, and what it printed."""
    if isinstance(recipe, str):
        from app.recipe.reader import read_recipe

        recipe = read_recipe(recipe)
    if not isinstance(recipe, SourceRecipe):
        recipe = SourceRecipe(*recipe.snapshot())
    runner = Runner(path, recipe.source)
    run = RecipeRun([StepResult(step, "skipped") for step in recipe.steps])
    lines = recipe.step_lines()
    with as_a_kernel():
        runner.prepare()
        for i, statement in enumerate(runner.statements):
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
                outcome = runner.run_statement(i)
            for k, line in enumerate(lines):
                if statement.line <= line <= statement.end_line:
                    _fill(run.results[k], outcome, runner.namespace, printed.getvalue())
            if outcome.exit_code is not None:
                break  # an error ends the run, as under python: later steps are skipped
    run.namespace.update({k: v for k, v in runner.namespace.items() if not k.startswith("__")})
    return run


def _fill(result: StepResult, outcome: Any, namespace: dict[str, Any], printed: str) -> None:
    result.printed = printed
    if outcome.error is not None:
        result.status, result.error, result.error_type = "error", outcome.message, outcome.error
        return
    result.status = "ok"
    if result.step.name:
        result.value = namespace.get(result.step.name)
