"""Provenance's backward rules: which operand elements a node's wanted elements come from.

Runs in the kernel, on the nodes of ``kernel.explain.provenance_nodes``. ``rule`` picks one of
four ways by the node's kind (``OpSpec.provenance``): ``ids`` runs the op again on unique
ids (and probes index and mask operands entry by entry), ``grad`` asks autograd at a
random point, ``elementwise`` aligns elements by broadcasting, and ``reduction`` takes
every element along the reduced ``dim``.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kernel.explain.provenance_nodes import (
    OpNode,
    evaluate,
    local_namespace,
    no_elements,
    spec_of,
    tensors_in,
)
from protocol.sealed import BUILTINS

if TYPE_CHECKING:
    import torch

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Offsets added to the ids in the two tracing runs; far above any real index, so an
#: index or mask operand replaced by ids always fails, and exact in float64.
OFFSET_A, OFFSET_B = 2**32, 2**33
#: Control operands (indices, masks) with more entries than this are not probed.
MAX_PROBED_ENTRIES = 4096

_MOVING_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "data"})
_ELEMENTWISE_OPERATORS = frozenset({"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "==",
                                    "!=", "<", "<=", ">", ">="})


def _kind(node: OpNode) -> str:
    template = node.template
    if isinstance(template, ast.Call):
        spec = spec_of(node)
        if spec is None or spec.category in ("creation", "random", "output"):
            return "none"  # a new tensor: its values do not come from its arguments
        return spec.provenance
    if isinstance(template, ast.BinOp):
        return "elementwise" if node.op in _ELEMENTWISE_OPERATORS else "grad"
    if isinstance(template, ast.Compare):
        return "elementwise"
    if isinstance(template, ast.UnaryOp):
        return "elementwise" if node.op != "not" else "none"
    if isinstance(template, ast.Subscript):
        return "ids"
    if isinstance(template, ast.Attribute):
        return "ids" if node.op[1:] in _MOVING_ATTRIBUTES else "none"
    if isinstance(template, (ast.Tuple, ast.List)):
        return "ids"
    return "none"


Edge = tuple[OpNode, list["torch.Tensor"], str]  # operand, its wanted elements, role


def rule(node: OpNode, masks: list[torch.Tensor], role: str) -> Iterator[Edge]:
    """Each operand of ``node``, its wanted elements and their role, for ``node``'s ``masks``."""
    kind = _kind(node)
    if kind == "ids":
        yield from _by_ids(node, masks, role)
    elif kind == "grad":
        yield from _by_grad(node, masks, role)
    elif kind == "elementwise":
        yield from _by_broadcast(node, masks, role)
    elif kind == "reduction":
        yield from _by_reduction(node, masks, role)
    else:
        for child in node.operands:
            yield child, no_elements(child.value), role


def _ids(value: Any, offset: int, start: int = 0) -> Any:
    """``value`` with every tensor element replaced by a unique id plus ``offset``.

    Ids count up from ``start``, so operands given different starts never share one.
    """
    import torch


    def one(t: torch.Tensor) -> torch.Tensor:
        nonlocal start
        dtype = torch.float64 if (t.is_floating_point() or t.is_complex()) else torch.int64
        ids = torch.arange(start, start + t.numel(), dtype=dtype).reshape(t.shape) + offset
        start += t.numel()
        return ids

    if isinstance(value, torch.Tensor):
        return one(value)
    return type(value)(one(v) if isinstance(v, torch.Tensor) else v for v in value)


def _same_layout(a: Any, b: Any) -> bool:
    ta, tb = tensors_in(a), tensors_in(b)
    return len(ta) == len(tb) and all(x.shape == y.shape for x, y in zip(ta, tb, strict=True))


def _by_ids(node: OpNode, masks: list[torch.Tensor], role: str) -> Iterator[Edge]:
    traced: dict[int, Any] = {}
    control: list[int] = []
    results: dict[int, list[torch.Tensor]] = {}
    for i, child in enumerate(node.operands):
        if not tensors_in(child.value):
            continue
        try:
            a = evaluate(node, local_namespace(node.operands, **{f"_p{i}": _ids(
                child.value, OFFSET_A)}))
            b = evaluate(node, local_namespace(node.operands, **{f"_p{i}": _ids(
                child.value, OFFSET_B)}))
        except Exception:  # noqa: BLE001 - an index or a mask cannot be replaced by ids
            control.append(i)
            continue
        if not (_same_layout(a, node.value) and _same_layout(b, node.value)):
            control.append(i)
            continue
        decoded = _decode(tensors_in(a), tensors_in(b), masks, child.value)
        if decoded is None:
            control.append(i)
            continue
        traced[i] = child.value
        results[i] = decoded
    for i, child in enumerate(node.operands):
        if i in results:
            yield child, results[i], role
        elif i in control:
            yield child, _probe(node, i, masks, traced), "used"
        else:
            yield child, no_elements(child.value), role


def _decode(a: list[torch.Tensor], b: list[torch.Tensor], masks: list[torch.Tensor],
            operand: Any) -> list[torch.Tensor] | None:
    """Which operand elements the wanted output elements are, from the two id runs."""
    import torch

    pieces = tensors_in(operand)
    starts = torch.tensor([0] + [p.numel() for p in pieces]).cumsum(0)
    found = [torch.zeros(p.numel(), dtype=torch.bool) for p in pieces]
    for out_a, out_b, mask in zip(a, b, masks, strict=True):
        if out_a.dtype not in (torch.float64, torch.int64) or out_b.dtype != out_a.dtype:
            return None  # the ids did not survive (converted to another dtype)
        if not bool(mask.any()):
            continue
        va, vb = out_a[mask], out_b[mask]
        moved = (vb - va) == (OFFSET_B - OFFSET_A)
        codes = (va[moved] - OFFSET_A).to(torch.int64)
        which = torch.searchsorted(starts, codes, right=True) - 1
        for piece in range(len(pieces)):
            sel = which == piece
            found[piece][codes[sel] - starts[piece]] = True
    return [f.reshape(p.shape) for f, p in zip(found, pieces, strict=True)]


def _probe(node: OpNode, i: int, masks: list[torch.Tensor],
           traced: dict[int, Any]) -> list[torch.Tensor]:
    """Entries of control operand ``i`` (an index or a mask) that pick the wanted elements.

    Each entry is changed in turn (a mask entry flipped, an index moved by one); the ones
    whose change alters a wanted output element are the ones used.
    """
    import torch

    control = node.operands[i].value
    pieces = tensors_in(control)
    used = [torch.zeros(p.shape, dtype=torch.bool) for p in pieces]
    if len(pieces) != 1 or pieces[0].numel() > MAX_PROBED_ENTRIES:
        return used
    original = pieces[0]
    data: dict[str, Any] = {}
    start = 0
    for k, value in traced.items():  # every data operand gets ids of its own
        data[f"_p{k}"] = _ids(value, OFFSET_A, start)
        start += sum(t.numel() for t in tensors_in(value))
    try:
        base = tensors_in(evaluate(node, local_namespace(node.operands, **data)))
    except Exception:  # noqa: BLE001
        return used
    flat = original.detach().contiguous().reshape(-1)
    for pos in range(flat.numel()):
        for changed in _changes(flat, pos):
            probe = changed.reshape(original.shape)
            try:
                out = tensors_in(evaluate(node, local_namespace(
                    node.operands, **data, **{f"_p{i}": probe})))
            except Exception:  # noqa: BLE001 - not a valid index: try the other change
                continue
            if len(out) == len(base) and all(
                    o.shape == b.shape and bool((o[m] != b[m]).any())
                    for o, b, m in zip(out, base, masks, strict=True) if bool(m.any())):
                used[0].view(-1)[pos] = True
            break
    return used


def _changes(flat: torch.Tensor, pos: int) -> Iterator[torch.Tensor]:
    import torch

    if flat.dtype == torch.bool:
        changed = flat.clone()
        changed[pos] = ~changed[pos]
        yield changed
        return
    for step in (1, -1):
        changed = flat.clone()
        changed[pos] += step
        yield changed


def _by_grad(node: OpNode, masks: list[torch.Tensor], role: str) -> Iterator[Edge]:
    """Autograd at a random point: which operand elements the wanted outputs depend on."""
    import torch

    gen = torch.Generator().manual_seed(0)
    leaves: dict[int, torch.Tensor] = {}
    for i, child in enumerate(node.operands):
        value = child.value
        if isinstance(value, torch.Tensor) and value.dtype != torch.bool:
            # random values: a zero in the real data would hide a dependency (x * 0)
            leaf = torch.rand(value.shape, dtype=torch.float64, generator=gen) + 0.5
            leaves[i] = leaf.requires_grad_()
    grads: tuple[torch.Tensor | None, ...] | None = None
    if leaves:
        with contextlib.suppress(Exception), torch.enable_grad():
            # clones are not leaves themselves, so in-place ops on them are allowed
            replace = {f"_p{k}": leaf.clone() for k, leaf in leaves.items()}
            out = tensors_in(evaluate(node, local_namespace(node.operands, **replace)))
            total = sum(((o.double() * torch.rand(o.shape, dtype=torch.float64, generator=gen)
                          * m).sum() for o, m in zip(out, masks, strict=True)
                         if o.requires_grad), torch.zeros((), dtype=torch.float64))
            if total.requires_grad:
                grads = torch.autograd.grad(total, list(leaves.values()), allow_unused=True)
    if grads is None:  # not differentiable here (integer or bool result): use the shapes
        yield from _by_broadcast(node, masks, role)
        return
    by_operand = dict(zip(leaves, grads, strict=True))
    for i, child in enumerate(node.operands):
        g = by_operand.get(i)
        if g is None:
            yield child, no_elements(child.value), role
        else:
            yield child, [(g != 0) | g.isnan()], role


def _by_broadcast(node: OpNode, masks: list[torch.Tensor], role: str) -> Iterator[Edge]:
    """Each output element comes from the element of every operand aligned with it."""
    import torch

    wanted = masks[0] if len(masks) == 1 else None
    for child in node.operands:
        value = child.value
        if not isinstance(value, torch.Tensor):
            yield child, no_elements(value), role
            continue
        if wanted is None or not _broadcasts(value.shape, wanted.shape):
            # no element-to-element alignment: everything may matter
            any_wanted = any(bool(m.any()) for m in masks)
            yield child, [torch.full(value.shape, any_wanted, dtype=torch.bool)], role
            continue
        yield child, [_unbroadcast(wanted, value.shape)], role


def _broadcasts(small: torch.Size, big: torch.Size) -> bool:
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big), strict=False))


def _unbroadcast(mask: torch.Tensor, shape: torch.Size) -> torch.Tensor:
    m = mask
    while m.dim() > len(shape):
        m = m.any(0)
    for d, size in enumerate(shape):
        if size == 1 and m.shape[d] != 1:
            m = m.any(d, keepdim=True)
    return m.reshape(shape)


def _by_reduction(node: OpNode, masks: list[torch.Tensor], role: str) -> Iterator[Edge]:
    """Each output element comes from every element along the reduced dims."""
    import torch

    spec = spec_of(node)
    call = node.template
    if spec is None or not isinstance(call, ast.Call):
        yield from _by_broadcast(node, masks, role)
        return
    bound = bind(spec, call, method=_module_path_free(call))
    ns = local_namespace(node.operands)
    dim = _value(bound["dim"], ns) if "dim" in bound else None
    keepdim = bool(_value(bound["keepdim"], ns)) if "keepdim" in bound else False
    source = bound.get(spec.receiver)
    source = source.id if isinstance(source, ast.Name) else None
    for i, child in enumerate(node.operands):
        value = child.value
        if not isinstance(value, torch.Tensor) or source != f"_p{i}":
            yield child, no_elements(value), role
            continue
        wanted = masks[0]
        if dim is None or value.dim() == 0:
            yield child, [torch.full(value.shape, bool(wanted.any()), dtype=torch.bool)], role
            continue
        dims = sorted(d % value.dim() for d in (dim if isinstance(dim, (tuple, list))
                                                 else (dim,)))
        if not keepdim:
            for d in dims:
                wanted = wanted.unsqueeze(d)
        for d in dims:
            wanted = wanted.any(d, keepdim=True)
        yield child, [wanted.expand(value.shape).clone()], role


def bind(spec: Any, call: ast.Call, *, method: bool) -> dict[str, ast.expr]:
    """A call's arguments by parameter name (the receiver of a ``method`` call as well)."""
    bound: dict[str, ast.expr] = {}
    if method:
        bound[spec.receiver] = call.func.value  # type: ignore[attr-defined]
    params = [p for p in (spec.method_params() if method else spec.params)
              if not p.keyword_only]
    args = list(call.args)
    for p in params:
        if not args:
            break
        if p.varargs:
            bound[p.name] = args[0] if len(args) == 1 else ast.Tuple(args, ast.Load())
            args = []
        else:
            bound[p.name] = args.pop(0)
    for k in call.keywords:
        if k.arg is not None:
            bound[k.arg] = k.value
    return bound


def _module_path_free(call: ast.Call) -> bool:
    """A method call (``_p0.sum(1)``), not a module's function (``torch.sum(_p0, 1)``)."""
    func = call.func
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and func.value.id.startswith("_p")


def _value(expr: ast.expr, namespace: dict[str, Any]) -> Any:
    """A constant part of a template (``dim=1``, ``(0, 1)``), or an operand's value."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return tuple(_value(e, namespace) for e in expr.elts)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _value(expr.operand, namespace)
        return -inner if isinstance(inner, (int, float)) else None
    return expr.value if isinstance(expr, ast.Constant) else None
