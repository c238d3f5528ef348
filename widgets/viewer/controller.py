"""The tensor viewer's controller: it follows the document and drives the view.

It never writes to the document, and never uses torch: a tensor's facts, statistics and
planes are the kernel's answers (``kernel.queries``), or a small tensor's summary
(``protocol.tensor_summary``); a newer tensor makes older answers stale. Texts keep the
``ViewerPanel`` translation context.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QTimer

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.recipe.results import StepResult
from protocol.limits import MAX_PLANE_CELLS
from protocol.tensor_summary import (
    plane,
    summary_array,
    summary_facts,
    summary_stats,
    summary_text,
    tuple_text,
)
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import translate_core
from widgets.common.retranslate import translated
from widgets.viewer.view import HEATMAP_CELLS, HEATMAP_NUMEL, ViewerView

if TYPE_CHECKING:
    from widgets.common.tensor_table_model import PlaneAddress

#: A heatmap's sample this sparse (every third row or column, or fewer) is replaced by
#: the kernel's image of block means; every other row and column shows a plane well
#: enough (a 1000x1000 one: an edit's repaint asks nothing more).
POOLED_STEP = 3
#: The most lines of a step's printed output the viewer shows: its last ones (the Output
#: pane keeps the whole run's).
PRINTED_LINES = 500


def step_text(names: dict, printed: str, iteration: tuple[int, str] | None = None) -> str:
    """What the viewer shows under a step's header: each module it bound as ``print``
    shows it (``kernel.summary``), then what the step printed (its last lines). For a
    loop, ``iteration`` is the iteration picked and what it printed, shown first."""
    parts = []
    for name, summary in names.items():
        if summary.get("module") and summary.get("text"):
            text = summary["text"]
            if summary.get("text_more"):
                text += "\n" + QCoreApplication.translate(
                    "ViewerPanel", "… {0} more lines").format(summary["text_more"])
            parts.append(QCoreApplication.translate(
                "ViewerPanel", "{0}, as print() shows it:").format(name) + "\n" + text)
    if iteration is not None and printed:
        n, text = iteration
        parts.append(QCoreApplication.translate(
            "ViewerPanel", "In iteration {0} it printed:").format(n) + "\n" + text
            if text else QCoreApplication.translate(
                "ViewerPanel", "In iteration {0} it printed nothing.").format(n))
    if printed:
        lines = printed.splitlines(keepends=True)
        text = "".join(lines[-PRINTED_LINES:])
        if len(lines) > PRINTED_LINES:
            text = QCoreApplication.translate(
                "ViewerPanel", "… {0} earlier lines (the Output pane has the run's "
                "output)").format(len(lines) - PRINTED_LINES) + "\n" + text
        parts.append((QCoreApplication.translate("ViewerPanel", "It printed:")
                      if iteration is None else QCoreApplication.translate(
                          "ViewerPanel", "The whole loop printed:")) + "\n" + text)
    return "\n\n".join(parts)


class ViewerController(FollowsDocument, QObject):
    """Shows the document's selected step in ``view``: its tensor, or its error, or its value.

    Parameters
    ----------
    document : Document
        The open document; the controller follows its ``evaluated`` and
        ``selection_changed`` signals and never writes to it.
    view : ViewerView
        The view it drives; also its Qt parent.
    """

    def __init__(self, document: Document, view: ViewerView):
        super().__init__(view)
        self._document, self._view = document, view
        #: The values of a small tensor shown whole (a loop iteration's, from its summary).
        self._values: np.ndarray | None = None
        self._name = ""
        self._stats_generation = 0  # a newer tensor makes older statistics stale
        self._preferred_mode = "grid"
        self._auto_key: tuple[Any, ...] | None = None
        self._heatmap_stale = False
        self._loop_shown: tuple | None = None  # a loop step's (label, code, value) shown
        self._picked: int | None = None  # the iteration to show again, when it is again
        #: A module's parameter or buffer shown instead of the step's value: (the step's
        #: index, its name, its summary), while that step stays selected (``show_part``).
        self._part: tuple[int, str, dict] | None = None
        #: The kernel's tensor shown: (run, statement, name, number of dimensions).
        self._remote: tuple[int, int, str, int] | None = None
        self._remote_cells = MAX_PLANE_CELLS  # the cells the last plane asked for held
        self._remote_shape: tuple[int, ...] = ()  # the shape of the tensor asked about
        self._stats_args: dict | None = None  # the statistics' question, not asked yet
        self._plane_args: dict = {}  # the plane asked for last (its heatmap's question)
        #: A plane's question is to be sent (``_ask_plane``): the document's ``asking``
        #: holds meanwhile, and is let go should the view close first.
        self._coming = [False]
        self._stats_wanted = False  # ...and the statistics' after it
        self._asking_now = False  # a run's result is shown: ask at once, not when idle
        self.destroyed.connect(lambda *_args, coming=self._coming: coming[0] and (
            coming.__setitem__(0, False), document.question_coming(False)))
        view.mode_changed.connect(self._on_view_mode_changed)
        view.iterations.changed.connect(self._on_view_iteration)
        view.plane_changed.connect(self._on_view_plane_changed)
        self._set_model_connected(True)
        view.show_unparsed(document.unparsed is not None)
        self._refresh()
        translated(view, self._refresh, now=False)  # its texts, in the new language

    # -- wiring ----------------------------------------------------------------------
    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed),
                (doc.unparsed_changed, self._on_model_unparsed))

    def _on_model_unparsed(self, reason: str | None) -> None:
        self._view.show_unparsed(reason is not None)

    def _on_model_evaluated(self, run: object) -> None:
        self._asking_now = True  # a run's values: what a view asks of them came with it
        try:
            self._refresh()
        finally:
            self._asking_now = False

    def _on_model_selection_changed(self, index: int | None) -> None:
        if self._part is not None and self._part[0] != index:
            self._part = None
        self._refresh()

    def show_part(self, name: str, shape: tuple[int, ...], dtype: str) -> None:
        """Show ``name``, a parameter or buffer of a module the selected step made
        (``net.conv1.weight``): the kernel holds it, and finds it by that name."""
        summary = {"type": "Tensor", "shape": list(shape), "dtype": dtype, "device": ""}
        self._part = (self._document.selected, name, summary)
        self._refresh()

    # -- showing the selected step ---------------------------------------------------------
    def _selected_result(self) -> StepResult | None:
        index = self._document.selected
        results = self._document.run.results
        if index is None or not 0 <= index < len(results):
            return None
        return results[index]

    def _refresh(self) -> None:
        # the facts "…" and "computing…" then, when its answers came with the run, the
        # answers: one text each, the last (``ViewerView.batched``)
        with self._view.batched():
            self._show_selected()

    def _show_selected(self) -> None:
        view = self._view
        result = self._selected_result()
        shown, self._loop_shown = self._loop_shown, None
        # the same loop shown again (a language switch, a late answer): the iteration the
        # user picked stays
        self._picked = view.iterations.iteration if shown is not None \
            and result is not None and shown[2] is result.value else None
        view.iterations.set_iterations([], 0)
        view.show_step_text(step_text({}, result.printed) if result is not None else "")
        if result is None:
            view.show_header("", "", QCoreApplication.translate(
                "ViewerPanel", "Select a step to see its value."))
            self._show_no_tensor()
            return
        step = result.step
        code = self._document.step_text(self._document.selected, step)  # as the text has it
        if result.status == "error":
            view.show_header(step.label, code, QCoreApplication.translate(
                "ViewerPanel", "{kind}: {message}").format(kind=result.error_type,
                                                           message=result.error),
                error=True)
        elif result.status == "stopped":  # its kernel was ended as it ran: no values
            view.show_header(step.label, code, QCoreApplication.translate(
                "ViewerPanel", "Stopped while it ran: {message}").format(
                message=translate_core("Kernel", result.error)))
        elif result.status == "skipped":
            view.show_header(step.label, code, QCoreApplication.translate(
                "ViewerPanel", "Not run: an earlier step stopped the run."))
        elif isinstance(result.value, KernelValue):
            self._show_kernel_value(step.label, code, result.value, result.printed)
            return
        else:  # its run is on its way: the mode the user chose stays for its value
            view.show_header(step.label, code, QCoreApplication.translate(
                "ViewerPanel", "Code: the kernel runs it, as python does. Its values show "
                "when it has run."))
            self._show_no_tensor(keep_mode=True)
            return
        self._show_no_tensor()

    def _show_kernel_value(self, label: str, code: str, value: KernelValue, printed: str,
                           iteration: int | None = None) -> None:
        """A code step: the names it bound, as the kernel described them (for a loop, at
        the iteration picked), and what it ``printed``; a small tensor among them shows
        in the grid."""
        loop, names, lines = value.loop, value.names, []
        picker = self._view.iterations
        samples = (loop or {}).get("samples") or {}
        if samples:
            kept = sorted(int(k) for k in samples)
            if iteration is None:
                picked, self._picked = self._picked, None
                picker.set_iterations(kept, loop.get("iterations", 0), picked)
                iteration = picker.iteration
            names = samples.get(str(iteration), {})
            lines.append(QCoreApplication.translate(
                "ViewerPanel", "The loop ran {0} iterations; at the end of iteration {1}:")
                .format(loop.get("iterations", 0), iteration))
        else:
            picker.set_iterations([], 0)
            if loop is not None:
                lines.append(QCoreApplication.translate(
                    "ViewerPanel", "The loop ran {0} iterations.").format(
                        loop.get("iterations", 0)))
        self._loop_shown = (label, code, value, printed)
        lines += [f"{name}: {summary_text(summary)}" for name, summary in names.items()]
        if not names and not printed:
            lines.append(QCoreApplication.translate("ViewerPanel", "It bound no new names."))
        if self._part is not None:
            lines.append(QCoreApplication.translate(
                "ViewerPanel", "Shown below: {0}, opened from the Model tab").format(
                    self._part[1]))
        if value.through and not samples:  # true, and said, but never the step's value
            lines.append(QCoreApplication.translate(
                "ViewerPanel", "It changed in place, through another object: {0}").format(
                    ", ".join(value.through)))
        self._view.show_header(label, code, "\n".join(lines))
        picked = None
        if samples and "printed" in loop:  # (a kernel older than per-iteration output)
            picked = (iteration, loop["printed"].get(str(iteration), ""))
        self._view.show_step_text(step_text(names, printed, picked))
        at_end = not samples or iteration == kept[-1]
        part = self._part
        if part is not None and at_end and value.run_id and self._document.kernel is not None:
            self._show_remote(value, part[1], part[2])  # a module's, as the Model tab asked
            return
        for name, summary in names.items():
            if summary.get("type") != "Tensor":
                continue
            if at_end and value.run_id and self._document.kernel is not None:
                self._show_remote(value, name, summary)  # the kernel holds it: ask
                return
            values = summary_array(summary)  # an iteration's small tensor, carried whole
            if values is not None:
                self._show_values(values, name, summary)
                return
        self._show_no_tensor()

    # -- a tensor the kernel holds ------------------------------------------------------
    def _show_remote(self, value: KernelValue, name: str, summary: dict) -> None:
        """Show a tensor of the kernel's: the plane shown, its facts and statistics are
        asked for (``kernel.queries``); big ones never leave the kernel whole."""
        view = self._view
        shape = tuple(summary.get("shape", ()))
        if (value.run_id, value.statement, name, len(shape)) == self._remote \
                and shape == self._remote_shape:
            return  # shown, or asked for, already: a second refresh of a run asks nothing
        self._values, self._name = None, name
        self._remote = None  # set below, once the mode is chosen: one question, not two
        view.show_tensor([("shape", tuple_text(shape)), ("dtype", summary.get("dtype", "")),
                          ("device", summary.get("device", ""))])
        view.show_stats_pending()
        view.set_shape(shape)
        big = math.prod(shape) > HEATMAP_NUMEL
        auto_key = (self._document.selected, name, big)
        if auto_key != self._auto_key:
            self._auto_key = auto_key
            view.show_mode("heatmap" if big else self._preferred_mode)
        self._remote = (value.run_id, value.statement, name, len(shape))
        self._remote_shape = shape
        self._ask_plane(stats=True)

    def _ask_plane(self, stats: bool) -> None:
        """Ask the kernel for the plane on show; with ``stats``, for the statistics too,
        as a second question: the plane is painted first, and the statistics of a big
        tensor (tens of milliseconds in the kernel) follow. Asked once the event loop is
        idle: one user action (a selection that shows a big tensor as a heatmap, then a
        switch to the grid) asks one question, not one per change (the kernel answers
        in turn). A run's result asks at once: its answers came with the run, and the
        plane is painted in the same frame as the rest of the views."""
        self._stats_generation += 1  # the answers to earlier questions are stale
        self._stats_wanted = self._stats_wanted or stats
        if not self._coming[0]:
            self._coming[0] = True
            self._document.question_coming(True)
            if self._asking_now:  # a run's result: its plane, most likely sent with the
                self._send_plane_question()  # run, is painted with the rest, in one frame
            else:
                QTimer.singleShot(0, self, self._send_plane_question)

    def _send_plane_question(self) -> None:
        if not self._coming[0]:
            return
        self._coming[0] = False
        self._document.question_coming(False)
        stats, self._stats_wanted = self._stats_wanted, False
        if self._remote is None:
            return
        run_id, statement, name, ndim = self._remote
        rows_dim, cols_dim, fixed = self._view.plane_dims
        self._remote_cells = HEATMAP_CELLS if self._view.mode == "heatmap" else MAX_PLANE_CELLS
        args = {"run": run_id, "statement": statement, "name": name, "rows": rows_dim,
                "cols": cols_dim, "fixed": {str(d): i for d, i in fixed.items()},
                "stats": False, "cells": self._remote_cells}
        self._plane_args = args
        from widgets.common.tensor_table_model import PlaneAddress  # (the body's, built)

        address = PlaneAddress(name, ndim, rows_dim, cols_dim, dict(fixed))
        answer = while_alive(self, functools.partial(self._on_remote_answer,
                                                     self._stats_generation, address))
        if stats:  # asked once a plane has come (the kernel answers in turn); set first,
            # as a plane that came with the run is answered at once, inside ``ask``
            self._stats_args = {"run": run_id, "statement": statement, "name": name}
        shape = self._remote_shape
        cells = math.prod(shape[d] for d in {rows_dim, cols_dim} if 0 <= d < len(shape))
        if self._remote_cells > HEATMAP_CELLS and cells > HEATMAP_CELLS:
            # a big grid: a coarser sample first, painted at once, then the full one
            # (asked once the sample has come: its megabytes would hold the sample up)
            self._document.ask("tensor", {**args, "cells": HEATMAP_CELLS},
                               functools.partial(answer, then=args))
        else:
            self._document.ask("tensor", args, answer)

    def _ask_stats(self) -> None:
        """The statistics of the tensor on show, once its first plane is painted: the
        kernel answers in turn, and a big tensor's take tens of milliseconds (whatever
        plane is asked for later, they are the tensor's)."""
        args, self._stats_args = self._stats_args, None
        if args is not None and self._remote is not None:
            self._document.ask("tensor_stats", args, while_alive(
                self, functools.partial(self._on_remote_stats, self._remote)))

    def _on_remote_stats(self, remote: tuple, data: dict, error: str) -> None:
        if remote != self._remote:
            return  # another tensor is shown by now
        if error:
            self._view.show_stats_failed(error)
        elif "stats" in data:
            self._view.show_stats([tuple(s) for s in data["stats"]])

    def _on_remote_answer(self, generation: int, address: PlaneAddress, data: dict,
                          error: str, then: dict | None = None) -> None:
        """A plane the kernel sent; ``then``: the question for the full plane, after a
        coarse sample of it."""
        if generation != self._stats_generation:
            return  # another tensor, or another plane, is shown by now
        view = self._view
        if error:
            self._stats_args = None
            view.show_stats_failed(error)
            view.clear_plane()
            return
        view.show_tensor([tuple(f) for f in data.get("facts", ())])
        if "stats" in data:
            view.show_stats([tuple(s) for s in data["stats"]])
        if "plane" not in data:
            view.clear_plane()
            self._ask_stats()
            return
        step = tuple(data.get("step", (1, 1)))
        view.show_plane(data["plane"], dataclasses.replace(address, step=step))
        if then is not None:
            self._document.ask("tensor", then, while_alive(self, functools.partial(
                self._on_remote_answer, generation, address)))
        self._heatmap_stale = True
        if view.mode == "heatmap":
            self._sync_heatmap()
            if max(step) >= POOLED_STEP:  # a sparse sample: the image of the whole
                self._ask_heatmap(generation)  # plane, from the kernel, before statistics
        self._ask_stats()

    def _ask_heatmap(self, generation: int) -> None:
        """Ask the kernel for the heatmap of the plane shown, sampled: the mean of each
        block of cells and the colour levels of the whole plane (query ``heatmap``)."""
        self._view.heatmap_image_coming()
        self._document.ask("heatmap", {**self._plane_args, "cells": HEATMAP_CELLS},
                           while_alive(self, functools.partial(self._on_heatmap_answer,
                                                               generation)))

    def _on_heatmap_answer(self, generation: int, data: dict, error: str) -> None:
        if generation != self._stats_generation:
            return  # another tensor, or another plane, is shown by now
        if error or "image" not in (data or {}):
            self._view.heatmap_image_failed(error)
            return
        self._view.show_heatmap_image(np.asarray(data["image"]), tuple(data["levels"]),
                                      tuple(data["block"]))

    def _on_view_iteration(self, iteration: int) -> None:
        if self._loop_shown is not None:
            self._show_kernel_value(*self._loop_shown, iteration=iteration)

    def _show_no_tensor(self, keep_mode: bool = False) -> None:
        self._values = self._remote = self._stats_args = None
        self._stats_generation += 1
        if not keep_mode:
            self._auto_key = None
        self._view.show_no_tensor()

    def _show_values(self, values: np.ndarray, name: str, summary: dict) -> None:
        """A small tensor whose summary carries it whole: its facts and statistics as the
        kernel told them, its planes cut from ``values`` (``protocol.tensor_summary``)."""
        view = self._view
        self._values, self._name, self._remote = values, name, None
        view.show_tensor(summary_facts(summary))
        self._stats_generation += 1
        view.show_stats(summary_stats(summary))
        view.set_shape(values.shape)
        big = values.size > HEATMAP_NUMEL
        auto_key = (self._document.selected, name, big)
        if auto_key != self._auto_key:  # a new step, or one that grew past the threshold
            self._auto_key = auto_key
            view.show_mode("heatmap" if big else self._preferred_mode)
        self._show_plane()

    def _show_plane(self) -> None:
        values = self._values
        if values is None:
            return
        from widgets.common.tensor_table_model import PlaneAddress  # (the body's, built)

        rows_dim, cols_dim, fixed = self._view.plane_dims
        address = PlaneAddress(self._name, values.ndim, rows_dim, cols_dim, fixed)
        try:
            shown = plane(values, rows_dim, cols_dim, fixed)
        except IndexError:  # no plane to show: a fixed dimension of size 0
            self._view.clear_plane()
            return
        self._view.show_plane(shown, address)
        self._heatmap_stale = True
        if self._view.mode == "heatmap":
            self._sync_heatmap()

    def _sync_heatmap(self) -> None:
        """Draw the heatmap only while it is the view shown."""
        if self._heatmap_stale:
            self._heatmap_stale = False
            self._view.draw_heatmap()

    # -- user actions ----------------------------------------------------------------
    def _on_view_mode_changed(self, mode: str) -> None:
        self._preferred_mode = mode
        if self._remote is not None and self._remote_cells != (
                HEATMAP_CELLS if mode == "heatmap" else MAX_PLANE_CELLS):
            self._ask_plane(stats=False)  # the grid wants every cell, a heatmap far fewer
        elif mode == "heatmap":
            self._sync_heatmap()

    def _on_view_plane_changed(self) -> None:
        if self._remote is not None:
            self._ask_plane(stats=False)
        else:
            self._show_plane()
