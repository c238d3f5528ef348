"""The catalogue key a call's ``ast`` names, read from the node, never run."""

from __future__ import annotations

import ast

#: How a recipe spells torch's modules, longest first, and the key's prefix for each.
MODULE_PREFIXES = (("torch.nn.functional.", "F."), ("torch.nn.", "nn."), ("torch.", "torch."),
                   ("F.", "F."), ("nn.", "nn."))


def dotted_name(node: ast.expr) -> str:
    """``torch.nn.functional.softmax`` for a chain of names; empty for anything else."""
    parts: list[str] = []  # walked without recursion: hostile chains are thousands long
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def call_key(func: ast.expr) -> str:
    """The key of what ``func`` (a call's ``func``) names, in the catalogue's spelling:
    ``torch.zeros``, ``F.softmax`` (``torch.nn.functional.softmax`` too), ``nn.Linear``,
    a builtin's name (``print``), or ``Tensor.view`` for a method; empty where it names
    none of these. The key need not be in the catalogue."""
    if isinstance(func, ast.Name):
        return func.id
    if not isinstance(func, ast.Attribute):
        return ""
    path = dotted_name(func)
    for prefix, key in MODULE_PREFIXES:
        rest = path[len(prefix):]
        if path.startswith(prefix) and "." not in rest:
            return key + rest
    return f"Tensor.{func.attr}"
