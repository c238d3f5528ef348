"""What the window's explanations ask the kernel: queries this layer adds to it.

The kernel's own modules know nothing of autograd graphs or storage maps; the window
has its kernel load this module (``messages.Warm.modules``), which registers:

- ``autograd``: a tensor's backward graph, read from its ``grad_fn`` chain in the kernel,
  and the grad facts of the tensor inspected (``protocol.autograd_data``), with what
  the Backward page offers: the tensors that could be its ``gradient`` and the leaves
  whose ``.grad`` holds something to zero.
- ``storage``: which of the run's tensors and NumPy arrays share memory
  (``kernel.explain.storage``), and for the one selected, small copies of it and of the one
  it is shown beside, with their strides, and the base's elements the view reads.
- ``derivative``: a Jacobian or Hessian (``kernel.explain.derivatives``), the steps from
  the input to the output run again in the kernel with the input put in.
- ``timing``: a form step's expression timed on one device (``kernel.explain.step_timing``),
  its inputs copied there.
- ``text``: a tensor written as Python or as CSV (``protocol.tensor_text``), for the clipboard
  and the Save as CSV dialog.
- ``heatmap``: a big plane of a tensor as the viewer's heatmap draws it, pooled here
  (``kernel.explain.heatmap``): the mean of each block of cells, blocks as the ``tensor``
  query's sample steps for the same ``cells``, and the colour levels of the whole plane.

Runs in the kernel process, on its reader thread; torch is imported there already.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import torch

from kernel.explain.autograd_facts import facts_data, gradient_candidates, leaves_with_grad
from kernel.explain.autograd_graph import build_graph, grad_facts
from kernel.explain.autograd_source import SourceRun, source_run
from kernel.explain.derivatives import FunctionError, derivative_in
from kernel.explain.heatmap import pooled
from kernel.explain.step_timing import time_text
from kernel.explain.storage import as_tensor, covered, storage_map
from kernel.mirror import encode
from kernel.queries import QueryError, Values, register, sample_steps
from protocol.autograd_data import graph_data, text_data
from protocol.storage import partner
from protocol.tensor_text import tensor_csv, tensor_literal


def recipe_run(values: Values, run_id: int) -> SourceRun:
    """The run as the explanations read it: its namespace, and the statements of its text
    (how each value was made: ``detach()``, ``backward()``...), read with ``ast``, with
    those that ran."""
    return source_run(values.source, values.user_namespace(run_id), values.finished())


def _autograd(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    name = str(args["name"])
    value = values.get(int(args.get("run", 0)), int(args["statement"]), name)
    if not isinstance(value, torch.Tensor):
        raise QueryError(f"{name} is not a tensor")
    run = recipe_run(values, int(args.get("run", 0)))
    namespace = run.namespace
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
        if data is not None:
            out["tensors"][n] = data
    if pair is not None and all(shown[n] is not None and n in out["tensors"] for n in pair):
        out["mask"] = covered(shown[pair[0]], shown[pair[1]]).numpy().copy()
    return out


def _text(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """A tensor as Python (``format`` ``literal``) or CSV (``csv``), written by
    ``protocol.tensor_text``."""
    name = str(args["name"])
    value = values.get(int(args.get("run", 0)), int(args["statement"]), name)
    if not isinstance(value, torch.Tensor):
        raise QueryError(f"{name} is not a tensor")
    try:
        return {"text": tensor_literal(value) if args.get("format") == "literal"
                else tensor_csv(value)}
    except ValueError as e:
        raise QueryError(str(e)) from None


def _derivative(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """The Jacobian or Hessian (``kind``) of ``output`` with respect to ``input``, the
    statements of the run's text between them run again with the input put in."""
    namespace = values.user_namespace(int(args.get("run", 0)))
    x_name, out_name = str(args["input"]), str(args["output"])
    try:
        matrix = derivative_in(str(args["kind"]), namespace, x_name, out_name,
                               values.source)
    except FunctionError as e:
        return {"why": text_data(e.args[0])}
    except (RuntimeError, TypeError, ValueError) as e:
        raise QueryError(str(e)) from None
    return {"matrix": encode(matrix.detach())}  # at most MAX_JACOBIAN_CELLS: it fits


def _heatmap(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """The heatmap of one plane of a tensor (``rows``, ``cols``, ``fixed`` as for the
    ``tensor`` query) at about ``cells`` pixels: ``image`` (block means, NaN where a
    block holds a NaN or an inf), ``levels`` (the whole plane's finite range) and
    ``block`` (the cells of the plane each pixel stands for, rows and columns)."""
    from kernel import tensor_kinds
    from kernel.tensor_info import plane

    name = str(args["name"])
    value = values.get(int(args.get("run", 0)), int(args["statement"]), name)
    if not isinstance(value, torch.Tensor):
        raise QueryError(f"{name} is not a tensor")
    t = tensor_kinds.dense(value)
    if t is None:
        raise QueryError(tensor_kinds.no_values(value))
    fixed = {int(d): int(i) for d, i in (args.get("fixed") or {}).items()}
    try:
        p = plane(t, int(args.get("rows", 0)), int(args.get("cols", 1)), fixed)
        rows, cols = p.shape
        block = (1, 1) if rows * cols <= int(args["cells"]) else \
            sample_steps(rows, cols, int(args["cells"]))
        image, levels = pooled(p, block)
    except (IndexError, ValueError, RuntimeError, NotImplementedError, TypeError) as e:
        raise QueryError(str(e)) from None
    return {"image": image, "levels": list(levels), "block": list(block)}


def _timing(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """How long the expression ``text`` takes on ``device`` (``kernel.explain.step_timing``)."""
    namespace = values.user_namespace(int(args.get("run", 0)))
    return asdict(time_text(str(args["text"]), namespace, list(args.get("reads", ())),
                            str(args["device"]), float(args.get("min_run_time", 0.2))))


register("autograd", _autograd)
register("timing", _timing)
register("derivative", _derivative)
register("text", _text)
register("storage", _storage)
register("heatmap", _heatmap)
