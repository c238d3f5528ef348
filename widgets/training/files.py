"""The training panel's Checkpoint and Export menus: what they save and load.

``RunFiles`` is mixed into ``TrainingPanel``: it saves the current run's model, optimizer
and step as a checkpoint and loads one to resume, saves the plots of the page shown as
PNG or SVG, and writes the run's metrics as CSV (``metrics_columns`` lays them out, with
no Qt). Its texts keep the ``TrainingPanel`` translation context.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from app.exports import table_csv
from app.training.history import History
from widgets.common.plot_export import ask_save_plot, save_plot


def metrics_columns(history: History, layer_names: list[str]) -> dict[str, list[Any]]:
    """A run's metrics as CSV columns, one row per step that has any ("" where none)."""
    series = {"loss": history.loss, "learning_rate": history.lr, "val_loss": history.val_loss}
    steps = np.union1d(history.loss.steps, np.union1d(history.val_loss.steps,
                                                      history.output_std.steps))
    columns: dict[str, list[Any]] = {"step": steps.tolist()}

    def place(at: np.ndarray, values: np.ndarray) -> list[Any]:
        column = np.full(len(steps), "", dtype=object)
        column[np.searchsorted(steps, at)] = values.tolist()
        return column.tolist()

    for name, s in series.items():
        columns[name] = place(s.steps, s.values)
    for prefix, s in (("output_std", history.output_std), ("grad_norm", history.grad_norm)):
        values = s.values
        for i, layer in enumerate(layer_names[: values.shape[1] if values.ndim == 2 else 0]):
            columns[f"{prefix} {layer}"] = place(s.steps, values[:, i])
    return columns


class RunFiles:
    """Checkpoints, plot images and metrics CSV of ``TrainingPanel``'s current run."""

    def save_checkpoint(self, path: str | None = None) -> None:
        """Save ``{model, optimizer, step}`` of the run (asks where when ``path`` is None)."""
        if self.run is None or not self._live() and not self.run.alive:
            self._say(QCoreApplication.translate(
                "TrainingPanel", "Start or step a run first: a checkpoint saves a run."),
                "warning")
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, QCoreApplication.translate("TrainingPanel", "Save Checkpoint"),
                os.path.join(os.path.expanduser("~"), f"run{self.record.number}_step"
                                                      f"{self.run.step}.pt"),
                QCoreApplication.translate("TrainingPanel",
                                           "PyTorch checkpoints (*.pt);;All files (*)"))
            if not path:
                return
        self._command("save_checkpoint", path)

    def load_checkpoint(self, path: str | None = None) -> None:
        """Load a checkpoint into the run (a new, paused one if needed); Start resumes."""
        if self.settings is None:
            return
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, QCoreApplication.translate("TrainingPanel", "Load Checkpoint"),
                os.path.expanduser("~"),
                QCoreApplication.translate("TrainingPanel",
                                           "PyTorch checkpoints (*.pt);;All files (*)"))
            if not path:
                return
        if not self._live():
            self._new_run()
        self._command("load_checkpoint", path)

    def export_plots(self, path: str | None = None) -> str | None:
        """Save the plots of the page shown as PNG or SVG (by suffix; asks when no path)."""
        page = self.views.currentWidget()
        target = getattr(page, "graphics", page)
        if path is None:
            return ask_save_plot(self, target, "training")
        save_plot(target, path)
        return path

    def export_metrics(self, path: str | None = None) -> str | None:
        """Save the current run's metrics as CSV (asks where when ``path`` is None)."""
        if self.record is None:
            self._say(QCoreApplication.translate(
                "TrainingPanel", "No run yet: there are no metrics to save."), "warning")
            return None
        names = list(self.record.info.layer_names) if self.record.info is not None else []
        text = table_csv(metrics_columns(self.record.history, names))
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, QCoreApplication.translate("TrainingPanel", "Save Metrics"),
                os.path.join(os.path.expanduser("~"), "metrics.csv"),
                QCoreApplication.translate("TrainingPanel", "CSV files (*.csv);;All files (*)"))
            if not path:
                return None
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path
