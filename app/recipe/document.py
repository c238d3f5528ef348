"""The open document: a recipe, where it is saved, its latest run, and the selected step.

Qt-free. Views listen to its psygnal signals and call its methods; nothing here
knows a view exists.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from psygnal import Signal

from app.identity import data_dir
from app.recipe.answers import Answers
from app.recipe.kernel_results import KernelRunState
from app.recipe.model import Recipe, Step, write_step
from app.recipe.reader import RecipeError, parse, read_bytes, read_recipe
from app.recipe.results import RecipeRun, StepResult
from app.recipe.text_recipe import SourceRecipe
from app.resources import RECIPES_DIR, is_gallery
from app.text_edits import statement_text
from protocol.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from app.training.live import LiveTraining

WELCOME = RECIPES_DIR / "welcome.py"
#: What ``Document.open`` says of a file it converted (``convert_old``); the views
#: translate it in the ``Document`` context.
CONVERTED = QT_TRANSLATE_NOOP(
    "Document", "This file used the old training format (a settings block and a pasted "
    "engine); it was converted to a plain training loop. Save to keep the new form.")


class Document:
    """The recipe being edited, evaluated after every change.

    Parameters
    ----------
    recipe : Recipe, optional
        Starts empty when not given.
    """

    evaluated = Signal(object)
    """Emitted with the new ``RecipeRun`` after every evaluation."""
    selection_changed = Signal(object)
    """Emitted with the selected step index, or None."""
    path_changed = Signal(object)
    """Emitted with the new file path (str) or None for an unsaved recipe."""
    modified_changed = Signal(bool)
    """Emitted when the recipe starts or stops differing from its file."""
    held_changed = Signal(bool)
    """Emitted when the recipe starts or stops waiting for its user's Run."""
    file_saved = Signal(str)
    """Emitted with the path after the recipe was written (the trust store remembers it)."""
    kernel_changed = Signal()
    """Emitted when a kernel run starts, moves to another statement, or ends."""
    output_added = Signal(str)
    """Emitted with the text the kernel's run printed since the last time (``output`` holds
    the bounded whole)."""
    training_changed = Signal()
    """Emitted when a training loop of the run reported steps, paused, went on or ended
    (``training``)."""
    unparsed_changed = Signal(object)
    """Emitted with why the text typed in the code pane is not Python yet (``unparsed``),
    or None once the recipe is the text on screen again."""
    reset = Signal()
    """Emitted when a new, opened or welcome recipe replaces the one shown, before it
    runs: views forget what they showed of the old one (its training loops are gone)."""

    def __init__(self, recipe: Recipe | None = None):
        if not isinstance(recipe, SourceRecipe):
            recipe = SourceRecipe(*(recipe.snapshot() if recipe is not None else ()))
        self.recipe: SourceRecipe = recipe
        #: The opened file began with a UTF-8 byte order mark: Save writes it back.
        self.bom = False
        self.path: str | None = None
        self.run: RecipeRun = RecipeRun()
        self.output = ""
        self.selected: int | None = None
        #: False while the selection is the one opening made: a run's error moves it.
        self._picked = True
        #: What opening the last file did to it (``CONVERTED``), for its user to read.
        self.file_warnings: tuple[str, ...] = ()
        #: True while a file from elsewhere waits for its user's Run: nothing of it runs.
        self.held = False
        #: Why the open file cannot be read as Python (``open_unreadable``), or None.
        self.problem: str | None = None
        #: Why the text typed in the code pane is not Python yet, or None: meanwhile the
        #: recipe, its steps and its run are the last text's that read as Python.
        self.unparsed: str | None = None
        #: The window's kernel (``app.link.session.KernelSession``), or None: then the
        #: steps wait for one. ``work_folder`` is where an unsaved recipe or a gallery
        #: lesson runs: a folder of the user's own, never the lab's installed files.
        self.kernel = None
        self.work_folder = str(data_dir() / "work")
        #: The kernel run under way, or None; how the last one ended (an ``Ended``).
        self.kernel_run: KernelRunState | None = None
        self.kernel_ended = None
        #: True once a fresh kernel has run again the finished steps of the run that
        #: ``kernel_ended`` tells of (Stop or the time limit had to end its kernel).
        self.restored = False
        #: The views' questions to the kernel, and answers sent with a run.
        self._answers = Answers()
        self._done_upto = -1
        self._held = False  # an edit's repaint waits for the answers sent with its result
        #: When an edit's run was sent, while the views still show the run before it.
        self.waiting_since: float | None = None
        #: The last kernel run before this one: what a resumed run keeps of it.
        self._last_kernel_run: KernelRunState | None = None
        self._quiet = False  # edits for the next run (``for_next_run``)
        self._saved = self.recipe.snapshot()
        self.recipe.changed.connect(self._on_recipe_changed)
        self.evaluate()

    @cached_property
    def training(self) -> LiveTraining:
        """The runs' training loops, as they train (``app.training.live``): made when
        first asked for (the window's first paint shows no loop)."""
        from app.training.live import LiveTraining

        return LiveTraining()

    # -- state -----------------------------------------------------------------
    @property
    def modified(self) -> bool:
        return self.recipe.snapshot() != self._saved

    def evaluate(self, resume: bool = False) -> RecipeRun:
        """Run the recipe again and tell the views (while held: an empty run, nothing runs).

        The kernel (the window's) runs it all and its reports fill the run in; ``resume``
        (an edit): it may go on from the first changed statement. Until a kernel is
        attached, every step waits for it (``kernel``); the window's kernel hook runs the
        document when it attaches one.
        """
        if self.held:
            self.run, self.output = RecipeRun(), ""
            self._forget_kernel_run()
            self.evaluated.emit(self.run)
            return self.run
        before, self.run = self.run, RecipeRun(
            [StepResult(step, "kernel") for step in self.recipe.steps])
        self._run_in_kernel(resume)
        # An edit of a step shows when its results come: one repaint, and no blank
        # frame between the old values and the new (``show_pending`` if they are slow).
        same = resume and len(before.results) == len(self.run.results) > 0
        self.waiting_since = time.monotonic() if same and self.kernel_run else None
        if self.waiting_since is None:
            self.evaluated.emit(self.run)
        return self.run

    # -- the kernel ----------------------------------------------------------------------------
    def _run_in_kernel(self, resume: bool) -> None:
        """Have the kernel run the recipe's text (nothing to run: stop the run there is)."""
        if self.kernel is None or not any(r.status == "kernel" for r in self.run.results):
            self._forget_kernel_run()
            return
        path, cwd = self.run_path()
        os.makedirs(cwd, exist_ok=True)
        state = KernelRunState(self.recipe, self.recipe.source, self.run, 0,
                               before=self.kernel_run or self._last_kernel_run)
        prefetch = self._answers.prefetch(self.kernel)
        state.run_id = self.kernel.run(self.recipe.source, path, cwd, resume=resume,
                                       mirror=state.mirror_requests(), prefetch=prefetch)
        self._answers.sent(state.run_id, prefetch)
        self._done_upto = -1  # the last statement the run has reported
        self._last_kernel_run = self.kernel_run or self._last_kernel_run
        self.kernel_run = state
        self.kernel_ended, self.restored = None, False
        self.output = ""
        self.kernel_changed.emit()

    def _forget_kernel_run(self) -> None:
        """Stop the kernel's run, if one is under way, and take nothing more from it."""
        self.waiting_since, self._held = None, False
        if self.kernel_run is not None:
            self.kernel_run = None
            if self.kernel is not None:
                self.kernel.stop()
            self.kernel_changed.emit()

    def show_pending(self, after: float = 0.0) -> None:
        """Show the run under way if its first results have been awaited ``after`` seconds
        (the window's kernel hook asks, on its timer)."""
        if self.waiting_since is not None and time.monotonic() - self.waiting_since >= after:
            self.waiting_since, self._held = None, False
            self.evaluated.emit(self.run)

    def run_path(self) -> tuple[str, str]:
        """Where the kernel runs the recipe: its file and working folder (a saved recipe's
        own folder, as Jupyter does; an unsaved one, or a gallery lesson, in the work
        folder, so a lesson's ``torch.save`` never writes among the lab's own files)."""
        if self.path is None:
            work = self._usable_work_folder()
            return os.path.join(work, "untitled.py"), work
        path = os.path.abspath(self.path)
        return path, self._usable_work_folder() if is_gallery(path) else os.path.dirname(path)

    def _usable_work_folder(self) -> str:
        """``work_folder``, made if need be; the temporary folder's when it cannot be
        (a data folder on a read-only home), so that the recipe still runs."""
        try:
            os.makedirs(self.work_folder, exist_ok=True)
            return self.work_folder
        except OSError:
            return os.path.join(tempfile.gettempdir(), "tensor-lab-work")

    def stop(self) -> None:
        """Stop the kernel's run (``KeyboardInterrupt``; ended if it does not stop)."""
        if self.kernel is not None and self.kernel_run is not None:
            self.kernel.stop()

    def ask(self, kind: str, args: dict, on_answer: Callable[[dict, str], None]) -> bool:
        """Ask the kernel about a value of its run (``kernel.queries``); ``on_answer(data,
        error)`` is called from ``take_kernel_events``. False when there is no kernel."""
        if self.kernel is None:
            return False
        self._answers.ask(self.kernel, kind, args, on_answer)
        return True

    def question_coming(self, coming: bool) -> None:
        """A view will ask soon (``True``), or has asked or given up (``False``): it
        gathers the questions one user action makes, and ``asking`` holds meanwhile."""
        self._answers.coming_questions = max(
            0, self._answers.coming_questions + (1 if coming else -1))

    def take_kernel_events(self, events: list) -> None:
        """Apply what the kernel reported (called by the window's timer)."""
        from app.link.events import Answered, Ended, KernelStarting, Restoring, RunMessage
        from protocol import messages

        state, changed, moved, printed, ended = self.kernel_run, False, False, "", False
        trained = self.training.version
        for event in events:
            if isinstance(event, Answered):
                self._answers.answered(event.query_id, event.data, event.error)
                continue
            if isinstance(event, KernelStarting):
                if event.cause == "died" and event.message and state is None \
                        and (self.kernel_ended is None or not self.kernel_ended.reason):
                    # lost while idle (a dropped connection): what is on screen is the
                    # gone kernel's; the line says so, and Run Again runs it anew
                    self.kernel_ended = Ended(-1, "died", 1, event.message)
                    moved = True
                continue
            last = self._last_kernel_run
            if isinstance(event, RunMessage) and last is not None \
                    and event.run_id == last.run_id and last is not state:
                last.apply(event.message)  # a replaced run's last reports: a resumed run
                continue  # keeps what they say
            if isinstance(event, Restoring):
                restoring = self._restoring(state, event)
                if restoring is not state:
                    state, changed, moved = restoring, True, True
                continue
            if state is None:
                continue
            if isinstance(event, RunMessage) and event.run_id == state.run_id:
                if isinstance(event.message, messages.Training):
                    if state.restores is None:  # a restore's loops were seen already
                        self.training.add(state.run_id, state.source, event.message)
                    continue
                if isinstance(event.message, messages.StepStarted) and state.restores is None:
                    self.training.statement_started(state.run_id, event.message.index)
                if isinstance(event.message, messages.Resumed):
                    state.resume(event.message.start, state.before)
                    changed |= self.waiting_since is None  # else with the edit's result
                if isinstance(event.message, messages.StepDone):
                    self._done_upto = event.message.index
                    self._answers.step_done(event.message.index)
                before = state.progress
                changed |= state.apply(event.message)
                moved |= state.progress is not before
            elif isinstance(event, Ended) and event.run_id == state.run_id:
                state.end(event.reason, event.message)
                if state.restores is None:
                    self.training.run_ended(state.run_id)
                self._answers.run_ended(self.kernel)
                self.kernel_run = None
                if state.restores is None or event.reason:  # else: how the stopped run
                    self.kernel_ended = event  # ended is still the news
                self.restored = state.restores is not None and not event.reason
                self._last_kernel_run = state
                changed = moved = ended = True
            else:
                continue
            self.output = state.output
            printed += state.take_output()
            if self.kernel_run is None:
                state = None
        if printed:
            self.output_added.emit(printed)
        if changed and self.waiting_since is not None and self.kernel_run is not None \
                and self._answers.coming(self._done_upto):
            self._held = True  # the views' answers come with the edit's result: one repaint
        elif changed or (self._held and not self._answers.coming(self._done_upto)):
            self._held, self.waiting_since = False, None
            self.evaluated.emit(self.run)
        if moved:
            self.kernel_changed.emit()
        if self.training.version != trained:
            self.training_changed.emit()
        if ended and not self._picked:
            self._show_first_error()

    def _restoring(self, state: KernelRunState | None, event) -> KernelRunState | None:
        """A fresh kernel runs again the finished statements of the run Stop (or the time
        limit) had to end (a ``Restoring`` event): that run's steps wait for the restore,
        which becomes the run under way; None when the document has moved on (another
        recipe, or an edit's run, which replaces the restore in the kernel anyway)."""
        stopped = self._last_kernel_run
        if state is not None or stopped is None or stopped.run_id != event.stopped_run \
                or stopped.run is not self.run:
            if state is None and self.kernel is not None:
                self.kernel.stop()  # a restore of what is no longer on screen
            return state
        self.kernel_run = stopped.restoring(event.run_id, event.statements)
        self._last_kernel_run, self._done_upto = stopped, -1
        return self.kernel_run

    def _show_first_error(self) -> None:
        """Select the step a run of a file just opened failed at (its error, its line and
        its lesson show at once), unless its user has picked a step since."""
        failed = next((i for i, r in enumerate(self.run.results) if r.status == "error"), None)
        if failed is not None:
            self.select(failed)
            self._picked = False  # still opening's choice: a run again may move it

    def select(self, index: int | None) -> None:
        """Select step ``index`` (None clears the selection)."""
        if index is not None and not 0 <= index < len(self.recipe.steps):
            index = None
        self._picked = True
        if index != self.selected:
            self.selected = index
            self.selection_changed.emit(index)

    def select_name(self, name: str) -> None:
        self.select(self.recipe.index_of(name))

    # -- files -----------------------------------------------------------------
    def open(self, path: str | os.PathLike[str], *, run: bool = True,
             data: bytes | None = None) -> None:
        """Replace the recipe with the file at ``path``; raises ``RecipeError`` or ``OSError``.

        With ``run=False`` the recipe is held: its steps show, and nothing of it runs
        until ``release``. ``data``: the file's bytes as the trust rule read and judged
        them (``app.trust.read_file``); they are what opens and runs, the file is not read
        again. On error the current recipe is left untouched. A file of the
        retired training format opens as the plain loop ``convert_old`` makes of it,
        modified (Save writes the loop), with ``CONVERTED`` in ``file_warnings``.
        """
        if data is None:
            data = read_bytes(os.fspath(path))
        loaded = read_recipe(data)
        text = data.decode("utf-8-sig")
        on_disk = (loaded.steps, loaded.docstring, text)
        loop = _as_loop(text)
        if loop is not None:
            text, loaded = loop
        self._reset()
        self.problem = None
        self._set_held(not run)
        self.file_warnings = (CONVERTED,) if loop is not None else ()
        self.selected = None
        self.bom = data.startswith(codecs.BOM_UTF8)
        before, self.path = self.path, os.fspath(path)  # its run starts in its folder
        self.recipe.restore((loaded.steps, loaded.docstring, text))
        if self.path != before:
            self.path_changed.emit(self.path)
        self._mark_saved()
        if loop is not None:  # the file still holds the old form until Save
            self._saved = on_disk
            self.modified_changed.emit(True)
        self.select(self._first_named())
        self._picked = False

    def open_unreadable(self, path: str | os.PathLike, text: str, problem: str) -> None:
        """Show the file at ``path`` that Python cannot read (``problem`` says why): its
        ``text``, no steps, held, so that nothing of it runs; Save writes the text back."""
        self._reset()
        self._set_held(True)
        self.file_warnings = ()
        self.selected = None
        self.bom = False
        before, self.path = self.path, os.fspath(path)
        self.recipe.restore(((), "", text))
        self.problem = problem
        if self.path != before:
            self.path_changed.emit(self.path)
        self._mark_saved()
        self.selection_changed.emit(None)

    def set_source(self, text: str) -> None:
        """Make ``text`` the recipe (an edit of the whole text); raises ``RecipeError``."""
        loaded = read_recipe(text)
        self.recipe.restore((loaded.steps, loaded.docstring, text))

    def open_welcome(self) -> None:
        """Open the shipped welcome recipe, as an unsaved copy."""
        self.open(WELCOME)
        self._set_path(None)

    def release(self) -> None:
        """The user chose Run: the held recipe runs, and so do its edits from now on."""
        if self.held:
            self._set_held(False)
            self.evaluate()

    def run_again(self) -> RecipeRun:
        """The user asked to run: a held recipe is released, any other runs again."""
        if self.held:
            self.release()
            return self.run
        return self.evaluate()

    def new(self, *, held: bool = False) -> None:
        """Start an empty recipe; ``held``: what is put in it next waits for ``release``."""
        self._reset()
        self.problem = None
        self._set_held(held)
        self.selected = None
        self.bom = False
        self.recipe.restore(((), "", None))
        self._set_path(None)
        self._mark_saved()
        self.selection_changed.emit(None)

    def save(self, path: str | os.PathLike[str] | None = None) -> str:
        """Write the recipe to ``path`` (or its current path) atomically; return the path."""
        target = os.fspath(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save to")
        from app.recipe.saving import write_atomic

        write_atomic(target, self.file_bytes())
        self._set_path(target)
        self._mark_saved()
        self.file_saved.emit(target)
        return target

    @property
    def text(self) -> str:
        """The recipe's text as on screen: what Save, autosave, the clipboard and the
        lesson export write, byte for byte (never made again from the steps)."""
        return self.recipe.source

    def step_text(self, index: int | None, step: Step | None = None) -> str:
        """Step ``index``'s statement as ``text`` has it (its spacing, its comments), for
        the views that show a step's code; the step's own statement (``write_step``) where
        the text has no statement of its own for it (``a = 1; b = 2``), or
        where ``step`` (the one a view shows) is not the recipe's step ``index`` now."""
        steps, text = self.recipe.steps, self.text
        if index is None or not 0 <= index < len(steps) \
                or step is not None and steps[index] is not step:
            return write_step(step) if step is not None else ""
        step = steps[index]
        try:
            tree, read = parse(text), read_recipe(text).steps  # (both kept for the text)
        except (SyntaxError, ValueError, RecipeError):
            return write_step(step)
        line = read[index].line if len(read) == len(steps) else step.line
        found = statement_text(text, line, tree) if line else None
        if found is None or step.name and not _binds(found, step.name):
            return write_step(step)  # (a step the text does not have as such yet)
        return found

    def file_bytes(self) -> bytes:
        """What Save writes: ``text``, after the byte order mark the file began with."""
        return (("\ufeff" if self.bom else "") + self.text).encode("utf-8")

    def _first_named(self) -> int | None:
        """The first step that binds a name: a form's, or a code step's (a loop, a def)."""
        for i, step in enumerate(self.recipe.steps):
            if step.binds:
                return i
        return None

    @property
    def asking(self) -> bool:
        """Whether a view waits for the kernel's answer to a question."""
        return self._answers.busy

    def set_unparsed(self, reason: str | None) -> None:
        """The text typed is not Python yet (``reason`` says why), or None: it is the
        recipe again (the code pane tells; the other views say what they show)."""
        if reason != self.unparsed:
            self.unparsed = reason
            self.unparsed_changed.emit(reason)

    def _reset(self) -> None:
        """Another recipe replaces this one: its loops are not the next one's."""
        if "training" in self.__dict__:  # (made: ``training``)
            self.training.clear()
        self.reset.emit()

    def _set_held(self, held: bool) -> None:
        if held != self.held:
            self.held = held
            self.held_changed.emit(held)

    def _set_path(self, path: str | None) -> None:
        if path != self.path:
            self.path = path
            self.path_changed.emit(path)

    def _mark_saved(self) -> None:
        was = self.modified
        self._saved = self.recipe.snapshot()
        if was:
            self.modified_changed.emit(False)

    @contextlib.contextmanager
    def for_next_run(self) -> Iterator[None]:
        """Edits made inside are for the next run: the run under way goes on (a live
        learning rate the window also gave the running loop)."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _on_recipe_changed(self) -> None:
        if self.selected is not None and self.selected >= len(self.recipe.steps):
            self.selected = None
            self.selection_changed.emit(None)
        if not self._quiet:
            self.evaluate(resume=True)
        self.modified_changed.emit(self.modified)


def _as_loop(text: str) -> tuple[str, Recipe] | None:
    """``text`` of the retired training format as a plain loop, and that loop read; None
    for any other text, and for one whose settings do not convert (it opens as it is)."""
    if not _names_training_dict(text):
        return None  # no ``training = dict(...)``: not that format (and no second parse)
    from app.training.write import convert_old

    try:
        loop = convert_old(text)
        return None if loop is None else (loop, read_recipe(loop))
    except (SyntaxError, ValueError, RecursionError):
        return None


def _names_training_dict(text: str) -> bool:
    """Whether ``text`` has the words ``training`` and ``dict``, as Python reads names
    (NFKC-normalized): without both, it holds no ``training = dict(...)``."""
    if not text.isascii():
        import unicodedata

        text = unicodedata.normalize("NFKC", text)
    return "training" in text and "dict" in text


def _binds(statement: str, name: str) -> bool:
    """Whether ``statement`` (one statement's text) is ``name = ...``."""
    head, equals, _ = statement.partition("=")
    return bool(equals) and head.strip() == name
