"""The editors of ``ParamForm`` (``widgets.ops.param_form``), one per parameter kind.

A line edit for sizes and numbers, a text box for data, a spin box for ints, a check box
for bools and a combo box for dtypes, devices and tensors. Each reads what is typed or
picked as the Python text of the argument and shows such a text back; ``make_field``
picks the editor for a ``Param``.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QSignalBlocker
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QSpinBox, QWidget

from app.catalog import Param
from app.dtypes import DType
from app.recipe.literals import CONTEXT as LITERALS_CONTEXT
from app.recipe.literals import (
    InputError,
    data_shown,
    data_value,
    line_shown,
    line_value,
    parse_data,
)
from app.recipe.op_call import node_literal
from app.text_edits import literal_text
from protocol.devices import Device
from protocol.i18n import Filled
from widgets.common.i18n_text import translate_core
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import translated

#: The dtypes offered in dtype menus; a recipe's other dtypes are added when shown.
DTYPE_NAMES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
               "uint8", "bool")
#: What a QSpinBox can hold (a C int); the lowest value is kept to mean "default".
INT_LOW, INT_HIGH = -(2**31) + 1, 2**31 - 1


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def error_message(error: InputError) -> str:
    """Why a field's text cannot be used, in the UI language.

    ``app.recipe.literals`` marks its messages (``Filled`` texts); the editors here raise
    theirs translated already.
    """
    text = error.message
    return translate_core(LITERALS_CONTEXT, text) if isinstance(text, Filled) else text


def same_value(a: Any, b: Any) -> bool:
    """``a == b`` of the same type: ``1``, ``1.0`` and ``True`` all differ."""
    return type(a) is type(b) and a == b


def make_field(param: Param, on_change: Callable[[], None]) -> Field:
    """The editor for ``param``'s kind; it calls ``on_change`` after each edit."""
    return _EDITORS[param.kind](param, on_change)


# -- editors, one per kind ------------------------------------------------------------------
class Field:
    """One parameter's editor: its widget, and how to read and show a value.

    A value is the Python text of the argument (``(2, 3)``, ``torch.float64``, ``x``).
    ``read`` returns None to leave the parameter at its default and raises
    ``InputError`` for text it cannot use. ``show`` returns False when the editor
    cannot display the value.
    """

    widget: QWidget

    def __init__(self, param: Param, on_change: Callable[[], None]):
        self.param, self._on_change = param, on_change

    def read(self) -> str | None:
        raise NotImplementedError

    def show(self, value: str | None) -> bool:
        raise NotImplementedError

    def set_names(self, names: list[str]) -> None:
        """Offer the recipe's tensor ``names`` (only tensor editors care)."""

    def set_devices(self, devices: list[Device]) -> None:
        """Offer ``devices``, once torch has found them (only device editors care)."""

    def default_text(self) -> str:
        return _tr("default: {0}").format(literal_text(self.param.default))


class _LineField(Field):
    """Sizes, numbers, strings and tensor lists, typed as text."""

    _HINTS = {"size": "2, 3", "number": "0", "float": "0.0", "tensors": "a, b"}
    _EMPTY = {"size": "enter the shape, for example 2, 3", "number": "enter a number",
              "float": "enter a number", "tensors": "enter tensor names, for example a, b"}

    def __init__(self, param: Param, on_change: Callable[[], None]):
        super().__init__(param, on_change)
        self.widget = self.edit = QLineEdit()
        if not param.required:
            translated(self.edit, lambda: self.edit.setPlaceholderText(self.default_text()))
        elif param.kind in self._HINTS:
            translated(self.edit, lambda param=param: self.edit.setPlaceholderText(
                _tr("for example {0}").format(self._HINTS[param.kind])))
        self.edit.textChanged.connect(self._on_change)
        self._names: list[str] = []

    def read(self) -> str | None:
        text = self.edit.text().strip()
        if not text:
            if self.param.required:
                raise InputError(_tr(self._EMPTY.get(self.param.kind, "enter a value")))
            return None
        return line_value(self.param.kind, text, self._names)

    def show(self, value: str | None) -> bool:
        self.edit.setText(line_shown(self.param.kind, value))
        return True

    def set_names(self, names: list[str]) -> None:
        self._names = list(names)


class _DataField(Field):
    """Python data, nested lists of numbers, in a small text editor."""

    def __init__(self, param: Param, on_change: Callable[[], None]):
        super().__init__(param, on_change)
        self.widget = self.edit = QPlainTextEdit()
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.edit.setPlaceholderText("[[1, 2], [3, 4]]")
        self.edit.setTabChangesFocus(True)
        self.edit.setMaximumHeight(self.edit.fontMetrics().lineSpacing() * 5 + 12)
        self.edit.textChanged.connect(self._on_change)
        self._parsed: tuple[str, str | InputError] = ("", InputError())

    def read(self) -> str | None:
        text = self.edit.toPlainText()
        if not text.strip() and not self.param.required:
            return None
        if text != self._parsed[0] or not self._parsed[0]:  # big literals: parse once per edit
            try:
                self._parsed = (text, data_value(parse_data(text)))
            except InputError as e:
                self._parsed = (text, e)
        result = self._parsed[1]
        if isinstance(result, InputError):
            raise result
        return result

    def show(self, value: str | None) -> bool:
        if value is None:
            self.edit.setPlainText("")
            return True
        text = data_shown(value)
        self.edit.setPlainText(value.strip() if text is None else text)
        return text is not None


class _IntField(Field):
    """Integers, seeds and dims in a spin box; optional ones without an int default
    keep the lowest value to mean "default"."""

    def __init__(self, param: Param, on_change: Callable[[], None]):
        super().__init__(param, on_change)
        self.widget = self.spin = QSpinBox()
        low = INT_LOW if param.minimum is None else max(INT_LOW, math.ceil(param.minimum))
        high = INT_HIGH if param.maximum is None else min(INT_HIGH, math.floor(param.maximum))
        self._sentinel: int | None = None
        if not param.required and not _is_int(param.default):
            self._sentinel = low - 1
            translated(self.spin, lambda: self.spin.setSpecialValueText(_tr("default")))
        self.spin.setRange(low if self._sentinel is None else self._sentinel, high)
        self._start = (self._sentinel if self._sentinel is not None
                       else param.default if _is_int(param.default) else max(low, min(high, 0)))
        self.spin.setValue(self._start)
        self.spin.valueChanged.connect(self._on_change)

    def read(self) -> str | None:
        value = self.spin.value()
        return None if value == self._sentinel else str(value)

    def show(self, value: str | None) -> bool:
        ok, literal = literal_of(value)
        if value is None or (ok and literal is None and self._sentinel is not None):
            self.spin.setValue(self._start)
            return True
        if ok and _is_int(literal) and self.spin.minimum() <= literal <= self.spin.maximum() \
                and literal != self._sentinel:
            self.spin.setValue(literal)
            return True
        return False


class _BoolField(Field):
    def __init__(self, param: Param, on_change: Callable[[], None]):
        super().__init__(param, on_change)
        self.widget = self.check = QCheckBox()
        self.check.setChecked(bool(param.default) if not param.required else False)
        self.check.toggled.connect(self._on_change)

    def read(self) -> str | None:
        return str(self.check.isChecked())

    def show(self, value: str | None) -> bool:
        if value is None:
            self.check.setChecked(bool(self.param.default) if not self.param.required else False)
            return True
        ok, literal = literal_of(value)
        if ok and isinstance(literal, bool):
            self.check.setChecked(literal)
            return True
        return False


class _ChoiceField(Field):
    """A menu of values: dtypes, devices, or the recipe's tensors.

    Each item holds the Python text it stands for (``torch.float64``, ``"cpu"``, ``x``);
    None is "leave at default". A value shown is matched to an item by its literal
    (``'cpu'`` is ``"cpu"``), else by its text.
    """

    def __init__(self, param: Param, on_change: Callable[[], None]):
        super().__init__(param, on_change)
        self.widget = self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(8)
        self._items: list[str | None] = []
        if not param.required:
            self._add(_tr("default"), None)
            translated(self.combo, self._name_default, now=False)
        if param.kind == "dtype":
            for name in DTYPE_NAMES:
                self._add(name, f"torch.{name}")
        elif param.kind == "device":
            self._add_devices(kernel_devices().devices)
        self.combo.currentIndexChanged.connect(self._on_change)

    def _add(self, text: str, item: str | None) -> None:
        self._items.append(item)
        self.combo.addItem(text)

    def _name_default(self) -> None:
        if self._items and self._items[0] is None:
            self.combo.setItemText(0, _tr("default"))

    def _add_devices(self, devices: list[Device]) -> None:
        for device in devices:
            self._add(f"{device.id} — {device.name}", literal_text(device.id))

    def read(self) -> str | None:
        index = self.combo.currentIndex()
        if index < 0:
            raise InputError(_tr("the recipe has no tensor yet: create one first"))
        return self._items[index]

    def _index(self, value: str | None) -> int:
        """The index of the item standing for ``value``, or -1."""
        key = _key(value)
        return next((i for i, item in enumerate(self._items) if _key(item) == key), -1)

    def show(self, value: str | None) -> bool:
        if value is None and self.param.required:
            return True  # nothing to show: keep the current choice
        ok, literal = literal_of(value)
        if ok and same_value(literal, self.param.default) and None in self._items:
            value = None
        if self._index(value) < 0:
            kind = self.param.kind
            if kind == "dtype" and ok and isinstance(literal, DType):
                self._add(literal.name, value)
            elif kind == "device" and ok and isinstance(literal, str):
                self._add(_tr("{0} — not on the kernel's machine").format(literal), value)
            elif kind == "tensor" and value is not None and value.strip().isidentifier():
                self._add(value.strip(), value.strip())
            else:
                return False
        self.combo.setCurrentIndex(self._index(value))
        return True

    def set_devices(self, devices: list[Device]) -> None:
        if self.param.kind != "device":
            return
        current = self.read()
        with QSignalBlocker(self.combo):
            self._clear_but_default()
            self._add_devices(devices)
            self.show(current)

    def set_names(self, names: list[str]) -> None:
        if self.param.kind != "tensor":
            return
        current = self._current()
        with QSignalBlocker(self.combo):
            self._clear_but_default()
            for name in names:
                self._add(name, name)
            if current in self._items:
                self.combo.setCurrentIndex(self._items.index(current))
            elif self._items:
                self.combo.setCurrentIndex(len(self._items) - 1)  # the newest tensor
        if self._current() != current:
            self._on_change()

    def _clear_but_default(self) -> None:
        keep = [e for e in self._items if e is None]
        self._items = []
        self.combo.clear()
        for e in keep:
            self._add(_tr("default"), e)

    def _current(self) -> str | None:
        index = self.combo.currentIndex()
        return self._items[index] if index >= 0 else None


def literal_of(value: str | None) -> tuple[bool, Any]:
    """``(True, value)`` for an argument's text that is a literal a form shows (a number,
    bool, None, string, dtype: ``op_call.node_literal``), else ``(False, None)``."""
    if value is None:
        return False, None
    try:
        node = ast.parse(value.strip(), mode="eval").body
    except SyntaxError:
        return False, None
    return node_literal(node)


def _key(value: str | None) -> tuple:
    """What two texts of one value share: the literal (its type too), else the text."""
    if value is None:
        return (None,)
    ok, literal = literal_of(value)
    return ("literal", type(literal), literal) if ok else ("text", value.strip())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_EDITORS: dict[str, type[Field]] = {
    "size": _LineField, "number": _LineField, "float": _LineField, "str": _LineField,
    "tensors": _LineField, "any": _LineField, "data": _DataField, "int": _IntField,
    "seed": _IntField, "dim": _IntField, "bool": _BoolField, "dtype": _ChoiceField,
    "device": _ChoiceField, "tensor": _ChoiceField,
}
