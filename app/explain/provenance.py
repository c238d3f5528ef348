"""Provenance: which input elements an output element comes from.

One mechanism for every op. A step's expression is split into nodes (each call,
operator, subscript or attribute), evaluated once forwards, and then a mask of
"wanted" elements travels backwards from the chosen output element, through
each node in turn, to the recipe tensors the expression reads:

- ops that move elements without looking at their values (``OpSpec.provenance ==
  "ids"``: view, transpose, gather, cat, tril, masked_fill, indexing ...) are run
  again with each operand replaced by unique ids, twice with different offsets;
  output elements whose value moved by exactly the offset came from that id.
  An operand that cannot be replaced (an index or a mask: the op fails or changes
  shape) is a *control* operand: its entries are changed one at a time to see which
  ones choose the wanted elements (gather's index entry);
- arithmetic and reductions (matmul, sum, softmax ...) ask autograd: the operands
  become random float64 leaves and the wanted outputs are back-propagated;
- ``"elementwise"`` ops map each output element to the broadcast-aligned operand
  elements, and ``"reduction"`` ops to every element along the reduced ``dim``.

Everything is evaluated with ``app.recipe.evaluator``, so only catalogue entries run.
The caller's tensors are never modified and the global random state is kept.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from app.catalog import CATALOG
from app.expr import Attr, BinOp, Call, Const, Expr, Ref, Seq, Slice, Subscript, UnaryOp, references
from app.recipe.evaluator import evaluate_expr

#: Offsets added to the ids in the two tracing runs; far above any real index, so an
#: index or mask operand replaced by ids always fails, and exact in float64.
OFFSET_A, OFFSET_B = 2**32, 2**33
#: Control operands (indices, masks) with more entries than this are not probed.
MAX_PROBED_ENTRIES = 4096

_MOVING_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "data"})
_ELEMENTWISE_OPERATORS = frozenset({"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "==",
                                    "!=", "<", "<=", ">", ">="})

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


def sources(expr: Expr, inputs: Mapping[str, Any], out_index: Index, *,
            part: int | None = None) -> dict[str, list[Index]]:
    """Indices of the input elements that output element ``out_index`` comes from.

    Parameters
    ----------
    expr : Expr
        A step's expression, usually a ``Call`` such as ``torch.gather(x, 1, idx)``.
    inputs : mapping
        Values of the names ``expr`` reads (a run's namespace will do).
    out_index : tuple of int
        The output element, one index per dimension (``()`` for a 0-D result).
    part : int, optional
        For ops that return several tensors (``chunk``, ``split``), which one.

    Returns
    -------
    dict
        Input name to a list of its element indices, in row-major order. An input that
        holds several tensors (the result of ``chunk`` or ``split``) gives the part number
        as each index's first entry.
    """
    return trace(expr, inputs, out_index, part=part).sources


def trace(expr: Expr, inputs: Mapping[str, Any], out_index: Index, *,
          part: int | None = None) -> Provenance:
    """Like ``sources``, and also the index and mask entries that were used."""
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        namespace = {k: _copy(inputs[k]) for k in references(expr)}
        root = _forward(expr, namespace)
        outputs = _tensors(root.value)
        if not outputs:
            raise ValueError("the expression's value is not a tensor")
        which = part if part is not None else 0
        if not 0 <= which < len(outputs):
            raise IndexError(f"part {which} of {len(outputs)}")
        target = outputs[which]
        index = tuple(int(i) for i in out_index)
        if len(index) != target.dim():
            raise IndexError(f"{len(index)} indices for a {target.dim()}-D result")
        for i, size in zip(index, target.shape, strict=True):
            if not -size <= i < size:
                raise IndexError(f"index {i} out of range for size {size}")
        masks = [torch.zeros(t.shape, dtype=torch.bool) for t in outputs]
        masks[which][index] = True
        found = _Found(namespace)
        _backward(root, masks, "sources", found)
        return found.result()


# -- the forward pass ----------------------------------------------------------------------
@dataclass
class _Node:
    expr: Expr
    template: Expr  # expr with each operand replaced by Ref("_p<i>")
    operands: list[_Node]
    value: Any


def _forward(expr: Expr, namespace: dict[str, Any]) -> _Node:
    if isinstance(expr, Ref):
        return _Node(expr, expr, [], namespace[expr.name])
    if isinstance(expr, Const):
        return _Node(expr, expr, [], expr.value)
    template, parts = _split(expr)
    operands = [_forward(p, namespace) for p in parts]
    value = evaluate_expr(template, _local(operands))
    return _Node(expr, template, operands, value)


def _split(expr: Expr) -> tuple[Expr, list[Expr]]:
    """``expr`` with its operands (sub-expressions that are nodes themselves) taken out."""
    parts: list[Expr] = []

    def sub(e: Expr) -> Expr:
        if isinstance(e, Const):
            return e
        if isinstance(e, Seq):
            return Seq(tuple(sub(i) for i in e.items), e.kind)
        if isinstance(e, Slice):
            return Slice(*(None if p is None else sub(p) for p in (e.lower, e.upper, e.step)))
        parts.append(e)
        return Ref(f"_p{len(parts) - 1}")

    if isinstance(expr, Call):
        template: Expr = Call(expr.op, tuple(sub(a) for a in expr.args),
                              tuple((k, sub(v)) for k, v in expr.kwargs))
    elif isinstance(expr, BinOp):
        template = BinOp(expr.op, sub(expr.left), sub(expr.right))
    elif isinstance(expr, UnaryOp):
        template = UnaryOp(expr.op, sub(expr.operand))
    elif isinstance(expr, Subscript):
        template = Subscript(sub(expr.value), sub(expr.index))
    elif isinstance(expr, Attr):
        template = Attr(sub(expr.value), expr.name)
    elif isinstance(expr, Seq):
        template = Seq(tuple(sub(i) for i in expr.items), expr.kind)
    elif isinstance(expr, Slice):
        template = Slice(*(None if p is None else sub(p)
                           for p in (expr.lower, expr.upper, expr.step)))
    else:
        template = expr
    return template, parts


def _local(operands: list[_Node], **replace: Any) -> dict[str, Any]:
    """The namespace a template is evaluated in: fresh copies, so in-place ops harm nothing."""
    ns = {f"_p{i}": _copy(node.value) for i, node in enumerate(operands)}
    ns.update(replace)
    return ns


def _copy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(_copy(v) for v in value)
    return value


def _tensors(value: Any) -> list[torch.Tensor]:
    """The tensors a value holds: itself, or the items of a flat tuple or list."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, torch.Tensor)]
    return []


# -- the backward pass ---------------------------------------------------------------------
class _Found:
    """Wanted elements of the named inputs, as bool masks, per role."""

    def __init__(self, namespace: dict[str, Any]):
        self.namespace = namespace
        self.masks: dict[str, dict[str, list[torch.Tensor]]] = {"sources": {}, "used": {}}

    def add(self, role: str, name: str, masks: list[torch.Tensor]) -> None:
        have = self.masks[role].get(name)
        if have is None:
            self.masks[role][name] = [m.clone() for m in masks]
        else:
            for a, b in zip(have, masks, strict=True):
                a |= b

    def result(self) -> Provenance:
        def indices(name: str, masks: list[torch.Tensor]) -> list[Index]:
            # an input holding several tensors (from chunk or split) prefixes the part
            prefix = isinstance(self.namespace.get(name), (list, tuple))
            out: list[Index] = []
            for part, m in enumerate(masks):
                out.extend(((part,) if prefix else ()) + tuple(int(i) for i in row)
                           for row in m.nonzero().tolist())
            return out

        from_data = {name: indices(name, m) for name, m in self.masks["sources"].items()}
        chosen_by = {name: indices(name, m) for name, m in self.masks["used"].items()}
        for name in chosen_by:
            from_data.setdefault(name, [])
        return Provenance(from_data, {name: e for name, e in chosen_by.items() if e})


def _backward(node: _Node, masks: list[torch.Tensor], role: str, found: _Found) -> None:
    """Carry the wanted elements of ``node``'s value down to the inputs it reads."""
    if isinstance(node.expr, Ref):
        if _tensors(node.value):
            found.add(role, node.expr.name, masks)
        return
    if not node.operands:
        return
    if not any(bool(m.any()) for m in masks):
        for child in node.operands:  # still list every input read, with no elements
            _backward(child, _empty(child.value), role, found)
        return
    for child, child_masks, child_role in _rule(node, masks, role):
        _backward(child, child_masks, child_role, found)


def _empty(value: Any) -> list[torch.Tensor]:
    return [torch.zeros(t.shape, dtype=torch.bool) for t in _tensors(value)]


def _kind(node: _Node) -> str:
    expr = node.expr
    if isinstance(expr, Call):
        spec = CATALOG.get(expr.op)
        if spec is None or spec.category in ("creation", "random", "output"):
            return "none"  # a new tensor: its values do not come from its arguments
        return spec.provenance
    if isinstance(expr, BinOp):
        return "elementwise" if expr.op in _ELEMENTWISE_OPERATORS else "grad"
    if isinstance(expr, UnaryOp):
        return "elementwise"
    if isinstance(expr, Subscript):
        return "ids"
    if isinstance(expr, Attr):
        return "ids" if expr.name in _MOVING_ATTRIBUTES else "none"
    if isinstance(expr, Seq):
        return "ids"
    return "none"


_Edge = tuple[_Node, list[torch.Tensor], str]  # operand, its wanted elements, role


def _rule(node: _Node, masks: list[torch.Tensor], role: str) -> Iterator[_Edge]:
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
            yield child, _empty(child.value), role


def _ids(value: Any, offset: int, start: int = 0) -> Any:
    """``value`` with every tensor element replaced by a unique id plus ``offset``.

    Ids count up from ``start``, so operands given different starts never share one.
    """

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
    ta, tb = _tensors(a), _tensors(b)
    return len(ta) == len(tb) and all(x.shape == y.shape for x, y in zip(ta, tb, strict=True))


def _by_ids(node: _Node, masks: list[torch.Tensor], role: str) -> Iterator[_Edge]:
    traced: dict[int, Any] = {}
    control: list[int] = []
    results: dict[int, list[torch.Tensor]] = {}
    for i, child in enumerate(node.operands):
        if not _tensors(child.value):
            continue
        try:
            a = evaluate_expr(node.template, _local(node.operands, **{f"_p{i}": _ids(
                child.value, OFFSET_A)}))
            b = evaluate_expr(node.template, _local(node.operands, **{f"_p{i}": _ids(
                child.value, OFFSET_B)}))
        except Exception:  # noqa: BLE001 - an index or a mask cannot be replaced by ids
            control.append(i)
            continue
        if not (_same_layout(a, node.value) and _same_layout(b, node.value)):
            control.append(i)
            continue
        decoded = _decode(_tensors(a), _tensors(b), masks, child.value)
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
            yield child, _empty(child.value), role


def _decode(a: list[torch.Tensor], b: list[torch.Tensor], masks: list[torch.Tensor],
            operand: Any) -> list[torch.Tensor] | None:
    """Which operand elements the wanted output elements are, from the two id runs."""
    pieces = _tensors(operand)
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


def _probe(node: _Node, i: int, masks: list[torch.Tensor],
           traced: dict[int, Any]) -> list[torch.Tensor]:
    """Entries of control operand ``i`` (an index or a mask) that pick the wanted elements.

    Each entry is changed in turn (a mask entry flipped, an index moved by one); the ones
    whose change alters a wanted output element are the ones used.
    """
    control = node.operands[i].value
    pieces = _tensors(control)
    used = [torch.zeros(p.shape, dtype=torch.bool) for p in pieces]
    if len(pieces) != 1 or pieces[0].numel() > MAX_PROBED_ENTRIES:
        return used
    original = pieces[0]
    data: dict[str, Any] = {}
    start = 0
    for k, value in traced.items():  # every data operand gets ids of its own
        data[f"_p{k}"] = _ids(value, OFFSET_A, start)
        start += sum(t.numel() for t in _tensors(value))
    try:
        base = _tensors(evaluate_expr(node.template, _local(node.operands, **data)))
    except Exception:  # noqa: BLE001
        return used
    flat = original.detach().contiguous().reshape(-1)
    for pos in range(flat.numel()):
        for changed in _changes(flat, pos):
            probe = changed.reshape(original.shape)
            try:
                out = _tensors(evaluate_expr(node.template, _local(
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
    if flat.dtype == torch.bool:
        changed = flat.clone()
        changed[pos] = ~changed[pos]
        yield changed
        return
    for step in (1, -1):
        changed = flat.clone()
        changed[pos] += step
        yield changed


def _by_grad(node: _Node, masks: list[torch.Tensor], role: str) -> Iterator[_Edge]:
    """Autograd at a random point: which operand elements the wanted outputs depend on."""
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
            out = _tensors(evaluate_expr(node.template, _local(node.operands, **replace)))
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
            yield child, _empty(child.value), role
        else:
            yield child, [(g != 0) | g.isnan()], role


def _by_broadcast(node: _Node, masks: list[torch.Tensor], role: str) -> Iterator[_Edge]:
    """Each output element comes from the element of every operand aligned with it."""
    wanted = masks[0] if len(masks) == 1 else None
    for child in node.operands:
        value = child.value
        if not isinstance(value, torch.Tensor):
            yield child, _empty(value), role
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


def _by_reduction(node: _Node, masks: list[torch.Tensor], role: str) -> Iterator[_Edge]:
    """Each output element comes from every element along the reduced dims."""
    expr = node.template
    spec = CATALOG.get(expr.op) if isinstance(expr, Call) else None
    if spec is None or not isinstance(expr, Call):
        yield from _by_broadcast(node, masks, role)
        return
    bound = spec.bind(expr)
    ns = _local(node.operands)
    dim = evaluate_expr(bound["dim"], ns) if "dim" in bound else None
    keepdim = bool(evaluate_expr(bound["keepdim"], ns)) if "keepdim" in bound else False
    source = bound.get(spec.receiver) if not (isinstance(expr, Call) and expr.is_method) \
        else expr.args[0]
    for i, child in enumerate(node.operands):
        value = child.value
        if not isinstance(value, torch.Tensor) or source != Ref(f"_p{i}"):
            yield child, _empty(value), role
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
