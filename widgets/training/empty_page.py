"""What the Training tab shows while the recipe has no training loop: how to get one.

"New training…" writes a short training recipe from a few choices, and the gallery's
training lessons open with one click. The tab itself never changes the document: it
asks (``new_requested``, ``open_requested``) and the window decides.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app.recipe.gallery import GalleryEntry
from widgets.common.retranslate import translated


class EmptyPage(QScrollArea):
    """"This recipe has no training loop", New training…, and the training lessons."""

    new_requested = Signal()
    open_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        body = QWidget()  # scrolls: however many lessons, it never makes the window taller
        self.setWidget(body)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.title = QLabel()
        translated(self, lambda: (
            self.title.setText(self.tr("This recipe has no training loop yet."))))
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.text = QLabel()
        translated(self, lambda: self.text.setText(self.tr(
            "Any loop that calls loss.backward() is a training loop: when the recipe runs, "
            "this tab plots its loss, learning rate, and each layer's output std and "
            "gradient norm, live, and lets you pause it, step it and change its learning "
            "rate. Write one, or start from a lesson:")))
        self.text.setWordWrap(True)
        self.new_button = QPushButton()
        translated(self, lambda: self.new_button.setText(self.tr("New training…")))
        translated(self, lambda: self.new_button.setToolTip(self.tr(
            "Write a short training recipe from a few choices: data, model, initialisation, "
            "optimizer, clipping")))
        self.new_button.clicked.connect(self.new_requested.emit)
        self.lessons_label = QLabel()
        translated(self, lambda: (
            self.lessons_label.setText(self.tr("Training lessons in the gallery:"))))
        self._lessons = QVBoxLayout()
        self._lessons.setSpacing(2)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addWidget(self.new_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addSpacing(12)
        layout.addWidget(self.lessons_label)
        layout.addLayout(self._lessons)
        layout.addStretch(1)
        self.lesson_buttons: list[QPushButton] = []

    def set_lessons(self, entries: list[GalleryEntry], language: str) -> None:
        """One button per training lesson, titled in ``language``."""
        for button in self.lesson_buttons:
            button.deleteLater()
        self.lesson_buttons = []
        for entry in entries:
            button = QPushButton(entry.title_for(language))
            button.setFlat(True)
            button.setStyleSheet("text-align: left; padding: 2px 6px;")
            translated(button, lambda b=button, e=entry: b.setToolTip(
                self.tr("Open the lesson {0}").format(e.name)))
            button.clicked.connect(lambda _=False, p=entry.path: self.open_requested.emit(p))
            self._lessons.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
            self.lesson_buttons.append(button)
        self.lessons_label.setVisible(bool(entries))
