"""The recipe's text is the document: an edit changes only the text it is about.

``SourceRecipe`` is a ``Recipe`` that keeps the exact text it was read from. Every edit
(a form's literal, a new step, a move, a rename, undo) still goes through
``Recipe.restore``; here that works out the new text from the old one:

- where only literal arguments changed (a form's edit, however the form spells the call),
  ``app.recipe.form_edits`` replaces just them, at their ``ast`` spans;
- where steps were added at one place, a run of them removed, or one moved,
  ``app.recipe.step_edits`` adds, cuts or moves just their lines; a rename
  (``SourceRecipe.rename``) changes just the names of the binding;
- anything else (``_Sync``): the file's top-level statements are split into units (a
  statement, or statements that share a line), each with the blank lines and comments
  above it; the old and new steps are aligned (``difflib``); a unit whose steps did not
  change keeps its text byte for byte, wherever it moves; a step whose only change is a
  literal gets that literal replaced in its text, at the place ``ast`` gives; any other
  changed step is written again by the writer; imports, code the forms do not show,
  comments and blank lines elsewhere stay.

The new text is read back and must give the intended steps; if it does not, the whole
recipe is written again by the writer (always right, formatting lost).
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from app.expr import Code, Const, Expr, walk
from app.kernel.source import first_line, source_lines
from app.recipe.form_edits import form_edit_text
from app.recipe.model import Recipe, Step
from app.recipe.reader import RecipeError, parse, read_recipe
from app.recipe.step_edits import key, rename_text, step_edit_text, written_lines
from app.recipe.writer import _const, _docstring, imports_needed, write_recipe, write_step

_SYNC = object()


class SourceRecipe(Recipe):
    """A recipe and its exact source text (``None``: not read from a text; the writer's).

    Snapshots are ``(steps, docstring, source)``; restoring one without the text (an
    edit of the steps) works the text out with ``sync_source``.
    """

    def __init__(self, steps: tuple[Step, ...] | list[Step] = (), docstring: str = "",
                 source: str | None = None):
        super().__init__(steps, docstring)
        self._source = source

    @property
    def source(self) -> str:
        """The recipe's Python text, as Save writes it."""
        if self._source is None:
            self._source = write_recipe(self)
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
        source = rest[0] if rest else _SYNC
        steps = tuple(steps)
        if source is _SYNC:
            if (steps, docstring) == (self._steps, self._docstring):
                return
            source = sync_source(self.source, Recipe(steps, docstring))
        if (steps, docstring, source) == (self._steps, self._docstring, self._source):
            return
        self._steps, self._docstring = steps, docstring
        self._source = source
        self.changed.emit()

    def rename(self, index: int, new_name: str) -> None:
        """Rename step ``index`` in the text: the names that mean its binding change
        (``step_edits.rename_text``), every other byte stays; else as ``Recipe.rename``."""
        try:
            read = read_recipe(self.source)
        except RecipeError:
            read = None
        text = None
        if read is not None and (read.steps, read.docstring) == (self._steps, self._docstring):
            text = rename_text(self.source, read, index, new_name)
        if text is None:
            super().rename(index, new_name)
            return
        again = read_recipe(text)
        self.restore((again.steps, again.docstring, text))


def same_recipe(a: Recipe, b: Recipe) -> bool:
    return ([key(s) for s in a.steps], a.docstring) == ([key(s) for s in b.steps], b.docstring)


def sync_source(source: str, new: Recipe) -> str:
    """The text of ``new``, made from ``source`` by changing only what changed."""
    try:
        old = read_recipe(source)
    except (RecipeError, SyntaxError, ValueError, RecursionError, MemoryError):
        # A text Python cannot read is the user's, as it was: kept, new steps after it.
        return _after_unreadable(source, new)
    edited = form_edit_text(source, old, new)  # only literals changed: just them
    if edited is None:
        edited = step_edit_text(source, old, new)  # steps added, cut or moved: their lines
    if edited is not None:
        return edited
    try:
        text = _Sync(source, old, new).text()
        if same_recipe(read_recipe(text), new):
            return text
    except (RecipeError, SyntaxError, ValueError, RecursionError):
        pass
    return write_recipe(new)


def _after_unreadable(source: str, new: Recipe) -> str:
    newline = "\r\n" if "\r\n" in source else "\n"
    added = [write_step(step) for step in new.steps]
    if not added:
        return source
    head = source if not source or source.endswith(("\n", "\r")) else source + newline
    return head + newline.join(added) + newline


@dataclass
class _Unit:
    start: int  # offset of its leading blank lines and comments
    body: int  # offset of its first line
    end: int  # offset after its last line
    kind: str  # "doc", "import", "steps", "other"
    steps: list[int] = field(default_factory=list)


class _Sync:
    def __init__(self, source: str, old: Recipe, new: Recipe):
        self.source, self.old, self.new = source, old, new
        self.newline = "\r\n" if "\r\n" in source else "\n"
        self.lines = source_lines(source)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self.units = self._units(parse(source))

    # -- reading the old text --------------------------------------------------------------
    def _units(self, tree: ast.Module) -> list[_Unit]:
        units: list[_Unit] = []
        last = 0  # the last line of the previous unit
        for i, node in enumerate(tree.body):
            first, end = first_line(node), node.end_lineno or node.lineno
            if units and first <= last:  # shares a line with the one before
                units[-1].end, last = self.starts[min(end, len(self.lines))], max(last, end)
                units[-1].kind = "steps" if units[-1].kind == "steps" else "other"
                continue
            kind = ("doc" if i == 0 and _is_docstring(node) else
                    "import" if isinstance(node, ast.Import | ast.ImportFrom) else "other")
            units.append(_Unit(self.starts[last], self.starts[first - 1],
                               self.starts[min(end, len(self.lines))], kind))
            last = end
        bounds = [(self._line_of(u.body), self._line_of(u.end - 1)) for u in units]
        for index, step in enumerate(self.old.steps):
            for unit, (lo, hi) in zip(units, bounds, strict=True):
                if step.line is not None and lo <= step.line <= hi:
                    unit.steps.append(index)
                    unit.kind = "steps"
                    break
            else:
                raise ValueError("a step outside every statement")
        return units

    def _line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:  # the last line starting at or before offset, 1-based
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    # -- writing the new text --------------------------------------------------------------
    def text(self) -> str:
        step_units = [u for u in self.units if u.kind == "steps"]
        old_keys = [tuple(key(self.old.steps[i]) for i in u.steps) for u in step_units]
        groups = _groups(self.new.steps)
        new_keys = [tuple(key(s) for s in g) for g in groups]
        before_first: list[str] = []
        after: dict[int, list[str]] = {}
        replaced: dict[int, str] = {}
        matcher = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            pairs = min(i2 - i1, j2 - j1) if tag == "replace" else 0
            for k in range(pairs):
                replaced[i1 + k] = self._changed(step_units[i1 + k], groups[j1 + k])
            for k in range(i1 + pairs, i2):
                replaced[k] = ""
            extra = [self._written(g) for g in groups[j1 + pairs:j2]]
            if extra:
                at = i1 + pairs - 1
                (after.setdefault(at, []) if at >= 0 else before_first).extend(extra)
        return self._assemble(step_units, replaced, after, before_first)

    def _assemble(self, step_units: list[_Unit], replaced: dict[int, str],
                  after: dict[int, list[str]], before_first: list[str]) -> str:
        out: list[str] = []
        doc_changed = self.new.docstring != self.old.docstring
        if doc_changed and self.new.docstring and not any(u.kind == "doc" for u in self.units):
            out.append(_docstring(self.new.docstring) + self.newline)
        imports = self._missing_imports()
        last_import = max((i for i, u in enumerate(self.units) if u.kind in ("import", "doc")),
                          default=-1)
        if last_import < 0:
            out.extend(imports)
        group = 0
        for i, unit in enumerate(self.units):
            chunk = self.source[unit.start:unit.end]
            if unit.kind == "steps":
                if group == 0:
                    out.extend(before_first)
                out.append(replaced.get(group, _ending(chunk, self.newline)))
                out.extend(after.get(group, []))
                group += 1
            elif unit.kind == "doc" and doc_changed:
                if self.new.docstring:
                    out.append(_docstring(self.new.docstring) + self.newline)
            else:
                out.append(_ending(chunk, self.newline))
            if i == last_import:
                out.extend(imports)
        if not step_units:
            out.extend(before_first)
        end = self.units[-1].end if self.units else 0
        return "".join(out) + self.source[end:]

    def _missing_imports(self) -> list[str]:
        have = {f"{a.name} as {a.asname}" if a.asname else a.name
                for node in parse(self.source).body if isinstance(node, ast.Import)
                for a in node.names}
        return [f"import {line}{self.newline}" for line in imports_needed(self.new)
                if line not in have]

    def _changed(self, unit: _Unit, group: list[Step]) -> str:
        """The text of ``unit`` with its steps now ``group``: a literal replaced, or new."""
        if len(unit.steps) == 1 and len(group) == 1:
            spliced = self._splice(unit, self.old.steps[unit.steps[0]], group[0])
            if spliced is not None:
                return spliced
        old_first = self.old.steps[unit.steps[0]]
        trivia = self.source[unit.start:unit.body].splitlines(keepends=True)
        comment_lines = len(old_first.comment.splitlines()) if old_first.comment else 0
        kept = trivia[:len(trivia) - comment_lines] if comment_lines else trivia
        return "".join(kept) + self._written(group, fresh=False)

    def _splice(self, unit: _Unit, old: Step, new: Step) -> str | None:
        if (old.name, old.block, old.comment) != (new.name, new.block, new.comment) \
                or any(isinstance(e, Code) for e in (old.expr, new.expr)) \
                or _blank(old.expr) != _blank(new.expr):
            return None
        spans = self.old.literal_spans[unit.steps[0]] if unit.steps[0] < len(
            self.old.literal_spans) else ()
        olds, news = _consts(old.expr), _consts(new.expr)
        if len(spans) != len(olds):
            return None
        text = self.source[unit.start:unit.end]
        edits = []
        for span, a, b in zip(spans, olds, news, strict=True):
            if _const(a)[0] == _const(b)[0] and type(a) is type(b):
                continue
            start, end = self._offset(span[0], span[1]), self._offset(span[2], span[3])
            literal, precedence = _const(b)
            after = self.source[end:end + 40].lstrip(" ")
            if precedence < 15 and after.startswith(("**", ".", "[", "(")):
                literal = f"({literal})"  # -2 ** 2 is -(2 ** 2)
            edits.append((start - unit.start, end - unit.start, literal))
        for start, end, literal in sorted(edits, reverse=True):
            text = text[:start] + literal + text[end:]
        return _ending(text, self.newline)

    def _offset(self, line: int, column: int) -> int:
        """The character offset of ``ast``'s (line, UTF-8 byte column)."""
        text = self.lines[line - 1]
        return self.starts[line - 1] + len(text.encode("utf-8")[:column].decode("utf-8",
                                                                                 "replace"))

    def _written(self, group: list[Step], fresh: bool = True) -> str:
        """New text for ``group``, as the writer would put it."""
        return written_lines(group, self.newline)


def _groups(steps: tuple[Step, ...]) -> list[list[Step]]:
    """The steps as the statements they make: a ``with`` block's steps together."""
    groups: list[list[Step]] = []
    for step in steps:
        if groups and step.block and groups[-1][-1].block == step.block:
            groups[-1].append(step)
        else:
            groups.append([step])
    return groups


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def _ending(chunk: str, newline: str) -> str:
    return chunk if chunk.endswith(("\n", "\r")) or not chunk else chunk + newline


def _consts(expr: Expr) -> list[Any]:
    return [n.value for n in walk(expr) if isinstance(n, Const)]


def _blank(value: Any) -> Any:
    """``value`` with every literal made the same: what a form edit may not change."""
    if isinstance(value, Const):
        return Const(None)
    if isinstance(value, tuple):
        return tuple(_blank(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: _blank(getattr(value, f.name)) for f in fields(value)})
    return value
