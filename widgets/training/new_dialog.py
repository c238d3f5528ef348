"""New training…: a few choices, and the short training recipe they make, side by side.

The form is ``SettingsForm`` (every field of ``TrainingSettings``, with its limits and
help); each edit is validated at once and a refused one is said next to the field, the
last good choices kept. The recipe it writes (``app.training.write.training_recipe``) is
shown as it will be saved, highlighted; Create hands its text to the window.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.training.setup import CONTEXT as SETTINGS_CONTEXT
from app.training.setup import SettingsError, TrainingSettings, harmonise, with_value
from app.training.write import training_recipe
from widgets.common.highlighter import PygmentsHighlighter
from widgets.common.i18n_text import translate_core
from widgets.common.retranslate import translated
from widgets.training.form import SettingsForm

#: What a new training starts from: spirals, a small ReLU MLP, Adam, 300 steps.
START = TrainingSettings().replace(steps=300, log_every=50)


class NewTrainingDialog(QDialog):
    """Choices on the left, the recipe they write on the right; ``text()`` once accepted."""

    def __init__(self, parent: QWidget | None = None,
                 settings: TrainingSettings = START):
        super().__init__(parent)
        translated(self, lambda: self.setWindowTitle(self.tr("New training")))
        self.settings = settings
        self._literal: dict[str, Any] = settings.to_literal()
        self.form = SettingsForm()
        self.form.edited.connect(self._on_view_edited)
        self.code = QPlainTextEdit()
        self.code.setReadOnly(True)
        self.code.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        translated(self, lambda: (
            self.code.setToolTip(self.tr("The recipe these choices write: plain PyTorch that runs "
                                         "under python, and that you can edit once it is open"))))
        self._highlighter = PygmentsHighlighter(self.code.document())
        self.size_label = QLabel()
        translated(self, lambda: self.size_label.setToolTip(self.tr("Lines of the recipe")))
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.code, 1)
        column.addWidget(self.size_label)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.form)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.create_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        translated(self, lambda: self.create_button.setText(self.tr("Create")))
        translated(self, lambda: (
            self.create_button.setToolTip(self.tr("Open the recipe as a new, unsaved one; it "
                                                   "runs at once, and the Training tab shows "
                                                   "its loop"))))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)
        self.resize(1100, 680)
        self.form.set_settings(settings)
        translated(self, self._show_code)

    def text(self) -> str:
        """The recipe the current choices write."""
        return training_recipe(self.settings)

    def _on_view_edited(self, name: str, value: Any) -> None:
        label = self.form.label_of(name)
        if isinstance(value, ValueError):
            self.form.set_error(name, self.tr("{0}: {1}").format(label, value))
            self.create_button.setEnabled(False)
            return
        literal = with_value(self._literal, name, value)
        if name in ("data.kind", "data.classes", "loss"):
            literal = harmonise(literal)
        self._literal = literal
        try:
            settings = TrainingSettings.from_literal(literal)
        except SettingsError as e:
            shown = self.form.label_of(e.field) if e.field in self.form.names else e.field
            self.form.set_error(e.field, self.tr("{0}: {1}").format(
                shown, translate_core(SETTINGS_CONTEXT, e.reason)))
            self.create_button.setEnabled(False)
            return
        self.form.set_error(None)
        self.create_button.setEnabled(True)
        self.settings = settings
        self.form.set_settings(settings)  # harmonised fields, and which ones matter now
        self._show_code()

    def _show_code(self) -> None:
        text = self.text()
        self._highlighter.set_text_spans(text)
        self.code.setPlainText(text)
        self.size_label.setText(self.tr("{0} lines").format(text.count("\n")))
