"""The open document: a recipe, where it is saved, its latest run, and the selected step.

Qt-free. Views listen to its psygnal signals and call its methods; nothing here
knows a view exists.
"""

from __future__ import annotations

import io
import os
import tempfile

from psygnal import Signal

from app.recipe.evaluator import RecipeRun, evaluate
from app.recipe.model import Recipe
from app.recipe.reader import read_recipe_file
from app.recipe.writer import write_recipe
from app.resources import RECIPES_DIR

WELCOME = RECIPES_DIR / "welcome.py"


class Document:
    """The recipe being edited, evaluated after every change.

    Parameters
    ----------
    recipe : Recipe, optional
        Starts empty when not given.
    """

    evaluated = Signal(object)
    """Emitted with the new ``RecipeRun`` after every evaluation."""
    selection_changed = Signal(object)
    """Emitted with the selected step index, or None."""
    path_changed = Signal(object)
    """Emitted with the new file path (str) or None for an unsaved recipe."""
    modified_changed = Signal(bool)
    """Emitted when the recipe starts or stops differing from its file."""
    held_changed = Signal(bool)
    """Emitted when the recipe starts or stops waiting for its user's Run."""
    file_saved = Signal(str)
    """Emitted with the path after the recipe was written (the trust store remembers it)."""

    def __init__(self, recipe: Recipe | None = None):
        self.recipe = recipe if recipe is not None else Recipe()
        self.path: str | None = None
        self.run: RecipeRun = RecipeRun()
        self.output = ""
        self.selected: int | None = None
        #: What reading the last opened file noticed (hand-edited training code...).
        self.file_warnings: tuple[str, ...] = ()
        #: True while a file from elsewhere waits for its user's Run: nothing of it runs.
        self.held = False
        self._saved = self.recipe.snapshot()
        self.recipe.changed.connect(self._on_recipe_changed)
        self.evaluate()

    # -- state -----------------------------------------------------------------
    @property
    def modified(self) -> bool:
        return self.recipe.snapshot() != self._saved

    def evaluate(self) -> RecipeRun:
        """Run the recipe again and tell the views (while held: an empty run, nothing runs)."""
        if self.held:
            self.run, self.output = RecipeRun(), ""
            self.evaluated.emit(self.run)
            return self.run
        out = io.StringIO()
        self.run = evaluate(self.recipe, stdout=out, previous=self.run)
        self.output = out.getvalue()
        self.evaluated.emit(self.run)
        return self.run

    def select(self, index: int | None) -> None:
        """Select step ``index`` (None clears the selection)."""
        if index is not None and not 0 <= index < len(self.recipe.steps):
            index = None
        if index != self.selected:
            self.selected = index
            self.selection_changed.emit(index)

    def select_name(self, name: str) -> None:
        self.select(self.recipe.index_of(name))

    # -- files -----------------------------------------------------------------
    def open(self, path: str | os.PathLike[str], *, run: bool = True) -> None:
        """Replace the recipe with the file at ``path``; raises ``RecipeError`` or ``OSError``.

        With ``run=False`` the recipe is held: its steps show, and nothing of it runs
        until ``release``. On error the current recipe is left untouched.
        """
        loaded = read_recipe_file(os.fspath(path))
        self._set_held(not run)
        self.file_warnings = loaded.warnings
        self.selected = None
        self.recipe.restore(loaded.snapshot())
        self._set_path(os.fspath(path))
        self._mark_saved()
        self.select(self._first_named())

    def open_welcome(self) -> None:
        """Open the shipped welcome recipe, as an unsaved copy."""
        self.open(WELCOME)
        self._set_path(None)

    def release(self) -> None:
        """The user chose Run: the held recipe runs, and so do its edits from now on."""
        if self.held:
            self._set_held(False)
            self.evaluate()

    def run_again(self) -> RecipeRun:
        """The user asked to run: a held recipe is released, any other runs again."""
        if self.held:
            self.release()
            return self.run
        return self.evaluate()

    def new(self) -> None:
        self._set_held(False)
        self.selected = None
        self.recipe.restore(((), ""))
        self._set_path(None)
        self._mark_saved()
        self.selection_changed.emit(None)

    def save(self, path: str | os.PathLike[str] | None = None) -> str:
        """Write the recipe to ``path`` (or its current path) atomically; return the path."""
        target = os.fspath(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save to")
        write_atomic(target, write_recipe(self.recipe))
        self._set_path(target)
        self._mark_saved()
        self.file_saved.emit(target)
        return target

    def _first_named(self) -> int | None:
        for i, step in enumerate(self.recipe.steps):
            if step.name:
                return i
        return None

    def _set_held(self, held: bool) -> None:
        if held != self.held:
            self.held = held
            self.held_changed.emit(held)

    def _set_path(self, path: str | None) -> None:
        if path != self.path:
            self.path = path
            self.path_changed.emit(path)

    def _mark_saved(self) -> None:
        was = self.modified
        self._saved = self.recipe.snapshot()
        if was:
            self.modified_changed.emit(False)

    def _on_recipe_changed(self) -> None:
        if self.selected is not None and self.selected >= len(self.recipe.steps):
            self.selected = None
            self.selection_changed.emit(None)
        self.evaluate()
        self.modified_changed.emit(self.modified)


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tensor-lab-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
