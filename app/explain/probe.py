"""Parts of a form step, worked out in the window for its explanations.

A form step (``y = torch.gather(x, 1, index)``) ran in the kernel, which sent copies of
what it read and made (``app.kernel.mirror``). To explain it element by element, the
explanations work out parts of its expression again on those copies, or on probes put
in their place (``app.explain.provenance``: ids, random leaves): ``value_of``.

Only catalogue entries and Python's operators run, never the recipe's own code. Every
value on the way is worked out first on torch's ``meta`` device, which knows shapes and
allocates nothing: a part that would make a value of more than ``MAX_CELLS`` elements
(``torch.ones(10**5, 10**5)`` written into a form) is refused before anything is made.
"""

from __future__ import annotations

import importlib
import operator
from collections.abc import Callable
from typing import Any

from app.catalog import CATALOG
from app.expr import (
    TENSOR_ATTRIBUTES,
    Attr,
    BinOp,
    Call,
    Const,
    Expr,
    Ref,
    Seq,
    Slice,
    Subscript,
    UnaryOp,
)

#: The most elements any value worked out here may have (16 MiB of float32).
MAX_CELLS = 1 << 22
#: Ops whose result's shape depends on the values (the meta device cannot tell it), and
#: is never larger than what they read: these run on the copies without a dry run.
BOUNDED_BY_VALUES = frozenset({"nonzero", "argwhere", "masked_select", "unique",
                               "unique_consecutive"})

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "==": operator.eq,
    "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
_UNARY: dict[str, Callable[[Any], Any]] = {"-": operator.neg, "+": operator.pos,
                                           "~": operator.invert}
#: The module each spelling of a call names: ``F.softmax`` is ``torch.nn.functional``'s.
_NAMESPACES = {"torch": "torch", "F": "torch.nn.functional", "nn": "torch.nn"}


class ProbeError(ValueError):
    """A part of a step the window will not work out (too large, or not an op it knows)."""


def value_of(expr: Expr, namespace: dict[str, Any]) -> Any:
    """The value of ``expr``, the names it reads taken from ``namespace`` (the caller's
    copies: an in-place op changes them). torch's errors are raised as torch raises them."""
    import torch

    meta = {name: _on_meta(value) for name, value in namespace.items()}
    try:
        with torch.device("meta"):
            _Probe(meta, dry=True).eval(expr)
    except ProbeError:
        raise
    except (NotImplementedError, RuntimeError, TypeError, ValueError, IndexError):
        pass  # torch will say it again, in its own words, on the real values
    return _Probe(namespace, dry=False).eval(expr)


def _plain_arithmetic(op: str, left: Any, right: Any) -> None:
    """Refuse Python arithmetic that would run for minutes or fill memory without a
    tensor in sight: ``2 ** 10**9``, ``"ab" * 10**9``."""
    plain = (int, float, complex, str, bytes, list, tuple)
    if not isinstance(left, plain) or not isinstance(right, plain):
        return
    if op == "*" and (isinstance(left, (str, bytes, list, tuple))
                      or isinstance(right, (str, bytes, list, tuple))):
        raise ProbeError("repeating a string or a list is not worked out here")
    if op == "**" and isinstance(right, int) and abs(right) > 1000 \
            and isinstance(left, int) and abs(left) > 1:
        raise ProbeError(f"{left} ** {right} is too large a number to work out here")


def _on_meta(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return torch.empty_strided(value.shape, value.stride(), dtype=value.dtype,
                                   device="meta").requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_on_meta(v) for v in value)
    return value


class _Probe:
    def __init__(self, namespace: dict[str, Any], dry: bool):
        self.ns, self.dry = namespace, dry

    def eval(self, e: Expr) -> Any:
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Ref):
            if e.name not in self.ns:
                raise NameError(f"name '{e.name}' is not defined")
            return self.ns[e.name]
        if isinstance(e, Seq):
            if e.kind == "dict":
                return {self.eval(i.items[0]): self.eval(i.items[1])  # type: ignore[attr-defined]
                        for i in e.items}
            items = [self.eval(i) for i in e.items]
            return items if e.kind == "list" else tuple(items)
        if isinstance(e, Slice):
            return slice(*(None if p is None else self.eval(p)
                           for p in (e.lower, e.upper, e.step)))
        if isinstance(e, Attr):
            if e.name not in TENSOR_ATTRIBUTES:
                raise ProbeError(f"'.{e.name}' is not worked out here")
            return self.checked(getattr(self.eval(e.value), e.name))
        if isinstance(e, Subscript):
            return self.checked(self.eval(e.value)[self.eval(e.index)])
        if isinstance(e, BinOp):
            left, right = self.eval(e.left), self.eval(e.right)
            _plain_arithmetic(e.op, left, right)
            return self.checked(_BINARY[e.op](left, right))
        if isinstance(e, UnaryOp):
            return self.checked(_UNARY[e.op](self.eval(e.operand)))
        if isinstance(e, Call):
            return self.call(e)
        raise ProbeError(f"{type(e).__name__} is not worked out here")

    def call(self, e: Call) -> Any:
        import torch

        spec = CATALOG.get(e.op)
        if spec is None or spec.namespace == "builtins":
            raise ProbeError(f"'{e.op}' is not worked out here")
        args = [self.eval(a) for a in e.args]
        kwargs = {k: self.eval(v) for k, v in e.kwargs}
        if self.dry and spec.name in BOUNDED_BY_VALUES:
            raise NotImplementedError(spec.name)  # its size shows on the real values only
        if e.is_method:
            receiver = args.pop(0)
            if not isinstance(receiver, torch.Tensor):
                raise TypeError(f"'.{spec.name}()' is a tensor method, but this is a "
                                f"{type(receiver).__name__}")
            return self.checked(getattr(receiver, spec.name)(*args, **kwargs))
        # F.softmax and torch.softmax share one spec: call the spelling the step used
        namespace = importlib.import_module(_NAMESPACES[e.op.rsplit(".", 1)[0]])
        return self.checked(getattr(namespace, spec.name)(*args, **kwargs))

    def checked(self, value: Any) -> Any:
        """``value``, once the dry run found it small enough."""
        import torch

        if self.dry:
            for t in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(t, torch.Tensor) and t.numel() > MAX_CELLS:
                    raise ProbeError(f"a value of {t.numel():,} elements is not worked out "
                                     f"here (at most {MAX_CELLS:,})")
        return value
