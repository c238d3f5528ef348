"""The recipe: the lab's whole document, an ordered list of named steps.

The recipe's text, with its ``ast`` positions, is its only model (issue 33): a ``Step``
holds its statement's text (a form step: the expression's; a code step: the whole
statement's) and reads what the window asks of it from its own ``ast`` node
(``app.recipe.step_nodes``): ``op`` (the catalogue key or operator at the top:
``torch.tril``, ``Tensor.view``, ``+``), ``unary``, ``calls``, ``reads`` and ``binds``.
A form step's call is bound to its op's parameters with ``app.recipe.op_call.bind_node``
(``statement_value`` and ``node_literal`` read a statement and a literal). A new step,
or a step a form changed, is written as text (``app.recipe.call_text``) and read back
(``app.recipe.reader.read_step``); the recipe's text is edited at spans, every other byte
kept (``app.recipe.form_edits``, ``app.recipe.statement_edits``,
``app.recipe.step_edits``).
"""

from __future__ import annotations

import ast
import keyword
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from psygnal import Signal

from app.recipe import step_nodes
from app.recipe.code_steps import bound_names, read_names

#: Names a step may not take: they would shadow what recipes themselves use.
RESERVED_NAMES = frozenset({"torch", "nn", "F", "print", "float", "int", "True", "False", "None"})


@dataclass(frozen=True, eq=False)
class Step:
    """One statement of a recipe.

    Parameters
    ----------
    name : str or None
        The variable assigned (``x = ...``); None for a statement such as
        ``print(x)`` or ``v.add_(1)``, and for a code step.
    text : str
        A form step's expression (``torch.tril(x, diagonal=1)``), or a code step's whole
        statement, as the recipe's text has it.
    comment : str
        Comment lines written just above the statement, without ``#``.
    block : str
        ``"no_grad"`` when the statement sits in a ``with torch.no_grad():`` block.
    line : int or None
        The source line it was read from; not part of the step's identity.
    kind : str
        A code step's statement kind (``For``, ``FunctionDef``); empty for a form step.

    Two steps are the same when their names, comments, blocks and kinds are, and their
    texts, or (form steps) their expressions however spaced (``step_nodes.shape``).
    """

    name: str | None
    text: str
    comment: str = ""
    block: str = ""
    line: int | None = None
    kind: str = ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        if (self.name, self.comment, self.block, self.kind) != (
                other.name, other.comment, other.block, other.kind):
            return False
        return self.text == other.text or (not self.kind and self.shape == other.shape)

    def __hash__(self) -> int:
        return hash((self.name, self.comment, self.block, self.kind,
                     self.text if self.kind else self.shape))

    @cached_property
    def node(self) -> ast.AST:
        """A form step's expression node, or a code step's statement (``ast.Module``),
        positions in ``text``. Shared: never change it."""
        if self.kind:
            return ast.parse(textwrap.dedent(self.text))
        return step_nodes.parse_value(self.text)

    @cached_property
    def shape(self) -> str:
        """A form step's expression without its spacing (``step_nodes.shape``)."""
        return step_nodes.shape(step_nodes.parse_value(self.text))

    @property
    def reads(self) -> list[str]:
        """Names of the earlier steps this one uses, in first-use order."""
        return list(self._reads)

    @cached_property
    def _reads(self) -> tuple[str, ...]:
        if self.kind:
            return tuple(n for s in self.node.body for n in read_names(s))  # type: ignore[attr-defined]
        return step_nodes.calls_and_reads(self.node)[1]  # type: ignore[arg-type]

    @cached_property
    def binds(self) -> tuple[str, ...]:
        """Names this step binds: its variable, or those a code step may bind."""
        if self.kind:
            return tuple(n for s in self.node.body for n in bound_names(s))  # type: ignore[attr-defined]
        return (self.name,) if self.name else ()

    @cached_property
    def op(self) -> str | None:
        """The catalogue key (``torch.tril``, ``Tensor.view``) or the operator (``+``,
        ``-``) at the top of a form step; None for a name, a literal or a code step."""
        return None if self.kind else step_nodes.top_op(self.node)  # type: ignore[arg-type]

    @cached_property
    def unary(self) -> bool:
        """Whether ``op`` is a unary operator: ``-x``, ``~x``, not ``x - y``."""
        return self.op is not None and isinstance(self.node, ast.UnaryOp)

    @cached_property
    def calls(self) -> tuple[str, ...]:
        """The catalogue keys of every call in a form step, in order (none for a code
        step: its text is Python the catalogue does not read)."""
        return () if self.kind else step_nodes.calls_and_reads(self.node)[0]  # type: ignore[arg-type]

    @property
    def code_text(self) -> str | None:
        """A code step's exact text; None for a form step."""
        return self.text if self.kind else None

    @property
    def is_code(self) -> bool:
        """A code step: kept as its text, run only by the kernel, no form."""
        return bool(self.kind)

    @property
    def label(self) -> str:
        """A short name for lists: the variable, or the op of a bare statement."""
        if self.name:
            return self.name
        if self.kind:
            return self.text.lstrip("\n").splitlines()[0] if self.text.strip() else ""
        return self.op.replace("Tensor.", ".") if self.op else self.text


def read_facts(step: Step, node: ast.AST, binds: tuple[str, ...] = ()) -> Step:
    """``step``, with its ``op``, ``calls``, ``reads`` and ``binds`` (a code step's:
    ``binds``) read now from ``node`` (its expression, or a code step's statement, in the
    text the reader parsed): its text is not parsed again for them. A step ``replace``
    makes reads its own."""
    if step.kind:
        facts = {"_reads": read_names(node), "binds": binds}  # type: ignore[arg-type]
    else:
        calls, reads = step_nodes.calls_and_reads(node)  # type: ignore[arg-type]
        op = step_nodes.top_op(node)  # type: ignore[arg-type]
        facts = {"op": op, "unary": op is not None and isinstance(node, ast.UnaryOp),
                 "calls": calls, "_reads": reads}
    step.__dict__.update(facts)  # (what the cached properties would find)
    return step


def write_step(step: Step) -> str:
    """Step's statement: ``name = text``, or a bare call; a code step is its own text."""
    return f"{step.name} = {step.text}" if step.name and not step.kind else step.text


def check_name(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str | None:
    """Why ``name`` cannot name a new step, or None when it can."""
    if not name.isidentifier():
        return (f"'{name}' is not a Python identifier: use letters, digits and _, "
                "not starting with a digit.")
    if keyword.iskeyword(name):
        return f"'{name}' is a Python keyword."
    if name in RESERVED_NAMES:
        return f"'{name}' is reserved: recipes use it themselves."
    if name.startswith("__"):
        return f"'{name}': names starting with '__' are not allowed."
    if name in taken:
        return f"'{name}' is already used by another step."
    return None


class Recipe:
    """An ordered list of named steps plus the lesson text (the module docstring).

    Steps are immutable; every edit replaces the tuple and emits ``changed``,
    which makes snapshots for undo free.
    """

    changed = Signal()
    """Emitted after any edit of steps or docstring."""

    def __init__(self, steps: tuple[Step, ...] | list[Step] = (), docstring: str = ""):
        self._steps: tuple[Step, ...] = tuple(steps)
        self._docstring = docstring
        self._derived: dict[str, tuple[tuple[Step, ...], Any]] = {}

    # -- reading -------------------------------------------------------------
    @property
    def steps(self) -> tuple[Step, ...]:
        return self._steps

    @property
    def docstring(self) -> str:
        return self._docstring

    @property
    def title(self) -> str:
        """The docstring's first line, or a default."""
        first = self._docstring.strip().splitlines()[:1]
        return first[0].strip() if first else "Untitled recipe"

    def derived(self, key: str, make: Callable[[tuple[Step, ...]], Any]) -> Any:
        """``make(steps)``, worked out once for each version of the steps and kept (the
        views ask again after every report of a run: for 5,000 steps, a pass over them
        each time made the run quadratic). ``key`` names what ``make`` works out."""
        kept = self._derived.get(key)
        if kept is None or kept[0] is not self._steps:
            kept = self._derived[key] = (self._steps, make(self._steps))
        return kept[1]

    def names(self) -> list[str]:
        return list(self.derived("names", lambda steps: [s.name for s in steps if s.name]))

    def index_of(self, name: str) -> int:
        """Index of the last step assigning ``name``."""
        for i in range(len(self._steps) - 1, -1, -1):
            if self._steps[i].name == name:
                return i
        raise KeyError(name)

    def unique_name(self, base: str) -> str:
        """``base``, or ``base`` with the smallest number suffix not yet taken."""
        taken = set(self.names())
        if base not in taken and check_name(base) is None:
            return base
        n = 1
        while f"{base}{n}" in taken:
            n += 1
        return f"{base}{n}"

    def snapshot(self) -> tuple[tuple[Step, ...], str]:
        return self._steps, self._docstring

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Recipe):
            return NotImplemented
        return (self._steps, self._docstring) == (other._steps, other._docstring)

    __hash__ = None  # type: ignore[assignment]

    # -- editing ---------------------------------------------------------------
    def restore(self, snapshot: tuple) -> None:
        """Replace steps and docstring at once (used by undo and opening a file)."""
        steps, docstring = snapshot
        new = (tuple(steps), docstring)
        if new == self.snapshot():
            return
        self._steps, self._docstring = new
        self.changed.emit()

    def set_docstring(self, text: str) -> None:
        self.restore((self._steps, text))

    def insert(self, index: int, step: Step) -> None:
        steps = list(self._steps)
        steps.insert(index, step)
        self.restore((tuple(steps), self._docstring))

    def append(self, step: Step) -> None:
        self.insert(len(self._steps), step)

    def replace_step(self, index: int, step: Step) -> None:
        steps = list(self._steps)
        steps[index] = step
        self.restore((tuple(steps), self._docstring))

    def remove(self, index: int) -> None:
        steps = list(self._steps)
        del steps[index]
        self.restore((tuple(steps), self._docstring))

    def move(self, index: int, new_index: int) -> None:
        steps = list(self._steps)
        steps.insert(new_index, steps.pop(index))
        self.restore((tuple(steps), self._docstring))

    def rename(self, index: int, new_name: str) -> None:
        """Rename step ``index`` and every later reference to it."""
        old = self._steps[index].name
        steps = list(self._steps)
        steps[index] = replace(steps[index], name=new_name)
        for j in range(index + 1, len(steps)):
            if old is not None:
                if not steps[j].kind and old in steps[j].reads:
                    steps[j] = replace(steps[j], text=step_nodes.rename_names(
                        steps[j].text, old, new_name))
            if steps[j].name == old:
                break  # a later rebinding of the old name shadows the rest
        self.restore((tuple(steps), self._docstring))
