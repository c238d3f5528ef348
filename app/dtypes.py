"""The torch dtypes a recipe names, held by their names: the window has no torch.

``torch.float64`` in a recipe's text is read as ``DType("float64")``: a form shows it, a
literal edit writes it back (``app.text_edits.literal_text``), and only the kernel turns
it into the dtype itself.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Other names torch gives a dtype (``torch.long`` is ``torch.int64``).
DTYPE_ALIASES = {"half": "float16", "float": "float32", "double": "float64",
                 "short": "int16", "int": "int32", "long": "int64",
                 "cfloat": "complex64", "cdouble": "complex128"}

#: The dtypes a form step names (``torch.float64``), aliases included.
DTYPE_NAMES = frozenset((
    "float16", "bfloat16", "float32", "float64", "half", "float", "double",
    "complex64", "complex128", "uint8", "int8", "int16", "int32", "int64", "short", "int",
    "long", "bool"))


@dataclass(frozen=True)
class DType:
    """A torch dtype a recipe names (``torch.float64``), held by its name. ``name`` is
    torch's own (``float64``, not ``double``)."""

    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", DTYPE_ALIASES.get(self.name, self.name))

    def __str__(self) -> str:
        return f"torch.{self.name}"
