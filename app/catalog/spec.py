"""Op specs as data: ``Param``, ``OpSpec`` and the ``Catalog`` that looks them up.

The catalogue modules beside this one describe every op with these classes;
``app.catalog`` gathers them into ``CATALOG``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.i18n import QT_TRANSLATE_NOOP

#: Translation context of the category names below.
CATEGORIES = "OpCategory"
# Every category an OpSpec uses, marked so that lupdate offers them for translation;
# views show a category with QCoreApplication.translate(CATEGORIES, name).
_CATEGORY_NAMES = (
    QT_TRANSLATE_NOOP("OpCategory", "creation"), QT_TRANSLATE_NOOP("OpCategory", "random"),
    QT_TRANSLATE_NOOP("OpCategory", "output"), QT_TRANSLATE_NOOP("OpCategory", "shape"),
    QT_TRANSLATE_NOOP("OpCategory", "indexing"), QT_TRANSLATE_NOOP("OpCategory", "masks"),
    QT_TRANSLATE_NOOP("OpCategory", "joining"), QT_TRANSLATE_NOOP("OpCategory", "linalg"),
    QT_TRANSLATE_NOOP("OpCategory", "elementwise"),
    QT_TRANSLATE_NOOP("OpCategory", "reduction"),
    QT_TRANSLATE_NOOP("OpCategory", "activation"),
    QT_TRANSLATE_NOOP("OpCategory", "conversion"),
    QT_TRANSLATE_NOOP("OpCategory", "autograd"), QT_TRANSLATE_NOOP("OpCategory", "nn"),
    QT_TRANSLATE_NOOP("OpCategory", "comparison"), QT_TRANSLATE_NOOP("OpCategory", "legacy"),
    QT_TRANSLATE_NOOP("OpCategory", "new tensors"),
)


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: Marks a parameter with no default.
REQUIRED: Any = _Required()

#: Parameter kinds understood by forms and checks.
#: tensor, tensors, size, data, int, float, number, bool, dtype, device, str, dim, seed
PARAM_KINDS = frozenset(
    {"tensor", "tensors", "size", "data", "int", "float", "number", "bool", "dtype",
     "device", "str", "dim", "seed", "any"}
)


#: How ``kernel.explain.provenance`` traces an op's output elements back to its inputs
#: (see ``OpSpec``).
PROVENANCE_KINDS = frozenset({"ids", "elementwise", "reduction", "grad", "none"})


@dataclass(frozen=True)
class Param:
    """One parameter of an op.

    Parameters
    ----------
    name : str
        The keyword torch uses.
    kind : str
        One of ``PARAM_KINDS``; decides the form widget and the checks.
    default : Any
        ``REQUIRED`` when the caller must give it.
    keyword_only : bool
        Written as ``name=value`` in generated code.
    varargs : bool
        A ``size`` given as ``f(2, 3)`` rather than ``f((2, 3))``.
    doc : str
        One line for the tooltip.
    varargs_in_function : bool
        False when only the method spreads the sizes: ``x.reshape(3, 4)`` but
        ``torch.reshape(x, (3, 4))``.
    """

    name: str
    kind: str
    default: Any = REQUIRED
    keyword_only: bool = False
    varargs: bool = False
    doc: str = ""
    minimum: float | None = None
    maximum: float | None = None
    varargs_in_function: bool = True

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"unknown parameter kind {self.kind!r}")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class OpSpec:
    """The description of one op.

    Parameters
    ----------
    name : str
        The Python name, ``zeros`` or ``view``.
    namespace : str
        ``torch``, ``F``, ``nn``, ``builtins`` or ``""`` for tensor-only methods.
    method : bool
        Also (or only, when ``namespace`` is empty) a ``Tensor`` method.
    category : str
        Groups ops in menus and docs: ``creation``, ``shape``, ...
    params : tuple of Param
        In torch's positional order; for methods the receiver is not listed.
    summary : str
        What the op does, in one or two plain sentences.
    example : str
        A tiny example in Python.
    creates : bool
        Allocates a new tensor whose size follows from the arguments (budget-checked).
    also_in : tuple of str
        Further namespaces with the same function: ``("F",)`` for ``torch.softmax``,
        which is also ``F.softmax``. Every spelling reads, writes and runs the same.
    receiver : str
        The parameter that becomes the tensor before the dot in the method form:
        ``input`` for ``torch.view(input, ...)`` versus ``input.view(...)``.
    operator : str
        The Python operator that does the same, such as ``"*"`` for ``mul``.
    provenance : str
        How an output element is traced back to input elements (``kernel.explain.provenance``):
        ``"ids"`` when output elements are input elements moved about without looking at
        their values (view, gather, cat...); ``"elementwise"`` when each comes from the
        broadcast-aligned input elements; ``"reduction"`` when it comes from every element
        along the reduced ``dim``; ``"grad"`` to ask autograd (matmul, sum, softmax...);
        ``"none"`` when the output is not made of input elements.
    """

    name: str
    namespace: str
    category: str
    params: tuple[Param, ...]
    summary: str
    example: str = ""
    method: bool = False
    creates: bool = False
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    also_in: tuple[str, ...] = ()
    receiver: str = "input"
    operator: str = ""
    provenance: str = "grad"

    def __post_init__(self) -> None:
        if self.provenance not in PROVENANCE_KINDS:
            raise ValueError(f"unknown provenance kind {self.provenance!r}")

    @property
    def function_key(self) -> str | None:
        if self.namespace == "builtins":
            return self.name
        return f"{self.namespace}.{self.name}" if self.namespace else None

    @property
    def method_key(self) -> str | None:
        return f"Tensor.{self.name}" if self.method else None

    @property
    def function_keys(self) -> tuple[str, ...]:
        """Every function spelling: ``("torch.softmax", "F.softmax")``."""
        first = self.function_key
        return (() if first is None else (first,)) + tuple(f"{ns}.{self.name}"
                                                           for ns in self.also_in)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every spelling a recipe may use, functions first, then the method."""
        method = self.method_key
        return self.function_keys + (() if method is None else (method,))

    @property
    def in_place(self) -> bool:
        """Changes the tensor it is called on (``add_``, ``masked_fill_``)."""
        return self.name.endswith("_") and not self.name.endswith("__")

    def method_params(self) -> tuple[Param, ...]:
        """The parameters of the method form: all but the receiver."""
        return tuple(p for p in self.params if p.name != self.receiver)

    @property
    def doc_url(self) -> str:
        base = "https://docs.pytorch.org/docs/stable/generated/"
        if self.namespace == "torch":
            return f"{base}torch.{self.name}.html"
        if self.namespace == "F":
            return f"{base}torch.nn.functional.{self.name}.html"
        if self.namespace == "nn":
            return f"{base}torch.nn.{self.name}.html"
        if self.method:
            return f"{base}torch.Tensor.{self.name}.html"
        return "https://docs.python.org/3/library/functions.html"

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def leading_optional(self) -> tuple[Param, ...]:
        """Optional positional parameters before a required one (``arange``'s start).

        torch gives such ops overloads without them: ``arange(end)``, ``randint(high, size)``.
        """
        positional = [p for p in self.params if not p.keyword_only]
        if any(p.varargs for p in positional):
            return ()
        last = max((i for i, p in enumerate(positional) if p.required), default=-1)
        return tuple(p for p in positional[:last] if not p.required)


class Catalog:
    """Lookup of op specs by the spelling a recipe uses."""

    def __init__(self, specs: list[OpSpec]):
        self.specs = list(specs)
        self._by_key: dict[str, OpSpec] = {}
        for spec in self.specs:
            for key in spec.keys:
                if key in self._by_key:
                    raise ValueError(f"duplicate catalogue key {key}")
                self._by_key[key] = spec

    def get(self, key: str) -> OpSpec | None:
        """The spec for ``"torch.zeros"``, ``"Tensor.view"``, ``"print"`` ... or None."""
        return self._by_key.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._by_key

    def keys(self) -> list[str]:
        return list(self._by_key)

    def in_category(self, category: str) -> list[OpSpec]:
        return [s for s in self.specs if s.category == category]

    def categories(self) -> list[str]:
        return list(dict.fromkeys(s.category for s in self.specs))
