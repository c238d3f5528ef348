"""The head of a recipe's text: its docstring's literal and the imports its steps need.

``FORM_IMPORTS`` are the imports the forms know, as ``import`` writes them without the
word; the reader reads a step as the recipe would, after them (``IMPORT_LINES``).
"""

from __future__ import annotations

from app.recipe.model import Recipe

#: The imports the forms know, as specs: what follows ``import``.
FORM_IMPORTS = ("torch", "torch.nn as nn", "torch.nn.functional as F")
#: The name each of them binds, by module: ``{"torch.nn": "nn", ...}``.
IMPORTED_AS = {spec.split(" as ")[0]: spec.split(" as ")[-1] for spec in FORM_IMPORTS}
#: ``FORM_IMPORTS`` as the lines of a text.
IMPORT_LINES = "".join(f"import {spec}\n" for spec in FORM_IMPORTS)
#: The first of them, which every recipe of the forms has, as a line of text.
TORCH_LINE = f"import {FORM_IMPORTS[0]}\n"


def import_spec(name: str) -> str:
    """The spec of the import that binds ``name`` (``torch.nn as nn`` for ``nn``)."""
    return next(spec for spec in FORM_IMPORTS if spec.split(" as ")[-1] == name)


def imports_needed(recipe: Recipe) -> list[str]:
    """The import specs (``FORM_IMPORTS``' own, the first always) the recipe's steps use."""
    names = {key.split(".", 1)[0] for s in recipe.steps for key in s.calls}
    names |= {n for s in recipe.steps if s.is_code for n in s.reads}  # class Net(nn.Module)
    return [spec for i, spec in enumerate(FORM_IMPORTS)
            if i == 0 or spec.split(" as ")[-1] in names]


def docstring_literal(text: str) -> str:
    """The docstring ``text`` as a triple-quoted literal."""
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    return f'"""{body}"""'
