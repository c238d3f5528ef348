"""Texts of the Qt-free core, translated at display time.

The core marks them with ``protocol.i18n.QT_TRANSLATE_NOOP`` (so ``pyside6-lupdate`` extracts
them) and keeps English; these helpers look them up in the installed translation. A text
built from a template (``protocol.i18n.Filled``) is translated as its template, then filled.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from protocol.i18n import LESSONS, OPS, Filled


def translate_core(context: str, text: str) -> str:
    """``text`` from the core in the UI language: a ``Filled`` text template first, then filled."""
    if isinstance(text, Filled):
        def value(v: object) -> object:
            return translate_core(context, v) if isinstance(v, Filled) else v

        template = QCoreApplication.translate(context, text.template)
        return template.format(*map(value, text.args),
                               **{k: value(v) for k, v in text.kwargs.items()})
    return QCoreApplication.translate(context, text)


def op_summary(spec) -> str:
    """``spec.summary`` (an ``OpSpec``) in the UI language."""
    return translate_core(OPS, spec.summary)


def lesson_text(text: str) -> str:
    """A lesson's cause or fix (``app.catalog.error_lessons.Lesson``), or an autograd explanation
    (``kernel.explain.autograd_graph``, ``app.explain.autograd_steps``), in the UI language."""
    return translate_core(LESSONS, text)


def marked_text(text: str) -> str:
    """``text`` in the UI language when the core marked it (a ``Filled`` text, in the
    ``Lesson`` context), else as it is: a recipe name or code is never looked up, so a
    tensor called ``scalar`` keeps its name."""
    return translate_core(LESSONS, text) if isinstance(text, Filled) else text
