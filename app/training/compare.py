"""What differs between runs: each run keeps the recipe text that made it, and the
comparison shows the literals that differ side by side (``lr=0.3`` against ``lr=0.03``).

``differences(sources)`` reads the knobs of each text (``app.training.fields``: the
optimizer's keywords, the clip limit, ``device``, top-level numbers) and keeps those whose
values differ; any other changed line (another initialisation, a deleted clip line) is a
row of its own, by its text, so nothing that changed goes unsaid. Qt-free.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from app.training.fields import fields

#: Longest line text a row shows (the rest is cut, with an ellipsis).
MAX_TEXT = 60


@dataclass(frozen=True)
class Difference:
    """One row: what it is (a knob's name, or "line N") and each run's value or text ("" for
    a run without it)."""

    label: str
    values: tuple[str, ...]


def differences(sources: list[str]) -> list[Difference]:
    """The knobs and lines that differ between ``sources`` (the first is the reference)."""
    if len(sources) < 2:
        return []
    knobs = [fields(text) for text in sources]
    rows = []
    names = list(dict.fromkeys(name for found in knobs for name in found))
    for name in names:
        values = tuple(_shown(found[name].value) if name in found else "" for found in knobs)
        if len(set(values)) > 1:
            rows.append(Difference(name, values))
    knob_lines = [{f.line for f in found.values() if f.name in {r.label for r in rows}}
                  for found in knobs]
    rows += _changed_lines(sources, knob_lines)
    return rows


def _changed_lines(sources: list[str], knob_lines: list[set[int]]) -> list[Difference]:
    """Lines of the first text that another replaced, deleted or added to, as rows (the
    lines a differing knob already explains left out)."""
    base = sources[0].splitlines()
    rows: dict[int, list[str]] = {}
    for k, text in enumerate(sources[1:], start=1):
        other = text.splitlines()
        matcher = difflib.SequenceMatcher(a=base, b=other, autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if all(i + 1 in knob_lines[0] for i in range(a0, a1)) and \
                    all(j + 1 in knob_lines[k] for j in range(b0, b1)):
                continue  # a knob row says it
            at = a0 + 1 if a1 > a0 else max(a0, 1)
            row = rows.setdefault(at, [""] * len(sources))
            row[0] = _cut(" / ".join(base[a0:a1]).strip())
            row[k] = _cut(" / ".join(other[b0:b1]).strip())
    return [Difference(f"line {line}", tuple(values)) for line, values in sorted(rows.items())]


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, str) else f"{value:g}" \
        if isinstance(value, float) else str(value)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"
