"""The autograd explorer: the selected tensor's backward graph, its facts, backward and friends.

``AutogradPanel`` is the passive ``AutogradView`` (``widgets.autograd.view``) with its
``AutogradController`` (``widgets.autograd.controller``), which follows the document and
turns clicks into recipe steps (``out.backward()``, ``y.retain_grad()``,
``x.grad.zero_()``) pushed on the undo stack. The Qt-free parts live in
``kernel.explain.autograd_graph`` and ``app.explain.autograd_steps``.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from app.recipe.document import Document
from protocol.autograd_nodes import AutogradGraph
from widgets.autograd.controller import AutogradController
from widgets.autograd.view import AutogradView


class AutogradPanel(AutogradView):
    """Draws the selected tensor's backward graph; inspect nodes, run backward, zero grads.

    Parameters
    ----------
    document : Document
        The open document. The panel follows its ``evaluated`` and ``selection_changed``
        signals; it changes the recipe only through ``undo_stack``.
    undo_stack : QUndoStack, optional
        Where recipe edits go (``widgets.common.undo.push_edit``); None applies them directly.
    parent : QWidget, optional
        The usual Qt parent.
    """

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._controller = AutogradController(document, undo_stack, self)

    @property
    def graph(self) -> AutogradGraph:
        return self._controller.graph

    @property
    def tensor_name(self) -> str | None:
        """The recipe name of the tensor whose graph is drawn."""
        return self._controller.tensor_name

    @property
    def inspected_name(self) -> str | None:
        """The recipe name of the tensor whose facts are shown."""
        return self._controller.inspected_name

    def inspect(self, node_id: str) -> None:
        """Show node ``node_id``'s facts, as clicking it does, and scroll it into view."""
        self._controller.inspect(node_id)


if __name__ == "__main__":  # a quick look: python -m widgets.autograd.panel
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.header import TORCH_LINE
    from app.recipe.reader import read_recipe
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(read_recipe(TORCH_LINE + "x = torch.ones(2, 2, requires_grad=True)\n"
                               "y = x + 2\nz = (y * y * 3).mean()\nz.backward()\n"))
    doc.select_name("z")
    panel = AutogradPanel(doc, QUndoStack())
    panel.resize(1000, 600)
    sys.exit(run_demo(app, doc, panel))
