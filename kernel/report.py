"""``tensor-lab run --json``: what a run left, as one JSON-ready report.

Runs in the kernel, after the recipe: every tensor the namespace holds (shape, dtype,
device and values), plain values (numbers, strings, lists of them; anything else as its
``repr``), the error that ended the run, the captured output (its last ``OUTPUT_TAIL`` characters
per stream; ``dropped`` counts the ones before them), and ``training``: each
statement whose run called ``backward()``, with its losses, learning rates and layers
(``kernel.watch``), and ``modules``: each top-level name bound to an ``nn.Module``, its
tree of submodules with their parameters' and buffers' shapes and their last call's
(``kernel.modules``).
"""

from __future__ import annotations

import ast
import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

from kernel.capture import Tap
from kernel.runner import Outcome, Runner
from kernel.summary import loaded_torch
from kernel.watch import TrainingWatch
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most characters of each stream the report keeps: the last ones.
OUTPUT_TAIL = 1 << 20
#: What a recipe defines rather than computes: left out of the report's values.
_DEFINITIONS = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


class RunReport:
    """Collects a run's error and output; ``finish`` makes the report."""

    def __init__(self) -> None:
        self.errors: list[dict[str, Any]] = []
        self.stdout, self.stderr = Tap("stdout", OUTPUT_TAIL), Tap("stderr", OUTPUT_TAIL)

    @contextlib.contextmanager
    def capture(self) -> Iterator[None]:
        with contextlib.redirect_stdout(self.stdout), contextlib.redirect_stderr(self.stderr):
            yield

    def add(self, outcome: Outcome) -> None:
        if outcome.error is None or outcome.error == "SystemExit":
            return
        self.errors.append({"line": outcome.error_line or outcome.statement.line,
                            "step": step_label(outcome.statement.text),
                            "message": outcome.message, "type": outcome.error})

    def finish(self, namespace: dict[str, Any]) -> dict[str, Any]:
        tensors, values = {}, {}
        torch = loaded_torch()
        for name, value in namespace.items():
            if name.startswith("__") or isinstance(value, types.ModuleType):
                continue
            if torch is not None and isinstance(value, torch.Tensor):
                from kernel.tensor_json import tensor_report

                try:
                    tensors[name] = tensor_report(value)
                except Exception as e:  # noqa: BLE001 - a kind not known here: the rest stays
                    tensors[name] = {"dtype": str(value.dtype), "device": str(value.device),
                                     "no_values": f"{type(e).__name__}: {e}"}
            elif isinstance(value, bool | int | float | complex | str | list | tuple) \
                    or value is None:
                from kernel.tensor_json import plain

                values[name] = plain(value)
            elif not isinstance(value, _DEFINITIONS):  # a grad_fn, a module: its repr
                values[name] = _repr(value)
        report: dict[str, Any] = {"tensors": tensors, "errors": self.errors}
        if values:
            report["values"] = values
        if torch is not None:
            from kernel.modules import modules_report

            modules = modules_report(namespace)
            if modules:
                report["modules"] = modules
        for tap in (self.stdout, self.stderr):
            _, report[tap.name], dropped = tap.take()
            if dropped:  # a flood: its last OUTPUT_TAIL characters, and how many went
                report.setdefault("dropped", {})[tap.name] = dropped
        return report


def step_label(text: str) -> str:
    """A statement's label: the name it assigns, or its first line."""
    try:
        node = ast.parse(text).body[0]
    except (SyntaxError, IndexError):
        return text.splitlines()[0] if text else ""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 \
            and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return text.splitlines()[0]


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as e:  # noqa: BLE001 - the recipe's broken __repr__
        return f"<{type(value).__name__}: repr failed: {type(e).__name__}>"


def run_with_report(runner: Runner, after: Callable[[Outcome], None] | None = None
                    ) -> tuple[int, dict[str, Any]]:
    """Run ``runner`` to its end, its output captured;
    python's exit code and the ``--json`` report of what it left."""
    report = RunReport()
    watch = TrainingWatch(runner.namespace)

    def before(i: int) -> None:
        watch.begin(i, runner.statements[i].line)

    def add(outcome: Outcome) -> None:
        report.add(outcome)
        if after is not None:
            after(outcome)
    try:
        with report.capture():
            code = runner.run(add, before)
    finally:
        watch.uninstall()
    finished = report.finish(runner.namespace)
    finished["training"] = watch.report()
    return code, finished
