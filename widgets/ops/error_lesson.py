"""The op panel's error box: a failed step's error as a lesson.

``ErrorLesson`` shows, for the selected step when it failed, torch's message, the usual
cause and the fix (``app.catalog.error_lessons.explain``). Without the lesson table,
torch's message is shown alone. Its texts keep the ``OpPanel`` translation context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from app.recipe.results import RecipeRun
from widgets.common.i18n_text import lesson_text
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette, error_style

explain: Callable[[str | None, str, str], Any] | None
try:
    from app.catalog.error_lessons import explain
except ImportError:  # without the lesson table, torch's message is shown alone
    explain = None


class ErrorLesson(QFrame):
    """Why the selected step failed, and what to change; hidden while it ran.

    Attributes
    ----------
    error_label, cause_label, fix_label : QLabel
        Torch's message, its usual cause, and the fix.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("lesson")
        self.setStyleSheet(f"QFrame#lesson {{ border: 1px solid {current_palette().error}; "
                           "border-radius: 4px; }")
        translated(self, lambda: self.setToolTip(QCoreApplication.translate(
            "OpPanel", "Why the step failed, and what to change.")))
        self.error_label = self._label(error_style())
        self.error_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.cause_label = self._label("")
        self.fix_label = self._label("")
        lesson = QVBoxLayout(self)
        lesson.addWidget(self.error_label)
        lesson.addWidget(self.cause_label)
        lesson.addWidget(self.fix_label)
        self.hide()

    @staticmethod
    def _label(style: str) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setStyleSheet(style)
        return label

    def show_result(self, run: RecipeRun, index: int | None) -> None:
        """Show the lesson of step ``index`` of ``run`` if it failed, else hide."""
        result = run.results[index] if index is not None and index < len(run.results) else None
        if result is None or result.status != "error":
            self.hide()
            return
        self.error_label.setText(QCoreApplication.translate("OpPanel", "{0}: {1}").format(
            result.error_type, result.error))
        lesson = None
        if explain is not None:
            lesson = explain(result.step.op, result.error_type, result.error)
        self.cause_label.setText(QCoreApplication.translate("OpPanel", "Why: {0}").format(
            lesson_text(lesson.cause)) if lesson else "")
        self.fix_label.setText(QCoreApplication.translate("OpPanel", "Fix: {0}").format(
            lesson_text(lesson.fix)) if lesson else "")
        self.cause_label.setVisible(lesson is not None)
        self.fix_label.setVisible(lesson is not None)
        self.show()
