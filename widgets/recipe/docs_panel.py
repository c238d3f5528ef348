"""Docs at hand: what an op does, its signature, a tiny example and a link to PyTorch's docs.

Everything shown comes from the op catalogue (``OpSpec.summary``, ``params``,
``example``, ``doc_url``); nothing is copied from PyTorch's docstrings. The panel
follows what the user picks: a creation function in the builder, an op in the op
panel, or the op of the selected step. ``show_for_focus`` (F1) shows the op of the
panel that has the keyboard focus.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtWidgets import QApplication, QLabel, QTextBrowser, QVBoxLayout, QWidget

from app.catalog import CATALOG, OpSpec
from app.recipe.document import Document
from app.recipe.model import Step
from app.text_edits import literal_text
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import op_summary, translate_core
from widgets.common.retranslate import translated

_UNARY_SPECS = {"-": "neg", "~": "logical_not"}
# Long signatures and examples wrap at the dock's edge rather than hide behind a scroll bar.
_WRAP = "white-space: pre-wrap"
# The context of parameter docs (Param.doc, marked in app/catalog_*.py).
PARAM_CONTEXT = "Param"


def param_doc(param: Any) -> str:
    """A parameter's one-line doc (``Param.doc``) in the UI language."""
    return translate_core(PARAM_CONTEXT, param.doc) if param.doc else ""


def spec_for_step(step: Step) -> OpSpec | None:
    """The catalogue entry of the op at the top of ``step``, if there is one: the call's,
    or the function an operator stands for (``@``: ``torch.matmul``, ``-x``: ``neg``)."""
    op = step.op
    spec = CATALOG.get(op) if op else None
    if spec is not None or op is None:
        return spec
    if step.unary:
        return CATALOG.get(f"torch.{_UNARY_SPECS[op]}") if op in _UNARY_SPECS else None
    return next((s for s in CATALOG.specs if s.operator == op), None)


def signature_text(spec: OpSpec) -> str:
    """The call's signature(s): the function form, and the method form where there is one."""
    from app.recipe.op_call import signature

    return signature(spec)


class DocsPanel(FollowsDocument, QWidget):
    """Shows one op's explanation, signature, parameters, example and documentation link.

    Parameters
    ----------
    document : Document
        The panel shows the op of the selected step when the selection changes.
    builder, ops : QWidget, optional
        The builder and op panels; the panel follows the function or op picked in them
        (their ``spec`` property, ``function_combo`` and ``op_tree``).
    parent : QWidget, optional
    """

    def __init__(self, document: Document, builder: QWidget | None = None,
                 ops: QWidget | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._builder, self._ops = document, builder, ops
        self._spec: OpSpec | None = None
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        translated(self, lambda: (
            self.browser.setToolTip(self.tr("What the selected op or function does, from Tensor "
                                            "Lab's op catalogue. The link opens PyTorch's "
                                            "documentation."))))
        self.hint = QLabel()
        translated(self, lambda: (
            self.hint.setText(self.tr("Pick an op, a creation function or a step, or press F1."))))
        self.hint.setWordWrap(True)
        translated(self, lambda: self.hint.setToolTip(self.tr("The panel follows what you pick")))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.hint)
        layout.addWidget(self.browser, 1)
        if builder is not None:
            builder.function_combo.currentIndexChanged.connect(self._on_view_builder_changed)
        if ops is not None:
            ops.op_tree.currentItemChanged.connect(self._on_view_op_changed)
        self._set_model_connected(True)
        self.show_spec(self._selected_step_spec())  # (a panel built after the selection)
        translated(self, lambda: self.show_spec(self._spec), now=False)

    # -- wiring --------------------------------------------------------------------------------

    def _model_links(self):
        return ((self._document.selection_changed, self._on_model_selection),)

    # -- public -----------------------------------------------------------------------------------
    @property
    def spec(self) -> OpSpec | None:
        """The op shown, or None."""
        return self._spec

    def text(self) -> str:
        """What the panel shows, as plain text."""
        return self.browser.toPlainText()

    def show_spec(self, spec: OpSpec | None) -> None:
        """Show ``spec``'s documentation (None: a hint to pick something)."""
        self._spec = spec
        self.hint.setVisible(spec is None)
        self.browser.setHtml("" if spec is None else self.spec_html(spec))

    def show_for_focus(self, focus: QWidget | None = None) -> OpSpec | None:
        """Show the op of the panel with the keyboard focus: builder, ops, or the selected step.

        Keeps what is shown when the focus is elsewhere and no step has an op.
        """
        focus = focus if focus is not None else QApplication.focusWidget()
        spec: OpSpec | None = None
        for panel in (self._builder, self._ops):
            if panel is not None and focus is not None and (
                    focus is panel or panel.isAncestorOf(focus)):
                spec = panel.spec
        if spec is None:
            spec = self._selected_step_spec()
        if spec is not None:
            self.show_spec(spec)
        return self._spec

    def spec_html(self, spec: OpSpec) -> str:
        """The page for ``spec``: heading, summary, signature, parameters, example, link."""
        e = html.escape
        # Each self.tr(...) is a call of its own (lupdate reads no calls inside f-strings).
        signature = self.tr("Signature")
        parameters = self.tr("Parameters")
        columns = (self.tr("name"), self.tr("kind"), self.tr("default"), self.tr("meaning"))
        example = self.tr("Example")
        official = self.tr("Official documentation")
        key = spec.function_key or f"Tensor.{spec.name}"
        parts = [f"<h3 style='margin-bottom:2px'><code>{e(key)}</code></h3>",
                 f"<p>{e(op_summary(spec))}</p>",
                 f"<p><b>{e(signature)}</b></p>",
                 f"<pre style='{_WRAP}'>{e(signature_text(spec))}</pre>"]
        if spec.params:
            cell = "<td style='white-space: nowrap'>"  # a name is never broken at its "_"
            rows = "".join(
                f"<tr>{cell}<code>{e(p.name)}</code></td>{cell}{e(p.kind)}</td>"
                f"{cell}<code>{e(self._default_text(p))}</code></td>"
                f"<td>{e(param_doc(p))}</td></tr>"
                for p in spec.params)
            heads = "".join(f"<th align='left'>{e(c)}</th>" for c in columns)
            parts.append(
                f"<p><b>{e(parameters)}</b></p>"
                "<table cellspacing='0' cellpadding='3' border='0'>"
                f"<tr>{heads}</tr>{rows}</table>")
        if spec.example:
            parts.append(f"<p><b>{e(example)}</b></p><pre style='{_WRAP}'>{e(spec.example)}</pre>")
        if spec.operator:
            parts.append("<p>" + e(self.tr("The operator {0} does the same.")).format(
                f"<code>{e(spec.operator)}</code>") + "</p>")
        parts.append(f"<p><a href='{e(spec.doc_url, quote=True)}'>"
                     f"{e(official)}</a><br>"
                     f"<small>{e(spec.doc_url)}</small></p>")
        return "\n".join(parts)

    def _default_text(self, p) -> str:
        if p.required:
            return self.tr("required")
        return literal_text(p.default)

    # -- following the user --------------------------------------------------------------------
    def _selected_step_spec(self) -> OpSpec | None:
        index = self._document.selected
        steps = self._document.recipe.steps
        if index is None or not 0 <= index < len(steps):
            return None
        return spec_for_step(steps[index])

    def _on_model_selection(self, _index: int | None) -> None:
        spec = self._selected_step_spec()
        if spec is not None:
            self.show_spec(spec)

    def _on_view_builder_changed(self, _index: int) -> None:
        self.show_spec(self._builder.spec)  # type: ignore[union-attr]

    def _on_view_op_changed(self, *_: Any) -> None:
        self.show_spec(self._ops.spec)  # type: ignore[union-attr]
