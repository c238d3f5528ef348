"""A module's forward call as a graph (``protocol.module_graph_data``), recorded while the
recipe's own call runs: no extra forward pass, so ``if`` and loops in ``forward`` are seen
as they ran, and nothing a forward changes (a BatchNorm's running statistics, the random
state) is touched by the lab.

How: the training watch (``kernel.watch``) registers these hooks beside its own global
forward hook, on the same steps: every call of a statement outside a training loop, and
a live loop's sampled steps only, so a lean step costs nothing more. A module called by
the recipe itself (no other module's call running) may be traced: a forward pre-hook
pushes a ``TorchFunctionMode`` that sees every torch function and tensor method its
``forward`` calls, and pops it when the call returns or raises (its forward hook has
``always_call``). Module calls inside it are seen by the same hooks: a leaf module (no
children) is one node, whatever it calls inside; a container's calls are recorded in its
scope (the window's boxes): ``kernel.module_trace`` records.

A trace costs the call some Python per torch call, so not every call is traced: a
module's first call in each statement is, and its first calls with new input shapes (a
loop's short last batch), and others once ``TRACE_GAP_S`` has passed and traces stay
under ``TRACE_SHARE`` of the time (a 100-layer model's trace takes milliseconds). The
graph is the last traced call's. Only shapes and names are kept; tensors seen during a
trace are held by weak references, and a module's graph goes with it. (Torch's global
pre-hook sees positional arguments only: a tensor passed to ``forward`` by keyword is no
input node, and the calls it feeds have no edge from it.)
"""

from __future__ import annotations

import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from kernel.module_trace import Trace, module_paths, tensors_in
from kernel.summary import loaded_torch
from protocol.module_graph_data import FlowEdge, FlowNode, ModuleGraph
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: A module called again is traced again after this many seconds (or at once when its
#: input shapes change)...
TRACE_GAP_S = 1.0
#: ...but traces take at most this share of the time between them...
TRACE_SHARE = 0.002
#: ...except the first calls with new input shapes, up to this many in a statement.
NEW_SHAPES = 8
#: id(module): (a weak reference to it, its graph)
_graphs: dict[int, tuple[weakref.ref, ModuleGraph]] = {}


def graph_of(module: Any) -> ModuleGraph | None:
    """The graph of ``module``'s last traced call, or None. A module the recipe never
    called itself (``encoder``, called by ``model``) has the part of the last traced
    graph of a module that holds it: the calls inside it, fed and read by ``input`` and
    ``output`` nodes that carry the shapes crossing its border."""
    entry = _graphs.get(id(module))
    if entry is not None and entry[0]() is module:
        return entry[1]
    for ref, graph in reversed(list(_graphs.values())):  # the latest first
        root = ref()
        path = module_paths(root).get(id(module)) if root is not None else None
        if path:
            return part_of(graph, path, type(module).__name__)
    return None


def part_of(graph: ModuleGraph, path: str, kind: str) -> ModuleGraph | None:
    """The calls of ``graph`` made inside the submodule at ``path`` (None: it was not
    called), with paths and scopes relative to it."""
    def inside(p: str) -> bool:
        return p == path or p.startswith(path + ".")

    def local(p: str) -> str:
        return p[len(path) + 1:] if p != path else ""
    keep = [i for i, n in enumerate(graph.nodes)
            if (n.kind == "module" and inside(n.label)) or (n.kind == "function"
                                                             and inside(n.scope))]
    if not keep:
        return None
    kept = set(keep)
    part = ModuleGraph(kind, truncated=graph.truncated, error=graph.error)
    part.containers = {local(p): t for p, t in graph.containers.items()
                       if inside(p) and p != path}
    index: dict[int, int] = {}
    outside: dict[tuple[int, tuple], int] = {}  # (node outside, shape): its input node
    for e in graph.edges:  # the inputs, in the order their tensors came in
        if e.target in kept and e.source not in kept and (e.source, e.shape) not in outside:
            outside[(e.source, e.shape)] = len(part.nodes)
            part.nodes.append(FlowNode("input", graph.nodes[e.source].label, "Tensor"))
    for i in keep:
        n = graph.nodes[i]
        index[i] = len(part.nodes)
        label = local(n.label) or n.label.rpartition(".")[2] if n.kind == "module" else n.label
        part.nodes.append(FlowNode(n.kind, label, n.type,
                                   local(n.scope) if inside(n.scope) else "", n.error))
    out = None
    for e in graph.edges:
        if e.source in index and e.target in index:
            part.edges.append(FlowEdge(index[e.source], index[e.target], e.shape))
        elif e.target in index:
            part.edges.append(FlowEdge(outside[(e.source, e.shape)], index[e.target], e.shape))
        elif e.source in index:
            if out is None:
                out = len(part.nodes)
                part.nodes.append(FlowNode("output", "output", "Tensor"))
            part.edges.append(FlowEdge(index[e.source], out, e.shape))
    return part


def _keep(module: Any, graph: ModuleGraph) -> None:
    key = id(module)

    def forget(dead: weakref.ref) -> None:
        entry = _graphs.get(key)
        if entry is not None and entry[0] is dead:
            _graphs.pop(key, None)
    try:
        _graphs.pop(key, None)  # (kept in the order they were traced)
        _graphs[key] = (weakref.ref(module, forget), graph)
    except TypeError:  # a module without weak references: not kept
        pass



class GraphHooks:
    """The hooks that trace top-level module calls; ``hook(True)`` registers them (after
    the watch's own forward hook), ``hook(False)`` takes them off.

    Parameters
    ----------
    skip : callable
        True while the module calls are the lab's own (the boundary's grid), not traced.
    """

    def __init__(self, skip: Callable[[], bool] = lambda: False) -> None:
        self._skip = skip
        self._handles: list[Any] = []
        self._depth = 0
        self._trace: Trace | None = None
        self._mode: Any = None
        self._busy = False  # our own hooks run: their torch calls are not the forward's
        self._statement = 0
        self._thread = threading.get_ident()  # the recipe's: another's calls are not traced
        #: id(module): (the statement, when its last trace started, what it took, the
        #: input shapes traced in the statement)
        self._last: dict[int, tuple[int, float, float, set]] = {}

    def hook(self, on: bool) -> None:
        from torch.nn.modules.module import (
            register_module_forward_hook,
            register_module_forward_pre_hook,
        )

        if on and not self._handles:
            self._handles = [register_module_forward_pre_hook(self._pre),
                             register_module_forward_hook(self._post, always_call=True)]
        elif not on and self._handles:
            for handle in self._handles:
                handle.remove()
            self._handles = []
            self._end_trace()
            self._depth = 0

    def new_statement(self) -> None:
        """A top-level statement starts: each module's first call in it is traced (and a
        call a Stop cut short is left behind)."""
        self._end_trace()
        self._depth = 0
        self._statement += 1
        self._thread = threading.get_ident()

    def _end_trace(self) -> None:
        self._trace = None
        if self._mode is not None:
            mode, self._mode = self._mode, None
            try:
                mode.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - not on the mode stack any more
                pass

    def _wants(self, module: Any, shapes: tuple, now: float) -> bool:
        last = self._last.get(id(module))
        kept = _graphs.get(id(module))
        if last is None or last[0] != self._statement or kept is None \
                or kept[0]() is not module:
            return True
        _statement, when, took, seen = last
        if shapes not in seen and len(seen) < NEW_SHAPES:
            return True  # a loop's short last batch, a validation batch
        return now >= when + max(TRACE_GAP_S, took / TRACE_SHARE)

    def _pre(self, module: Any, args: tuple) -> None:
        if self._busy or threading.get_ident() != self._thread:
            return
        self._busy = True
        try:
            self._depth += 1
            trace = self._trace
            if trace is not None:
                trace.enter(module, args)
            elif self._depth == 1 and not self._skip():
                now = time.perf_counter()
                shapes = tuple(tuple(t.shape) for t in tensors_in(args, loaded_torch().Tensor, []))
                if type(module).__name__ != "OptimizedModule" \
                        and self._wants(module, shapes, now):
                    self._start(module, args, shapes, now)
        except Exception:  # noqa: BLE001 - the lab's fault: the call runs untraced
            self._end_trace()
        finally:
            self._busy = False

    def _start(self, module: Any, args: tuple, shapes: tuple, now: float) -> None:
        last = self._last.get(id(module))
        seen = last[3] if last is not None and last[0] == self._statement else set()
        seen.add(shapes)
        self._last[id(module)] = (self._statement, now, 0.0, seen)
        self._trace = Trace(module, args, loaded_torch().Tensor)
        self._mode = _mode_class()(self)
        self._mode.__enter__()

    def _post(self, module: Any, _args: tuple, output: Any) -> None:
        if self._busy or threading.get_ident() != self._thread:
            return
        self._busy = True
        try:
            self._depth = max(0, self._depth - 1)
            trace = self._trace
            if trace is None:
                return
            error = sys.exc_info()[1] if output is None else None
            if self._depth > 0:
                trace.leave(output, error)
                return
            self._end_trace()
            if trace.root is module:
                _keep(module, trace.finish(output, error))
                last = self._last.get(id(module))
                if last is not None:
                    took = time.perf_counter() - last[1]
                    self._last[id(module)] = (last[0], last[1], took, last[3])
        except Exception:  # noqa: BLE001 - the lab's fault: the call's graph is not kept
            self._end_trace()
        finally:
            self._busy = False

    def torch_call(self, func: Any, args: tuple, kwargs: dict) -> Any:
        """What the mode does with each torch call of a traced forward."""
        trace = self._trace
        if trace is None or self._busy or trace.inside_leaf:
            return func(*args, **kwargs)
        try:
            output = func(*args, **kwargs)
        except Exception as e:
            self._record(trace, func, args, kwargs, None, e)
            raise
        self._record(trace, func, args, kwargs, output, None)
        return output

    def _record(self, trace: Trace, func: Any, args: tuple, kwargs: dict, output: Any,
                error: BaseException | None) -> None:
        try:
            trace.call(func, args, kwargs, output, error)
        except Exception:  # noqa: BLE001 - the lab's fault: this call is left out
            pass


_MODE: Any = None


def _mode_class() -> type:
    """The ``TorchFunctionMode`` of a trace (made once torch is loaded)."""
    global _MODE  # noqa: PLW0603 - torch is imported by the recipe, not by the kernel
    if _MODE is None:
        from torch.overrides import TorchFunctionMode

        class Tracing(TorchFunctionMode):
            def __init__(self, hooks: GraphHooks) -> None:
                super().__init__()
                self.hooks = hooks

            def __torch_function__(self, func, types, args=(), kwargs=None):
                return self.hooks.torch_call(func, args, kwargs or {})

        _MODE = Tracing
    return _MODE
