"""The op catalogue: every callable a recipe may use, described once, as data.

Parameter forms, code generation, the recipe reader's allow-list and the docs
panel are all derived from these descriptions. A new op is one ``OpSpec`` entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.expr import Call, Const, Expr, Seq


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
    """

    name: str
    kind: str
    default: Any = REQUIRED
    keyword_only: bool = False
    varargs: bool = False
    doc: str = ""
    minimum: float | None = None
    maximum: float | None = None

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

    @property
    def function_key(self) -> str | None:
        if self.namespace == "builtins":
            return self.name
        return f"{self.namespace}.{self.name}" if self.namespace else None

    @property
    def method_key(self) -> str | None:
        return f"Tensor.{self.name}" if self.method else None

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

    def make_call(self, values: dict[str, Expr], *, receiver: Expr | None = None) -> Call:
        """Build the call for form ``values``; parameters equal to their default are left out.

        With ``receiver`` the call is the method form, else the function form.
        """
        args: list[Expr] = [] if receiver is None else [receiver]
        kwargs: list[tuple[str, Expr]] = []
        positional = True
        for p in self.params:
            if p.name not in values:
                positional = positional and p.required
                continue
            value = values[p.name]
            if not p.required and isinstance(value, Const) and _same(value.value, p.default):
                positional = False
                continue
            if p.varargs and isinstance(value, Seq) and positional and not p.keyword_only:
                args.extend(value.items)
            elif positional and not p.keyword_only:
                args.append(value)
            else:
                kwargs.append((p.name, value))
                positional = False
        op = f"Tensor.{self.name}" if receiver is not None else self.function_key
        assert op is not None, f"{self.name} has no function form"
        return Call(op, tuple(args), tuple(kwargs))

    def bind(self, call: Call) -> dict[str, Expr]:
        """Map a call's arguments back to parameter names (the inverse of ``make_call``)."""
        args = list(call.args[1:] if call.is_method else call.args)
        bound: dict[str, Expr] = {}
        params = [p for p in self.params if not p.keyword_only]
        for p in params:
            if not args:
                break
            if p.varargs:  # takes every remaining positional argument
                items, args = args, []
                if len(items) == 1 and isinstance(items[0], Seq):
                    bound[p.name] = items[0]
                else:
                    bound[p.name] = Seq(tuple(items), "tuple")
            else:
                bound[p.name] = args.pop(0)
        for k, v in call.kwargs:
            bound[k] = v
        return bound


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class Catalog:
    """Lookup of op specs by the spelling a recipe uses."""

    def __init__(self, specs: list[OpSpec]):
        self.specs = list(specs)
        self._by_key: dict[str, OpSpec] = {}
        for spec in self.specs:
            for key in (spec.function_key, spec.method_key):
                if key is None:
                    continue
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


def _load() -> Catalog:
    from app import catalog_creation

    return Catalog(catalog_creation.SPECS)


CATALOG = _load()
