"""Undoable recipe edits: every change a panel makes goes through ``push_edit``."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand, QUndoStack

from app.recipe import Recipe


class RecipeEdit(QUndoCommand):
    """One edit of a recipe, kept as the snapshots before and after it."""

    def __init__(self, recipe: Recipe, before: tuple, after: tuple, text: str):
        super().__init__(text)
        self._recipe, self._before, self._after = recipe, before, after

    def redo(self) -> None:
        self._recipe.restore(self._after)

    def undo(self) -> None:
        self._recipe.restore(self._before)


def push_edit(stack: QUndoStack | None, recipe: Recipe, edit: Callable[[Recipe], None],
              text: str) -> None:
    """Apply ``edit`` (a function changing ``recipe``) as one undoable command."""
    before = recipe.snapshot()
    scratch = Recipe(*before)  # worked out on a copy, so the real recipe changes once
    edit(scratch)
    after = scratch.snapshot()
    if after == before:
        return
    if stack is None:
        recipe.restore(after)
    else:
        stack.push(RecipeEdit(recipe, before, after, text))  # push() calls redo()
