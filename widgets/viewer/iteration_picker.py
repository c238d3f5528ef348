"""Pick one iteration of a loop step: a slider over the iterations the kernel kept, and a
box to type one (it goes to the nearest kept one)."""

from __future__ import annotations

import bisect

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QSpinBox, QWidget

from widgets.common.retranslate import translated


class IterationPicker(QWidget):
    """Hidden until ``set_iterations``; ``changed`` carries the iteration picked."""

    changed = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._kept: list[int] = []
        self.label = QLabel()
        translated(self, lambda: (
            self.label.setText(QCoreApplication.translate("ViewerPanel", "Iteration"))))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        translated(self, lambda: self.slider.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "The loop's iterations the kernel kept: the first 100, an even "
            "sample after them, and the last")))
        self.box = QSpinBox()
        translated(self, lambda: self.box.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "Type an iteration: the nearest one kept is shown")))
        self.of = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for w, stretch in ((self.label, 0), (self.slider, 1), (self.box, 0), (self.of, 0)):
            layout.addWidget(w, stretch)
        self.slider.valueChanged.connect(self._on_view_slider)
        self.box.editingFinished.connect(self._on_view_box)
        self.hide()

    @property
    def iteration(self) -> int | None:
        return self._kept[self.slider.value()] if self._kept else None

    def set_iterations(self, kept: list[int], total: int, current: int | None = None) -> None:
        """Offer ``kept`` (sorted) of ``total`` iterations; show ``current`` (the last)."""
        self._kept = list(kept)
        self.setVisible(bool(kept))
        if not kept:
            return
        with QSignalBlocker(self.slider), QSignalBlocker(self.box):
            self.slider.setRange(0, len(kept) - 1)
            self.box.setRange(kept[0], kept[-1])
            self.slider.setValue(self._nearest(kept[-1] if current is None else current))
            self.box.setValue(self._kept[self.slider.value()])
        self.of.setText(QCoreApplication.translate("ViewerPanel", "of {0}").format(total))

    def pick(self, iteration: int) -> None:
        """Show ``iteration`` (or the nearest kept one), as the user would."""
        self.slider.setValue(self._nearest(iteration))

    def _nearest(self, iteration: int) -> int:
        i = bisect.bisect_left(self._kept, iteration)
        if i == len(self._kept) or (i > 0 and iteration - self._kept[i - 1]
                                    <= self._kept[i] - iteration):
            i -= 1
        return max(i, 0)

    def _on_view_slider(self, index: int) -> None:
        with QSignalBlocker(self.box):
            self.box.setValue(self._kept[index])
        self.changed.emit(self._kept[index])

    def _on_view_box(self) -> None:
        self.pick(self.box.value())
