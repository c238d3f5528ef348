"""One form for any op's parameters, built from its ``OpSpec``: no per-op widget classes.

Each parameter kind has one editor (``widgets.ops.param_fields``: a line edit for sizes,
a spin box for ints, a combo box for dtypes...). The form reads them as the Python text
of each argument (``(2, 3)``, ``torch.float64``), and says on the spot, under the field,
why a value cannot be used.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from app.catalog import OpSpec, Param
from app.recipe.literals import InputError
from app.text_edits import literal_text
from widgets.common.i18n_text import translate_core
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, role_style
from widgets.ops.param_fields import (
    DTYPE_NAMES,
    INT_HIGH,
    INT_LOW,
    Field,
    error_message,
    literal_of,
    make_field,
    same_value,
)

__all__ = ["DTYPE_NAMES", "ERROR_STYLE", "INT_HIGH", "INT_LOW", "ParamForm"]

#: Error text in the light theme; ``widgets.common.theme.error_style()`` follows the theme in use.
ERROR_STYLE = role_style("error")


# -- the form -------------------------------------------------------------------------------
class ParamForm(QWidget):
    """Editors for every parameter of one ``OpSpec``, with inline error messages.

    Parameters
    ----------
    parent : QWidget, optional
    """

    changed = Signal()
    """Emitted after any field changes, by the user or by ``set_values``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._spec: OpSpec | None = None
        self._names: list[str] = []
        self._fields: dict[str, Field] = {}
        self._messages: dict[str, QLabel] = {}
        self._notes: dict[str, str] = {}  # values set_values could not show, until edited
        self._layout = QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._extra = QLabel()
        self._extra.hide()
        self._layout.addRow(self._extra)
        kernel_devices().changed.connect(self._on_kernel_devices_changed)
        translated(self, self._show_errors, now=False)

    @property
    def spec(self) -> OpSpec | None:
        return self._spec

    def editor(self, name: str) -> QWidget:
        """The editor widget of parameter ``name``."""
        return self._fields[name].widget

    def set_spec(self, spec: OpSpec, names: list[str]) -> None:
        """Show ``spec``'s parameters.

        Values of same-named, same-kind positional parameters are kept (a size
        carries over from ``zeros`` to ``ones``); keyword-only options such as
        dtype or requires_grad go back to their defaults.

        ``names`` are the recipe's tensors, offered for ``tensor`` parameters.
        """
        kept: dict[str, str] = {}
        for pname, field in self._fields.items():
            try:
                value = field.read()
            except InputError:
                continue
            if value is not None and not field.param.keyword_only and any(
                    p.name == pname and p.kind == field.param.kind for p in spec.params):
                kept[pname] = value
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self._spec, self._names = spec, list(names)
        self._fields, self._messages, self._notes = {}, {}, {}
        self._extra = QLabel()
        self._extra.setStyleSheet(error_style())
        self._extra.setWordWrap(True)
        with QSignalBlocker(self):
            for p in spec.params:
                self._add_row(p)
            self._layout.addRow(self._extra)
            for pname, value in kept.items():
                self._fields[pname].show(value)
        self._show_errors()
        self.changed.emit()

    def _add_row(self, p: Param) -> None:
        field = make_field(p, self._on_view_field_changed)
        field.set_names(self._names)
        message = QLabel()
        message.setStyleSheet(error_style())
        message.setWordWrap(True)
        message.hide()
        cell = QWidget()
        box = QVBoxLayout(cell)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(field.widget)
        box.addWidget(message)
        label = QLabel(p.name)
        label.setBuddy(field.widget)

        def set_tips() -> None:
            tip = translate_core("Param", p.doc) if p.doc else p.name  # Param.doc is marked
            if not p.required:
                tip += "\n" + self.tr("Optional; the default is {0}.").format(
                    literal_text(p.default))
            field.widget.setToolTip(tip)
            label.setToolTip(tip)

        translated(label, set_tips)
        self._layout.addRow(label, cell)
        self._fields[p.name], self._messages[p.name] = field, message

    def set_names(self, names: list[str]) -> None:
        """Offer new tensor ``names`` to ``tensor`` parameters, keeping choices that remain."""
        self._names = list(names)
        for field in self._fields.values():
            field.set_names(self._names)
        self._show_errors()

    def _on_kernel_devices_changed(self) -> None:
        devices = kernel_devices().devices  # the kernel's: menus made before get them
        for field in self._fields.values():
            field.set_devices(devices)

    def values(self) -> dict[str, str]:
        """The parameters with a usable, non-default value, as their Python text."""
        out: dict[str, str] = {}
        for name, field in self._fields.items():
            if name in self._notes:
                continue
            try:
                value = field.read()
            except InputError:
                continue
            p = field.param
            if value is None:
                continue
            ok, literal = literal_of(value)
            if not p.required and ok and same_value(literal, p.default):
                continue
            out[name] = value
        return out

    def set_values(self, values: dict[str, str]) -> None:
        """Show ``values``, arguments' Python text by parameter (from
        ``call_text.bind_texts``); parameters left out go back to default."""
        self._notes = {}
        with QSignalBlocker(self):
            for name, field in self._fields.items():
                value = values.get(name)
                if not field.show(value):
                    field.show(None)
                    self._notes[name] = self.tr("{0}: {1} cannot be edited in this form").format(
                        name, value)
        for name in values:
            if name not in self._fields:
                self._notes[name] = self.tr("{0}: not a parameter of {1}").format(
                    name, self._spec.name if self._spec else "")
        self._show_errors()
        self.changed.emit()

    def errors(self) -> dict[str, str]:
        """Why fields cannot be used, by parameter name; empty when all is well."""
        out = dict(self._notes)
        for name, field in self._fields.items():
            if name in out:
                continue
            try:
                field.read()
            except InputError as e:
                out[name] = f"{name}: {error_message(e)}"
        return out

    def _show_errors(self) -> None:
        errors = self.errors()
        for name, label in self._messages.items():
            label.setText(errors.get(name, ""))
            label.setVisible(name in errors)
        extra = [text for name, text in errors.items() if name not in self._fields]
        self._extra.setText("\n".join(extra))
        self._extra.setVisible(bool(extra))

    def _on_view_field_changed(self, *_: object) -> None:
        sender = self.sender()
        for name, field in self._fields.items():
            if field.widget is sender:
                self._notes.pop(name, None)
        self._show_errors()
        self.changed.emit()
