"""The tensor viewer: the selected step's value, its facts, its statistics and its elements.

``ViewerPanel`` is the passive ``ViewerView`` (``widgets.viewer.view``) with its
``ViewerController`` (``widgets.viewer.controller``), which follows the document.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.recipe.document import Document
from widgets.viewer.controller import ViewerController
from widgets.viewer.view import ViewerView


class ViewerPanel(ViewerView):
    """Shows the document's selected step: its tensor, or its error, or its value.

    Parameters
    ----------
    document : Document
        The open document; the panel follows its ``evaluated`` and
        ``selection_changed`` signals and never writes to it.
    parent : QWidget, optional
        The usual Qt parent.
    """

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._controller = ViewerController(document, self)

    def show_part(self, name: str, shape: tuple[int, ...], dtype: str) -> None:
        """Show a module's parameter or buffer, ``net.conv1.weight``, made by the selected
        step (the Model tab asks), until another step is selected."""
        self._controller.show_part(name, shape, dtype)


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    document = Document()
    document.open_welcome()
    panel = ViewerPanel(document)
    panel.resize(560, 720)
    panel.setWindowTitle("Tensor viewer")
    document.select_name("cube")
    sys.exit(run_demo(app, document, panel))
