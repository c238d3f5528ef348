"""The autograd explorer's passive view: the graph, its legend, the three pages, the error.

``AutogradView`` emits what the user does and shows what it is given; it never reads
the document. ``widgets.autograd.controller.AutogradController`` drives it, and
``widgets.autograd.panel.AutogradPanel`` puts the two together. Its texts keep the
``AutogradPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from protocol.autograd_nodes import AutogradGraph
from widgets.autograd.graph_view import KIND_COLOURS, GraphView
from widgets.autograd.pages import BackwardPage, InspectPage, JacobianPage
from widgets.autograd.tables import scrolled
from widgets.common.layout_fence import fenced_content
from widgets.common.retranslate import translated
from widgets.common.theme import current_palette


class AutogradView(QWidget):
    """The backward graph beside the Inspect, Backward and Jacobian pages, and an error line.

    Attributes
    ----------
    inspect_page : InspectPage
    backward_page : BackwardPage
    jacobian_page : JacobianPage
    """

    node_clicked = Signal(str)
    """Emitted with a node's id when the user clicks it in the graph."""
    saved_toggled = Signal(bool)
    """Emitted when the user shows or hides the saved tensors."""
    retain_grad_toggled = Signal(bool)
    """Emitted when the user ticks or clears ``retain_grad()`` on the Inspect page."""
    backward_clicked = Signal()
    """Emitted when the user asks for the step ``name.backward(...)``."""
    zero_grads_clicked = Signal()
    """Emitted when the user asks to zero the gradients."""
    backward_options_changed = Signal()
    """Emitted when the user changes the gradient argument or ``retain_graph``."""
    jacobian_clicked = Signal()
    """Emitted when the user asks for the Jacobian."""
    hessian_clicked = Signal()
    """Emitted when the user asks for the Hessian."""
    shown = Signal()
    """Emitted each time the view is shown (drawing waits for it behind another tab)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._status = QLabel()
        self._status.setWordWrap(True)
        translated(self, lambda: self._status.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                           "Whose backward graph is drawn")))
        self._saved_box = QCheckBox()
        translated(self, lambda: self._saved_box.setText(QCoreApplication.translate("AutogradPanel",
                                                               "Saved tensors")))
        translated(self, lambda: self._saved_box.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Also draw the tensors each backward function saved during the "
            "forward pass (orange, dashed edges)")))
        fit = QPushButton()
        translated(self, lambda fit=fit: fit.setText(
            QCoreApplication.translate("AutogradPanel", "Fit")))
        translated(self, lambda fit=fit: fit.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                  "Zoom to show the whole graph")))
        top = QHBoxLayout()
        top.addWidget(self._status, 1)
        top.addWidget(self._saved_box)
        top.addWidget(fit)

        self._view = GraphView()
        self.inspect_page = InspectPage()
        self.backward_page = BackwardPage()
        self.jacobian_page = JacobianPage()
        self._tabs = QTabWidget()
        # scrolled: with an error shown below, the pages may get less height than their
        # rows need, and squeezed rows draw over each other
        for page, title in ((self.inspect_page, "Inspect"), (self.backward_page, "Backward"),
                            (self.jacobian_page, "Jacobian")):
            self._tabs.addTab(scrolled(page), title)
        translated(self, self._set_tab_texts)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._view)
        splitter.addWidget(self._tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([600, 400])  # the graph gets the room, whatever the texts ask for

        self._error = QLabel()
        self._error.setWordWrap(True)
        self._error.setTextFormat(Qt.TextFormat.RichText)
        self._error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        translated(self, lambda: self._error.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "An autograd step failed: torch's message, the usual cause and "
            "the fix")))
        self._error.hide()

        layout = QVBoxLayout(fenced_content(self))  # its texts change on every edit
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(self._legend())
        layout.addWidget(splitter, 1)
        layout.addWidget(self._error)

        # the pages' widgets that tests and screenshots drive by hand
        inspect, backward, jacobian = self.inspect_page, self.backward_page, self.jacobian_page
        self._fact_labels, self._retain_box = inspect.fact_labels, inspect.retain_box
        self._grad_model = inspect.grad_model
        self._gradient_box, self._gradient_why = backward.gradient_box, backward.gradient_why
        self._retain_graph_box = backward.retain_graph_box
        self._backward_button, self._zero_button = backward.backward_button, backward.zero_button
        self._input_box, self._matrix_caption = jacobian.input_box, jacobian.caption
        self._matrix_model = jacobian.matrix_model
        self._jacobian_button = jacobian.jacobian_button
        self._hessian_button = jacobian.hessian_button

        self._saved_box.toggled.connect(self.saved_toggled)
        fit.clicked.connect(self._view.fit)
        self._view.node_clicked.connect(self.node_clicked)
        inspect.retain_grad_toggled.connect(self.retain_grad_toggled)
        backward.backward_clicked.connect(self.backward_clicked)
        backward.zero_grads_clicked.connect(self.zero_grads_clicked)
        backward.options_changed.connect(self.backward_options_changed)
        jacobian.jacobian_clicked.connect(self.jacobian_clicked)
        jacobian.hessian_clicked.connect(self.hessian_clicked)

    def _set_tab_texts(self) -> None:
        for i, (title, tip) in enumerate((
                (QCoreApplication.translate("AutogradPanel", "Inspect"),
                 QCoreApplication.translate(
                     "AutogradPanel", "The clicked node or tensor: is_leaf, requires_grad, "
                     "grad_fn and .grad")),
                (QCoreApplication.translate("AutogradPanel", "Backward"),
                 QCoreApplication.translate("AutogradPanel",
                                            "Run backward, or zero the gradients")),
                (QCoreApplication.translate("AutogradPanel", "Jacobian"),
                 QCoreApplication.translate("AutogradPanel", "Jacobian and Hessian of this "
                                            "tensor with respect to another")))):
            self._tabs.setTabText(i, title)
            self._tabs.setTabToolTip(i, tip)

    def _legend(self) -> QHBoxLayout:
        legend = QHBoxLayout()
        labels: dict[str, tuple[QLabel, QLabel]] = {}
        for kind in KIND_COLOURS:
            swatch = QLabel()
            swatch.setFixedSize(14, 14)
            border = ("dashed " + current_palette().error if kind == "cut"
                      else "solid " + current_palette().muted)
            swatch.setStyleSheet(f"background: {KIND_COLOURS[kind]}; border: 1px {border};")
            label = QLabel()
            labels[kind] = swatch, label
            legend.addWidget(swatch)
            legend.addWidget(label)
            legend.addSpacing(8)
        legend.addStretch(1)
        translated(self, lambda: _set_legend_texts(labels))
        return legend

    # -- what tests and screenshots read ------------------------------------------------------
    @property
    def graph_view(self) -> GraphView:
        return self._view

    def facts(self) -> dict[str, str]:
        """The facts shown, ``{"is_leaf": "True", ..., ".grad": "...", "why": "..."}``."""
        return self.inspect_page.facts()

    def heading_text(self) -> str:
        return self.inspect_page.heading.text()

    def error_text(self) -> str:
        """The autograd error shown (torch's message, cause and fix), or empty."""
        return self._error.text() if not self._error.isHidden() else ""

    def status_text(self) -> str:
        return self._status.text()

    # -- what the controller reads and sets --------------------------------------------------------
    def saved_shown(self) -> bool:
        """Whether the saved tensors are to be drawn."""
        return self._saved_box.isChecked()

    def set_status(self, text: str) -> None:
        self._status.setText(text)

    def set_graph(self, graph: AutogradGraph, fit: bool) -> None:
        """Draw ``graph``; ``fit`` zooms to it, else the zoom and scroll stay."""
        self._view.set_graph(graph, fit=fit)

    def select_node(self, node_id: str) -> None:
        """Outline node ``node_id`` in the graph."""
        self._view.select(node_id)

    def scroll_to_node(self, node_id: str) -> None:
        item = self._view.node_items().get(node_id)
        if item is not None:
            self._view.ensureVisible(item)

    def show_inspect_page(self) -> None:
        self._tabs.setCurrentIndex(0)

    def set_error(self, html: str) -> None:
        """Rich text under the graph; empty hides it."""
        if not html:
            self._error.hide()
            self._error.clear()
            return
        self._error.setText(html)
        self._error.show()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.shown.emit()


def _set_legend_texts(labels: dict[str, tuple[QLabel, QLabel]]) -> None:
    tip = QCoreApplication.translate(
        "AutogradPanel", "Node colours. Arrows point the way backward() walks: from the "
        "result down to the leaves, whose .grad it fills.")
    texts = {"tensor": QCoreApplication.translate("AutogradPanel", "tensor"),
             "grad_fn": QCoreApplication.translate("AutogradPanel", "grad_fn"),
             "accumulate": QCoreApplication.translate("AutogradPanel", "AccumulateGrad"),
             "leaf": QCoreApplication.translate("AutogradPanel", "leaf"),
             "saved": QCoreApplication.translate("AutogradPanel", "saved"),
             "cut": QCoreApplication.translate("AutogradPanel", "cut off")}
    for kind, (swatch, label) in labels.items():
        swatch.setToolTip(tip)
        label.setText(texts[kind])
        label.setToolTip(tip)
