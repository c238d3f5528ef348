"""The recipe's other knobs, behind one button of the Training tab: every literal
``app.training.fields`` finds (momentum, the clip limit, ``steps = 100``, ``width = 32``...)
but the learning rate and the device, which the bar shows itself. Editing one rewrites
that literal in the code, and the recipe runs again.

``KnobsButton`` only shows and asks (``edited(name, value)``); the tab edits the text.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QDoubleSpinBox,
    QFormLayout,
    QMenu,
    QSpinBox,
    QToolButton,
    QWidget,
    QWidgetAction,
)

from app.training.fields import Field
from widgets.common.retranslate import translated

#: Knobs the bar shows on its own.
ON_THE_BAR = ("lr", "device")
_INT_RANGE = 2**31 - 1


class KnobsButton(QToolButton):
    """"Knobs ▾": a form of the recipe's number literals, one spin box each."""

    edited = Signal(str, object)
    """Emitted with a knob's name and its new value, when the user changes it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        translated(self, lambda: self.setText(self.tr("Knobs")))
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.form = QWidget()
        self._layout = QFormLayout(self.form)
        action = QWidgetAction(self.menu_)
        action.setDefaultWidget(self.form)
        self.menu_.addAction(action)
        self.setMenu(self.menu_)
        self.editors: dict[str, QAbstractSpinBox] = {}
        self._shown: tuple = ()
        self._names = ""
        self.show_fields({})
        translated(self, self._set_tip, now=False)

    def show_fields(self, found: dict[str, Field]) -> None:
        """The knobs of the recipe now (the same ones: their values only)."""
        knobs = {name: f for name, f in found.items() if name not in ON_THE_BAR}
        kinds = tuple((name, type(f.value)) for name, f in knobs.items())
        if kinds != self._shown:
            self._shown = kinds
            self._build(knobs)
        for name, f in knobs.items():
            editor = self.editors[name]
            if not editor.hasFocus():
                with QSignalBlocker(editor):
                    editor.setValue(f.value)
        self.setEnabled(bool(knobs))
        self._names = ", ".join(knobs)
        self._set_tip()

    def _set_tip(self) -> None:
        knobs = self._names
        self.setToolTip(self.tr("The recipe's other number literals: {0}. Changing one "
                                "rewrites it in the code and runs the recipe again")
                        .format(knobs) if knobs else
                        self.tr("The recipe has no number literal to change here "
                                "(such as steps = 100, or momentum=0.9)"))

    def _build(self, knobs: dict[str, Field]) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self.editors = {}
        for name, f in knobs.items():
            editor = _editor(f.value)
            translated(editor, lambda editor=editor, f=f, name=name: (
                editor.setToolTip(self.tr("{0}, line {1} of the recipe").format(name, f.line))))
            editor.valueChanged.connect(lambda value, n=name: self.edited.emit(n, value))
            self._layout.addRow(name, editor)
            self.editors[name] = editor


def _editor(value: int | float) -> QAbstractSpinBox:
    if isinstance(value, int):
        spin = QSpinBox()
        spin.setRange(-_INT_RANGE, _INT_RANGE)
    else:
        spin = QDoubleSpinBox()
        spin.setDecimals(6)
        spin.setRange(-1e9, 1e9)
        spin.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
    spin.setKeyboardTracking(False)  # one edit when typing "500", not three
    return spin
