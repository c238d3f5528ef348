"""The Model tab's Graph: the selected module's last traced forward call, left to right.

Leaf modules and the torch calls between them are boxes; every edge is labelled with the
shape of the tensor that flowed; containers (``features``, a ``Sequential`` block) are
dashed boxes around their calls, collapsed into one node by a click on their title (and
opened again by a click on that node). A call that raised is outlined in the theme's
error colour, and so are the edges into it, the exception as their tooltip. The wheel
zooms, dragging pans; Export writes PNG or SVG for slides (``widgets.model.graph_view``
draws). The graph is asked of the kernel (query ``module_graph``,
``kernel.module_graph``) when its tab is shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.recipe.document import Document
from protocol.module_graph_data import ModuleGraph, graph_from
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.retranslate import translated
from widgets.common.when_shown import WhenShown
from widgets.model.graph_view import ModelGraphView


class ModelGraph(FollowsDocument, QWidget):
    """The selected module's graph, asked of the kernel when this page is shown.

    Parameters
    ----------
    document : Document
        The document it follows.
    target : callable
        ``target(document)``: the (run, statement, name) of the module selected, or None.
    """

    def __init__(self, document: Document, target: Callable[[Document], tuple | None],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._document, self._target = document, target
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.view = ModelGraphView()
        self.fit_button = QPushButton()
        self.fit_button.clicked.connect(self.view.fit)
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self._open_all)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self._on_view_export)
        bar = QHBoxLayout()
        bar.addWidget(self.note, 1)
        for button in (self.fit_button, self.open_button, self.export_button):
            bar.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self.name: str | None = None
        self.error = ""
        self._asked = 0
        self._when_shown = WhenShown(self, self.refresh)  # its tab chosen, not before
        self._when_shown.pending = True
        translated(self, self._set_texts)
        self._set_model_connected(True)

    def _model_links(self):
        doc = self._document
        return [(signal, self._on_model_changed)
                for signal in (doc.evaluated, doc.selection_changed)]

    @property
    def graph(self) -> ModuleGraph | None:
        return self.view.graph

    def refresh(self) -> None:
        """Ask the kernel for the selected module's graph."""
        self._asked += 1
        found = self._target(self._document)
        if found is None:
            self._set_texts()
            return
        run, statement, name = found
        asked = self._asked
        if not self._document.ask("module_graph",
                                  {"run": run, "statement": statement, "name": name},
                                  while_alive(self, lambda data, error: self._on_answer(
                                      asked, name, data, error))):
            self.error = self.tr("No kernel: run the recipe to see its modules.")
            self._set_texts()

    def _on_model_changed(self, *_args) -> None:
        self._when_shown()

    def _on_answer(self, asked: int, name: str, data: dict, error: str) -> None:
        if asked != self._asked:
            return
        self.error = error
        if not error:
            same = name == self.name
            self.name = name
            self.view.set_graph(graph_from(data["graph"]), keep=same)
        self._set_texts()

    def _open_all(self) -> None:
        self.view.collapsed = set()
        self.view.set_graph(self.view.graph, keep=True)

    def _on_view_export(self) -> None:
        from widgets.common.plot_export import PLOT_FILTER

        if self.view.graph is None:
            return
        path, chosen = QFileDialog.getSaveFileName(
            self, self.tr("Export the graph"),
            os.path.join(os.path.expanduser("~"), f"{self.name or 'model'}_graph.svg"),
            PLOT_FILTER)
        if path:
            if not os.path.splitext(path)[1]:
                path += ".svg" if "svg" in chosen.lower() else ".png"
            self.view.save(path)

    def _set_texts(self) -> None:
        graph = self.view.graph
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Zoom to show the whole graph"))
        self.open_button.setText(self.tr("Open all"))
        self.open_button.setToolTip(self.tr("Open every collapsed container"))
        self.export_button.setText(self.tr("Export..."))
        self.export_button.setToolTip(self.tr(
            "Save the graph as a PNG image or an SVG drawing, for slides"))
        self.export_button.setEnabled(graph is not None)
        if self.error:
            text = self.tr("No graph: {0}").format(self.error)
        elif graph is None:
            text = self.tr("Select a step that makes an nn.Module and call it: the graph "
                           "is drawn from its last forward call.")
        else:
            text = self.tr("{0}: {1}, its last traced forward call").format(
                self.name, graph.type)
            if graph.error:
                text += " · " + self.tr("it raised: {0}").format(graph.error)
            if graph.truncated:
                text += " · " + self.tr("(too many calls: the first {0} are drawn)").format(
                    len(graph.nodes))
        self.note.setText(text)
        self.note.setToolTip(self.tr(
            "Recorded while the recipe's own call ran (no extra forward pass): a "
            "statement's first call of the module, and in a training loop a sampled "
            "step's now and then"))


def tree_and_graph(tree: QWidget, graph: ModelGraph) -> QTabWidget:
    """The Model tab's two views of a module, as tabs: its tree and its graph."""
    tabs = QTabWidget()
    tabs.setDocumentMode(True)
    tabs.addTab(tree, "")
    tabs.addTab(graph, "")

    def texts() -> None:
        tabs.setTabText(0, QCoreApplication.translate("ModelGraph", "Tree"))
        tabs.setTabToolTip(0, QCoreApplication.translate(
            "ModelGraph", "The module's submodules, parameters and buffers"))
        tabs.setTabText(1, QCoreApplication.translate("ModelGraph", "Graph"))
        tabs.setTabToolTip(1, QCoreApplication.translate(
            "ModelGraph", "The module's last forward call: its layers and the shapes "
            "between them"))
    translated(tabs, texts)
    return tabs
