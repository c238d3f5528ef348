"""What the window's explanations ask the kernel: queries this layer adds to it.

The kernel (``app.kernel``) knows nothing of autograd graphs or storage maps; the window
has its kernel load this module (``protocol.Warm.modules``), which registers:

- ``autograd``: a tensor's backward graph, read from its ``grad_fn`` chain in the kernel,
  and the grad facts of the tensor inspected (``app.explain.autograd_data``), with what
  the Backward page offers: the tensors that could be its ``gradient`` and the leaves
  whose ``.grad`` holds something to zero.
- ``storage``: which of the run's tensors share memory (``app.explain.storage``), and for
  the one selected, one copy of its memory (when small) with the shape, strides and
  offset of it and of the tensor it is shown beside: the window lays both over the copy.

Runs in the kernel process, on its reader thread; torch is imported there already.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import torch

from app.explain.autograd_data import facts_data, graph_data
from app.explain.autograd_graph import build_graph, grad_facts
from app.explain.autograd_steps import gradient_candidates, leaves_with_grad
from app.explain.storage import partner, storage_map
from app.kernel.mirror import MIRROR_CELLS, encode
from app.kernel.queries import QueryError, Values, register
from app.recipe.evaluator import RecipeRun


def _autograd(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    name = str(args["name"])
    value = values.get(int(args.get("run", 0)), int(args["statement"]), name)
    if not isinstance(value, torch.Tensor):
        raise QueryError(f"{name} is not a tensor")
    namespace = values.user_namespace(int(args.get("run", 0)))
    run = RecipeRun(namespace=namespace)
    graph = build_graph(value, run, name, saved=bool(args.get("saved")))
    out: dict[str, Any] = {"graph": graph_data(graph), "requires_grad": value.requires_grad,
                           "numel": value.numel(),
                           "leaves_with_grad": leaves_with_grad(run, nonzero=True)}
    inspect = str(args.get("inspect") or name)
    shown = value if inspect == name else namespace.get(inspect)
    if isinstance(shown, torch.Tensor):
        out["facts"] = facts_data(grad_facts(shown, inspect, run))
    out["gradients"] = gradient_candidates(namespace, name, value)
    return out


def _storage(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    namespace = values.user_namespace(int(args.get("run", 0)))
    entries = storage_map(namespace)
    out: dict[str, Any] = {"entries": [asdict(e) for e in entries]}
    name = args.get("name")
    if not name or all(e.name != name for e in entries):
        return out
    shown = [name, *(n for n in partner(entries, name) or () if n != name)]
    t = namespace[name]
    if any(namespace[n].dtype != t.dtype for n in shown):
        shown = [name]  # a view of another dtype: the selected tensor alone
    cells = t.untyped_storage().nbytes() // max(t.element_size(), 1)
    if cells > MIRROR_CELLS or t.layout != torch.strided or t.is_quantized:
        return out
    # the whole storage, once: the window lays the tensors over it with their own
    # strides and offsets, so they share its copy as they share the memory here
    flat = torch.empty(0, dtype=t.dtype, device=t.device).set_(
        t.untyped_storage(), 0, (cells,), (1,))
    out["storage"] = encode(flat.detach())
    out["layouts"] = {n: [list(namespace[n].shape), list(namespace[n].stride()),
                          namespace[n].storage_offset()] for n in shown}
    return out


register("autograd", _autograd)
register("storage", _storage)
