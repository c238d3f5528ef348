"""A training setup in a recipe file: a literal settings block, then generated code.

A recipe with a training setup ends like this::

    training = dict(
        model=dict(inputs=2, hidden=64, layers=2, outputs=2, activation="relu", ...),
        ...
        device="cpu",
    )

    # --- Tensor Lab training code: generated; the lab reads only the settings above ---
    import csv
    ...
    main(training)

``python RECIPE.py`` runs all of it. The lab reads only the part above the marker, with
``ast`` and without running anything: ``training = dict(...)`` is accepted when every
argument is a literal and the whole validates as ``TrainingSettings``. The text after
the marker is never parsed or run; it is compared with what the lab writes (the source
of ``app/training/program.py``), and a difference only earns a warning that saving will
write it afresh.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from app.training import program
from app.training.settings import SettingsError, TrainingSettings

MARKER = "# --- Tensor Lab training code: generated; the lab reads only the settings above ---"
#: The name the settings block assigns.
NAME = "training"
LINE_LENGTH = 100
_MAX_DEPTH = 8
_MAX_STRING = 10_000


class LiteralError(ValueError):
    """A settings block that is not plain literals, with the offending node."""

    def __init__(self, node: ast.AST, reason: str):
        self.node, self.reason = node, reason
        super().__init__(reason)


# -- reading ---------------------------------------------------------------------------------
def split_generated(source: str) -> tuple[str, str | None]:
    """(the recipe part, the generated code after the marker line or None without one)."""
    start = _marker_offset(source)
    if start is None:
        return source, None
    end = source.find("\n", start)
    return source[:start], "" if end < 0 else source[end + 1:]


def _marker_offset(source: str) -> int | None:
    """Where the marker comment starts: a real comment at column 0, not text in a string."""
    lines = source.splitlines(keepends=True)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and tok.start[1] == 0 \
                    and tok.string.rstrip() == MARKER:
                return sum(len(line) for line in lines[: tok.start[0] - 1])
    except (tokenize.TokenError, SyntaxError):
        pass  # the recipe part will be refused by ast.parse, naming its line
    return None


def is_settings(node: ast.stmt) -> bool:
    """Whether ``node`` is ``training = dict(...)``."""
    return (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id == NAME
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "dict")


def read_settings(node: ast.Assign) -> tuple[TrainingSettings, list[str]]:
    """The settings a ``training = dict(...)`` statement holds, and warnings about it.

    Raises ``LiteralError`` (with the node at fault) for anything but literals, and for
    settings that do not validate (naming the field).
    """
    literal = _literal(node.value, 0)
    try:
        settings = TrainingSettings.from_literal(literal)
    except SettingsError as e:
        raise LiteralError(_field_node(node.value, e.field), str(e)) from None
    missing = _missing(settings.to_literal(), literal, "")
    warnings = []
    if missing:
        warnings.append("the training settings leave out " + ", ".join(missing) + ": the lab "
                        "uses their defaults, and saving writes them out (python needs them)")
    return settings, warnings


def _literal(node: ast.expr, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise LiteralError(node, "training settings nested too deeply")
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool)):
        if isinstance(node.value, str) and len(node.value) > _MAX_STRING:
            raise LiteralError(node, f"string longer than {_MAX_STRING} characters")
        if isinstance(node.value, int) and node.value.bit_length() > 64:
            raise LiteralError(node, "integer literal does not fit in 64 bits")
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        value = _literal(node.operand, depth + 1)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "dict":
        if node.args or any(kw.arg is None for kw in node.keywords):
            raise LiteralError(node, "write the settings as dict(name=value, ...)")
        return {kw.arg: _literal(kw.value, depth + 1) for kw in node.keywords}
    raise LiteralError(node, "training settings must be literals (numbers, strings, "
                             "True/False) and dict(name=value, ...)")


def _field_node(node: ast.Call, field: str) -> ast.AST:
    """The keyword argument a dotted field name points at, as deep as it goes."""
    for name in field.split("."):
        keyword = next((kw for kw in node.keywords if kw.arg == name), None)
        if keyword is None:
            return node
        if not isinstance(keyword.value, ast.Call):
            return keyword.value
        node = keyword.value
    return node


def _missing(full: dict[str, Any], given: dict[str, Any], prefix: str) -> list[str]:
    out = []
    for key, value in full.items():
        if key not in given:
            out.append(prefix + key)
        elif isinstance(value, dict) and isinstance(given[key], dict):
            out += _missing(value, given[key], f"{prefix}{key}.")
    return out


def code_warnings(settings: TrainingSettings | None, generated: str | None) -> list[str]:
    """Warnings about the text after the marker (``generated``: None when there is none)."""
    if generated is None:
        return []
    if settings is None:
        return ["the recipe has training code but no 'training = dict(...)' settings: the "
                "code will be dropped on save"]
    if _normal(generated) != _normal(generated_code()):
        return ["the training code after the marker is not what Tensor Lab writes: the lab "
                "ignores it, and saving replaces it with the generated code"]
    return []


def _normal(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


# -- writing ---------------------------------------------------------------------------------
def settings_block(settings: TrainingSettings) -> str:
    """``training = dict(...)``, one section per line."""
    lines = [f"{NAME} = dict("]
    for key, value in settings.to_literal().items():
        lines += _wrap(f"    {key}=", value)
    return "\n".join(lines + [")"])


def _wrap(head: str, value: Any) -> list[str]:
    if not isinstance(value, dict):
        return [f"{head}{_value(value)},"]
    items = [f"{k}={_value(v)}" for k, v in value.items()]
    lines, indent = [f"{head}dict("], " " * (len(head) + 5)
    for i, item in enumerate(items):
        item += ")," if i == len(items) - 1 else ","
        if len(lines[-1]) + 1 + len(item) > LINE_LENGTH and not lines[-1].endswith("("):
            lines.append(indent + item)
        else:
            lines[-1] += item if lines[-1].endswith("(") else " " + item
    return lines


def _value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


@functools.cache
def generated_code() -> str:
    """The code after the marker: ``program.py`` without its docstring, then ``main``."""
    source = Path(program.__file__).read_text(encoding="utf-8")
    body = ast.parse(source).body
    first = body[1].lineno if isinstance(body[0], ast.Expr) else 1  # after the docstring
    code = "".join(source.splitlines(keepends=True)[first - 1:]).strip("\n")
    return (f"# The code below is app/training/program.py of Tensor Lab: the lab runs the "
            f"same\n# functions, so python prints the losses the lab shows.\n{code}\n\n\n"
            f"main({NAME})\n")


def training_text(settings: TrainingSettings) -> str:
    """What a recipe ends with: the settings block, the marker and the generated code."""
    return f"{settings_block(settings)}\n\n{MARKER}\n{generated_code()}"


# -- running headless ------------------------------------------------------------------------
def run_training(settings: TrainingSettings, stdout: IO[str] | None = None) -> dict[str, Any]:
    """Train as ``python RECIPE.py`` does, printing the same lines to ``stdout``.

    Returns ``{"steps", "loss", "val_loss", "device", "warnings"}`` for ``run --json``.
    Raises what torch raises (and ``OSError`` for a missing CSV file).
    """
    import contextlib
    import sys

    device, warning = program.pick_device(settings.device)
    with contextlib.redirect_stdout(stdout or sys.stdout):
        logged = program.main(settings.to_literal())
    return {"steps": [s for s, _, _ in logged], "loss": [v for _, v, _ in logged],
            "val_loss": [v for _, _, v in logged], "device": str(device),
            "warnings": [warning] if warning else []}




@dataclass(frozen=True)
class CliTraining:
    """What ``tensor-lab run`` needs from training: JSON additions and the error, if any."""

    report: dict[str, Any]
    error: str = ""


def run_training_for_cli(settings: TrainingSettings, stdout: IO[str]) -> CliTraining:
    """Train headless for ``tensor-lab run``; torch's errors become a message, not a trace.

    ``report`` holds ``{"training": {...}}``, and ``{"errors": [...]}`` after a failure.
    """
    from app.json_values import plain

    try:
        report = run_training(settings, stdout)
        return CliTraining({"training": {key: plain(value) for key, value in report.items()}})
    except Exception as e:  # noqa: BLE001 - reported like a failing step
        message = f"{type(e).__name__}: {e}"
        return CliTraining({"errors": [{"line": 0, "step": "training", "message": str(e),
                                        "type": type(e).__name__}]}, message)
