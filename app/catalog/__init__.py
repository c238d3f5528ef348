"""The op catalogue: every callable a recipe may use, described once, as data.

Parameter forms, code generation, the recipe reader's allow-list and the docs
panel are all derived from these descriptions. A new op is one ``OpSpec`` entry.
"""

from __future__ import annotations

from app.catalog import autograd, creation, lesson_ops, nn, ops
from app.catalog.spec import CATEGORIES, Catalog, OpSpec, Param

__all__ = ["CATALOG", "CATEGORIES", "Catalog", "OpSpec", "Param"]

#: Every op the lab describes, by the spelling a recipe uses.
CATALOG = Catalog(creation.SPECS + ops.SPECS + autograd.SPECS + nn.SPECS + lesson_ops.SPECS)
