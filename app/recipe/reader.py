"""Read a recipe file: Python text parsed with ``ast`` into steps, never executed.

Each top-level statement is a step. One the forms can show, such as
``y = torch.tril(x, diagonal=1)`` (catalogue calls, operators and indexing, on
literals and the names of earlier steps), is a form step: it keeps its expression's text
(a form's edit of it is an edit of the text at ``ast`` spans:
``app.recipe.text_recipe``). Any other statement is a code step, kept as its exact text:
only the kernel runs it. A file that cannot be read as Python (a syntax error, not
UTF-8 text, binary, too large) is refused with a ``RecipeError`` naming the line
and the reason. Nothing in the file is run, imported or compiled to bytecode: the
only thing done with its text is ``ast.parse``.
"""

from __future__ import annotations

import ast
import functools
import warnings
from collections.abc import Iterable
from dataclasses import replace

from app.catalog import CATALOG
from app.dtypes import DTYPE_NAMES
from app.recipe.code_steps import bound_names
from app.recipe.header import FORM_IMPORTS, IMPORT_LINES, IMPORTED_AS, import_spec
from app.recipe.model import RESERVED_NAMES, Recipe, Step, read_facts
from app.recipe.step_nodes import BINOPS, COMPARE, UNARY, calls_and_reads, parse_value
from protocol.source import first_line, node_text, source_lines

#: Files larger than this are refused before they are read into memory.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Deepest expression nesting a form step holds (deeper: a code step, read no further).
MAX_DEPTH = 64
#: Most literal numbers the forms of one file hold (more: code steps).
MAX_LITERALS = 500_000
#: Longest string literal a form shows.
MAX_STRING = 10_000

IMPORTS = IMPORTED_AS

#: Tensor attributes a form step shows; any other attribute makes its statement a code step.
TENSOR_ATTRIBUTES = frozenset(
    {"grad", "T", "mT", "H", "shape", "dtype", "device", "is_leaf", "requires_grad",
     "grad_fn", "data", "ndim", "is_cuda"}
)


class RecipeError(ValueError):
    """A file that is not a recipe, with where and why.

    Parameters
    ----------
    line, column : int
        1-based position of the offending code (0 when the whole file is at fault).
    reason : str
        What is wrong, in words a student can act on.
    """

    def __init__(self, line: int, column: int, reason: str):
        self.line, self.column, self.reason = line, column, reason
        super().__init__(f"line {line}, column {column}: {reason}")


def read_bytes(path: str) -> bytes:
    """A recipe file's bytes; its size is checked before they are read."""
    import os

    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise RecipeError(0, 0, f"the file is {size / 2**20:.1f} MiB; recipes are at most "
                                f"{MAX_FILE_BYTES // 2**20} MiB")
    with open(path, "rb") as f:
        return f.read()


def read_recipe_file(path: str) -> Recipe:
    """Read the recipe at ``path``; its size is checked before its bytes are read."""
    return read_recipe(read_bytes(path))


#: The last texts read, and what they read as (an edit reads the text before it, the text
#: after it, and the pane's line numbers read the latter again).
_READ: dict[str, tuple[tuple, str]] = {}
_READ_KEPT = 8


#: The last text ``parse`` parsed, and its tree.
_PARSED: list = [None, None]


def parse(text: str) -> ast.Module:
    """``ast.parse(text)``, the file's own warnings left out; the last text's tree is kept,
    so that the trust rule, the reader and a run's statements parse an opened file once
    (a 5,000-line file: about 100 ms a parse). The tree is shared: never change it.
    Raises what ``ast.parse`` raises."""
    if _PARSED[0] is not text and _PARSED[0] != text:
        with warnings.catch_warnings():  # "invalid escape sequence": the file's, not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text, mode="exec")
        _PARSED[:] = [text, tree]
    return _PARSED[1]


def read_recipe(source: str | bytes) -> Recipe:
    """Parse recipe text into a ``Recipe``; raise ``RecipeError`` for anything else. A
    new ``Recipe`` each time, though a text read lately is not parsed again (bytes: their
    text, which the window reads next)."""
    if isinstance(source, bytes):
        source = _text(source)
    if source in _READ:
        return Recipe(*_READ[source])
    recipe = _read_recipe(source)
    if len(_READ) >= _READ_KEPT:
        del _READ[next(iter(_READ))]
    _READ[source] = (recipe.steps, recipe.docstring)
    return recipe


def read_step(text: str, bound: Iterable[str] = ()) -> Step:
    """The step one statement's ``text`` reads as, where the names ``bound`` are earlier
    steps' (and torch, nn and F imported): a new step is written as text and read back,
    as the recipe will read it. Raises ``RecipeError`` for text that is not Python, and
    ``ValueError`` for text that is not one step."""
    prelude = IMPORT_LINES + "".join(f"{name} = 0\n" for name in bound)
    steps = read_recipe(prelude + text.strip("\n") + "\n").steps[len(tuple(bound)):]
    if len(steps) != 1:
        raise ValueError(f"{text!r} is {len(steps)} steps, not one")
    return replace(steps[0], line=None)


@functools.lru_cache(maxsize=64)
def form_step(name: str | None, value: str) -> Step | None:
    """The form step ``name = value`` (a bare ``value`` where ``name`` is None) reads as,
    every name ``value`` reads an earlier step's: a step a form wrote. None where it is
    not one (not Python, or a code step). The last texts' steps are kept (a ``Step`` is
    frozen): a panel reads its call once as the user edits it and again with the run's
    results."""
    try:
        names = calls_and_reads(parse_value(value.strip()))[1]
        step = read_step(value if name is None else f"{name} = {value}", names)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return None if step.is_code else step


def _text(data: bytes) -> str:
    """A file's bytes as its text; ``RecipeError`` when they are too many or not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        raise RecipeError(0, 0, "the file is too large to be a recipe")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RecipeError(line, 0, "the file is not UTF-8 text") from None


def _read_recipe(source: str) -> Recipe:
    if len(source) > MAX_FILE_BYTES:
        raise RecipeError(0, 0, "the text is too large to be a recipe")
    if "\x00" in source:
        line = source[: source.index("\x00")].count("\n") + 1
        raise RecipeError(line, 0, "the file holds NUL bytes: it is binary, not a recipe")
    try:
        source.encode("utf-8")
    except UnicodeEncodeError as e:  # lone surrogates, from text that never was a file
        line = source[: e.start].count("\n") + 1
        raise RecipeError(line, 0, "the text holds characters that are not Unicode") from None
    try:
        tree = parse(source)
    except SyntaxError as e:
        raise RecipeError(e.lineno or 0, e.offset or 0, f"syntax error: {e.msg}") from None
    except (RecursionError, MemoryError):
        raise _too_deep(source) from None
    reader = _Reader(source)
    try:
        return reader.module(tree)
    except RecursionError:  # a chain of thousands of .attr or () that ast could still read
        raise _too_deep(source) from None


class _Reader:
    def __init__(self, source: str):
        self.text_lines = source_lines(source)  # (str.splitlines: not as ast numbers them)
        self.lines = [line.rstrip("\r\n") for line in self.text_lines]
        self.imported: set[str] = set()
        self.bound: set[str] = set()
        self.literals = 0

    # -- statements ------------------------------------------------------------
    def module(self, tree: ast.Module) -> Recipe:
        body = list(tree.body)
        docstring = ""
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            docstring = body.pop(0).value.value  # type: ignore[attr-defined]
        steps: list[Step] = []
        for stmt in body:
            saved = self.state()
            try:
                steps.extend(self.statement(stmt, ""))
            except NotAForm:  # Python the forms cannot show: a code step, kept as its text
                self.restore(saved)
                steps.append(self.code(stmt))
        return Recipe(steps, docstring)

    def code(self, node: ast.stmt) -> Step:
        """A code step: its names are bound from here on, as values of any kind."""
        first = first_line(node)
        binds = bound_names(node)
        step = read_facts(Step(None, node_text(self.text_lines, node, first),
                               self.comment_above_line(first), "", first, type(node).__name__),
                          node, binds)
        for name in binds:
            self.bind(name)
            if name in IMPORTS.values():
                self.imported.add(name)
        return step

    def state(self) -> tuple:
        return set(self.imported), set(self.bound), self.literals

    def restore(self, state: tuple) -> None:
        self.imported, self.bound, self.literals = state

    def statement(self, node: ast.stmt, block: str) -> list[Step]:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self.import_(node)
            return []
        if isinstance(node, ast.With):
            return self.with_(node, block)
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                raise _code(node, "assign to one plain name, for example y = x.view(3, 4)")
            name = node.targets[0].id
            if name in RESERVED_NAMES or name.startswith("__"):
                raise _code(node.targets[0], f"'{name}' is a name the forms keep for themselves")
            text = self.form_expr(node.value)
            self.bind(name)
            return [read_facts(Step(name, text, self.comment_above(node), block, node.lineno),
                               node.value)]
        if isinstance(node, ast.Expr):
            if not isinstance(node.value, ast.Call):
                raise _code(node, "a bare expression does nothing: assign it to a name")
            return [read_facts(Step(None, self.form_expr(node.value), self.comment_above(node),
                                    block, node.lineno), node.value)]
        if isinstance(node, ast.Pass):
            return []
        raise _code(node, f"a '{type(node).__name__}' statement")

    def bind(self, name: str) -> None:
        """Record that ``name`` is bound from here on."""
        self.bound.add(name)

    def import_(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import) and len(node.names) == 1:
            alias = node.names[0]
            expected = IMPORTS.get(alias.name)
            if expected is not None and (alias.asname or alias.name) == expected:
                self.imported.add(expected)
                return
        known = [f"'import {spec}'" for spec in FORM_IMPORTS]
        raise _code(node, f"the forms know {', '.join(known[:-1])} and {known[-1]}")

    def with_(self, node: ast.With, block: str) -> list[Step]:
        ok = (len(node.items) == 1 and node.items[0].optional_vars is None
              and _dotted(node.items[0].context_expr) == "torch.no_grad()")
        if not ok or block:
            raise _code(node, "the one block the forms show is 'with torch.no_grad():'")
        self.need("torch", node)
        steps: list[Step] = []
        for stmt in node.body:
            steps.extend(self.statement(stmt, "no_grad"))
        return steps

    def form_expr(self, node: ast.expr) -> str:
        """A form step's expression, checked, as its text (in brackets where it spans
        lines only inside the statement's)."""
        self.expr(node, 0)
        text = node_text(self.text_lines, node, node.lineno)  # type: ignore[arg-type]
        if node.end_lineno != node.lineno:
            try:
                parse_value(text)
            except SyntaxError:  # x = (a +\n    b)
                text = f"({text})"
        return text

    def comment_above(self, node: ast.stmt) -> str:
        return self.comment_above_line(node.lineno)

    def comment_above_line(self, line: int) -> str:
        out: list[str] = []
        i = line - 2
        while i >= 0 and self.lines[i].strip().startswith("#"):
            out.append(self.lines[i].strip()[1:].removeprefix(" "))
            i -= 1
        return "\n".join(reversed(out))

    def need(self, module: str, node: ast.AST) -> None:
        if module not in self.imported:
            raise _code(node, f"'{module}' is used before 'import {import_spec(module)}'")

    # -- expressions -----------------------------------------------------------
    def expr(self, node: ast.expr, depth: int) -> None:
        """Check that ``node`` is an expression the forms show; raise ``NotAForm``."""
        if depth > MAX_DEPTH:
            raise _code(node, f"expression nested more than {MAX_DEPTH} levels deep")
        d = depth + 1
        if isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Name):
            if node.id in IMPORTS.values():  # (a step's own text says which names are these)
                raise _code(node, f"'{node.id}' is rebound by an earlier step: Python for the "
                                  "kernel" if node.id in self.bound else
                            f"the module '{node.id}' cannot be used as a value")
            if node.id in self.bound:
                return
            raise _code(node, f"'{node.id}' is not defined by an earlier step")
        elif isinstance(node, (ast.List, ast.Tuple)):
            for e in node.elts:
                self.expr(e, d)
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
            self.expr(node.left, d)
            self.expr(node.right, d)
        elif isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
            self.expr(node.operand, d)
        elif isinstance(node, ast.Compare):
            if len(node.ops) != 1 or type(node.ops[0]) not in COMPARE:
                raise _code(node, "the forms show single comparisons (==, !=, <, <=, >, >=)")
            self.expr(node.left, d)
            self.expr(node.comparators[0], d)
        elif isinstance(node, ast.Subscript):
            self.expr(node.value, d)
            self.index(node.slice, d)
        elif isinstance(node, ast.Attribute):
            self.attribute(node, d)
        elif isinstance(node, ast.Call):
            self.call(node, d)
        else:
            raise _code(node, f"a '{type(node).__name__}' expression")

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                raise _code(node, f"string longer than {MAX_STRING} characters")
        elif value is Ellipsis or value is None or isinstance(value, (bool, int, float, complex)):
            self.literals += 1
            if self.literals > MAX_LITERALS:
                raise _code(node, f"more than {MAX_LITERALS} literal numbers in one recipe")
            if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
                raise _code(node, "integer literal does not fit in 64 bits")
        else:
            raise _code(node, f"the forms have no field for {type(value).__name__} literals")

    def index(self, node: ast.expr, depth: int) -> None:
        if isinstance(node, ast.Slice):
            for e in (node.lower, node.upper, node.step):
                if e is not None:
                    self.expr(e, depth)
        elif isinstance(node, ast.Tuple):
            for e in node.elts:
                self.index(e, depth + 1)
        else:
            self.expr(node, depth)

    def attribute(self, node: ast.Attribute, depth: int) -> None:
        if node.attr.startswith("_"):
            raise _code(node, f"attribute '{node.attr}': the forms show no private attribute")
        if isinstance(node.value, ast.Name) and node.value.id == "torch" \
                and node.value.id not in self.bound:
            if node.attr in DTYPE_NAMES:
                self.need("torch", node)
                return
            raise _code(node, f"'torch.{node.attr}' is not a dtype; call a function instead")
        if node.attr in TENSOR_ATTRIBUTES:
            self.expr(node.value, depth)
            return
        raise _code(node, f"attribute '{node.attr}' is not one the forms show")

    def call(self, node: ast.Call, depth: int) -> None:
        func = node.func
        for kw in node.keywords:
            if kw.arg is None:
                raise _code(node, "the forms have no field for ** unpacking")
        if isinstance(func, ast.Name) and func.id == "float" and func.id not in self.bound:
            self.float_call(node)
            return
        op, method = self.callee(func, depth)
        spec = CATALOG.get(op)
        if spec is None:
            what = "tensor method" if method else "function"
            raise _code(node, f"unknown {what} '{op.replace('Tensor.', '.')}': not in the "
                             "op catalogue")
        dicts = bool(spec.extra.get("dict_args"))
        for a in [*node.args, *(kw.value for kw in node.keywords)]:
            self.argument(a, depth + 1, dicts)

    def argument(self, node: ast.expr, depth: int, dicts: bool) -> None:
        """A call argument; ``{"name": module, ...}`` too where the op takes a dict."""
        if not dicts or not isinstance(node, ast.Dict):
            self.expr(node, depth)
            return
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise _code(value, "the forms have no field for ** unpacking")
            if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
                raise _code(key, 'the keys of this dict are strings, such as "head"')
            self.constant(key)
            self.expr(value, depth + 1)

    def callee(self, func: ast.expr, depth: int) -> tuple[str, bool]:
        """The catalogue key a call names, and whether it is a method (its receiver
        checked)."""
        if isinstance(func, ast.Name):
            if func.id in self.bound:  # a module, a function: Python, for the kernel
                raise _code(func, f"'{func.id}' is not in the op catalogue")
            spec = CATALOG.get(func.id)
            if spec is not None and spec.namespace == "builtins":
                return func.id, False
            raise _code(func, f"unknown function '{func.id}'")
        if not isinstance(func, ast.Attribute):
            raise _code(func, "only named functions and methods can be called")
        if func.attr.startswith("_"):
            raise _code(func, f"'{func.attr}': the forms show no private name")
        path = _dotted(func)
        for prefix, module in (("torch.nn.functional.", "F"), ("torch.nn.", "nn"),
                               ("torch.", "torch"), ("F.", "F"), ("nn.", "nn")):
            head = path.split(".", 1)[0] if path else ""
            if path and path.startswith(prefix) and head not in self.bound:
                rest = path[len(prefix):]
                if "." in rest:
                    raise _code(func, f"unknown function '{path}': not in the op catalogue")
                self.need(head if head in ("nn", "F") else "torch", func)
                return f"{module}.{rest}", False
        self.expr(func.value, depth + 1)
        return f"Tensor.{func.attr}", True

    def float_call(self, node: ast.Call) -> None:
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant):
            value = node.args[0].value
            if isinstance(value, str) and value.strip().lower() in (
                    "nan", "inf", "-inf", "+inf", "infinity", "-infinity"):
                return
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return
        raise _code(node, 'float() takes one literal: float("nan"), float("inf") or a number')


def _dotted(node: ast.expr) -> str:
    """``torch.nn.functional.softmax`` for a chain of names; ``...()`` for a bare call."""
    parts: list[str] = []  # walked without recursion: hostile chains are thousands long
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            parts.append("." + node.attr)
            node = node.value
        elif isinstance(node, ast.Call) and not node.args and not node.keywords:
            parts.append("()")
            node = node.func
        else:
            return ""
    return node.id + "".join(reversed(parts))


def _too_deep(source: str) -> RecipeError:
    """The refusal of a file too deeply nested to read, at its most bracketed line."""
    counts = [sum(line.count(c) for c in ".([{+-*/@%&|^~<>") + line.count("not ")
              for line in source.split("\n")]
    line = max(range(len(counts)), key=counts.__getitem__) + 1 if counts else 0
    return RecipeError(line, 0, "nested too deeply to be a recipe: too many brackets, dots "
                                "or operators in one expression")


class NotAForm(Exception):
    """A statement the forms cannot show (its one argument says why): a code step."""


def _code(node: ast.AST, why: str) -> NotAForm:
    return NotAForm(f"line {getattr(node, 'lineno', 0)}: {why}")
