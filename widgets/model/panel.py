"""The Model tab: the ``nn.Module`` the selected step made, as a tree.

It follows the document's selection: a step that bound a module (``net = Net()``, or a
code step that made one) shows that module's tree, asked of the kernel (query
``module``, ``kernel.modules``); any other step leaves the last module shown, greyed
with a note, until the next one. The header names the module and its totals, in
torchinfo's terms. A parameter's or buffer's row opens it in the tensor viewer
(``tensor_chosen``). A module's row, picked, shows its last output for one sample below
the tree (``ActivationView``, query ``activation``); while the run trains it is asked
again at display rate (``ACTIVATION_INTERVAL_MS``), while the tab is shown, and an
answer the view has (the same call and sample) comes back empty.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QSplitter, QTreeWidgetItem, QVBoxLayout, QWidget

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from protocol.module_data import ModuleTree, tree_from
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.retranslate import translated
from widgets.common.when_shown import WhenShown
from widgets.model.activations import ActivationView
from widgets.model.attention import AttentionView
from widgets.model.graph import ModelGraph, tree_and_graph
from widgets.model.tree import KIND_ROLE, PATH_ROLE, ModuleTreeView

#: While the run trains, a picked layer's output is asked again this often (ms).
ACTIVATION_INTERVAL_MS = 150


class ModelPanel(FollowsDocument, QWidget):
    """The selected step's module.

    Attributes
    ----------
    tree_view : ModuleTreeView
        The tree.
    activations : ActivationView
        The picked layer's output for one sample, under the tree (``splitter``).
    layer : str or None
        The dotted path of the layer picked ("" the module itself), or None.
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
        self.activations = ActivationView()
        self.activations.sample_chosen.connect(self._on_view_sample)
        self.tree_view.currentItemChanged.connect(self._on_view_current)
        self.splitter = QSplitter(Qt.Orientation.Vertical)  # the Tree tab: its layers...
        self.splitter.addWidget(self.tree_view)
        self.splitter.addWidget(self.activations)  # ...and the picked one's output
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([1000, 1000])  # half each at first (a size hint: more)
        self.graph_view = ModelGraph(document, selected_module)  # asks when its tab shows
        self.views = tree_and_graph(self.splitter, self.graph_view)
        self.attention_view = AttentionView(document)  # the run's attention calls
        self.views.addTab(self.attention_view, "")
        layout.addWidget(self.views, 1)
        layout.addWidget(self.totals)
        self.name: str | None = None
        self.tree: ModuleTree | None = None
        self.layer: str | None = None
        self._sample = 0
        self._layer_asked = 0  # the last activation question's number
        self._layer_waiting = False  # its answer is still to come
        self._timer = QTimer(self)
        self._timer.setInterval(ACTIVATION_INTERVAL_MS)
        self._timer.timeout.connect(self._on_tick)
        self._asked = 0
        self._error = ""
        #: The module is asked for once the tab is on screen, after each change
        self._when_shown = WhenShown(self, self.refresh)
        translated(self, self._set_texts)
        self._set_model_connected(True)
        self._when_shown()

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_changed),
                (doc.selection_changed, self._on_model_changed))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._timer.start()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 - Qt override
        super().hideEvent(event)
        self._timer.stop()

    # -- public ------------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the kernel for the selected step's module (or show that there is none)."""
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
        self._when_shown()

    def _on_view_tensor(self, path: str, _kind: str) -> None:
        row = self.tree_view.tensor_row(path)
        if row is not None and self.name is not None:
            self.tensor_chosen.emit(f"{self.name}.{path}", row.shape or (), row.dtype)

    def _on_answer(self, asked: int, name: str, data: dict, error: str) -> None:
        if asked != self._asked:
            return  # a newer question since
        self._error = error
        if not error:
            if name != self.name:
                self.layer = None  # another module: its layers are not this one's
                self.activations.show_layer("")
            self.name, self.tree = name, tree_from(data["tree"])
            self.tree_view.show_tree(self.tree, name)
            if self.layer is not None:  # the pick stays, asked again of the new run
                row = self.tree_view.row_of(self.layer)
                if row is not None:
                    self.tree_view.setCurrentItem(row)
                self.ask_activation(fresh=True)
        self._set_texts()

    # -- activations -------------------------------------------------------------------
    def ask_activation(self, fresh: bool = False) -> None:
        """Ask for the picked layer's output (``fresh``: whatever the view shows)."""
        found = selected_module(self._document)
        if self.layer is None or found is None or found[2] != self.name:
            return
        run, statement, name = found
        data = self.activations.data or {}
        args = {"run": run, "statement": statement, "name": name, "path": self.layer,
                "sample": self._sample}
        if not fresh and data.get("call"):
            args.update(call=data["call"], shown=data.get("sample"))
        self._layer_asked += 1
        asked, layer = self._layer_asked, self.layer
        self._layer_waiting = self._document.ask(
            "activation", args, while_alive(self, lambda answer, error: self._on_activation(
                asked, layer, answer, error)))

    def _on_activation(self, asked: int, layer: str, data: dict, error: str) -> None:
        if asked != self._layer_asked or layer != self.layer:
            return  # a newer question since
        self._layer_waiting = False
        if error:
            data = {"missing": "error", "error": error}
        self.activations.show_answer(data)

    def _on_view_current(self, item: QTreeWidgetItem | None, _previous) -> None:
        if item is None or item.data(0, KIND_ROLE) != "module":
            return  # (a rebuilt tree, a parameter's row: the layer stays)
        path = item.data(0, PATH_ROLE)
        if path == self.layer:
            return
        self.layer, self._sample = path, 0
        self.activations.show_layer(".".join(filter(None, (self.name, path))))
        self.ask_activation(fresh=True)

    def _on_view_sample(self, sample: int) -> None:
        self._sample = sample
        self.ask_activation()

    def _on_tick(self) -> None:
        if self.layer is not None and self._document.kernel_run is not None \
                and not self._layer_waiting:
            self.ask_activation()

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
