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

It runs in the kernel (the ``provenance`` query, ``kernel.explain.provenance_query``), on the
values the step read as they were before it ran, over the statement's own ``ast``: only
catalogue entries, Python's operators, subscripts and tensor attributes run
(``kernel.explain.provenance_nodes.evaluate``), never a function of the recipe's. The
caller's tensors are never modified and the global random state is kept.
The forward pass lives in ``kernel.explain.provenance_nodes``, the rules for each kind of op
in ``kernel.explain.provenance_rules``; this module walks the masks between them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kernel.explain.provenance_nodes import (
    OpNode,
    copy_value,
    expression_of,
    forward,
    names_read,
    no_elements,
    tensors_in,
)
from kernel.explain.provenance_rules import rule
from protocol.provenance_data import Index, Provenance, facts_table
from protocol.sealed import BUILTINS

if TYPE_CHECKING:
    import torch

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's
__all__ = ["Provenance", "sources", "trace"]


def sources(expr: ast.expr | str, inputs: Mapping[str, Any], out_index: Index, *,
            part: int | None = None, ops: Mapping[str, Any] | None = None,
            ) -> dict[str, list[Index]]:
    """Indices of the input elements that output element ``out_index`` comes from.

    Parameters
    ----------
    expr : ast.expr or str
        A step's expression (``torch.gather(x, 1, idx)``), or a statement's text whose
        value it is (``y = torch.gather(x, 1, idx)``).
    inputs : mapping
        Values of the names ``expr`` reads (a run's namespace will do).
    out_index : tuple of int
        The output element, one index per dimension (``()`` for a 0-D result).
    part : int, optional
        For ops that return several tensors (``chunk``, ``split``), which one.
    ops : mapping, optional
        The calls it may make: ``OpFacts`` (or their data) by ``call_key``, as the window
        names them from its catalogue (``app.explain.op_facts.op_table``); none by default.

    Returns
    -------
    dict
        Input name to a list of its element indices, in row-major order. An input that
        holds several tensors (the result of ``chunk`` or ``split``) gives the part number
        as each index's first entry.
    """
    return trace(expr, inputs, out_index, part=part, ops=ops).sources


def trace(expr: ast.expr | str, inputs: Mapping[str, Any], out_index: Index, *,
          part: int | None = None, ops: Mapping[str, Any] | None = None) -> Provenance:
    """Like ``sources``, and also the index and mask entries that were used."""
    return Provenance.from_data(trace_data(expr, inputs, out_index, part=part, ops=ops))


def trace_data(expr: ast.expr | str, inputs: Mapping[str, Any], out_index: Index, *,
               part: int | None = None, ops: Mapping[str, Any] | None = None,
               ) -> dict[str, Any]:
    """``trace``'s answer as the ``provenance`` query sends it (``Provenance.from_data``
    reads it): a bool mask of each input, not a list per element."""
    import torch

    if isinstance(expr, str):
        expr = expression_of(expr)
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        namespace = {k: copy_value(inputs[k]) for k in names_read(expr) if k in inputs}
        root = forward(expr, namespace, facts_table(ops))
        outputs = tensors_in(root.value)
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
        return found.data()


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

    def data(self) -> dict[str, Any]:
        """As a query answers (``Provenance.from_data``): bool masks as numpy arrays."""
        return {role: {name: [m.numpy().copy() for m in masks]
                       for name, masks in found.items()}
                for role, found in self.masks.items()} | {"parts": [
                    # an input holding several tensors (from chunk or split) has parts
                    name for name, value in self.namespace.items()
                    if isinstance(value, (list, tuple))]}


def _backward(node: OpNode, masks: list[torch.Tensor], role: str, found: _Found) -> None:
    """Carry the wanted elements of ``node``'s value down to the inputs it reads."""
    if node.name is not None:
        if tensors_in(node.value):
            found.add(role, node.name, masks)
        return
    if not node.operands:
        return
    if not any(bool(m.any()) for m in masks):
        for child in node.operands:  # still list every input read, with no elements
            _backward(child, no_elements(child.value), role, found)
        return
    for child, child_masks, child_role in rule(node, masks, role):
        _backward(child, child_masks, child_role, found)

