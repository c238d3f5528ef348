"""The catalogue's facts of the ops a text calls, as the window sends them with Op
explained's questions (``OpFacts``): the kernel calls no op they do not name, and reads
no catalogue itself. Torch-free."""

from __future__ import annotations

import ast
import functools

from app.catalog import CATALOG, OpSpec
from protocol.provenance_data import OpFacts, Param, call_key


@functools.lru_cache(maxsize=16)
def op_table(text: str) -> dict[str, dict]:
    """``OpFacts.as_data`` of every catalogue op that ``text`` (a statement, an
    expression or a whole recipe) calls, by ``call_key``; builtins are not ops."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    table: dict[str, dict] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            key = call_key(node.func)
            spec = CATALOG.get(key) if key is not None else None
            if spec is not None and spec.namespace != "builtins":
                table[key] = facts(spec).as_data()
    return table


def facts(spec: OpSpec) -> OpFacts:
    """What the kernel's provenance needs of ``spec``."""
    return OpFacts(spec.name, spec.category, spec.provenance, spec.receiver,
                   tuple(Param(p.name, p.keyword_only, p.varargs) for p in spec.params))
