"""A top-level loop's report, as it travels from the kernel (``kernel.loops``) to the
window, and what the window reads of it (``LoopReport.expanded``).

It travels compressed: a loop of 10^5 iterations keeps 10^5 scalars a name, which JSON
would write in ~20 ms a name; here they are float64 ``array``s (raw frames), a ``range``
counter is its start, step and count, the samples of plain scalars are rows of values
(their summaries are made on the window's side, as ``kernel.summary`` makes them),
and a sampled 0-d tensor's summary is its kind's, listed once, with its value.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from typing import Any

from protocol.codec import wire_type
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: ``[kind, value]``: a sampled 0-d tensor's summary, its kind's (``LoopReport.sample_kinds``)
#: without the value.
PackedScalar = list


@wire_type
@dataclass
class Stride:
    """``count`` integers from ``start``, ``step`` apart."""

    start: int
    step: int
    count: int

    def values(self) -> list[int]:
        if not self.step:
            return [self.start] * self.count
        return list(range(self.start, self.start + self.count * self.step, self.step))


@wire_type
@dataclass
class LoopReport:
    """What a top-level loop did: its ``iterations`` (those that reached their end), the
    ``kept`` ones summarized (``samples``), and its scalars for every iteration (or an
    even sample: ``scalar_steps``)."""

    iterations: int
    kept: list[int]
    #: The kind of each scalar name: ``int``, ``float``, ``bool`` or ``tensor`` (0-d).
    scalar_kinds: dict[str, str]
    #: The iterations the scalars are from.
    scalar_steps: Stride
    #: Each scalar name's float64 values, at ``scalar_steps`` (NaN: not a number then).
    scalars: dict[str, array] = field(default_factory=dict)
    #: Or all of them in one array, iteration after iteration, in ``table_names``' order.
    table: array | None = None
    table_names: list[str] = field(default_factory=list)
    #: A ``range`` counter: its name and its values at ``scalar_steps``; first among the
    #: scalars, as the loop's target comes first.
    counter: str | None = None
    counter_values: Stride | None = None
    #: Summaries by iteration (``"<n>"``) and name; a 0-d tensor's as ``[kind, value]``.
    samples: dict[str, dict[str, dict | PackedScalar]] = field(default_factory=dict)
    #: The summaries (less their values) the ``[kind, value]`` samples name.
    sample_kinds: list[dict] = field(default_factory=list)
    #: Iterations whose values were all plain scalars: their values, by ``plain_names``.
    plain_names: list[str] = field(default_factory=list)
    plain_rows: dict[str, list[int | float | bool | str]] = field(default_factory=dict)
    #: What each kept iteration printed (``"<n>"``).
    printed: dict[str, str] = field(default_factory=dict)

    def expanded(self) -> dict[str, Any]:
        """The report as the window reads it: ``iterations``, ``kept``, ``scalar_kinds``,
        ``scalars`` (name to a list, None where an int was not bound; non-finite floats
        as text), ``scalar_steps`` (a list), ``samples`` (``{"<n>": {name: summary}}``,
        by iteration) and ``printed``. Made once (on the thread that reads the pipe,
        not the GUI's), then kept."""
        done = self.__dict__.get("_expanded")
        if done is None:
            done = self.__dict__["_expanded"] = self._expand()
        return done

    def _expand(self) -> dict[str, Any]:
        kinds = self.scalar_kinds
        columns: dict[str, array] = {}
        if self.table is not None:  # one array, iteration after iteration: split it here
            width = len(self.table_names)
            columns = {name: self.table[j::width] for j, name in enumerate(self.table_names)}
        columns.update(self.scalars)
        scalars = {name: _scalar_values(column, kinds.get(name, "float"))
                   for name, column in columns.items()}
        if self.counter is not None and self.counter_values is not None:
            scalars = {self.counter: self.counter_values.values(), **scalars}
        samples = {n: dict(sample) for n, sample in self.samples.items()}
        for sample in samples.values():
            for name, s in sample.items():
                if type(s) is list:  # [kind, value]: its kind's summary with the value
                    sample[name] = {**self.sample_kinds[s[0]], "values": s[1]}
        names = self.plain_names
        for n, row in self.plain_rows.items():  # their summaries, as ``summarize`` has them
            samples[n] = {name: _plain_summary(v) for name, v in zip(names, row, strict=False)}
        return {"iterations": self.iterations, "kept": self.kept,
                "scalar_kinds": kinds, "scalars": scalars,
                "scalar_steps": self.scalar_steps.values(),
                "samples": dict(sorted(samples.items(), key=lambda item: int(item[0]))),
                "printed": self.printed}


def _plain_summary(value: int | float | bool) -> dict[str, Any]:
    """``summary.summarize(value)`` of a plain scalar, without its look for torch (a
    tenth of a big report's expansion)."""
    if type(value) is float and not math.isfinite(value):
        return {"type": "float", "value": repr(value)}
    return {"type": type(value).__name__, "value": value}


def _scalar_values(column: array, kind: str) -> list:
    values = column.tolist()
    finite = math.isfinite(sum(values)) if values else True
    if kind in ("int", "bool"):
        cast = int if kind == "int" else bool
        if finite:
            return list(map(cast, values))
        return [cast(v) if math.isfinite(v) else None for v in values]  # nan: unbound
    if finite:
        return values
    from protocol.json_values import plain

    return plain(values)
