"""Undoable recipe edits: every change a panel makes goes through ``push_edit``."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PySide6.QtGui import QUndoCommand, QUndoStack

from app.recipe.model import Recipe

#: The ``QUndoCommand.id`` of edits that may merge; ``merge_key`` decides which do.
MERGEABLE_ID = 0x7E57


class RecipeEdit(QUndoCommand):
    """One edit of a recipe, kept as the snapshots before and after it.

    Consecutive edits with the same (not None) ``merge_key`` merge into one undo step,
    so dragging a parameter through five values is undone at once.
    """

    def __init__(self, recipe: Recipe, before: tuple, after: tuple, text: str,
                 merge_key: Hashable | None = None):
        super().__init__(text)
        self._recipe, self._before, self._after = recipe, before, after
        self._merge_key = merge_key

    def redo(self) -> None:
        self._recipe.restore(self._after)

    def undo(self) -> None:
        self._recipe.restore(self._before)

    def id(self) -> int:
        return -1 if self._merge_key is None else MERGEABLE_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, RecipeEdit) or other._recipe is not self._recipe \
                or self._merge_key is None or other._merge_key != self._merge_key:
            return False
        self._after = other._after
        self.setText(other.text())
        self.setObsolete(self._after == self._before)  # back where it started: drop it
        return True


def push_edit(stack: QUndoStack | None, recipe: Recipe, edit: Callable[[Recipe], None],
              text: str, merge_key: Hashable | None = None) -> None:
    """Apply ``edit`` (a function changing ``recipe``) as one undoable command.

    Consecutive edits with the same ``merge_key`` (not None) become one undo step.
    """
    before = recipe.snapshot()
    scratch = type(recipe)(*before)  # worked out on a copy: the real recipe changes once
    edit(scratch)
    after = scratch.snapshot()
    if after == before:
        return
    if stack is None:
        recipe.restore(after)
    else:
        stack.push(RecipeEdit(recipe, before, after, text, merge_key))  # push() calls redo()
