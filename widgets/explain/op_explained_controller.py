"""Op explained's controller: follows the document, asks the kernel where output cells
come from.

Hovering (or clicking) an output cell asks the kernel which input elements it came from
(the ``provenance`` query, ``kernel.explain.provenance_query``), one question at a time; the
answers are cached per run. What only some ops need comes from
``widgets.explain.op_extras.EXTRAS``, with the operand values the kernel works out for
them (``step_parts``). The window holds values as ``TensorCopy`` and runs no torch. Texts
keep the ``OpView`` translation context.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QUndoStack

from app.explain.op_facts import op_table
from app.explain.step_view import (
    StepView,
    inner_step_view,
    make_step_view,
    tensor_parts,
)
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.tensor_copy import TensorCopy, copy_of
from protocol.i18n import QT_TRANSLATE_NOOP
from protocol.limits import ASKED_CELLS, MIRROR_CELLS
from protocol.provenance_data import Provenance
from protocol.tensor_summary import summary_text
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import lesson_text, op_summary
from widgets.common.retranslate import translated
from widgets.explain.op_explained_view import CardContent, Index, OpExplainedView, index_text
from widgets.explain.op_extras import EXTRAS, Decoration, OpExtra

explain: Callable[[str | None, str, str], Any] | None
try:
    from app.catalog.error_lessons import explain
except ImportError:  # without the lesson table, torch's message is shown alone
    explain = None

_MAX_LISTED = 4  # source elements named in the hint before "and N more"


def sent_inputs(sv: StepView) -> dict[str, Any]:
    """The step's inputs as a question to the kernel carries them back (``mirror.encode``'s
    data): those that came with its report (the kernel keeps the larger ones itself), or
    every one the kernel found inside a loop or a function."""
    limit = ASKED_CELLS if sv.inner is not None else MIRROR_CELLS
    return {n: d for n, v in sv.inputs.items()
            if (d := copy_data(v, limit)) is not None}


def copy_data(value: Any, limit: int = MIRROR_CELLS) -> dict | None:
    """A kernel copy as ``mirror.encode`` sent it (None for a tensor of more than
    ``limit`` cells: larger than a report carries, which the kernel holds itself)."""
    if isinstance(value, TensorCopy):
        if value.numel() > limit:
            return None
        return {"tensor": value.values, "dtype": value.dtype,
                "requires_grad": value.requires_grad, "device": value.device,
                "strides": list(value.strides)}
    if isinstance(value, (list, tuple)):
        items = [copy_data(v, limit) for v in value]
        return None if any(i is None for i in items) else {
            "items": items, "tuple": isinstance(value, tuple)}
    if isinstance(value, str) and value.startswith("torch."):
        return {"dtype": value.removeprefix("torch.")}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"plain": value}
    return None


#: numpy's dtype for the values of a loop sample's small tensor (``summary``'s ``values``).
_SAMPLE_DTYPES = {"float32": "float32", "float64": "float64", "float16": "float32",
                  "bfloat16": "float32", "int64": "int64", "int32": "int32", "int16": "int16",
                  "int8": "int8", "uint8": "uint8", "bool": "bool"}


def sample_data(loop: dict, iteration: int) -> dict[str, dict]:
    """What a loop's report keeps of ``iteration``'s values (its small tensors' and its
    numbers), as ``mirror.encode``'s data, for the kernel's ``inner_step``."""
    out: dict[str, dict] = {}
    for name, summary in (loop.get("samples", {}).get(str(iteration)) or {}).items():
        kind = summary.get("type")
        if kind == "Tensor" and "values" in summary:
            dtype = str(summary.get("dtype", "")).removeprefix("torch.")
            if dtype in _SAMPLE_DTYPES:
                values = np.array(summary["values"], dtype=_SAMPLE_DTYPES[dtype])
                out[name] = {"tensor": values.reshape(summary.get("shape") or values.shape),
                             "dtype": dtype,
                             "requires_grad": bool(summary.get("requires_grad"))}
        elif kind in ("int", "float", "bool") and isinstance(summary.get("value"),
                                                              (int, float, bool)):
            out[name] = {"plain": summary["value"]}
    steps = list(loop.get("scalar_steps") or ())
    if iteration in steps:
        at = steps.index(iteration)
        for name, column in (loop.get("scalars") or {}).items():
            if name not in out and at < len(column) \
                    and isinstance(column[at], (int, float, bool)):
                out[name] = {"plain": column[at]}
    return out


def _inner_note(sv: StepView) -> str:
    """Where the op statement shown sits: in which iteration of the loop, or in which
    function, at which line."""
    inner = sv.inner or {}
    if inner.get("where") == "loop":
        return QCoreApplication.translate(
            "OpView", "Inside the loop (line {0}), in iteration {1}.").format(
                inner.get("line"), sv.iteration)
    return QCoreApplication.translate(
        "OpView", "Inside {0} (line {1}), called by this step: its parameters hold the "
        "call's arguments.").format(inner.get("function") or "", inner.get("line"))


def _kernel_hint(sv: StepView, value: KernelValue, asking: bool, changed: list[str],
                 inner: dict | None = None) -> str:
    """Why a step the kernel ran shows no cells: code (and why the kernel found no op
    statement inside it: ``inner``, its ``inner_step`` answer), a tensor being copied from
    the kernel, changed in place since (``changed``) or too large to copy into the window,
    or a result that is not a tensor."""
    if sv.step.is_code or sv.spec is None and not sv.op:
        text = QCoreApplication.translate(
            "OpView", "Code: the catalogue has no explanation for it yet. The Tensor viewer "
            "shows the values it left.")
        if inner and inner.get("same") is False:
            text += " " + QCoreApplication.translate(
                "OpView", "The op statement inside it ({0}) does not give again what the "
                "recipe made from the values the kernel kept, so it is not explained "
                "here.").format(inner.get("code", ""))
        elif inner and inner.get("why"):
            text += " " + QCoreApplication.translate(
                "OpView", "Nothing inside it to explain: {0}").format(inner["why"])
        return text
    summary = value.names.get(sv.step.name or "", {})
    if summary.get("type") == "Tensor" and asking:
        return QCoreApplication.translate("OpView", "Copying its values from the kernel…")
    if summary.get("type") == "Tensor" and changed:
        return QCoreApplication.translate(
            "OpView", "A later statement changed {0} in place, so they cannot be shown as "
            "this step saw them. The Tensor viewer shows them now.").format(
                ", ".join(n or sv.step.name or "" for n in changed))
    if summary.get("type") == "Tensor":
        cells = math.prod(summary.get("shape") or [])
        return QCoreApplication.translate(
            "OpView", "{0} has {1} elements: too many to explain element by element here "
            "({2} at most). The Tensor viewer shows it.").format(
                sv.step.name, f"{cells:,}", f"{ASKED_CELLS:,}")
    if sv.output is not None:
        return QCoreApplication.translate("OpView", "The result is not a tensor: {0}").format(
            repr(sv.output)[:200])
    return QCoreApplication.translate("OpView", "The result is not a tensor: {0}").format(
        summary_text(summary)[:200] if summary else "")


class OpExplainedController(FollowsDocument, QObject):
    """Shows the document's selected step in ``view`` and explains the output cell asked about.

    Parameters
    ----------
    document : Document
        The open recipe; the controller follows its selection and evaluations.
    undo_stack : QUndoStack or None
        Where edits made by extras (the tril slider) go.
    view : OpExplainedView
        The view it drives; also its Qt parent.
    """

    traced = Signal(object)
    """Emitted with the ``Provenance`` (or None) once an output cell's sources are lit up."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 view: OpExplainedView):
        super().__init__(view)
        self._document, self._stack, self._view = document, undo_stack, view
        self.step_view: StepView | None = None
        """What is shown: the selected step with its inputs and output."""
        self.extras: dict[type, OpExtra] = {}
        """The extras made so far, one per class, kept and updated."""
        self.extra: OpExtra | None = None
        """The extra shown for the selected step's op, if any."""
        self.provenance: Provenance | None = None
        """The latest provenance lit up."""
        self.active: tuple[int, Index] | None = None
        """The output element explained now: (part, index)."""
        self._pinned: tuple[int, Index] | None = None
        self._generation = 0
        self._cache: dict[tuple[int, Index], Provenance | str] = {}
        self._asking = False  # a provenance question is on its way
        #: The kernel value whose operands were asked for (``step_parts``), and the answer.
        self._parts: tuple[tuple, dict] | None = None
        #: What the kernel found inside a loop or a function: ((value, iteration), answer).
        self._inner: tuple[tuple, dict] | None = None
        self._iteration: int | None = None  # the loop's iteration picked
        self._pending: tuple | None = None
        self._stale = True
        #: The kernel value whose large tensors were asked for, and the one on its way.
        self._fetched: KernelValue | None = None
        self._fetching: KernelValue | None = None
        self._changed: list[str] = []  # what a later statement changed of the fetched
        view.output_hovered.connect(self._on_view_output_hovered)
        view.output_left.connect(self._on_view_output_left)
        view.output_clicked.connect(self._on_view_output_clicked)
        view.shown.connect(self._on_view_shown)
        view.iteration_picked.connect(self._on_view_iteration_picked)
        self._set_model_connected(True)
        translated(view, self._refresh_if_shown, now=False)  # in the new language

    # -- public --------------------------------------------------------------------------------
    def detach(self) -> None:
        """Stop following the document, for good."""
        self._set_model_connected(False)

    def activate_output(self, index: Index, part: int = 0, *, pin: bool = False) -> None:
        """Explain output element ``index`` (of output ``part``), as hovering it does.

        With ``pin`` it stays explained when the mouse leaves the grid, as a click does.
        """
        if part >= len(self._view.output_cards):
            return
        self.active = (part, tuple(index))
        if pin:
            self._pinned = self.active
        self._view.mark_output(part, self.active[1])
        found = self._cache.get(self.active)
        if found is not None:
            self._show_provenance(found)
        else:
            self._request((self._generation, part, self.active[1]))

    def refresh(self) -> None:
        """Show the selected step again (the document calls this through its signals)."""
        self._stale = False
        self._generation += 1
        self._cache.clear()
        self._pending = None
        sv = self.step_view = self._inner_view(make_step_view(self._document))
        self._fetch_large(sv)
        self._take_parts(sv)
        self._show_header(sv)
        self._show_cards(sv)
        self._view.decorate(self._show_extra(sv))
        self._view.arrange()
        self.provenance = None
        active = self._pinned
        if active is not None and self._view.output_fits(active[0], active[1]):
            self.activate_output(active[1], active[0], pin=True)
        else:
            self.active = self._pinned = None
            self._view.set_hint(self._idle_hint(sv))

    # -- wiring --------------------------------------------------------------------------------
    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed))

    def _on_model_evaluated(self, _run: object) -> None:
        self._refresh_if_shown()

    def _on_model_selection_changed(self, _index: int | None) -> None:
        self._pinned = self._iteration = None
        self._refresh_if_shown()

    def _inner_view(self, sv: StepView | None) -> StepView | None:
        """For a loop, or a call of a function of the recipe: the op statement inside it,
        as the kernel found it (``inner_step``; asked once, the step shows again when it
        answers), at the loop's iteration picked (the last one kept at first)."""
        value = sv.result.value if sv is not None else None
        if sv is None or not isinstance(value, KernelValue) or not sv.step.is_code \
                or sv.result.status != "ok":
            self._view.show_iterations([], None)
            return sv
        kept = sorted(int(k) for k in (value.loop or {}).get("kept", ()))
        iteration = None
        if kept:
            iteration = self._iteration if self._iteration in kept else kept[-1]
        self._view.show_iterations(kept, iteration)
        asked = self._inner
        if asked is not None and asked[0][0] is value and asked[0][1] == iteration:
            answer = asked[1]
            if "code" in answer and answer.get("same") is not False:
                return inner_step_view(sv, answer, iteration)
            return sv
        self._inner = ((value, iteration), {})

        def answered(data: dict, error: str) -> None:
            self._inner = ((value, iteration), {"why": error} if error else data)
            step = self.step_view
            if step is not None and step.result.value is value:
                self._refresh_if_shown()
        if not self._document.ask("inner_step", {
                "run": value.run_id, "statement": value.statement,
                "ops": op_table(self._document.text),
                "samples": sample_data(value.loop, iteration) if value.loop and kept else {}},
                while_alive(self, answered)):
            self._inner = None
        return sv

    def _on_view_iteration_picked(self, iteration: int) -> None:
        if iteration != self._iteration:
            self._iteration = iteration
            self._pinned = None
            self.refresh()

    def _fetch_large(self, sv: StepView | None) -> None:
        """Ask the kernel, once, for the step's tensors too large to come with its report
        (``step_values``); the step shows again when they come."""
        value = sv.result.value if sv is not None else None
        if not isinstance(value, KernelValue) or value is self._fetched or sv.step.is_code \
                or sv.inner is not None or sv.result.status not in ("ok", "error"):
            return
        reads = [n for n in sv.step.reads if n not in value.inputs]
        if not reads and (sv.output is not None or not sv.result.ok):
            return  # every value came with the report
        self._fetched = self._fetching = value
        self._changed = []

        def answered(data: dict, error: str) -> None:
            self._fetching = None
            self._changed = list(data.get("changed", ())) if not error else []
            if not error:
                value.inputs.update({n: copy_of(d) for n, d in data.get("inputs", {}).items()})
                if data.get("output") is not None:
                    value.output = copy_of(data["output"])
            step = self.step_view
            if step is not None and step.result.value is value:
                self._refresh_if_shown()
        if not self._document.ask("step_values", {"run": value.run_id,
                                                  "statement": value.statement},
                                   while_alive(self, answered)):
            self._fetching = None

    def _take_parts(self, sv: StepView | None) -> None:
        """Give ``sv`` the operand values the kernel worked out for its extra, or ask for
        them once (``step_parts``); the extra shows again when they come."""
        value = sv.result.value if sv is not None else None
        if not isinstance(value, KernelValue) or sv.step.is_code or sv.op not in EXTRAS \
                or not sv.code:
            return
        key = (value, sv.code, sv.iteration)
        if self._parts is not None and self._parts[0][0] is value \
                and self._parts[0][1:] == key[1:]:
            answer = self._parts[1]
            sv.parts = {n: copy_of(d) for n, d in answer.get("operands", {}).items()}
            sv.offsets = dict(answer.get("offsets", {}))
            labels = answer.get("labels")
            sv.labels = labels if labels is not None else None
            return
        if not sv.computed() and sv.op not in ("cat", "stack"):
            return  # every operand is a name or a literal: the window has them
        self._parts = (key, {})

        def answered(data: dict, error: str) -> None:
            self._parts = (key, {} if error else data)
            step = self.step_view
            if step is not None and step.result.value is value:
                self._refresh_if_shown()
        if not self._document.ask("step_parts", {
                "run": value.run_id, "statement": value.statement, "code": sv.code,
                "ops": op_table(sv.code), "inputs": sent_inputs(sv),
                "operands": list(sv.operands()),
                "labels": "tensors" if sv.op in ("cat", "stack") else None},
                while_alive(self, answered)):
            self._parts = None

    def _refresh_if_shown(self) -> None:
        if self._view.isVisible():
            self.refresh()
        else:
            self._stale = True  # worked out when the tab is shown

    # -- view events ---------------------------------------------------------------------------
    def _on_view_output_hovered(self, part: int, index: Index) -> None:
        self.activate_output(index, part)

    def _on_view_output_left(self) -> None:
        if self._pinned is not None:
            self.activate_output(self._pinned[1], self._pinned[0])

    def _on_view_output_clicked(self, part: int, index: Index) -> None:
        self.activate_output(index, part, pin=True)

    def _on_view_shown(self) -> None:
        if self._stale:
            self.refresh()

    # -- showing ---------------------------------------------------------------------------------
    def _show_header(self, sv: StepView | None) -> None:
        view = self._view
        if sv is None:
            view.show_header("", QCoreApplication.translate(
                "OpView", "Select a step to see how its op works."))
            return
        result = sv.result
        # a failed step shows its lesson instead of the op's summary
        code = self._document.step_text(self._document.selected, sv.step)  # the text's
        summary = op_summary(sv.spec) if sv.spec is not None and result.ok else ""
        if sv.inner is not None:  # the op statement inside a loop or a function
            code = sv.code
            summary = " ".join(t for t in (_inner_note(sv), summary) if t)
        view.show_header(code, summary)
        if result.status == "error":
            lesson = explain(sv.step.op, result.error_type, result.error) \
                if explain is not None else None
            view.show_failure(
                f"{result.error_type}: {result.error}",
                QCoreApplication.translate("OpView", "Why: {0}").format(lesson_text(lesson.cause))
                if lesson else "",
                QCoreApplication.translate("OpView", "Fix: {0}").format(lesson_text(lesson.fix))
                if lesson else "")
        elif result.status == "skipped":
            view.show_failure(QCoreApplication.translate("OpView", "Not run."))

    def _show_cards(self, sv: StepView | None) -> None:
        inputs: list[CardContent] = []
        outputs: list[CardContent] = []
        if sv is not None:
            roles = sv.roles()
            for name, value in sv.inputs.items():
                for part, t in tensor_parts(value):
                    inputs.append((t, name, role_label(roles.get(name, "input")), part,
                                   _part_label(name, part)))
            out_name = sv.step.name or QCoreApplication.translate("OpView", "result")
            outputs = [(t, out_name, QCoreApplication.translate("OpView", "output"), part,
                        _part_label(out_name, part)) for part, t in tensor_parts(sv.output)]
        self._view.show_cards(inputs, outputs, failed=sv is not None and sv.result.status != "ok")

    def _show_extra(self, sv: StepView | None) -> Decoration:
        # what to draw: the output it made, or for a failure the inputs it was given (a
        # step that did not run, or whose values were too large to copy, has none)
        drawn = sv is not None and (sv.output is not None if sv.result.status == "ok"
                                    else sv.result.status == "error" and bool(sv.inputs))
        kind = EXTRAS.get(sv.op) if drawn else None
        if self.extra is not None and type(self.extra) is not kind:
            self._view.hide_extra(self.extra)
            self.extra = None
        if kind is None or sv is None:
            self._view.show_extra(None)
            return Decoration()
        extra = self.extras.get(kind)
        if extra is None:
            extra = self.extras[kind] = kind(self._document, self._stack)
            self._view.add_extra(extra)
        self.extra = extra
        try:
            decoration = extra.show_step(sv)
        except Exception as e:  # noqa: BLE001 - a drawing must never take the view down
            extra.caption.setText(QCoreApplication.translate(
                "OpView", "Nothing to draw: {0}").format(e))
            decoration = Decoration()
        self._view.show_extra(extra, extra.title())
        return decoration

    def _idle_hint(self, sv: StepView | None) -> str:
        view = self._view
        if sv is not None and sv.result.ok and not view.output_cards \
                and isinstance(sv.result.value, KernelValue):
            value = sv.result.value
            inner = self._inner[1] if self._inner is not None \
                and self._inner[0][0] is value else None
            return _kernel_hint(sv, value, self._fetching is value,
                                self._changed if self._fetched is value else [], inner)
        if sv is not None and sv.result.ok and not view.output_cards and sv.step.name:
            return QCoreApplication.translate("OpView", "The result is not a tensor: {0}").format(
                repr(sv.result.value)[:200])
        if sv is None or not view.output_cards:
            return ""
        if not view.input_cards:
            return QCoreApplication.translate(
                "OpView", "A new tensor: its elements do not come from other tensors of "
                "the recipe.")
        return QCoreApplication.translate(
            "OpView", "Hover or click an output cell to light up the input elements it came "
            "from.")

    # -- provenance --------------------------------------------------------------------------------
    def _request(self, key: tuple) -> None:
        """Ask the kernel about ``key`` = (generation, part, index); one question at a time."""
        sv = self.step_view
        value = sv.result.value if sv is not None else None
        if sv is None or not isinstance(value, KernelValue):
            return
        if self._asking:
            self._pending = key  # only the latest wish matters
            return
        part = key[1] if isinstance(sv.output, (list, tuple)) else None
        asked = (key[0], part, key[2])
        self._asking = self._document.ask("provenance", {
            "run": value.run_id, "statement": value.statement, "code": sv.code,
            "ops": op_table(sv.code), "inputs": sent_inputs(sv), "index": list(key[2]),
            "part": part},
            while_alive(self, lambda data, error: self._on_kernel_traced(asked, data, error)))

    def _on_kernel_traced(self, key: tuple, data: dict, error: str) -> None:
        self._asking = False
        found: Provenance | str = error if error else Provenance.from_data(data)
        generation, part, index = key
        part = part or 0
        if generation == self._generation:
            self._cache[(part, index)] = found
            if self.active == (part, index):
                self._show_provenance(found)
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == self._generation \
                and (pending[1], pending[2]) not in self._cache:
            self._request(pending)

    def _show_provenance(self, found: Provenance | str) -> None:
        if isinstance(found, str):
            self.provenance = None
            self._view.mark_sources(None)
            self._view.set_hint(QCoreApplication.translate(
                "OpView", "Could not trace this element: {0}").format(found))
            self.traced.emit(None)
            return
        self.provenance = found
        self._view.mark_sources(found)
        self._view.set_hint(self._provenance_text(found))
        self.traced.emit(found)

    def _element_text(self, name: str, index: Index) -> str:
        """``x[1, 2]``, or ``parts[1][0, 2]`` for an input holding several tensors."""
        value = self.step_view.inputs.get(name) if self.step_view else None
        if isinstance(value, (list, tuple)) and index:
            return index_text(f"{name}[{index[0]}]", index[1:])
        return index_text(name, index)

    def _provenance_text(self, found: Provenance) -> str:
        assert self.active is not None
        head = self._view.output_element_text(*self.active)
        count = sum(len(idxs) for idxs in found.sources.values())
        sources = [self._element_text(n, i) for n, i in itertools.islice(
            ((n, i) for n, idxs in found.sources.items() for i in idxs), _MAX_LISTED)]
        if not self._view.input_cards:
            return QCoreApplication.translate(
                "OpView", "{0}: a new tensor, made by the op rather than taken from other "
                "tensors of the recipe.").format(head)
        if not sources:
            return QCoreApplication.translate(
                "OpView", "{0} comes from no input element: the op made it (a zero, a fill "
                "value).").format(head)
        listed = ", ".join(sources)
        if count > _MAX_LISTED:  # only those listed are named (an element may come from
            listed += QCoreApplication.translate("OpView", " and {0} more").format(
                count - _MAX_LISTED)  # every element of a large input)
        text = QCoreApplication.translate("OpView", "{0} comes from {1}.").format(head, listed)
        used = []
        for name, idxs in found.used.items():
            value = self.step_view.inputs.get(name) if self.step_view else None
            for i in idxs[:_MAX_LISTED]:
                shown = self._element_text(name, i)
                if isinstance(value, TensorCopy) and len(i) == value.dim():
                    shown += f" = {value.values[i].item()}"
                used.append(shown)
        if used:
            text += " " + QCoreApplication.translate("OpView", "Chosen by {0}.").format(
                ", ".join(used))
        return text


#: What a tensor is to its step, by the parameter it is given as (the keyword torch uses,
#: or ``left``/``right``/``operand`` for an operator's), in words a translation can take.
_ROLES = {
    "input": QT_TRANSLATE_NOOP("OpView", "input"),
    "other": QT_TRANSLATE_NOOP("OpView", "other"),
    "left": QT_TRANSLATE_NOOP("OpView", "left"),
    "right": QT_TRANSLATE_NOOP("OpView", "right"),
    "operand": QT_TRANSLATE_NOOP("OpView", "operand"),
    "index": QT_TRANSLATE_NOOP("OpView", "index"),
    "mask": QT_TRANSLATE_NOOP("OpView", "mask"),
    "condition": QT_TRANSLATE_NOOP("OpView", "condition"),
    "tensor": QT_TRANSLATE_NOOP("OpView", "tensor"),
    "tensors": QT_TRANSLATE_NOOP("OpView", "tensors"),
    "operands": QT_TRANSLATE_NOOP("OpView", "operands"),
    "mat2": QT_TRANSLATE_NOOP("OpView", "mat2"),
    "vec": QT_TRANSLATE_NOOP("OpView", "vec"),
    "data": QT_TRANSLATE_NOOP("OpView", "data"),
    "gradient": QT_TRANSLATE_NOOP("OpView", "gradient"),
}


def role_label(parameter: str) -> str:
    """A card's role, translated: what the tensor is to the step, from the name of the
    parameter it is given as (``input``, ``other``, ``index``...; one the table does not
    know is named as ``parameter <name>``)."""
    known = _ROLES.get(parameter)
    if known is not None:
        return QCoreApplication.translate("OpView", known)
    return QCoreApplication.translate("OpView", "parameter {0}").format(parameter)


def _part_label(name: str, part: int | None) -> str | None:
    """A card's title: ``parts[1]`` for one tensor of several, else None (the name)."""
    return None if part is None else f"{name}[{part}]"
