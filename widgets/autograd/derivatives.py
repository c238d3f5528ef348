"""The Jacobian page's inputs and matrices, for the tensor the autograd tab shows.

A tensor the kernel made is differentiated there (the ``derivative`` query of
``kernel.explain.kernel_queries``): the window names the input and the output, the kernel
finds the statements from one to the other in the run's text and runs them again; the
matrix comes back.
"""

from __future__ import annotations

import ast
import functools
from typing import Any

from PySide6.QtCore import QCoreApplication

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.tensor_copy import TensorCopy, copy_of
from protocol.autograd_data import text_from
from protocol.i18n import QT_TRANSLATE_NOOP
from widgets.common.i18n_text import marked_text

_CAPTIONS = {
    "jacobian": ("J", QT_TRANSLATE_NOOP(
        "AutogradPanel", "Jacobian: row i, column j is d {0}[i] / d {1}[j], both flattened in "
        "row-major order ({2} × {3}).")),
    "hessian": ("H", QT_TRANSLATE_NOOP(
        "AutogradPanel", "Hessian: row i, column j is d² {0} / d {1}[i] d {1}[j], {1} "
        "flattened in row-major order ({2} × {3}).")),
}


def derivative_inputs(document: Document, output: str | None) -> list[str]:
    """The floating point tensors made by assignments before ``output``'s, that its
    Jacobian can be taken with respect to; leaves that require grad first."""
    if output is None:
        return []
    try:
        end = document.recipe.index_of(output)
        assignable = _assigned(document.text)
    except (KeyError, SyntaxError, ValueError):
        return []
    found: dict[str, bool] = {}  # name: is a leaf that requires grad
    for result in document.run.results[:end]:
        for name in getattr(result.value, "names", {}):
            facts = _facts(result.value, name)
            if name != output and name in assignable and facts is not None \
                    and facts["dtype"].removeprefix("torch.").startswith(("float", "bfloat")):
                found[name] = bool(facts["is_leaf"] and facts["requires_grad"])
    return sorted(found, key=lambda n: not found[n])


def _assigned(text: str) -> set[str]:
    """The names the text's assignments bind: its top-level ones and those in a
    ``with`` block (``torch.no_grad()``), which the kernel can run again."""
    names: set[str] = set()
    for node in ast.parse(text).body:
        for inner in node.body if isinstance(node, ast.With) else [node]:
            if isinstance(inner, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
                names.update(n.id for t in targets for n in ast.walk(t)
                             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return names


def _facts(value: Any, name: str) -> dict | None:
    """What the kernel's summary says of the tensor ``name`` (``kernel.summary``)."""
    if isinstance(value, KernelValue):
        summary = value.names.get(name)
        return summary if summary and summary.get("type") == "Tensor" else None
    return None


class Derivatives:
    """Works out the matrix the Jacobian page asks for and shows it there."""

    def __init__(self, document: Document, page: Any):
        self._document, self._page = document, page
        self._generation = 0

    def show(self, kind: str, output: str | None) -> None:
        """Show ``kind`` (``jacobian`` or ``hessian``) of ``output`` with respect to the
        input the page has chosen: at once, or when the kernel answers."""
        x = self._page.input_name()
        if output is None or not x:
            return
        doc = self._document
        result = doc.run.result_for(output)
        self._generation += 1
        if result is None or not isinstance(result.value, KernelValue):
            return  # not run (yet): nothing to differentiate
        args = {"run": result.value.run_id, "input": x, "output": output, "kind": kind}
        doc.ask("derivative", args, functools.partial(
            self._answered, self._generation, kind, output, x))

    def _answered(self, generation: int, kind: str, output: str, x: str, data: dict | None,
                  error: str) -> None:
        if generation != self._generation:
            return  # the user asked again since
        data = data or {}
        if error or "why" in data:
            self._fail(text_from(data["why"]) if "why" in data else error)
            return
        self._show(kind, copy_of(data["matrix"]), output, x)

    def _show(self, kind: str, matrix: TensorCopy, output: str, x: str) -> None:
        label, caption = _CAPTIONS[kind]
        self._page.show_matrix(matrix, label, QCoreApplication.translate(
            "AutogradPanel", caption).format(
            output, x, matrix.shape[0], matrix.shape[1]))

    def _fail(self, why: Any) -> None:
        self._page.show_failure(QCoreApplication.translate(
            "AutogradPanel", "Cannot compute it: {0}").format(marked_text(why)))
