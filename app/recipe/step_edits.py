"""Steps added, removed, moved and renamed, as edits of the text: a step's whole lines
(its statement, the comment lines right above it that the reader gives it, and a comment
after it on its last line) are cut, pasted or written, and every other byte stays.

A new step is written as its own statement (``write_step``), at a line boundary, with the
file's own line ending, indented as the ``with torch.no_grad():`` block it goes into. A
rename changes the ``ast`` names that refer to the step's binding: its target, and the
names that load it in the steps after it, up to a form step that binds the name again;
in a code step, every name of the module's binding (not one a function of its own binds).
Offsets come from ``app.text_edits.Positions`` (CRLF, a BOM, a form feed, UTF-8
columns). Anything else (a step whose line holds another statement, a block split in
two) is left to ``app.recipe.text_recipe``, which makes it of smaller edits. Qt-free.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from app.recipe.code_steps import bound_names
from app.recipe.form_edits import read_back
from app.recipe.header import imports_needed
from app.recipe.model import Recipe, Step, write_step
from app.recipe.reader import RecipeError, parse, read_recipe
from app.recipe.statement_edits import statement_of
from app.text_edits import Positions, replace_span, statement_text
from protocol.source import first_line, source_lines


@dataclass
class _Place:
    """Where a step is in the text."""

    node: ast.stmt
    block: ast.With | None  # the ``with torch.no_grad():`` it is in
    start: int  # offset of its first line (its comment lines')
    end: int  # offset after its last line
    alone: bool  # no other statement on its lines
    indent: str


class _Text:
    """The steps of ``source`` (which reads as ``recipe``) and their places."""

    def __init__(self, source: str, recipe: Recipe):
        self.source = source
        self.tree = parse(source)
        self.at = Positions(source)
        self.newline = "\r\n" if "\r\n" in source else "\n"
        self.lines = [line.rstrip("\r\n") for line in source_lines(source)]
        #: (in a block, line) -> the places of the statements that start there
        found: dict[tuple[bool, int], list[_Place]] = {}
        self._add(found, self.tree.body, None, 0)
        for node in self.tree.body:
            if isinstance(node, ast.With):
                self._add(found, node.body, node, node.lineno)
        self.places: list[_Place | None] = []
        for step in recipe.steps:
            there = found.get((bool(step.block), step.line or 0), [])
            self.places.append(there[0] if len(there) == 1 else None)

    def _add(self, found: dict, nodes: list[ast.stmt], block: ast.With | None,
             header: int) -> None:
        """The places of ``nodes``, a body's statements (``header``: its block's line)."""
        spans = [(first_line(n), n.end_lineno or n.lineno) for n in nodes]
        for k, (node, (first, last)) in enumerate(zip(nodes, spans, strict=True)):
            floor = spans[k - 1][1] if k else header
            alone = floor < first and (k + 1 == len(nodes) or spans[k + 1][0] > last)
            top = first
            while top - 1 > floor and self.lines[top - 2].strip().startswith("#"):
                top -= 1  # the comment lines the reader gives the step
            end = self.at.starts[last] if last < len(self.at.starts) else len(self.source)
            text = self.lines[first - 1]
            place = _Place(node, block, self.at.starts[top - 1], end, alone,
                           text[:len(text) - len(text.lstrip(" \t"))])
            line = first if block is None else node.lineno
            found.setdefault((block is not None, line), []).append(place)

    def ends_line(self, offset: int) -> bool:
        return offset == 0 or self.source[offset - 1] in "\r\n" or offset == self.at.starts[0]


def step_edit_text(source: str, old: Recipe, new: Recipe) -> str | None:
    """The text of ``new``, made from ``source`` (which reads as ``old``) by adding,
    cutting or moving whole steps' lines: ``new`` is ``old`` with steps inserted at one
    place, a run of steps removed, or one step moved. None for any other change, or
    when the text would not read as ``new``."""
    if old.docstring != new.docstring or old.steps == new.steps:
        return None
    a, b = old.steps, new.steps
    p = 0
    while p < min(len(a), len(b)) and (a[p] is b[p] or a[p] == b[p]):
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and (a[-1 - s] is b[-1 - s] or a[-1 - s] == b[-1 - s]):
        s += 1
    gone, added = a[p:len(a) - s], b[p:len(b) - s]
    try:
        text = _Text(source, old)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not gone:
        edited, kept = _inserted(text, p, list(added)), list(range(p)) + [None] * len(
            added) + list(range(p, len(a)))
    elif not added:
        edited, kept = _removed(text, p, p + len(gone)), [
            i for i in range(len(a)) if not p <= i < p + len(gone)]
    elif len(gone) == len(added) >= 2 and gone[0] == added[-1] and gone[1:] == added[:-1]:
        order = [*range(p + 1, p + len(gone)), p]  # the first moved to the end
        edited, kept = _moved(text, p, p + len(gone), down=True), \
            [*range(p), *order, *range(p + len(gone), len(a))]
    elif len(gone) == len(added) >= 2 and gone[-1] == added[0] and gone[:-1] == added[1:]:
        order = [p + len(gone) - 1, *range(p, p + len(gone) - 1)]
        edited, kept = _moved(text, p, p + len(gone), down=False), \
            [*range(p), *order, *range(p + len(gone), len(a))]
    else:
        return None
    if edited is None:
        return None
    edited = with_imports(edited, new)
    return edited if _reads_as(edited, new, source, old, kept) else None


def rename_text(source: str, old: Recipe, index: int, name: str) -> str | None:
    """``source`` (which reads as ``old``) with step ``index`` renamed ``name``: its
    target, and the later names that load its value (``Recipe.rename``'s steps), and in
    code steps the module's names it is bound to. None where the text cannot say it."""
    step = old.steps[index]
    if step.name is None or step.is_code:
        return None
    try:
        text = _Text(source, old)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = statement_of(text.tree, old.steps, index)  # (alone on its line or not)
    if not isinstance(node, ast.Assign):
        return None
    names: list[ast.AST] = [node.targets[0]]
    for j in range(index + 1, len(old.steps)):
        later, where = old.steps[j], statement_of(text.tree, old.steps, j)
        if where is None:
            return None
        if later.is_code:
            names.extend(module_names(where, step.name) or ())
        else:
            value = where.value  # type: ignore[attr-defined]
            names.extend(n for n in ast.walk(value)
                         if isinstance(n, ast.Name) and n.id == step.name)
            if later.name == step.name:
                break  # a later rebinding of the old name shadows the rest
    edited = source
    for start, end in sorted((text.at.span(n) for n in names), reverse=True):
        edited = replace_span(edited, start, end, name)
    try:
        again = read_recipe(edited)
    except RecipeError:
        return None
    expected = Recipe(old.steps)
    Recipe.rename(expected, index, name)
    if len(again.steps) != len(old.steps) or again.docstring != old.docstring:
        return None
    for read, meant, was in zip(again.steps, expected.steps, old.steps, strict=True):
        same = (read.comment, read.block) == (was.comment, was.block) if was.is_code \
            else read == meant
        if not same:
            return None
    return edited


def module_names(statement: ast.stmt, name: str) -> list[ast.Name] | None:
    """The ``Name`` nodes of ``statement`` (top-level) that mean the module's ``name``;
    None where a ``global``, ``nonlocal`` or a comprehension's own ``name`` makes that
    unclear."""
    found: list[ast.Name] = []
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return None
        if isinstance(node, ast.comprehension) and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)):
            return None
        if isinstance(node, ast.Name) and node.id == name:
            found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef) \
                and node is not statement:
            stack.extend(_outside(node))  # evaluated where the function is made
            if not _binds(node, name):
                stack.extend(_inside(node))
            continue
        if node is statement and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef
                                            | ast.ClassDef):
            stack.extend(_outside(node))
            if not _binds(node, name):
                stack.extend(_inside(node))
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _outside(node: ast.AST) -> list[ast.AST]:
    """What a function, lambda or class evaluates in the scope that makes it."""
    out: list[ast.AST] = list(getattr(node, "decorator_list", []))
    if isinstance(node, ast.ClassDef):
        return out + list(node.bases) + [k.value for k in node.keywords]
    args = node.args  # type: ignore[attr-defined]
    out += [d for d in (*args.defaults, *args.kw_defaults) if d is not None]
    if not isinstance(node, ast.Lambda):
        out += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                       args.vararg, args.kwarg)
                if a is not None and a.annotation is not None]
        if node.returns is not None:  # type: ignore[attr-defined]
            out.append(node.returns)  # type: ignore[attr-defined]
    return out


def _inside(node: ast.AST) -> list[ast.AST]:
    body = node.body  # type: ignore[attr-defined]
    return [body] if isinstance(node, ast.Lambda) else list(body)


def _binds(node: ast.AST, name: str) -> bool:
    """Whether a function, lambda or class binds ``name`` in its own scope."""
    if not isinstance(node, ast.ClassDef):
        args = node.args  # type: ignore[attr-defined]
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(a is not None and a.arg == name for a in every):
            return True
    if isinstance(node, ast.Lambda):
        return False
    return any(name in bound_names(stmt) for stmt in node.body)  # type: ignore[attr-defined]


# -- the edits ---------------------------------------------------------------------------------
def _inserted(text: _Text, at: int, steps: list[Step]) -> str | None:
    """``steps`` written in before old step ``at``."""
    places = text.places
    prev = places[at - 1] if at > 0 else None
    nxt = places[at] if at < len(places) else None
    if (at > 0 and prev is None) or (at < len(places) and nxt is None):
        return None
    block = all(s.block for s in steps)
    if not block and any(s.block for s in steps):
        return None
    if prev is not None:
        if not prev.alone:
            return None
        if prev.block is not None:  # after a step of a block: into it, or after it
            last = prev.node is prev.block.body[-1]
            if block:
                return _put(text, prev.end, steps, prev.indent)
            return _put(text, prev.end, steps, "") if last else None
        if block and nxt is not None and nxt.block is not None and nxt.alone:
            return _put(text, nxt.start, steps, nxt.indent)
        return _put(text, prev.end, steps, "")
    if nxt is not None:  # before the first step
        if not nxt.alone:
            return None
        if nxt.block is not None:
            if block:
                return _put(text, nxt.start, steps, nxt.indent)
            if nxt.node is not nxt.block.body[0]:
                return None
            return _put(text, _block_start(text, nxt.block), steps, "")
        return _put(text, nxt.start, steps, "")
    tail = text.tree.body  # no steps: after the last statement
    end = len(text.source)
    if tail:
        last = tail[-1].end_lineno or tail[-1].lineno
        end = text.at.starts[last] if last < len(text.at.starts) else len(text.source)
    return _put(text, end, steps, "")


def _block_start(text: _Text, block: ast.With) -> int:
    """The offset of a ``with`` block's first line, its comment lines above it included."""
    line = block.lineno
    floor = max((n.end_lineno or n.lineno for n in text.tree.body
                 if (n.end_lineno or n.lineno) < line), default=0)
    while line - 1 > floor and text.lines[line - 2].strip().startswith("#"):
        line -= 1
    return text.at.starts[line - 1]


def _put(text: _Text, offset: int, steps: list[Step], indent: str) -> str:
    """``steps``' lines written in at ``offset`` (the start of a line, or the end)."""
    written = written_lines(steps, text.newline, indent)
    head = text.source[:offset]
    if head and not text.ends_line(offset):
        written = text.newline + written
    return head + written + text.source[offset:]


def written_lines(steps: list[Step], newline: str, indent: str = "") -> str:
    """New text for ``steps``, each its own statement; a step of a block outside one
    (``indent`` empty) in a ``with`` of its own, with those after it of the same block."""
    lines: list[str] = []
    block = ""
    for step in steps:
        if step.block != block and not indent:
            if step.block:
                lines.append(f"with torch.{step.block}():")
            block = step.block
        pad = indent or ("    " if block else "")
        if step.comment:
            lines.extend(f"{pad}# {c}".rstrip() for c in step.comment.splitlines())
        lines.append(pad + write_step(step))
    return newline.join(line.replace("\r\n", "\n").replace("\n", newline)
                        for line in lines) + newline


def _removed(text: _Text, first: int, end: int) -> str | None:
    """Old steps ``first`` to ``end`` cut, each with its lines (and a blank line above it
    where one follows too); a block left with no statement goes whole."""
    places = text.places[first:end]
    if any(p is None or not p.alone for p in places):
        return None
    cuts: dict[int, int] = {}
    gone = {id(p.node) for p in places}  # type: ignore[union-attr]
    for place in places:
        assert place is not None
        if place.block is not None and all(id(n) in gone for n in place.block.body):
            start = _block_start(text, place.block)
            last = place.block.end_lineno or place.block.lineno
            cuts[start] = text.at.starts[last] if last < len(text.at.starts) \
                else len(text.source)
        else:
            cuts[_blank_above(text, place.start, place.end)] = place.end
    out = text.source
    for start in sorted(cuts, reverse=True):
        out = out[:start] + out[cuts[start]:]
    return out


def _blank_above(text: _Text, start: int, end: int) -> int:
    """``start``, or the start of the blank line above it where a blank line (or the end)
    follows too: a step cut from between two blank lines takes one with it."""
    line = text.at.line_of(start)
    if line < 2 or text.lines[line - 2].strip(" \t"):
        return start
    after = text.at.line_of(end)
    if end < len(text.source) and text.lines[after - 1].strip(" \t"):
        return start
    return text.at.starts[line - 2]


def _moved(text: _Text, first: int, end: int, down: bool) -> str | None:
    """Old step ``first`` moved to just after step ``end - 1`` (``down``), or step
    ``end - 1`` to just before step ``first``; all of them in one block, or none."""
    places = text.places[first:end]
    if any(p is None or not p.alone for p in places):
        return None
    if len({id(p.block) for p in places}) != 1:  # type: ignore[union-attr]
        return None
    src = text.source
    top, bottom = places[0], places[-1]
    assert top is not None and bottom is not None
    if not src[top.start:top.end].endswith(("\n", "\r")) \
            or not src[bottom.start:bottom.end].endswith(("\n", "\r")):
        return None
    if end - first == 2:  # two neighbours swap their lines; what lies between stays
        return (src[:top.start] + src[bottom.start:bottom.end] + src[top.end:bottom.start]
                + src[top.start:top.end] + src[bottom.end:])
    if down:
        return (src[:top.start] + src[top.end:bottom.end] + src[top.start:top.end]
                + src[bottom.end:])
    return (src[:top.start] + src[bottom.start:bottom.end] + src[top.start:bottom.start]
            + src[bottom.end:])


def with_imports(source: str, new: Recipe) -> str:
    """``source`` with the imports ``new``'s steps need and it lacks, after its last
    import (or its docstring) before its first step."""
    tree = parse(source)
    have = {f"{a.name} as {a.asname}" if a.asname else a.name
            for node in tree.body if isinstance(node, ast.Import) for a in node.names}
    missing = [line for line in imports_needed(new) if line not in have]
    if not missing:
        return source
    newline = "\r\n" if "\r\n" in source else "\n"
    at = Positions(source)
    after = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)] or (
        tree.body[:1] if tree.body and _is_docstring(tree.body[0]) else [])
    if after:
        last = after[-1].end_lineno or after[-1].lineno
        offset = at.starts[last] if last < len(at.starts) else len(source)
    else:
        offset = at.starts[0]
    lines = "".join(f"import {line}{newline}" for line in missing)
    if offset and source[offset - 1] not in "\r\n" and offset != at.starts[0]:
        lines = newline + lines
    return source[:offset] + lines + source[offset:]


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def _reads_as(edited: str, new: Recipe, source: str, old: Recipe,
              kept: list[int | None]) -> bool:
    """Whether ``edited`` reads as ``new``: a kept step (``kept[j]``: its old index) as
    the same statement text as before (a form step whose name went may read as code
    now), a written one as itself."""
    again = read_back(edited, new)
    if again is None:
        return False
    for read, meant, was in zip(again.steps, new.steps, kept, strict=True):
        if key(read) == key(meant):
            continue
        if was is None:
            return False
        before = old.steps[was]
        if (read.comment, read.block) != (before.comment, before.block) \
                or read.line is None or before.line is None:
            return False
        now, then = statement_text(edited, read.line), statement_text(source, before.line)
        if now is None or now != then:
            return False
    return True


def key(step: Step) -> tuple:
    """What tells two steps apart, NaN literals included (their text)."""
    text = step.code_text if step.is_code else write_step(step)
    return step.name, step.block, step.comment, text
