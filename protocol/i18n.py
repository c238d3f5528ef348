"""Marks texts of the Qt-free core for translation, without importing Qt.

``pyside6-lupdate`` reads ``QT_TRANSLATE_NOOP(context, text)`` calls in any Python file
and files ``text`` under ``context`` in ``resources/i18n/tensor_lab_<lang>.ts``. Here the
function only hands ``text`` back: the core keeps English, and the widgets translate at
display time with ``QCoreApplication.translate(context, text)``.
"""

from __future__ import annotations

#: The context of op explanations (``OpSpec.summary``).
OPS = "OpSpec"
#: The context of error lessons (``app.catalog.error_lessons``: the cause and fix templates).
LESSONS = "Lesson"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - lupdate's name
    """Return ``text`` unchanged; ``pyside6-lupdate`` extracts it under ``context``."""
    return text


class Filled(str):
    """English text made by filling a marked template; the widgets translate it whole.

    It *is* the English text (a ``str``, so comparisons, ``in`` and formatting see the
    English), and it remembers the template and the values, so a view can translate the
    template and then fill it. Values that are themselves ``Filled`` (a word, a phrase) are
    translated too; plain values (numbers, names, code) are kept as they are.

    Parameters
    ----------
    template : str
        A ``str.format`` template, marked with ``QT_TRANSLATE_NOOP`` where it is written.
    *args, **kwargs
        The values for the template's ``{0}``/``{name}`` fields.
    """

    template: str
    args: tuple[object, ...]
    kwargs: dict[str, object]

    def __new__(cls, template: str, /, *args: object, **kwargs: object) -> Filled:
        self = super().__new__(cls, template.format(*args, **kwargs))
        self.template, self.args, self.kwargs = template, args, kwargs
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[object, ...], dict[str, object]]:
        return (self.template, *self.args), dict(self.kwargs)
