"""What the window's views ask the kernel about the values of its last run.

Runs in the kernel process, on its reader thread: a view may ask while the recipe still
runs (a finished step's tensor, shown while a training loop goes on). Large tensors stay
in the kernel, as in spyder-kernels; a view asks for the part it shows:

- ``tensor``: a tensor's facts and statistics (``kernel.tensor_info``) and one 2-D
  plane of it, at most ``cells`` cells (``MAX_PLANE_CELLS`` at most): past that, an even
  sample of its rows and columns, whose steps the answer gives. A heatmap asks for about
  its own resolution; the grid for every cell.
- ``devices``: the devices of the kernel's machine and its torch build
  (``kernel.machine``), for the window's device menus, status bar and About box.
- ``module``: an ``nn.Module``'s tree (``kernel.modules``, ``protocol.module_data``):
  the value ``name`` bound by ``statement`` (or, without one, the run's variable), or its
  submodule at ``path`` (``"features.0"``), with each module's own parameters and
  buffers and the shapes of its last call.
- ``module_graph``: the same module's last traced forward call as a graph of its leaf
  modules and the torch calls between them, shapes on the edges
  (``kernel.module_graph``, ``protocol.module_graph_data``).
- ``attention``: the attention calls of the run (``kernel.attention``), and one sample's
  weights of one of them, per head.
- ``activation``: one sample of a module's last output (``kernel.activations``).
- ``files`` and ``file``: the files of the folder the recipe runs in, and one's bytes
  (``kernel.files``: a server's work folder, for the window's download).
- ``step_values``: a form step's tensors too large to come with its report, copied for
  Op explained (up to ``limits.ASKED_CELLS`` cells each), as long as no later statement
  changed them in place (``Tensor._version`` tells).

The window's explanations add their own kinds (``register``; the modules come with
``messages.Warm``), such as ``autograd`` and ``storage`` (``kernel.explain.kernel_queries``).

Each answer is plain data; numpy arrays travel as raw frames beside it (``protocol``).
"""

from __future__ import annotations

import math
import threading
from typing import Any

from kernel import files
from kernel.machine import machine_answer
from kernel.modules import describe
from kernel.summary import loaded_torch
from protocol.limits import MAX_PLANE_CELLS
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's



class QueryError(Exception):
    """Why a query has no answer (said to the view, never raised in the window)."""


class Values:
    """The objects each top-level statement of the last window run bound or changed.

    They are the objects themselves, not copies: a later statement that changes one in
    place changes what is shown, as a variable explorer would.
    """

    def __init__(self) -> None:
        self.run_id = 0
        self._by_statement: dict[int, dict[str, Any]] = {}
        self._lock = threading.Lock()
        #: The run's namespace itself (names a graph's leaves, as the recipe calls them).
        self.namespace: dict[str, Any] = {}
        #: The text the run runs (its steps tell the explanations how a value was made).
        self.source = ""
        #: For each form statement, the tensors too large to copy with its report,
        #: stamped (``mirror.stamp``): ``inputs`` as it read them, and its ``output``.
        self._large: dict[int, dict] = {}

    def start(self, run_id: int, keep_before: int = 0, source: str = "") -> None:
        """A new run of ``source``: statements from ``keep_before`` on will report again."""
        with self._lock:
            self.run_id, self.source = run_id, source
            self._by_statement = {i: v for i, v in self._by_statement.items()
                                  if i < keep_before}
            self._large = {i: v for i, v in self._large.items() if i < keep_before}

    def keep_large(self, index: int, inputs: dict[str, tuple], output: tuple | None) -> None:
        """Statement ``index``'s tensors too large to copy with its report, stamped."""
        if inputs or output is not None:
            with self._lock:
                self._large[index] = {"inputs": inputs, "output": output}

    def large(self, run_id: int, statement: int) -> dict:
        with self._lock:
            if run_id != self.run_id:
                raise QueryError("that run is over: a newer one replaced it")
            return self._large.get(statement, {"inputs": {}, "output": None})

    def finished(self) -> set[int]:
        """The statements of the run that have run (their values are kept)."""
        with self._lock:
            return set(self._by_statement)

    def keep(self, index: int, namespace: dict[str, Any], names: list[str]) -> None:
        with self._lock:
            self._by_statement[index] = {n: namespace[n] for n in names if n in namespace}

    def user_namespace(self, run_id: int) -> dict[str, Any]:
        """The run's namespace without its dunder names (a copy of the mapping, not of
        the values); ``QueryError`` when a newer run replaced that run."""
        with self._lock:
            if run_id != self.run_id:
                raise QueryError("that run is over: a newer one replaced it")
            return {n: v for n, v in list(self.namespace.items()) if not n.startswith("__")}

    def get(self, run_id: int, statement: int, name: str) -> Any:
        with self._lock:
            if run_id != self.run_id:
                raise QueryError("that run is over: a newer one replaced it")
            bound = self._by_statement.get(statement, {})
            head, _, rest = name.partition(".")
            if name not in bound and not (rest and head in bound):
                raise QueryError(f"statement {statement + 1} left no value named {name!r}")
            return bound[name] if name in bound else module_part(bound[head], rest)


def module_part(module: Any, path: str) -> Any:
    """A module's submodule, parameter or buffer by its dotted ``path`` (``conv1.weight``),
    read from the modules' own dicts as ``named_parameters`` reads them: no attribute of
    the recipe's classes is called."""
    torch, value = loaded_torch(), module
    for part in path.split("."):
        own = vars(value) if torch is not None and isinstance(value, torch.nn.Module) else {}
        for kind in ("_modules", "_parameters", "_buffers"):
            found = (own.get(kind) or {}).get(part)
            if found is not None:
                value = found
                break
        else:
            raise QueryError(f"no module, parameter or buffer named {path!r}")
    return value


def answer(values: Values, kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """The data for query ``kind``; ``QueryError`` says why there is none."""
    handler = _HANDLERS.get(kind)
    if handler is None and loaded.wait(_LOAD_WAIT_S):  # still loading: wait for it
        handler = _HANDLERS.get(kind)
    if handler is None:
        raise QueryError(f"no such query: {kind!r}")
    return handler(values, args)


def _tensor(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    torch = loaded_torch()
    value = values.get(int(args.get("run", 0)), int(args["statement"]), str(args["name"]))
    if torch is None or not isinstance(value, torch.Tensor):
        raise QueryError(f"{args['name']} is not a tensor")
    from kernel import tensor_kinds
    from kernel.tensor_info import plane, plane_array, tensor_facts, tensor_stats

    out: dict[str, Any] = {"facts": tensor_facts(value),  # its graph too
                           "shape": None if value.is_nested else list(value.shape)}
    if args.get("stats", True):
        out["stats"] = tensor_stats(value)
    t = tensor_kinds.dense(value)  # sparse made dense, quantized dequantized
    if t is None:  # meta, nested, a huge sparse one: the answer says why
        out["plane_error"] = tensor_kinds.no_values(value)
        return out
    fixed = {int(d): int(i) for d, i in (args.get("fixed") or {}).items()}
    try:
        p = plane(t, int(args.get("rows", 0)), int(args.get("cols", 1)), fixed)
    except (IndexError, ValueError, RuntimeError, NotImplementedError, TypeError) as e:
        out["plane_error"] = str(e)
        return out
    rows, cols = p.shape
    step_r = step_c = 1
    cells = min(int(args.get("cells", MAX_PLANE_CELLS)), MAX_PLANE_CELLS)
    if rows * cols > cells:  # an even sample, its aspect kept
        step_r, step_c = sample_steps(rows, cols, cells)
        p = p[::step_r, ::step_c]
    try:
        out["plane"] = plane_array(p).copy()
    except (TypeError, RuntimeError, NotImplementedError) as e:  # meta, sparse...
        out["plane_error"] = str(e)
        return out
    out["step"] = [step_r, step_c]
    return out


def _tensor_stats(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """A tensor's statistics alone (the viewer asks once its plane has come: a big
    tensor's take tens of milliseconds, and the kernel answers in turn)."""
    torch = loaded_torch()
    value = values.get(int(args.get("run", 0)), int(args["statement"]), str(args["name"]))
    if torch is None or not isinstance(value, torch.Tensor):
        raise QueryError(f"{args['name']} is not a tensor")
    from kernel.tensor_info import tensor_stats

    return {"stats": tensor_stats(value.detach())}


def _step_values(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """A form step's values too large to come with its report (Op explained asks when it
    shows the step): ``inputs`` as the step read them, its ``output``, copied now when
    they have at most ``ASKED_CELLS`` cells; ``changed`` names those a later statement
    changed in place (or that are gone), which cannot be shown as the step saw them."""
    from kernel.mirror import encode, stamped
    from protocol.limits import ASKED_CELLS

    marks = values.large(int(args.get("run", 0)), int(args["statement"]))
    cells = min(int(args.get("cells", ASKED_CELLS)), ASKED_CELLS)
    out: dict[str, Any] = {"inputs": {}, "output": None, "changed": []}
    for name, mark in [*marks["inputs"].items(), ("", marks["output"])]:
        value = stamped(mark) if mark is not None else None
        if mark is not None and value is None:
            out["changed"].append(name)
        data = encode(value, cells) if value is not None else None
        if data is not None and name:
            out["inputs"][name] = data
        elif data is not None:
            out["output"] = data
    return out


def _module(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    from protocol.module_data import tree_data

    return {"tree": tree_data(describe(module_value(values, args)))}


def _module_graph(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    from kernel.module_graph import graph_of
    from protocol.module_graph_data import graph_data

    graph = graph_of(module_value(values, args))
    if graph is None:
        raise QueryError(f"{args['name']} has not been called yet: its graph is drawn from "
                         "its last forward call")
    return {"graph": graph_data(graph)}


def module_value(values: Values, args: dict[str, Any]) -> Any:
    """The module a query names: ``name`` bound by ``statement`` (or, without one, the
    run's variable), or its submodule at ``path``."""
    torch = loaded_torch()
    run, name = int(args.get("run", 0)), str(args["name"])
    if args.get("statement") is not None:
        value = values.get(run, int(args["statement"]), name)
    else:
        value = values.user_namespace(run).get(name)
    if torch is None or not isinstance(value, torch.nn.Module):
        raise QueryError(f"{name} is not a module")
    for part in filter(None, str(args.get("path") or "").split(".")):
        value = dict(value.named_children()).get(part)
        if value is None:
            raise QueryError(f"{name} has no submodule {args['path']!r}")
    return value


def _attention(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    """The attention calls the run made (``kernel.attention``); with ``call`` (a key of
    theirs), one ``sample``'s weights too: heads by queries by keys, float32."""
    from kernel import attention

    if int(args.get("run", values.run_id)) != values.run_id:
        raise QueryError("that run is over: a newer one replaced it")
    out: dict[str, Any] = {"calls": attention.calls()}
    if args.get("call") is not None:
        try:
            out["weights"] = attention.weights(tuple(args["call"]), int(args.get("sample", 0)))
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise QueryError("that attention call or sample is not kept") from e
    return out


def sample_steps(rows: int, cols: int, cells: int = MAX_PLANE_CELLS) -> tuple[int, int]:
    """Steps through the rows and the columns of a plane that keep about ``cells`` of it:
    the same step both ways, but for a side too short to need one."""
    step = math.ceil(math.sqrt(rows * cols / cells))
    if rows <= step:
        return 1, math.ceil(rows * cols / cells)
    if cols <= step:
        return math.ceil(rows * cols / cells), 1
    return step, step


def _activation(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    from kernel.activations import answer as activation

    torch = loaded_torch()
    run, name, path = int(args.get("run", 0)), str(args["name"]), str(args.get("path") or "")
    if args.get("statement") is not None:
        value = values.get(run, int(args["statement"]), name)
    else:
        value = values.user_namespace(run).get(name)
    dotted = ".".join(filter(None, (name, path)))
    if path and torch is not None and isinstance(value, torch.nn.Module):
        value = module_part(value, path)
    if torch is None or not isinstance(value, torch.nn.Module):
        raise QueryError(f"{dotted} is not a module")
    return activation(value, dotted, args)


def _devices(_values: Values, _args: dict[str, Any]) -> dict[str, Any]:
    return machine_answer()


def _files(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    try:
        return files.listed(values, args)
    except OSError as e:
        raise QueryError(f"the folder cannot be read: {e.strerror or e}") from None


def _file(values: Values, args: dict[str, Any]) -> dict[str, Any]:
    try:
        return files.read(values, args)
    except (files.FileQueryError, OSError) as e:
        raise QueryError(str(e)) from None


_HANDLERS: dict[str, Any] = {"tensor": _tensor, "tensor_stats": _tensor_stats,
                             "step_values": _step_values, "devices": _devices,
                             "module": _module, "module_graph": _module_graph,
                             "attention": _attention, "activation": _activation,
                             "files": _files, "file": _file}
#: Set once the window's own query modules (``messages.Warm.modules``) are loaded.
loaded = threading.Event()
loaded.set()
_LOAD_WAIT_S = 60.0


def register(kind: str, handler: Any) -> None:
    """Answer query ``kind`` with ``handler(values, args)``: how a layer above the kernel
    (``kernel.explain.kernel_queries``) adds what its views ask, the kernel knowing none."""
    _HANDLERS[kind] = handler
