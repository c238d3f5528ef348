"""What the window's explanations ask the kernel: queries this layer adds to it.

The kernel (``app.kernel``) knows nothing of autograd graphs or storage maps; the window
has its kernel load this module (``protocol.Warm.modules``), which registers:

- ``autograd``: a tensor's backward graph, read from its ``grad_fn`` chain in the kernel,
  and the grad facts of the tensor inspected (``app.explain.autograd_data``), with what
  the Backward page offers: the tensors that could be its ``gradient`` and the leaves
  whose ``.grad`` holds something to zero.
- ``storage``: which of the run's tensors and NumPy arrays share memory
  (``app.explain.storage``), and for the one selected, small copies of it and of the one
  it is shown beside, with their strides, and the base's elements the view reads.

Runs in the kernel process, on its reader thread; torch is imported there already.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import torch

from app.explain.autograd_data import facts_data, graph_data
from app.explain.autograd_graph import build_graph, grad_facts
from app.explain.autograd_steps import gradient_candidates, leaves_with_grad
from app.explain.storage import as_tensor, covered, partner, storage_map
from app.kernel.mirror import encode
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
    out: dict[str, Any] = {"entries": [asdict(e) for e in entries], "tensors": {}}
    name = args.get("name")
    if not name or all(e.name != name for e in entries):
        return out
    pair = partner(entries, name)
    shown = {n: as_tensor(namespace[n]) for n in (name, *(pair or ()))}
    for n, t in shown.items():
        data = encode(t) if t is not None else None
        if data is not None:  # the window gives the copy the strides it has here
            data["strides"] = list(t.stride())
            out["tensors"][n] = data
    if pair is not None and all(shown[n] is not None and n in out["tensors"] for n in pair):
        out["mask"] = covered(shown[pair[0]], shown[pair[1]]).numpy().copy()
    return out


register("autograd", _autograd)
register("storage", _storage)
