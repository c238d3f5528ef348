"""Op explained: the selected step's inputs and output side by side, and where each output
element came from.

One general mechanism: hovering (or clicking) an output cell asks the kernel which input
elements it came from (``kernel.explain.provenance``, run there as the ``provenance`` query),
and lights them up; for index and mask operands (gather's index) the entries that chose
them light up too. There is no
per-op highlighting code: what only some ops need comes from ``widgets.explain.op_extras.EXTRAS``.

``OpView`` is the passive ``OpExplainedView`` (``widgets.explain.op_explained_view``) with
its ``OpExplainedController`` (``widgets.explain.op_explained_controller``), which follows
the document and does the tracing.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent, QUndoStack
from PySide6.QtWidgets import QWidget

from app.explain.step_view import StepView
from app.recipe.document import Document
from protocol.provenance_data import Provenance
from widgets.explain.op_explained_controller import OpExplainedController
from widgets.explain.op_explained_view import ERROR_STYLE, EXTRA_MIN_WIDTH, Index, OpExplainedView
from widgets.explain.op_extras import OpExtra

__all__ = ["ERROR_STYLE", "EXTRA_MIN_WIDTH", "Index", "OpView"]


class OpView(OpExplainedView):
    """The selected step explained: inputs and output as grids, provenance on hover, extras.

    Parameters
    ----------
    document : Document
        The open recipe; the view follows its selection and evaluations.
    undo_stack : QUndoStack or None
        Where edits made by extras (the tril slider) go.
    parent : QWidget, optional
    """

    traced = Signal(object)
    """Emitted with the ``Provenance`` (or None) once an output cell's sources are lit up."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._controller = OpExplainedController(document, undo_stack, self)
        self._controller.traced.connect(self.traced)

    @property
    def step_view(self) -> StepView | None:
        """What is shown: the selected step with its inputs and output."""
        return self._controller.step_view

    @property
    def extras(self) -> dict[type, OpExtra]:
        """The extras made so far, one per class, kept and updated."""
        return self._controller.extras

    @property
    def extra(self) -> OpExtra | None:
        """The extra shown for the selected step's op, if any."""
        return self._controller.extra

    @property
    def provenance(self) -> Provenance | None:
        """The latest provenance lit up."""
        return self._controller.provenance

    @property
    def active(self) -> tuple[int, Index] | None:
        """The output element explained now: (part, index)."""
        return self._controller.active

    def activate_output(self, index: Index, part: int = 0, *, pin: bool = False) -> None:
        """Explain output element ``index`` (of output ``part``), as hovering it does.

        With ``pin`` it stays explained when the mouse leaves the grid, as a click does.
        """
        self._controller.activate_output(index, part, pin=pin)

    def refresh(self) -> None:
        """Show the selected step again (the document calls this through its signals)."""
        self._controller.refresh()

    def detach(self) -> None:
        """Stop following the document, for good (the window that shows the view retires)."""
        self._controller.detach()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.detach()
        super().closeEvent(event)


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.header import TORCH_LINE
    from app.recipe.reader import read_recipe
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(read_recipe(
        TORCH_LINE + "x = torch.arange(12.0).view(3, 4)\n"
        "index = torch.tensor([[3, 0], [1, 1], [2, 0]])\ny = torch.gather(x, 1, index)\n"))
    doc.select(2)
    view = OpView(doc, QUndoStack())
    view.resize(900, 600)
    sys.exit(run_demo(app, doc, view))
