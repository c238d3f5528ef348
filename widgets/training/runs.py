"""The life of the training panel's current run: launch, commands, polling, events.

``RunLifecycle`` is mixed into ``TrainingPanel``. It makes a new ``TrainingRun`` for the
recipe's settings, starts its process in a background job (the first start waits for the
fork server) and queues the commands sent meanwhile, polls the run with a display-rate
``QTimer`` (never blocking), turns the events it reports into messages and plot updates,
and closes it. Its texts keep the ``TrainingPanel`` translation context.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from app.training.runs import RunRecord
from app.training.worker import TrainingRun
from widgets.common.background import JobError, start_job

#: Milliseconds between frames while a run trains (about 30 Hz), and while it waits.
FRAME_MS, IDLE_MS = 33, 200
#: States in which the training process is working or about to.
BUSY = ("starting", "running")


class RunLifecycle:
    """The current run's process and the frame timer that polls it (for ``TrainingPanel``)."""

    @property
    def state(self) -> str:
        """The current run's state (``none`` without one; ``starting`` while it launches)."""
        if self.run is None:
            return "none"
        return "starting" if self._launcher is not None else self.run.state

    def _live(self) -> bool:
        """Whether the current run's process is there (or coming) to take commands."""
        return self.state in BUSY + ("paused",)

    def _new_run(self) -> TrainingRun:
        settings = self.settings
        assert settings is not None
        self._close_run()
        self.run = run = TrainingRun(settings)
        self._runs += 1
        self.record = RunRecord(self._runs, settings, run.history, state="starting")
        self.compare.add_run(self.record)
        self.plots.clear()
        self.histogram.set_run(None)
        self.progress.setRange(0, settings.steps)
        self.progress.setValue(0)
        self.message.clear()  # (not hidden: its line stays, and the plots keep their size)
        # The first command starts the process. Until the fork server has imported torch
        # (seconds, the first time) that blocks, so it is sent from a background job; the
        # commands that follow wait in _pending for it.
        self._launcher = start_job(run.set_histogram_layer, self.histogram.layer or 0,
                                   on_done=self._on_launched, key=run)
        lr, mode, value = self._live_values()
        if lr is not None and lr != settings.optimizer.lr:
            self._command("set_lr", lr)
        if (mode, value) != (settings.clip.mode, settings.clip.value) and value is not None:
            self._command("set_clip", mode, value)
        self._set_state("starting")
        return run

    def _command(self, name: str, *args: Any) -> None:
        """Send a command to the run, or queue it while the process is being launched."""
        if self._launcher is not None:
            self._pending.append((name, args))
        elif self.run is not None:
            getattr(self.run, name)(*args)
        self._arm(FRAME_MS)

    def _launched(self) -> bool:
        """Whether the launch is over (its result has been applied)."""
        return self._launcher is None

    def _on_launched(self, run: TrainingRun, result: object) -> None:
        """The launch is over: send the queued commands, or say why the process did not start."""
        if run is not self.run:
            return  # (a closed run's launch is cancelled; this is only a safeguard)
        self._launcher = None
        pending, self._pending = self._pending, []
        if isinstance(result, JobError):
            self._say(QCoreApplication.translate(
                "TrainingPanel", "The training process could not start: {0}").format(
                f"{result.type}: {result.message}"), "error")
        else:
            for name, args in pending:
                self._command(name, *args)
        self._arm(FRAME_MS)

    def _close_run(self) -> None:
        run = self.run
        if run is not None:
            if self._launcher is not None:
                self._launcher.wait()  # a launch under way ends soon; then close the run
                self._launcher.cancel()
                self._launcher, self._pending = None, []
            self._on_frame()  # the last events before it goes
            finished = run.state == "finished"
            run.close()
            self._set_state("finished" if finished else run.state)
        self.run = None
        self.frame_timer.stop()

    def _arm(self, interval: int) -> None:
        if self.frame_timer.interval() != interval:
            self.frame_timer.setInterval(interval)
        if not self.frame_timer.isActive():
            self.frame_timer.start()

    def _on_frame(self) -> None:
        run = self.run
        if run is None:
            self.frame_timer.stop()
            return
        if not self._launched():
            return
        for event in run.poll():
            self._on_run_event(event)
        self._set_state(run.state)
        self._refresh_views()
        if not run.alive and run.state in ("stopped", "error", "finished"):
            self.frame_timer.stop()
        else:
            self._arm(FRAME_MS if run.state in BUSY else IDLE_MS)

    def _on_run_event(self, event) -> None:
        kind = event.kind
        if kind == "started":
            assert self.record is not None
            self.record.info = event.data
            self.plots.set_run(event.data)
            self.histogram.set_run(event.data)
            self.compare.update_run(self.record)
        elif kind == "warning":
            self._say(event.message, "warning")
        elif kind == "diverged":
            self._say(QCoreApplication.translate("TrainingPanel", "Training paused: {0}").format(
                event.message), "error")
        elif kind == "error":
            self._say(QCoreApplication.translate(
                "TrainingPanel", "Training stopped with an error: {0}").format(event.message),
                "error")
        elif kind == "checkpoint_saved":
            self._say(QCoreApplication.translate(
                "TrainingPanel", "Saved a checkpoint at step {0} to {1}").format(
                event.step, event.data), "ok")
        elif kind == "checkpoint_loaded":
            self._say(QCoreApplication.translate(
                "TrainingPanel", "Loaded step {0} from {1}; Start resumes from there").format(
                event.step, event.data), "ok")
            self.plots.set_run(self.record.info if self.record else None)
        elif kind == "finished":
            self._say(QCoreApplication.translate("TrainingPanel", "Finished: {0} steps.").format(
                event.step), "ok")
        self.run_event.emit(event)

    def _set_state(self, state: str) -> None:
        record = self.record
        if record is not None and record.state != state:
            record.state = state
            self.compare.update_run(record)
            self._update_buttons()
            self._show_progress()
            self.state_changed.emit(state)

    def _refresh_views(self, force: bool = False) -> None:
        if self._pages is None:
            return
        history = self.record.history if self.record is not None else None
        page = self.views.currentWidget()
        if page is self.plots:
            self.plots.refresh(history, force)
        elif page is self.histogram:
            self.histogram.refresh(history, force)
        else:
            self.compare.refresh(force)
        if page is not self.histogram:
            self.histogram.collect(history)  # the bands over time cover the whole run
        self._speed_due -= 1
        if self._speed_due <= 0 or force:
            self._speed_due = 8  # a few times a second is readable, and cheap
            self._show_progress()
