"""The op explorer: browse the catalogue, apply an op to a recipe tensor, change it live.

Picking an op and pressing Apply appends a step. Selecting an op step loads it, and
from then on every parameter change edits that step at once (the recipe runs again
and every view follows), as undo steps that merge while the same step is edited.
Errors are shown as lessons: torch's message, its usual cause, and the fix.

``OpPanel`` wires its parts to the document: the catalogue (``widgets.ops.op_browser``),
the op's description, the Step box and its editing (``StepEditing``, mixed in from
``widgets.ops.op_step_editing``; the call helpers are in ``app.recipe.op_call``), the error
lesson (``widgets.ops.error_lesson``) and the timing box.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QFontDatabase, QUndoStack
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSplitter,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.catalog import CATALOG, OpSpec
from app.recipe.document import Document
from app.recipe.model import Step
from app.recipe.op_call import (
    BUILDER_CATEGORIES,
    default_keywords,
    has_receiver,
    op_spec,
    signature,
)
from app.recipe.results import RecipeRun
from widgets.common.doc_links import FollowsDocument
from widgets.common.i18n_text import op_summary
from widgets.common.layout_fence import LayoutFence
from widgets.common.retranslate import translated
from widgets.ops.error_lesson import ErrorLesson
from widgets.ops.op_browser import OpBrowser
from widgets.ops.op_step_editing import HINT_STYLE, StepEditing
from widgets.ops.timing_view import TimingView

# The window, the docs panel and the tests import these from here.
__all__ = ["OpPanel", "op_spec", "signature"]


# -- the panel ------------------------------------------------------------------------------------
class OpPanel(FollowsDocument, StepEditing, QWidget):
    """Browse ops, apply one to a tensor in the recipe, and change an op step live.

    Parameters
    ----------
    document : Document
        The open recipe; steps are added to it, edited in it and selected.
    undo_stack : QUndoStack or None
        Where edits go, so they can be undone.
    parent : QWidget, optional
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._stack = document, undo_stack
        self._specs = [s for s in CATALOG.specs if s.category not in BUILDER_CATEGORIES]
        self._spec = self._specs[0]
        self._spelling: str | None = None  # how the call is written: see build_call_text
        self._keywords: set[str] = default_keywords(self._spec)
        self._frozen: dict[str, tuple[str, str]] = {}  # values the form cannot show
        self._loaded_values: dict[str, str] = {}  # the values as the loaded step spells them
        self._receivers: list[str] = []
        self._names_shown: list[str] | None = None  # the tensor names offered now
        self._editing: int | None = None  # the step whose parameters the panel edits
        self._loaded: Step | None = None  # that step as the panel last wrote or read it
        self._session = 0  # edits merge within one session of editing one step
        self._name_auto = True
        self._build()
        self._set_model_connected(True)
        self._show_spec(self._spec)
        self._on_model_selection_changed(document.selected)
        translated(self, lambda: (self._show_spec(self._spec), self._refresh()), now=False)

    # -- building ----------------------------------------------------------------------------
    def _build(self) -> None:
        self._mono = mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.browser = OpBrowser(self._specs)
        self.search_edit, self.op_tree = self.browser.search_edit, self.browser.op_tree

        # what the op does
        self.title = QLabel()
        self.title.setFont(mono)
        self.title.setStyleSheet("font-weight: bold;")
        translated(self, lambda: self.title.setToolTip(self.tr("The chosen op.")))
        self.doc_link = QLabel()
        self.doc_link.setOpenExternalLinks(True)
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.doc_link)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        translated(self, lambda: self.summary.setToolTip(self.tr("What the op does.")))
        self.signature = QLabel()
        self.signature.setFont(mono)
        self.signature.setWordWrap(True)
        self.signature.setStyleSheet(HINT_STYLE)
        self.signature.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        translated(self, lambda: (
            self.signature.setToolTip(self.tr("How the op is called, with its defaults."))))

        apply_box = self._build_step_box()

        # errors as lessons
        self.lesson_box = ErrorLesson()
        self.error_label = self.lesson_box.error_label
        self.cause_label = self.lesson_box.cause_label
        self.fix_label = self.lesson_box.fix_label

        self.timing_view = TimingView(self._document)
        timing_box = QGroupBox()
        translated(self, lambda timing_box=timing_box: timing_box.setTitle(self.tr("Time it")))
        QVBoxLayout(timing_box).addWidget(self.timing_view)

        details = QWidget()
        column = QVBoxLayout(details)
        column.addLayout(heading)
        column.addWidget(self.summary)
        column.addWidget(self.signature)
        column.addWidget(apply_box)
        column.addWidget(self.lesson_box)
        column.addWidget(timing_box)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(LayoutFence(details))  # the code preview changes on every edit

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.browser)
        splitter.addWidget(scroll)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 5)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)

        self.op_tree.currentItemChanged.connect(self._on_view_op_changed)
        self.mode_button.clicked.connect(self._on_view_mode_clicked)
        self.input_combo.currentIndexChanged.connect(self._on_view_params_changed)
        self.form.changed.connect(self._on_view_params_changed)
        self.name_edit.textEdited.connect(self._on_view_name_edited)
        self.name_edit.textChanged.connect(self._refresh)
        self.name_edit.editingFinished.connect(self._on_view_name_finished)
        self.apply_button.clicked.connect(self.apply)

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed),
                (doc.reset, self._on_model_reset))

    # -- public ------------------------------------------------------------------------------------
    @property
    def spec(self) -> OpSpec:
        """The chosen op."""
        return self._spec

    @property
    def editing(self) -> int | None:
        """The index of the step the panel changes live, or None when it adds new steps."""
        return self._editing

    def set_op(self, name: str) -> None:
        """Choose op ``name`` (``"tril"``, ``"torch.tril"`` or ``"Tensor.view"``) for a new step."""
        spec = next(s for s in self._specs if name == s.name or name in s.keys)
        with QSignalBlocker(self.op_tree):
            self.browser.select(spec)
        self._choose(spec)

    def set_input(self, name: str) -> None:
        """Apply the op to tensor ``name``."""
        self.input_combo.setCurrentIndex(self._receivers.index(name))

    # -- model to view -------------------------------------------------------------------------
    def _on_model_evaluated(self, run: RecipeRun) -> None:
        steps = self._document.recipe.steps
        index = self._editing
        if index is not None:
            if self._document.selected != index or not self._op_step(index):
                self._editing = self._loaded = None
                if self._document.selected == index:  # the run said its input is no tensor
                    self._start_new(self._selected_name())
            elif steps[index] != self._loaded:
                self._load(index)  # changed underneath the panel: undo, redo, another panel
        if self._editing is None:
            names = self._tensor_names()
            if names != self._names_shown:  # (a run's report rarely changes them)
                current = self._current_receiver()  # kept while the run still offers it
                if current not in names:
                    current = None  # (the run said it holds no tensor): the newest tensor
                with QSignalBlocker(self.form), QSignalBlocker(self.input_combo):
                    self.form.set_names(names)
                    self._fill_receivers(names, current)
            if self._name_auto:
                self._set_auto_name()
        self._refresh()

    def _on_model_selection_changed(self, index: int | None) -> None:
        if self._op_step(index):
            self._session += 1
            self._load(index)
        else:
            self._start_new(self._selected_name())
        self._refresh()

    def _on_model_reset(self) -> None:
        """Another recipe: the panel starts afresh, as a new window's (the old recipe's
        op, names and values are not the new one's)."""
        self.set_op(self._specs[0].name)  # (the first spec of that name: this one)

    # -- view to model ---------------------------------------------------------------------------
    def _on_view_op_changed(self, item: QTreeWidgetItem | None,
                            _previous: QTreeWidgetItem | None) -> None:
        spec = self.browser.spec_of(item)
        if spec is None:
            return
        if self._editing is None or spec is not self._spec:
            self._choose(spec)

    def _choose(self, spec: OpSpec) -> None:
        """Describe a new step of ``spec``, applied to the selected step's result."""
        self._spec = spec
        self._show_spec(spec)
        self._start_new(self._selected_name())
        self._refresh()

    # -- helpers ---------------------------------------------------------------------------------
    def _show_spec(self, spec: OpSpec) -> None:
        key = spec.function_key or f"Tensor.{spec.name}"
        self.title.setText(key)
        self.summary.setText(op_summary(spec))
        self.signature.setText(signature(spec))
        self.doc_link.setText('<a href="{}">{}</a>'.format(
            html.escape(spec.doc_url, quote=True), html.escape(self.tr("docs"))))
        self.doc_link.setToolTip(self.tr("Open PyTorch's documentation: {0}").format(
            spec.doc_url))
        receiver = has_receiver(spec)
        self.input_combo.setVisible(receiver)
        self._input_label.setVisible(receiver)


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.header import TORCH_LINE
    from app.recipe.reader import read_recipe
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(read_recipe(TORCH_LINE + "x = torch.ones(4, 4)\n"
                               "y = torch.tril(x, diagonal=1)\n"))
    doc.select(1)
    panel = OpPanel(doc, QUndoStack())
    panel.resize(420, 900)
    sys.exit(run_demo(app, doc, panel))
