"""The Training tab: the recipe's own training loop, watched live while the kernel runs it.

Every ``backward()`` of a run is a training step (``kernel.watch``); the document
keeps each loop's numbers as they come (``Document.training``). This tab plots the loop
it shows at display rate, and steers it: pause, one step, stop, a live learning rate and
the NaN pause go to the kernel (``KernelSession.control``); the learning rate and the
device are also literals of the recipe (``app.training.fields``), rewritten for the next
run. With no loop in the recipe, it offers "New training…" and the gallery's training
lessons (``EmptyPage``).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.exports import table_csv
from app.recipe.document import Document
from app.recipe.reader import RecipeError, read_recipe
from app.training.fields import fields, with_value
from app.training.live import Loop, metrics_columns
from widgets.common.plot_export import ask_save_plot, save_plot, save_table_csv
from widgets.common.retranslate import add_tab, translated
from widgets.common.theme import role_style, set_style_sheet
from widgets.common.undo import push_edit
from widgets.training.compare import RunComparison
from widgets.training.distributions import DistributionPlots
from widgets.training.empty_page import EmptyPage
from widgets.training.histogram import HistogramPlots
from widgets.training.loop_bar import LoopBar
from widgets.training.plots import LivePlots

#: How often the plots take what the loop reported, in milliseconds (display rate).
FRAME_MS = 33


class TrainingPanel(QWidget):
    """The loop's controls, its live plots, or (no loop yet) how to get one.

    Parameters
    ----------
    document : Document
    undo_stack : QUndoStack, optional
        Where its edits of the recipe's literals go.
    language : str
        The lessons' language (their titles).
    """

    new_requested = Signal()
    """The user asked for a new training recipe ("New training…")."""
    open_requested = Signal(str)
    """The user asked to open a gallery lesson, by path."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None, language: str = "en"):
        super().__init__(parent)
        self.document, self.undo_stack, self.language = document, undo_stack, language
        self.bar = LoopBar()
        self.message = QLabel()
        self.message.setWordWrap(True)
        translated(self, lambda: self.message.setToolTip(self.tr("What the loop is doing")))
        self.empty = EmptyPage()
        self.empty.new_requested.connect(self.new_requested.emit)
        self.empty.open_requested.connect(self.open_requested.emit)
        self.plots = LivePlots()
        self.compare = RunComparison()
        self.compare.delete_requested.connect(self._on_view_delete_run)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        add_tab(self.views, self.plots, lambda: self.tr("Live"), lambda: self.tr(
            "The loop shown: loss, learning rate, each layer's output std and gradient norm"))
        self.distributions = DistributionPlots()
        add_tab(self.views, self.distributions, lambda: self.tr("Distributions"),
                lambda: self.tr("Every layer's weights and gradients over the steps, as "
                                "bands of percentiles"))
        self.histogram = HistogramPlots()
        self.histogram.layer_changed.connect(lambda path: self._control(histogram=path))
        add_tab(self.views, self.histogram, lambda: self.tr("Histogram"),
                lambda: self.tr("One layer's weights and gradients, now and over time"))
        add_tab(self.views, self.compare, lambda: self.tr("Compare runs"),
                lambda: self.tr("Every run kept: losses overlaid, and what differed in the "
                                "recipe that made each"))
        self.views.currentChanged.connect(self._on_view_page)
        self.export_button = self._export_button()
        self.views.setCornerWidget(self.export_button)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty)
        self.pages.addWidget(self.views)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.bar.add_note(self.message)
        layout.addWidget(self.bar)
        layout.addWidget(self.pages, 1)
        self.shown_index: int | None = None  # the loop picked, by statement; None: the last
        self._loop: Loop | None = None
        self._layers: tuple = ()  # the loop's layers, and whether it has a boundary
        self._boundary_line: int | None = None  # the line of the last loop with a boundary
        self._drawn = -1  # the training version the plots show
        self._lessons_listed = False
        self._stale = True  # what it shows waits for it to be shown
        self._fitted: Loop | None = None  # the finished loop the plots were fitted to
        self._runs_shown: tuple = ()  # what the comparison shows (numbers, steps, finished)
        self.extra = ""  # the loop's scalar plotted beside the loss ("" for none)
        self._extras: dict[str, tuple] = {}  # the shown loop's: name to (steps, values)
        self._extras_of: Loop | None = None
        self.frame_timer = QTimer(self)
        self.frame_timer.setInterval(FRAME_MS)
        self.frame_timer.timeout.connect(self._on_frame)
        self._connect_bar()
        self._set_model_connected(True)
        self._on_model_training()
        translated(self, self._set_state_texts, now=False)

    # -- wiring ----------------------------------------------------------------------------
    def _connect_bar(self) -> None:
        bar = self.bar
        bar.run_clicked.connect(self.document.run_again)
        bar.pause_toggled.connect(lambda on: self._control(pause=on))
        bar.step_clicked.connect(lambda: self._control(step=True))
        bar.stop_clicked.connect(self.document.stop)
        bar.lr_edited.connect(self.set_lr)
        bar.nan_pause_toggled.connect(lambda on: self._control(nan_pause=on))
        bar.device_chosen.connect(self.set_device)
        bar.loop_chosen.connect(self._on_view_loop_chosen)
        bar.knobs.edited.connect(self.set_knob)
        bar.extra_chosen.connect(self.show_extra)

    def _set_model_connected(self, connect: bool) -> None:
        doc = self.document
        for signal, slot in ((doc.reset, self._on_model_reset),
                             (doc.training_changed, self._on_model_training),
                             (doc.kernel_changed, self._update_bar),
                             (doc.held_changed, self._update_bar),
                             (doc.recipe.changed, self._update_bar)):
            signal.connect(slot) if connect else signal.disconnect(slot)

    def detach(self) -> None:
        """Stop following the document, for good: the window that shows this retires."""
        self.frame_timer.stop()
        self._set_model_connected(False)

    def shutdown(self) -> None:
        """The window closes: the loop ends with its kernel."""
        self.frame_timer.stop()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._lessons_listed:
            self._lessons_listed = True
            self._list_lessons()
        if self._stale:
            self._on_model_training()
        self.frame_timer.start()
        self._on_frame()

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().hideEvent(event)
        self.frame_timer.stop()

    def _set_state_texts(self) -> None:
        self._runs_shown = ()  # the comparison's table, drawn again
        self._extras_of = None  # and the finished loop's "Also plot ..." choices
        self._on_model_training()

    def set_language(self, language: str) -> None:
        """List the training lessons with their titles in ``language`` (``en``, ``zh_CN``)."""
        if language != self.language:
            self.language = language
            if self._lessons_listed:
                self._list_lessons()

    def _list_lessons(self) -> None:
        from app.recipe.gallery import scan

        try:
            entries = scan().in_category("training")
        except OSError:
            entries = []
        self.empty.set_lessons(entries, self.language)

    # -- the loop shown --------------------------------------------------------------------
    @property
    def loop(self) -> Loop | None:
        """The loop the tab shows: the one picked, else the recipe's last."""
        loops = self.document.training.loops
        if self.shown_index in loops:
            return loops[self.shown_index]
        return self.document.training.current

    def _on_view_page(self, _index: int) -> None:
        """Another page shows: drawn at once, from what the loop holds now."""
        self._show_runs()
        self._drawn = -1
        self._on_frame()

    def _on_view_delete_run(self, loop: Loop) -> None:
        self.document.training.forget(loop)
        self._on_model_training()

    def _on_view_loop_chosen(self, index: int) -> None:
        self.shown_index = index
        self._on_model_training()

    def _on_model_reset(self) -> None:
        """Another recipe: nothing of the last one's loops stays on screen."""
        self.shown_index, self._boundary_line, self._fitted = None, None, None
        self._loop, self._layers, self._drawn = None, (), -1
        self._runs_shown, self._extras, self._extras_of = (), {}, None
        self.plots.set_run(None)
        self.histogram.set_run(None)
        self.compare.set_runs([])
        self._on_model_training()

    def _on_model_training(self) -> None:
        if not self.isVisible():  # a hidden tab's texts would still ask the window for a
            self._stale = True    # new layout at every report: brought up to date shown
            return
        self._stale = False
        loops = self.document.training.loops
        training = self.document.training
        self.pages.setCurrentWidget(self.views if loops or training.kept else self.empty)
        self.bar.show_loops([(i, self.tr("Loop at line {0}").format(loop.line))
                             for i, loop in sorted(loops.items())],
                            self.loop.index if self.loop is not None else None)
        loop = self.loop
        # a run of a loop whose last run showed a boundary, ended without one: its plot
        # goes (a loop that never had one is not laid out again as it ends)
        ended_without = loop is not None and loop.finished and loop.info.extent is None \
            and loop.line == self._boundary_line
        layers = (tuple(loop.info.layer_names), loop.info.extent is not None,
                  loop.info.points is not None, ended_without) if loop is not None else ()
        if loop is not None and loop.info.extent is not None:
            self._boundary_line = loop.line
        reset = loop is not self._loop or layers != self._layers
        if reset:
            self._loop, self._layers, self._drawn = loop, layers, -1
            # a run of the loop that showed a boundary keeps its plot until it ends
            # without one (between two runs, no loop: the plots stay as they are)
            keep = loop is None or loop.line == self._boundary_line and not ended_without
            self.plots.set_run(loop.info if loop is not None else None, keep_boundary=keep)
            self.histogram.set_run(loop.info if loop is not None else None)
            self.distributions.set_run(loop.info if loop is not None else None)
            self._extras_of = None
        if loop is not None and loop.finished and self._extras_of is not loop:
            self._extras_of, self._extras = loop, loop_scalars(self.document.run, loop)
            self.bar.show_extras(list(self._extras), self.extra)
            self.show_extra(self.extra)  # the curve chosen for the last run, if it has it
        elif loop is None or not loop.finished:
            self.bar.show_extras([], "")
        self._update_bar()
        self._show_runs()
        if reset or not self.frame_timer.isActive():  # (plots set anew are drawn in the
            self._on_frame()  # same turn: a loop that ends never shows one empty frame)

    def _show_runs(self) -> None:
        """The comparison, when it shows and its runs changed (not at every batch: a run
        still training is drawn again when it ends)."""
        if self.views.currentWidget() is not self.compare:
            return
        kept = self.document.training.kept
        shown = tuple((loop.number, loop.finished, len(kept)) for loop in kept)
        if shown != self._runs_shown:
            self._runs_shown = shown
            self.compare.set_runs(kept)

    def _on_frame(self) -> None:
        loop = self._loop
        # (its end is drawn whole, forced, even with no new numbers: the last ones came
        # between two of the slow plots' updates)
        version = (self.document.training.version, loop is not None and loop.finished)
        if version == self._drawn or loop is None or loop.history is None:
            return
        self._drawn = version
        if loop.info.histogram_layer:
            self.histogram.show_layer(loop.info.histogram_layer)
        page = self.views.currentWidget()
        if page not in (self.histogram, self.distributions):
            page = self.plots
        page.refresh(loop.history, force=loop.finished)
        if loop.finished and self._fitted is not loop:
            self._fitted = loop
            for each in (self.plots, self.histogram, self.distributions):
                each.fitter.x_limit = float(loop.steps)  # its length is known now
            page.fit()

    # -- the bar ------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        loop = self.loop
        return self.document.kernel_run is not None and loop is not None \
            and not loop.finished

    def _update_bar(self) -> None:
        if not self.isVisible():
            self._stale = True
            return
        doc, loop = self.document, self.loop
        found = fields(doc.recipe.source)
        running = self.running
        lr = loop.last_lr if running and loop is not None else None
        if lr is None and "lr" in found:
            lr = float(found["lr"].value)
        device = found.get("device")
        self.bar.show_state(runnable=not doc.held and bool(doc.recipe.steps),
                            running=running, paused=loop.paused if running else "",
                            text=self._state_text(loop), lr=lr,
                            lr_editable=running or "lr" in found,
                            device=device.value if device is not None else None)
        self.bar.knobs.show_fields(found)
        self._show_message(loop, running)

    def _state_text(self, loop: Loop | None) -> str:
        if loop is None:
            return ""
        parts = [self.tr("step {0}").format(loop.steps)]
        if loop.last_loss is not None:
            parts.append(self.tr("loss {0}").format(f"{loop.last_loss:.4g}"))
        elif loop.steps:
            parts.append(self.tr("loss NaN"))
        if loop.last_lr is not None:
            parts.append(self.tr("lr {0}").format(f"{loop.last_lr:g}"))
        # a part is never cut in two when the line wraps ("lr" / "0.01")
        return "  ·  ".join(part.replace(" ", "\u00a0") for part in parts)

    def _show_message(self, loop: Loop | None, running: bool) -> None:
        text, role = "", "muted"
        if loop is not None and running and loop.paused == "nan":
            text, role = self.tr("The loss of step {0} is not a number: the loop waits before "
                                 "its backward(). Look at the values, then Go on or Stop."
                                 ).format(loop.steps + 1), "error"
        elif loop is not None and running and loop.paused:
            text = self.tr("Paused before step {0}'s backward().").format(loop.steps + 1)
        elif loop is not None and loop.finished:
            text = self.tr("The loop ran {0} steps.").format(loop.steps)
        elif loop is None and self.document.held:
            text = self.tr("This file has not run yet: choose Run in the bar above the views.")
        self.message.setText(text)
        self.message.setVisible(bool(text))
        set_style_sheet(self.message, role_style(role))

    # -- what the user asks -------------------------------------------------------------------
    def _control(self, **changes) -> None:
        kernel = self.document.kernel
        if kernel is not None:
            kernel.control(**changes)

    def set_lr(self, lr: float) -> None:
        """A new learning rate: the running loop takes it at its next step, and the
        recipe's literal says it for the next run (without running again now)."""
        running = self.running
        if running:
            self._control(lr=lr)
        found = fields(self.document.recipe.source).get("lr")
        if found is not None and found.value != lr:
            text = with_value(self.document.recipe.source, found, lr)
            if running:
                with self.document.for_next_run():
                    self._edit(text, self.tr("Change learning rate"))
            else:
                self._edit(text, self.tr("Change learning rate"))

    def _export_button(self) -> QToolButton:
        button = QToolButton()
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        plots = menu.addAction("", self.export_plots)
        numbers = menu.addAction("", self.export_metrics)
        button.setMenu(menu)
        translated(button, lambda: (
            button.setText(self.tr("Export")),
            button.setToolTip(self.tr("Save the plots of the page shown as PNG or SVG, or the "
                                      "loop's numbers as CSV")),
            plots.setText(self.tr("Plots as PNG or SVG...")),
            numbers.setText(self.tr("Numbers as CSV..."))))
        return button

    def export_plots(self, path: str | None = None) -> str | None:
        """Save the plots of the page shown (asks where when ``path`` is None)."""
        graphics = self.views.currentWidget().graphics
        if path is None:
            return ask_save_plot(self, graphics, "training")
        save_plot(graphics, path)
        return path

    def export_metrics(self, path: str | None = None) -> str | None:
        """Save the shown loop's numbers as CSV (asks where when ``path`` is None)."""
        loop = self.loop
        if loop is None:
            return None
        columns = metrics_columns(loop)
        if path is None:
            return save_table_csv(self, columns, "training")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(table_csv(columns))
        return path

    def show_extra(self, name: str) -> None:
        """Plot the loop's scalar ``name`` beside the loss ("" for none)."""
        self.extra = name
        if name in self._extras:
            self.plots.show_extra(name, *self._extras[name])
        else:
            self.plots.show_extra(None)

    def set_knob(self, name: str, value: float) -> None:
        """A knob of the recipe (``steps``, ``momentum``...) changed: its literal is
        rewritten, and the recipe runs again."""
        found = fields(self.document.recipe.source).get(name)
        if found is not None and found.value != value:
            self._edit(with_value(self.document.recipe.source, found, value),
                       self.tr("Change {0}").format(name))

    def set_device(self, device: str) -> None:
        """Train on ``device``: the recipe's ``device = ...`` line says it, and it runs."""
        found = fields(self.document.recipe.source).get("device")
        if found is not None and found.value != device:
            self._edit(with_value(self.document.recipe.source, found, device),
                       self.tr("Train on {0}").format(device))

    def _edit(self, text: str, label: str) -> None:
        try:
            loaded = read_recipe(text)
        except RecipeError:
            return
        push_edit(self.undo_stack, self.document.recipe,
                  lambda r: r.restore((loaded.steps, loaded.docstring, text)),
                  label)


def loop_scalars(run, loop: Loop) -> dict[str, tuple]:
    """The float scalars the loop's statement bound (``val_loss``, ``acc``...), at each
    iteration the kernel's loop report kept: name to (steps, values), the steps in
    ``backward()`` calls (an iteration that called it twice counts two)."""
    import numpy as np

    from app.recipe.kernel_results import KernelValue

    report = next((r.value.loop for r in run.results if isinstance(r.value, KernelValue)
                   and r.value.statement == loop.index and r.value.loop), None)
    if not report or not report.get("iterations"):
        return {}
    scalars, kinds = report.get("scalars") or {}, report.get("scalar_kinds") or {}
    per_iteration = loop.steps / report["iterations"]
    found = {}
    for name, kind in kinds.items():
        values = scalars.get(name)
        if kind != "float" or not values:
            continue
        iterations = report.get("scalar_steps") or range(len(values))
        steps = (np.asarray(iterations[:len(values)], dtype=np.float64) + 1) * per_iteration
        found[name] = (steps, np.array([np.nan if v is None else v for v in values],
                                       dtype=np.float64))
    return found
