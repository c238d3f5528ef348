"""What both processes hold of provenance: plain data, no torch, no other module of the app.

The kernel works it out (``kernel.explain.provenance``, asked through the ``provenance``
query of ``kernel.explain.provenance_query``); the window shows it (Op explained). The
window names the ops the kernel may call (``OpFacts``, by ``call_key``), from its
catalogue.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

Index = tuple[int, ...]


@dataclass(frozen=True)
class Provenance:
    """Where one output element comes from.

    Parameters
    ----------
    sources : dict
        For every tensor the expression reads, the indices of its elements that the
        output element is made from (possibly none, as for an element ``tril`` zeroed).
    used : dict
        Entries of index and mask tensors that chose those elements, such as
        ``index[i, j]`` for ``gather``; only names with such entries appear.
    """

    sources: dict[str, list[Index]] = field(default_factory=dict)
    used: dict[str, list[Index]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Provenance:
        """The provenance a query's answer holds: for each role (``sources``, ``used``) and
        name, one bool mask per tensor the name holds (numpy arrays: raw frames, not a
        list per element), and ``parts``, the names that hold several tensors (their
        indices start with the part's number)."""
        parts = set(data.get("parts", ()))

        def indices(found: dict) -> dict[str, list[Index]]:
            out: dict[str, list[Index]] = {}
            for name, masks in (found or {}).items():
                rows: list[Index] = []
                for part, mask in enumerate(masks):
                    head = (part,) if name in parts else ()
                    rows.extend(head + tuple(r) for r in np.argwhere(mask).tolist())
                out[str(name)] = rows
            return out

        used = {n: i for n, i in indices(data.get("used", {})).items() if i}
        found = indices(data.get("sources", {}))
        for name in data.get("used", {}):
            found.setdefault(str(name), [])
        return cls(found, used)


#: The modules a call's dotted name may start with, as recipes spell them.
MODULES = {"torch": "torch", "F": "torch.nn.functional", "nn": "torch.nn"}


def module_path(expr: ast.expr) -> str | None:
    """``torch.nn.functional.softmax`` for an attribute chain from a module's name."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name) and expr.id in MODULES:
        return ".".join([expr.id, *reversed(parts)])
    return None


def call_key(func: ast.expr) -> str | None:
    """The catalogue's key of what a call calls: ``torch.tril``, ``F.softmax`` (also
    spelled ``torch.nn.functional.softmax``), ``Tensor.view`` for a method; None for a
    function of the recipe or a builtin."""
    path = module_path(func)
    if path is not None:
        head, _, name = path.rpartition(".")
        return f"{'F' if head == 'torch.nn.functional' else head}.{name}"
    if isinstance(func, ast.Attribute):
        return f"Tensor.{func.attr}"
    return None


class Param(NamedTuple):
    """A parameter of an op, as the binding of a call's arguments needs it."""

    name: str
    keyword_only: bool = False
    varargs: bool = False


@dataclass(frozen=True)
class OpFacts:
    """What the kernel's provenance needs of a catalogue entry (``app.catalog.OpSpec``),
    sent with each question (``app.explain.op_facts``): the kernel reads no catalogue,
    and works out no call the window did not name.

    Parameters
    ----------
    name : str
        The op's name (``tril``).
    category : str
        ``creation``, ``random`` and ``output`` ops make new tensors.
    provenance : str
        How an output element is traced back (``ids``, ``grad``, ``elementwise``,
        ``reduction``).
    receiver : str
        The parameter a method is called on.
    params : tuple of Param
        In torch's positional order, the receiver included.
    """

    name: str
    category: str
    provenance: str
    receiver: str = "input"
    params: tuple[Param, ...] = ()

    def method_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.name != self.receiver)

    def as_data(self) -> dict[str, Any]:
        return {"name": self.name, "category": self.category, "provenance": self.provenance,
                "receiver": self.receiver, "params": [list(p) for p in self.params]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> OpFacts:
        return cls(str(data["name"]), str(data["category"]), str(data["provenance"]),
                   str(data.get("receiver", "input")),
                   tuple(Param(str(p[0]), bool(p[1]), bool(p[2]))
                         for p in data.get("params", ())))


def facts_table(ops: Any) -> dict[str, OpFacts]:
    """A question's ``ops`` (key to ``OpFacts.as_data``), or ``OpFacts`` already."""
    return {str(k): v if isinstance(v, OpFacts) else OpFacts.from_data(v)
            for k, v in (ops or {}).items()}
