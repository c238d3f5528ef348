"""Provenance's answer as both processes hold it: plain data, no torch.

The kernel works it out (``app.explain.provenance``, asked through the ``provenance``
query of ``app.explain.provenance_query``); the window shows it (Op explained).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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

    def as_data(self) -> dict[str, Any]:
        """As a query's answer carries it (lists, not tuples)."""
        return {"sources": {n: [list(i) for i in idx] for n, idx in self.sources.items()},
                "used": {n: [list(i) for i in idx] for n, idx in self.used.items()}}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Provenance:
        """The answer ``as_data`` made."""
        def indices(found: dict) -> dict[str, list[Index]]:
            return {str(n): [tuple(int(k) for k in i) for i in idx]
                    for n, idx in (found or {}).items()}
        return cls(indices(data.get("sources", {})), indices(data.get("used", {})))
