"""The head of a recipe's text: its docstring's literal and the imports its steps need.

``FORM_IMPORTS`` are the imports the forms know, as ``import`` writes them without the
word; the reader reads a step as the recipe would, after them (``IMPORT_LINES``).
"""

from __future__ import annotations

import ast
import textwrap

from app.recipe.model import Recipe

#: The imports the forms know, as specs: what follows ``import``.
FORM_IMPORTS = ("torch", "torch.nn as nn", "torch.nn.functional as F")
#: The name each of them binds, by module: ``{"torch.nn": "nn", ...}``.
IMPORTED_AS = {spec.split(" as ")[0]: spec.split(" as ")[-1] for spec in FORM_IMPORTS}
#: ``FORM_IMPORTS`` as the lines of a text.
IMPORT_LINES = "".join(f"import {spec}\n" for spec in FORM_IMPORTS)


def import_spec(name: str) -> str:
    """The spec of the import that binds ``name`` (``torch.nn as nn`` for ``nn``)."""
    return next(spec for spec in FORM_IMPORTS if spec.split(" as ")[-1] == name)


def imports_needed(recipe: Recipe) -> list[str]:
    """The import specs (``FORM_IMPORTS``' own, the first always) the recipe's steps use."""
    names = {key.split(".", 1)[0] for s in recipe.steps for key in s.calls}
    for step in recipe.steps:  # a class Net(nn.Module), a loop calling F.relu
        if step.code_text is not None:
            names |= _names_read(step.code_text)
    return [spec for i, spec in enumerate(FORM_IMPORTS)
            if i == 0 or spec.split(" as ")[-1] in names]


def _names_read(text: str) -> set[str]:
    """The names a code step's text reads (parsed with ``ast``, never run)."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def docstring_literal(text: str) -> str:
    """The docstring ``text`` as a triple-quoted literal."""
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    return f'"""{body}"""'
