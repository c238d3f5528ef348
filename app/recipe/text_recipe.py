"""The recipe's text is the document: every edit is an edit of the text.

``SourceRecipe`` is a ``Recipe`` that holds the exact text its steps are read from. Each
edit works out the new text from the old and reads it back:

- a form's literals: replaced at their ``ast`` spans (``app.recipe.form_edits``);
- a step replaced by another (an op, an argument or a name changed): its statement
  written again at its span (``app.recipe.statement_edits.replaced_text``);
- steps added, cut and moved, renamed: their lines and names (``app.recipe.step_edits``);
  where a step shares its line with another, just its statement and its ``;``
  (``statement_edits.cut_text``), and a move is a cut and an insert;
- the docstring: its node (``statement_edits.docstring_text``);
- several of these at once (``restore`` without a text, a rename the names cannot say):
  one after another, each on the text the last one made.

A text that does not read as Python stays as its user typed it: steps added to it go
after it. Snapshots, and so undo, hold the text.
"""

from __future__ import annotations

from dataclasses import replace

from app.recipe.header import docstring_literal, imports_needed
from app.recipe.model import Recipe, Step
from app.recipe.reader import RecipeError, read_recipe

# The edits' modules (``form_edits``, ``statement_edits``, ``step_edits``) are imported
# by the edits, at the first: the window's first paint makes none.


def new_text(recipe: Recipe) -> str:
    """The text of a recipe that has none yet: its docstring, the imports its steps need
    (the torch import at least: a new recipe's text), and each step's new statement (a
    recipe built from steps, not read)."""
    steps, docstring = recipe.steps, recipe.docstring
    head = [docstring_literal(docstring)] if docstring else []
    head += [f"import {line}" for line in imports_needed(recipe)]  # (the first: torch's)
    text = "\n".join(head) + "\n"
    if steps:
        from app.recipe.step_edits import written_lines

        text += "\n" + written_lines(list(steps), "\n")
    return text


class SourceRecipe(Recipe):
    """A recipe and its exact source text (``None``: a recipe built from steps, whose
    text is ``new_text``'s).

    Snapshots are ``(steps, docstring, source)``; restoring one without the text (the
    steps of an edit) makes that edit's text from this one, part by part.
    """

    def __init__(self, steps: tuple[Step, ...] | list[Step] = (), docstring: str = "",
                 source: str | None = None):
        super().__init__(steps, docstring)
        self._source = source

    @property
    def source(self) -> str:
        """The recipe's Python text, as Save writes it."""
        if self._source is None:
            self._source = new_text(self)
        return self._source

    def step_lines(self) -> list[int]:
        """The line (1-based) where each step starts in ``source``."""
        if getattr(self, "_lines_of", None) != self.source:
            try:
                read = read_recipe(self.source).steps
            except RecipeError:
                read = ()
            self._lines = [s.line or 1 for s in read]
            self._lines_of = self.source
        lines = self._lines
        return lines if len(lines) == len(self._steps) else [1] * len(self._steps)

    def snapshot(self) -> tuple:  # type: ignore[override]
        return self._steps, self._docstring, self.source

    def restore(self, snapshot: tuple) -> None:
        steps, docstring, *rest = snapshot
        steps = tuple(steps)
        if not rest:  # an edit of the steps: made in the text, part by part
            if (steps, docstring) == (self._steps, self._docstring):
                return
            scratch = SourceRecipe(self._steps, self._docstring, self.source)
            scratch._become(steps, docstring)
            steps, docstring, source = scratch.snapshot()
        else:
            source = rest[0]
        if (steps, docstring, source) == (self._steps, self._docstring, self._source):
            return
        self._steps, self._docstring = steps, docstring
        self._source = source
        self.changed.emit()

    # -- the edits, each a text edit ---------------------------------------------------------
    def set_docstring(self, text: str) -> None:
        if text == self._docstring:
            return
        from app.recipe.statement_edits import docstring_text

        edited = docstring_text(self.source, text)
        if edited is None:
            raise RecipeError(0, 0, "the text is not Python: its docstring cannot be found")
        self._take(edited, self._steps, text, ())

    def insert(self, index: int, step: Step) -> None:
        from app.recipe.statement_edits import newline_of, put_after_line, split_block_text
        from app.recipe.step_edits import step_edit_text, with_imports, written_lines

        steps = list(self._steps)
        steps.insert(index, step)
        old = self._read()
        if old is None:  # not Python: the user's text stays, the step goes after it
            self._take_unread(self.source, step)
            return
        meant = list(old.steps)
        meant.insert(index, step)
        new = Recipe(tuple(meant), self._docstring)
        edited = step_edit_text(self.source, old, new)
        if edited is None and index > 0:  # inside a block, or after a shared line
            written = written_lines([step], newline_of(self.source))
            edited = (None if step.block else split_block_text(self.source, old, index, written)) \
                or put_after_line(self.source, old, index - 1, [step], written)
            edited = None if edited is None else with_imports(edited, new)
        if edited is None:
            raise ValueError(f"no place in the text for a step at {index}")
        self._take(edited, tuple(steps), self._docstring, (index,))

    def remove(self, index: int) -> None:
        from app.recipe.statement_edits import cut_text
        from app.recipe.step_edits import step_edit_text

        steps = list(self._steps)
        del steps[index]
        old = self._need_read()
        meant = list(old.steps)
        del meant[index]
        edited = step_edit_text(self.source, old, Recipe(tuple(meant), self._docstring)) \
            or cut_text(self.source, old, index)
        if edited is None:
            raise ValueError(f"step {index} has no statement of its own to cut")
        self._take(edited, tuple(steps), self._docstring, ())

    def move(self, index: int, new_index: int) -> None:
        from app.recipe.step_edits import step_edit_text

        if index == new_index:
            return
        steps = list(self._steps)
        step = steps.pop(index)
        steps.insert(new_index, step)
        old = self._need_read()
        meant = list(old.steps)
        meant.insert(new_index, meant.pop(index))
        edited = step_edit_text(self.source, old, Recipe(tuple(meant), self._docstring))
        if edited is not None:
            self._take(edited, tuple(steps), self._docstring, ())
            return
        self.remove(index)  # a cut and an insert
        self.insert(new_index, step)

    def replace_step(self, index: int, step: Step) -> None:
        from app.recipe.form_edits import form_edit_text
        from app.recipe.statement_edits import comment_text, literals_text, replaced_text
        from app.recipe.step_edits import key, with_imports

        was = self._steps[index]
        if step is was:
            return
        steps = list(self._steps)
        steps[index] = step
        old = self._need_read()
        body = replace(step, comment=old.steps[index].comment)  # the comment comes last
        meant = list(old.steps)
        meant[index] = body
        new = Recipe(tuple(meant), self._docstring)
        edited: str | None = self.source
        if key(body) != key(old.steps[index]):
            edited = form_edit_text(self.source, old, new)  # only a call's literals
            if edited is None:
                edited = literals_text(self.source, old, index, body) \
                    or replaced_text(self.source, old, index, body)
                if edited is not None:  # (an op of nn or F may need its import)
                    edited = with_imports(edited, Recipe((step,)))
        if edited is None:  # a step into or out of a block: a cut and an insert
            self.remove(index)
            self.insert(index, step)
            return
        if step.comment != body.comment:
            edited = comment_text(edited, old, index, step.comment)
        self._take(edited, tuple(steps), self._docstring, (index,))

    def rename(self, index: int, new_name: str) -> None:
        """Rename step ``index`` in the text: the names that mean its binding change
        (``step_edits.rename_text``), every other byte stays; where the names cannot
        say it, each step ``Recipe.rename`` changes is written again."""
        from app.recipe.step_edits import rename_text

        old = self._need_read()
        text = rename_text(self.source, old, index, new_name)
        if text is not None:  # (its code steps' texts changed too: the steps it reads as)
            again = read_recipe(text)
            self.restore((again.steps, again.docstring, text))
            return
        expected = Recipe(self._steps, self._docstring)
        Recipe.rename(expected, index, new_name)
        for i in reversed(range(len(self._steps))):
            if expected.steps[i] != self._steps[i]:
                self.replace_step(i, expected.steps[i])

    # -- applying them -----------------------------------------------------------------------
    def _become(self, steps: tuple[Step, ...], docstring: str) -> None:
        """Make this recipe's steps ``steps`` and its docstring ``docstring``, by the edits
        above: the docstring, then the steps that differ, from the last to the first."""
        from app.recipe.step_edits import key, step_edit_text

        if docstring != self._docstring:
            self.set_docstring(docstring)
        if steps == self._steps:
            return
        old = self._read()
        if old is not None:
            edited = step_edit_text(self.source, old, Recipe(steps, self._docstring))
            if edited is not None:  # steps added at one place, cut, or one moved
                self._take(edited, steps, self._docstring, ())
                return
        a, b = [key(s) for s in self._steps], [key(s) for s in steps]
        for i1, i2, j1, j2, pairs in reversed(_aligned(a, b, self._steps, steps)):
            for k in range(pairs):
                self.replace_step(i1 + k, steps[j1 + k])
            for k in reversed(range(i1 + pairs, i2)):
                self.remove(k)
            for k in range(j1 + pairs, j2):
                self.insert(i1 + k - j1, steps[k])

    def _read(self) -> Recipe | None:
        try:
            return read_recipe(self.source)
        except RecipeError:
            return None

    def _need_read(self) -> Recipe:
        old = self._read()
        if old is None:
            raise RecipeError(0, 0, "the text is not Python: its steps cannot be edited")
        return old

    def _take(self, text: str, steps: tuple[Step, ...], docstring: str,
              written: tuple[int, ...]) -> None:
        """Make ``text`` the recipe: its steps ``steps`` (the edit's own objects), or
        the steps it reads as where it does not read as them."""
        from app.recipe.step_edits import key

        try:
            again = read_recipe(text)
        except RecipeError:
            raise ValueError("the edited text does not read as Python") from None
        if len(again.steps) != len(steps) or again.docstring != docstring or any(
                key(again.steps[i]) != key(steps[i]) for i in written):
            steps, docstring = again.steps, again.docstring  # what the text says
        self.restore((steps, docstring, text))

    def _take_unread(self, source: str, step: Step) -> None:
        from app.recipe.statement_edits import newline_of
        from app.recipe.step_edits import written_lines

        newline = newline_of(source)
        head = source if not source or source.endswith(("\n", "\r")) else source + newline
        self.restore((self._steps + (step,), self._docstring,
                      head + written_lines([step], newline)))


def _aligned(a: list, b: list, old: tuple[Step, ...],
             new: tuple[Step, ...]) -> list[tuple[int, int, int, int, int]]:
    """The runs of ``old`` (keys ``a``) that become runs of ``new`` (keys ``b``), as
    ``(i1, i2, j1, j2, pairs)``: the first ``pairs`` of each run are the same steps
    changed, the rest cut or added. Steps that changed are paired by their labels."""
    import difflib  # (first paint: not needed)
    runs = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False) \
            .get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace" or i2 - i1 == j2 - j1:
            runs.append((i1, i2, j1, j2, min(i2 - i1, j2 - j1)))
            continue
        labels = difflib.SequenceMatcher(None, [s.label for s in old[i1:i2]],
                                         [s.label for s in new[j1:j2]], autojunk=False)
        for _, k1, k2, m1, m2 in labels.get_opcodes():
            runs.append((i1 + k1, i1 + k2, j1 + m1, j1 + m2, min(k2 - k1, m2 - m1)))
    return runs
