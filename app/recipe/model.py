"""The recipe: the lab's whole document, an ordered list of named steps.

Where this is going (issue 33, "the text is the only model of a recipe"): a ``Step``
will hold its statement's exact text and its ``ast`` node, with positions in the
recipe's text, instead of ``expr`` (an ``app.expr`` tree, read by
``app.recipe.reader``). What the window asks of a step is asked of the step, not of
its tree, so that only this module and the forms change then:

- ``op`` (the catalogue key or operator at the top: ``torch.tril``, ``Tensor.view``,
  ``+``), ``unary``, ``calls`` (every catalogue call in it), ``reads`` and ``binds``,
  ``code_text`` (a code step's text): read from the node then (``ast.walk``;
  ``app.catalog.call_keys.call_key`` names a call's key);
- a form step's call (``app.recipe.op_call``): ``statement_value`` (the expression a
  statement computes), ``bind_node`` (its argument nodes, with their spans, by
  parameter), ``node_literal`` (a literal's value; ``torch.float64`` read as
  ``app.dtypes.DType``). Op explained reads the selected statement so already
  (``app.explain.step_view``);
- a new step, or an argument a form changed, is written as text (a literal's text:
  ``app.text_edits.literal_text``; ``ast.unparse`` of a node the form builds) and read
  back (``app.recipe.reader.read_step``); the recipe's text is edited at spans, every
  other byte kept.

Done on text so far: the parameter fields and ``ParamForm`` hold their arguments' Python
text (``app.recipe.literals.line_value``/``line_shown``, ``data_value``/``data_shown``);
``app.recipe.call_text`` binds a call's text into such values and writes the call back
from them (``bind_texts``, ``bind_op_texts``, ``build_call_text``, ``call_text``); the
op and builder panels use it, and read the call's text back into a tree
(``reader.read_value``) only to make a ``Step``.

Still on the tree: ``Step.expr`` itself (and ``Recipe.rename``'s ``rename_refs``), the
panels' ``write_expr(step.expr)`` to get a loaded step's call text, the edits that
compare a form's step with the text's (``form_edits`` with ``op_call.bind``,
``statement_edits``), and the writer of a new statement (``write_step``,
``write_expr``).
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from psygnal import Signal

from app.expr import BinOp, Call, Code, Expr, UnaryOp, references, rename_refs, walk

#: Names a step may not take: they would shadow what recipes themselves use.
RESERVED_NAMES = frozenset({"torch", "nn", "F", "print", "float", "int", "True", "False", "None"})


@dataclass(frozen=True)
class Step:
    """One statement of a recipe.

    Parameters
    ----------
    name : str or None
        The variable assigned (``x = ...``); None for a statement such as
        ``print(x)`` or ``v.add_(1)``.
    expr : Expr
        What the step computes.
    comment : str
        Comment lines written just above the statement, without ``#``.
    block : str
        ``"no_grad"`` when the statement sits in a ``with torch.no_grad():`` block.
    line : int or None
        The source line it was read from; not part of the step's identity.
    """

    name: str | None
    expr: Expr
    comment: str = ""
    block: str = ""
    line: int | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.name, self.expr, self.comment, self.block) == (
            other.name, other.expr, other.comment, other.block)

    def __hash__(self) -> int:
        return hash((self.name, self.expr, self.comment, self.block))

    @property
    def reads(self) -> list[str]:
        """Names of the earlier steps this one uses."""
        return references(self.expr)

    @property
    def binds(self) -> tuple[str, ...]:
        """Names this step binds: its variable, or those a code step may bind."""
        if isinstance(self.expr, Code):
            return self.expr.binds
        return (self.name,) if self.name else ()

    @property
    def op(self) -> str | None:
        """The catalogue key (``torch.tril``, ``Tensor.view``) or the operator (``+``,
        ``-``) at the top of a form step; None for a name, a literal or a code step."""
        expr = self.expr
        if isinstance(expr, Call | BinOp | UnaryOp):
            return expr.op
        return None

    @property
    def unary(self) -> bool:
        """Whether ``op`` is a unary operator: ``-x``, ``~x``, not ``x - y``."""
        return isinstance(self.expr, UnaryOp)

    @property
    def calls(self) -> tuple[str, ...]:
        """The catalogue keys of every call in a form step, in order (none for a code
        step: its text is Python the catalogue does not read)."""
        return tuple(n.op for n in walk(self.expr) if isinstance(n, Call))

    @property
    def code_text(self) -> str | None:
        """A code step's exact text; None for a form step."""
        return self.expr.text if isinstance(self.expr, Code) else None

    @property
    def is_code(self) -> bool:
        """A code step: kept as its text, run only by the kernel, no form."""
        return isinstance(self.expr, Code)

    @property
    def label(self) -> str:
        """A short name for lists: the variable, or the op of a bare statement."""
        if self.name:
            return self.name
        if isinstance(self.expr, Code):
            return self.expr.first_line
        if isinstance(self.expr, Call):
            return self.expr.op.replace("Tensor.", ".")
        return type(self.expr).__name__


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
                steps[j] = replace(steps[j], expr=rename_refs(steps[j].expr, old, new_name))
            if steps[j].name == old:
                break  # a later rebinding of the old name shadows the rest
        self.restore((tuple(steps), self._docstring))
