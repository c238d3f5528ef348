"""One form for the training settings, built from the settings dataclasses' fields.

Every field of ``app.training.setup`` carries its label, range, choices and help as
metadata; this module turns each into an editor by its type (a combo box for choices, a
check box for bools, a spin box for ints, a line edit for floats and text) with a tooltip
made from the same metadata. Nothing here knows a field by name except two editors that
need more than a type: the device (the devices present, with their names) and a CSV path
(a Browse button). Sections (``model``, ``optimizer``...) become group boxes.

The form only shows values and reports edits (``edited``); the panel that owns it turns
an edit into new settings and puts them in the recipe.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.training.setup import (
    CLASSIFICATION_DATA,
    CONTEXT,
    FIXED_CLASSES,
    TrainingSettings,
    _Section,
)
from protocol.i18n import QT_TRANSLATE_NOOP
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import add_tab, translated
from widgets.common.theme import current_palette, error_style, set_style_sheet

# The pages of the training form and the settings each shows, in order. Plain fields of a
# page go in one group box, titled by the page's third item. Titles are English, marked
# under the settings' context (CONTEXT) and translated when the form is built.
PAGES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (QT_TRANSLATE_NOOP("TrainingSettings", "Model"), ("model", "init"),
     QT_TRANSLATE_NOOP("TrainingSettings", "Weights")),
    (QT_TRANSLATE_NOOP("TrainingSettings", "Data"), ("data", "batch"),
     QT_TRANSLATE_NOOP("TrainingSettings", "Data")),
    (QT_TRANSLATE_NOOP("TrainingSettings", "Training"),
     ("loss", "optimizer", "schedule", "clip", "accumulate", "steps", "log_every", "seed",
      "dtype", "device"),
     QT_TRANSLATE_NOOP("TrainingSettings", "Run")),
)
# Titles of the sections' group boxes (marked like the pages').
SECTION_TITLES = {"model": "MLP",
                  "data": QT_TRANSLATE_NOOP("TrainingSettings", "Samples"),
                  "batch": QT_TRANSLATE_NOOP("TrainingSettings", "Batches"),
                  "optimizer": QT_TRANSLATE_NOOP("TrainingSettings", "Optimizer"),
                  "schedule": QT_TRANSLATE_NOOP("TrainingSettings", "Learning-rate schedule"),
                  "clip": QT_TRANSLATE_NOOP("TrainingSettings", "Gradient clipping")}
#: Fields that only matter for some settings; the others are disabled (still shown).
RELEVANT: dict[str, Callable[[TrainingSettings], bool]] = {
    "data.classes": lambda s: s.data.kind in CLASSIFICATION_DATA
    and s.data.kind not in FIXED_CLASSES,
    "data.path": lambda s: s.data.kind == "csv",
    "data.targets": lambda s: s.data.kind == "csv",
    "optimizer.momentum": lambda s: s.optimizer.name in ("sgd", "rmsprop"),
    "optimizer.nesterov": lambda s: s.optimizer.name == "sgd",
    "schedule.warmup": lambda s: s.schedule.kind != "constant",
    "clip.value": lambda s: s.clip.mode != "none",
}
#: What a QSpinBox can hold (a C int).
INT_LOW, INT_HIGH = -(2**31) + 1, 2**31 - 1
#: How long typing in a field pauses before the edit counts, in milliseconds: the recipe
#: follows the keys, but not every one of them ("500" is one edit, not three).
TYPING_PAUSE_MS = 250


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def setting_text(text: str) -> str:
    """A label, help text, choice name or title marked under the settings' context
    (``app.training.setup.CONTEXT``), in the UI language."""
    return QCoreApplication.translate(CONTEXT, text)


def number_text(value: float) -> str:
    """A float as a person would type it: ``0.01``, ``1e-06``, ``2.0``."""
    return repr(float(value))


def parse_float(text: str) -> float:
    """The number typed; raises ``ValueError`` with words for the user."""
    try:
        value = float(text.strip().replace("_", ""))
    except ValueError:
        raise ValueError(_tr("'{0}' is not a number").format(text.strip())) from None
    if not math.isfinite(value):
        raise ValueError(_tr("use a finite number"))
    return value


# -- editors -------------------------------------------------------------------------------
class _Editor:
    """One field's editor; ``on_edit(value)`` is called when the user changes it."""

    widget: QWidget

    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        self.name, self.meta, self._on_edit = name, meta, on_edit

    def show(self, value: Any) -> None:
        raise NotImplementedError

    def _edited(self, value: Any) -> None:
        self._on_edit(self.name, value)

    def _follow_typing(self, edit: QLineEdit, commit: Callable[[], None]) -> None:
        """Call ``commit`` once the keys typed in ``edit`` pause (``TYPING_PAUSE_MS``), as
        well as when the field is left."""
        self._pause = QTimer(edit)
        self._pause.setSingleShot(True)
        self._pause.setInterval(TYPING_PAUSE_MS)
        self._pause.timeout.connect(commit)
        edit.textEdited.connect(self._on_view_typed)

    def _on_view_typed(self, _text: str) -> None:
        self._pause.start()


class _ChoiceEditor(_Editor):
    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        super().__init__(name, meta, on_edit)
        self.widget = combo = QComboBox()
        for key in meta["choices"]:
            combo.addItem("", key)
        translated(combo, lambda: [combo.setItemText(i, setting_text(label))
                                   for i, label in enumerate(meta["choices"].values())])
        combo.activated.connect(lambda i: self._edited(combo.itemData(i)))

    def show(self, value: Any) -> None:
        with QSignalBlocker(self.widget):
            self.widget.setCurrentIndex(max(0, self.widget.findData(value)))


class _BoolEditor(_Editor):
    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        super().__init__(name, meta, on_edit)
        self.widget = QCheckBox()
        self.widget.toggled.connect(self._edited)

    def show(self, value: Any) -> None:
        with QSignalBlocker(self.widget):
            self.widget.setChecked(bool(value))


class _IntEditor(_Editor):
    """A spin box within the field's range, where a C int holds it."""

    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        super().__init__(name, meta, on_edit)
        lo, hi = meta.get("range") or (None, None)
        self.widget = spin = QSpinBox()
        spin.setRange(max(INT_LOW, lo if lo is not None else INT_LOW),
                      min(INT_HIGH, hi if hi is not None else INT_HIGH))
        spin.setKeyboardTracking(False)  # one edit when typing "500", not three:
        spin.valueChanged.connect(self._edited)  # the value counts when typing pauses
        self._follow_typing(spin.lineEdit(), spin.interpretText)

    def show(self, value: Any) -> None:
        if self.widget.value() == int(value):
            return  # (setting it again would put the cursor at the end of what is typed)
        with QSignalBlocker(self.widget):
            self.widget.setValue(int(value))


class _TextEditor(_Editor):
    """A line edit: floats (any magnitude, ``1e-3``), large ints, and plain text."""

    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None],
                 kind: type, follow_typing: bool = True):
        super().__init__(name, meta, on_edit)
        self.kind = kind
        self.widget = edit = QLineEdit()
        self.error = ""
        edit.editingFinished.connect(self._on_view_finished)
        if follow_typing:
            self._follow_typing(edit, self._on_view_finished)
        self._shown: Any = None

    def show(self, value: Any) -> None:
        self._shown = value
        if self.widget.hasFocus() and self._typed() == value:
            return  # what is typed says it already ("0.050" stays as typed)
        with QSignalBlocker(self.widget):
            self.widget.setText(number_text(value) if self.kind is float else str(value))

    def _typed(self) -> Any:
        """The value typed, or a ``ValueError`` saying why it is none."""
        text = self.widget.text()
        try:
            if self.kind is float:
                return parse_float(text)
            if self.kind is int:
                return int(text.strip())
            return text
        except ValueError as e:
            return ValueError(str(e) if self.kind is float
                              else _tr("'{0}' is not a whole number").format(text))

    def _on_view_finished(self) -> None:
        value = self._typed()
        if isinstance(value, ValueError) or value != self._shown:
            self._edited(value)


class _PathEditor(_TextEditor):
    """A file path with a Browse button."""

    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        super().__init__(name, meta, on_edit, str, follow_typing=False)  # (a half-typed
        self.edit = self.widget  # path is no file yet)
        browse = QPushButton()
        translated(browse, lambda: (browse.setText(_tr("Browse...")),
                                    browse.setToolTip(_tr("Choose a CSV file of numbers"))))
        browse.clicked.connect(self._on_view_browse)
        self.widget = QWidget()
        row = QHBoxLayout(self.widget)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(browse)
        self.edit.editingFinished.disconnect(self._on_view_finished)
        self.edit.editingFinished.connect(self._on_view_path_finished)

    def show(self, value: Any) -> None:
        self._shown = value
        with QSignalBlocker(self.edit):
            self.edit.setText(str(value))

    def _on_view_path_finished(self) -> None:
        if self.edit.text() != self._shown:
            self._edited(self.edit.text())

    def _on_view_browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.widget, _tr("Open CSV Data"), self._shown,
                                              _tr("CSV files (*.csv);;All files (*)"))
        if path:
            self._edited(path)


class _DeviceEditor(_Editor):
    """The kernel's devices, named; a device the recipe names but the kernel lacks is
    listed as not present (the run falls back to the CPU)."""

    def __init__(self, name: str, meta: Any, on_edit: Callable[[str, Any], None]):
        super().__init__(name, meta, on_edit)
        self.widget = self.combo = combo = QComboBox()
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)
        combo.activated.connect(lambda i: self._edited(combo.itemData(i)))
        self._fill(None)

    def _fill(self, missing: str | None) -> None:
        combo = self.widget
        combo.clear()
        for device in kernel_devices().devices:
            combo.addItem(f"{device.id} · {device.name}", device.id)
            combo.setItemData(combo.count() - 1, device.name, Qt.ItemDataRole.ToolTipRole)
        if missing:
            combo.addItem(_tr("{0} (not present: cpu is used)").format(missing), missing)

    def show(self, value: Any) -> None:
        present = {d.id for d in kernel_devices().devices}
        with QSignalBlocker(self.widget):
            self._fill(None if value in present else value)
            self.widget.setCurrentIndex(max(0, self.widget.findData(value)))


def _editor_for(name: str, kind: Any, meta: Any,
                on_edit: Callable[[str, Any], None]) -> _Editor:
    if name == "device":
        return _DeviceEditor(name, meta, on_edit)
    if name.endswith(".path"):
        return _PathEditor(name, meta, on_edit)
    if meta.get("choices"):
        return _ChoiceEditor(name, meta, on_edit)
    if kind is bool:
        return _BoolEditor(name, meta, on_edit)
    lo, hi = meta.get("range") or (None, None)
    if kind is int and (lo is None or lo >= INT_LOW) and (hi is not None and hi <= INT_HIGH):
        return _IntEditor(name, meta, on_edit)
    return _TextEditor(name, meta, on_edit, kind)


def tooltip(name: str, meta: Any) -> str:
    """A field's tooltip: its label, help, allowed values and where the recipe keeps it."""
    label = setting_text(meta.get("label") or name)
    parts = [_tr("{0}.").format(label)]  # a sentence of its own: "Hidden width."
    if meta.get("help"):
        parts.append(setting_text(meta["help"]))
    bounds = meta.get("range")
    if bounds:
        lo, hi = bounds
        parts.append(_tr("Allowed: {0} to {1}.").format(
            "…" if lo is None else f"{lo:g}", "…" if hi is None else f"{hi:g}"))
    parts.append(_tr("Saved in the recipe as training {0}.").format(name))
    text = parts[0]
    for part in parts[1:]:
        #: Two sentences of a tooltip, one after the other (a space in English).
        text = _tr("{0} {1}").format(text, part)
    return text


# -- the form ------------------------------------------------------------------------------
class SettingsForm(QWidget):
    """Pages of editors for ``TrainingSettings``, generated from its fields.

    Parameters
    ----------
    pages : sequence of (title, field names, title of the other fields' box)
        Which top-level fields each page shows; a section field becomes a group box, the
        plain fields share one.
    root : type
        The settings dataclass the names refer to.
    parent : QWidget, optional

    Attributes
    ----------
    tabs : QTabWidget
        One page per entry of ``pages``; ``add_to_page`` appends further widgets.
    """

    edited = Signal(str, object)
    """Emitted with (dotted field name, value) when the user changes a field; the value is
    a ``ValueError`` when the text typed is not a value at all."""

    def __init__(self, pages: Sequence[tuple[str, Sequence[str], str]] = PAGES,
                 root: type = TrainingSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self._editors: dict[str, _Editor] = {}
        self._labels: dict[str, QLabel] = {}
        self._error_field: str | None = None
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self._pages: list[QVBoxLayout] = []
        hints = typing.get_type_hints(root)
        fields = {f.name: f for f in dataclasses.fields(root)}
        for title, names, loose_title in pages:
            body = QWidget()
            column = QVBoxLayout(body)
            column.setContentsMargins(4, 4, 4, 4)
            loose = QFormLayout()
            for name in names:
                kind = hints[name]
                if isinstance(kind, type) and issubclass(kind, _Section):
                    box = QGroupBox()
                    title_of = SECTION_TITLES.get(name, name.capitalize())
                    translated(box, lambda b=box, t=title_of: b.setTitle(setting_text(t)))
                    form = QFormLayout(box)
                    self._add_section(form, kind, name + ".")
                    column.addWidget(box)
                else:
                    self._add_row(loose, name, kind, fields[name].metadata)
            if loose.rowCount():
                box = QGroupBox()
                translated(box, lambda b=box, t=loose_title: b.setTitle(setting_text(t)))
                box.setLayout(loose)
                column.addWidget(box)
            column.addStretch(1)
            scroll = QScrollArea()
            scroll.setWidget(body)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            add_tab(self.tabs, scroll, lambda t=title: setting_text(t))
            self._pages.append(column)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(error_style())
        translated(self, lambda: (
            self.error_label.setToolTip(_tr("Why the last edit could not be used; the recipe "
                                            "keeps its previous settings until it can"))))
        self.error_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error_label)
        kernel_devices().changed.connect(self._on_kernel_devices_changed)

    def _on_kernel_devices_changed(self) -> None:
        for editor in self._editors.values():
            if isinstance(editor, _DeviceEditor):
                editor.show(editor.combo.currentData())  # the same choice, in the new list

    def _add_section(self, form: QFormLayout, kind: type, prefix: str) -> None:
        hints = typing.get_type_hints(kind)
        for f in dataclasses.fields(kind):
            self._add_row(form, prefix + f.name, hints[f.name], f.metadata)

    def _add_row(self, form: QFormLayout, name: str, kind: Any, meta: Any) -> None:
        editor = _editor_for(name, kind, meta, self._on_view_edited)
        label = QLabel()

        def set_texts() -> None:
            label.setText(setting_text(meta.get("label") or name))
            tip = tooltip(name, meta)
            label.setToolTip(tip)
            editor.widget.setToolTip(tip)
            if isinstance(editor, _PathEditor):
                editor.edit.setToolTip(tip)

        translated(label, set_texts)
        label.setBuddy(editor.widget)
        form.addRow(label, editor.widget)
        self._editors[name] = editor
        self._labels[name] = label

    # -- public --------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Every field shown, dotted (``optimizer.lr``)."""
        return list(self._editors)

    def editor(self, name: str) -> QWidget:
        """The editor widget of a dotted field name."""
        editor = self._editors[name]
        return editor.edit if isinstance(editor, _PathEditor) else editor.widget

    def label_of(self, name: str) -> str:
        return self._labels[name].text()

    def add_to_page(self, index: int, widget: QWidget, stretch: int = 0) -> None:
        """Put ``widget`` at the end of page ``index`` (before its stretch)."""
        column = self._pages[index]
        column.insertWidget(column.count() - 1, widget, stretch)
        if stretch:
            column.setStretch(column.count() - 1, 0)

    def set_settings(self, settings: TrainingSettings) -> None:
        """Show ``settings`` (emits nothing) and enable the fields that matter for them."""
        literal = settings.to_literal()
        for name, editor in self._editors.items():
            value: Any = literal
            for part in name.split("."):
                value = value[part]
            editor.show(value)
            rule = RELEVANT.get(name)
            on = rule is None or rule(settings)
            editor.widget.setEnabled(on)
            self._labels[name].setEnabled(on)

    def set_error(self, name: str | None, text: str = "") -> None:
        """Mark the field at fault and say why (None clears the mark)."""
        if self._error_field in self._editors:
            set_style_sheet(self.editor(self._error_field), "")
        self._error_field = name
        if name in self._editors:
            set_style_sheet(self.editor(name), f"border: 1px solid {current_palette().error};")
            self.tabs.setCurrentIndex(self._page_of(name))
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def _page_of(self, name: str) -> int:
        widget = self.editor(name)
        for i in range(self.tabs.count()):
            if self.tabs.widget(i).isAncestorOf(widget):
                return i
        return self.tabs.currentIndex()

    def _on_view_edited(self, name: str, value: Any) -> None:
        self.edited.emit(name, value)
