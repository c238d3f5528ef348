"""The Model tab: the ``nn.Module`` the selected step made, as a tree.

It follows the document's selection: a step that bound a module (``net = Net()``, or a
code step that made one) shows that module's tree, asked of the kernel (query
``module``, ``kernel.modules``); any other step leaves the last module shown, greyed
with a note, until the next one. The header names the module and its totals, in
torchinfo's terms. A parameter's or buffer's row opens it in the tensor viewer
(``tensor_chosen``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from protocol.module_data import ModuleTree, tree_from
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.retranslate import translated
from widgets.model.attention import AttentionView
from widgets.model.graph import ModelGraph, tree_and_graph
from widgets.model.tree import ModuleTreeView


class ModelPanel(FollowsDocument, QWidget):
    """The selected step's module.

    Attributes
    ----------
    tree_view : ModuleTreeView
        The tree.
    attention_view : AttentionView
        The run's attention calls, a heatmap per head (the third of ``views``' tabs).
    graph_view : ModelGraph
        The graph of its last forward call, beside the tree (``views``: their tabs).
    name : str or None
        The name of the module shown, or None.

    Signals
    -------
    tensor_chosen(str, tuple, str)
        The user asked to see a parameter or buffer: its full name (``net.conv1.weight``),
        its shape and dtype.
    """

    tensor_chosen = Signal(str, tuple, str)

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setWordWrap(True)
        self.totals = QLabel()
        self.totals.setTextFormat(Qt.TextFormat.PlainText)
        self.totals.setWordWrap(True)
        self.tree_view = ModuleTreeView()
        self.tree_view.tensor_chosen.connect(self._on_view_tensor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.header)
        self.graph_view = ModelGraph(document, selected_module)  # asks when its tab shows
        self.views = tree_and_graph(self.tree_view, self.graph_view)
        self.attention_view = AttentionView(document)  # the run's attention calls
        self.views.addTab(self.attention_view, "")
        layout.addWidget(self.views, 1)
        layout.addWidget(self.totals)
        self.name: str | None = None
        self.tree: ModuleTree | None = None
        self._asked = 0
        self._stale = True
        self._error = ""
        translated(self, self._set_texts)
        self._set_model_connected(True)

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_changed),
                (doc.selection_changed, self._on_model_changed))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    # -- public ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the kernel for the selected step's module (or show that there is none)."""
        self._stale = False
        found = selected_module(self._document)
        if found is None:
            self._asked += 1  # an answer on its way is for a step no longer selected
            self._set_texts()
            return
        run, statement, name = found
        self._asked += 1
        asked = self._asked
        if not self._document.ask("module", {"run": run, "statement": statement, "name": name},
                                  while_alive(self, lambda data, error: self._on_answer(
                                      asked, name, data, error))):
            self._error = self.tr("No kernel: run the recipe to see its modules.")
            self._set_texts()

    # -- model to view -----------------------------------------------------------------
    def _on_model_changed(self, *_args) -> None:
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def _on_view_tensor(self, path: str, _kind: str) -> None:
        row = self.tree_view.tensor_row(path)
        if row is not None and self.name is not None:
            self.tensor_chosen.emit(f"{self.name}.{path}", row.shape or (), row.dtype)

    def _on_answer(self, asked: int, name: str, data: dict, error: str) -> None:
        if asked != self._asked:
            return  # a newer question since
        self._error = error
        if not error:
            self.name, self.tree = name, tree_from(data["tree"])
            self.tree_view.show_tree(self.tree, name)
        self._set_texts()

    def _set_texts(self) -> None:
        index = self.views.indexOf(self.attention_view)
        self.views.setTabText(index, self.tr("Attention"))
        self.views.setTabToolTip(index, self.tr(
            "The attention weights of the run's attention calls (nn.MultiheadAttention, "
            "F.scaled_dot_product_attention), a heatmap per head"))
        current = selected_module(self._document)
        shown = self.tree is not None
        self.tree_view.setEnabled(shown and current is not None
                                  and current[2] == self.name and not self._error)
        if self._error:
            self.header.setText(self.tr("The module could not be read: {0}").format(
                self._error))
        elif not shown:
            self.header.setText(self.tr(
                "Select a step that makes an nn.Module (net = Net(), nn.Sequential(...)) "
                "to see its layers, their parameters and the shapes of their last call."))
        elif current is None or current[2] != self.name:
            self.header.setText(self.tr("{0} (the last module selected; the step selected "
                                        "now makes none)").format(self.name))
        else:
            self.header.setText(self.tr("{0}: {1}").format(self.name, self.tree.root.type))
        tree = self.tree
        self.totals.setVisible(shown)
        if tree is not None:
            text = self.tr("Total params: {0} · Trainable: {1} · Non-trainable: {2} · "
                           "Buffers: {3} · Modules: {4}").format(
                f"{tree.parameters:,}", f"{tree.trainable:,}", f"{tree.frozen:,}",
                f"{tree.buffers:,}", f"{tree.modules:,}")
            if tree.truncated:
                text += " · " + self.tr("(too many modules: the deepest are left out)")
            self.totals.setText(text)
        self.totals.setToolTip(self.tr("Elements in the parameters, each shared one "
                                       "counted once; trainable ones require grad"))


def selected_module(document: Document) -> tuple[int, int, str] | None:
    """(run, statement, name) of the module the selected step bound, or None."""
    i = document.selected
    results = document.run.results
    if i is None or i >= len(results):
        return None
    value = results[i].value
    if not isinstance(value, KernelValue):
        return None
    step = document.recipe.steps[i] if i < len(document.recipe.steps) else None
    name = value.first_module(step.name if step is not None else None)
    return None if name is None else (value.run_id, value.statement, name)
