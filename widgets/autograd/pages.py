"""The autograd explorer's three pages: Inspect, Backward and Jacobian.

Passive views: each page emits what the user did and shows what it is given; the
controller (``widgets.autograd.controller``) decides what that is. Their texts keep the
``AutogradPanel`` translation context, where they were first written.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.tensor_copy import TensorCopy
from widgets.autograd.tables import fit_rows, matrix_of, small_table
from widgets.common.retranslate import translated
from widgets.common.tensor_table_model import PlaneAddress, TensorTableModel

FACT_KEYS = ("tensor", "is_leaf", "requires_grad", "grad_fn", "retains_grad", ".grad")


class InspectPage(QWidget):
    """The clicked node or tensor: what it is, its autograd facts, ``.grad`` and saved values."""

    retain_grad_toggled = Signal(bool)
    """Emitted when the user ticks or clears ``retain_grad()``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        translated(self, lambda: self.heading.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                           "What the clicked node is")))
        form = QFormLayout()
        self.fact_labels: dict[str, QLabel] = {}
        names: dict[str, QLabel] = {}
        for key in FACT_KEYS:
            value = QLabel("—")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            names[key] = QLabel(key)
            form.addRow(names[key], value)
            self.fact_labels[key] = value
        translated(self, lambda: self._set_fact_tips(names))
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: (
            self.why.setToolTip(QCoreApplication.translate("AutogradPanel", "Why .grad is None"))))
        self.retain_box = QCheckBox()
        translated(self, lambda: (
            self.retain_box.setText(QCoreApplication.translate("AutogradPanel", "retain_grad()"))))
        translated(self, lambda: self.retain_box.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Keep .grad for this non-leaf tensor: adds (or removes) the step "
            "name.retain_grad() just after it")))
        self.retain_box.toggled.connect(self.retain_grad_toggled)
        self.grad_model = TensorTableModel(self)
        self.grad_table = small_table(self.grad_model)
        translated(self, lambda: (
            self.grad_table.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                                  "The values of .grad"))))
        self.saved_text = QLabel()
        self.saved_text.setWordWrap(True)
        self.saved_text.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: self.saved_text.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "What this backward function saved during the forward pass")))
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(form)
        layout.addWidget(self.why)
        layout.addWidget(self.retain_box)
        layout.addWidget(self.grad_table)
        layout.addWidget(self.saved_text)
        layout.addStretch(0)

    def _set_fact_tips(self, names: dict[str, QLabel]) -> None:
        tips = {
            "tensor": QCoreApplication.translate(
                "AutogradPanel", "The recipe tensor these facts are about"),
            "is_leaf": QCoreApplication.translate(
                "AutogradPanel", "A leaf was created, not computed from tensors that require "
                "grad. Only leaves get .grad by default."),
            "requires_grad": QCoreApplication.translate(
                "AutogradPanel", "Whether autograd records operations on this tensor"),
            "grad_fn": QCoreApplication.translate(
                "AutogradPanel", "The backward function that made this tensor; None for leaves "
                "and for tensors autograd does not track"),
            "retains_grad": QCoreApplication.translate(
                "AutogradPanel", "Whether this non-leaf keeps its .grad (retain_grad())"),
            ".grad": QCoreApplication.translate(
                "AutogradPanel", "The gradient backward stored here; backward adds to it"),
        }
        for key in FACT_KEYS:
            self.fact_labels[key].setToolTip(tips[key])
            names[key].setToolTip(tips[key])

    def facts(self) -> dict[str, str]:
        """The facts shown, ``{"is_leaf": "True", ..., ".grad": "...", "why": "..."}``."""
        out = {k: label.text() for k, label in self.fact_labels.items()}
        out["why"] = self.why.text() if not self.why.isHidden() else ""
        return out

    def show_heading(self, html: str, saved: list[str]) -> None:
        """What the node is (rich text), and the values its backward function saved."""
        self.heading.setText(html)
        self.saved_text.setText(QCoreApplication.translate(
            "AutogradPanel", "Saved for backward: {0}").format("; ".join(saved))
            if saved else "")
        self.saved_text.setVisible(bool(saved))

    def show_facts(self, name: str, rows: list[tuple[str, str]], why: str, can_retain: bool,
                   retained: bool) -> None:
        """Tensor ``name``'s facts (``GradFacts.rows()``), why it has no ``.grad``, and
        whether ``retain_grad()`` can be (and is) asked for."""
        with QSignalBlocker(self.retain_box):
            self.fact_labels["tensor"].setText(name)
            for key, text in rows:
                self.fact_labels[key].setText(text)
            self.why.setText(why)
            self.why.setVisible(bool(why))
            self.retain_box.setEnabled(can_retain)
            self.retain_box.setChecked(retained)

    def clear_facts(self, why: str) -> None:
        """No tensor to describe; ``why`` says so when it is worth saying."""
        with QSignalBlocker(self.retain_box):
            for label in self.fact_labels.values():
                label.setText("—")
            self.why.setText(why)
            self.why.setVisible(bool(why))
            self.retain_box.setEnabled(False)
            self.retain_box.setChecked(False)

    def show_grad(self, name: str | None, grad: TensorCopy | None) -> None:
        """The values of ``name.grad``; the table hides without one."""
        if grad is None or name is None:
            self.grad_model.clear()
            self.grad_table.hide()
            return
        self.grad_model.set_plane(matrix_of(grad), PlaneAddress(f"{name}.grad",
                                                                min(grad.ndim, 2)))
        fit_rows(self.grad_table)
        self.grad_table.show()


class BackwardPage(QWidget):
    """Run backward (with a gradient and ``retain_graph``), or zero the gradients."""

    backward_clicked = Signal()
    """Emitted when the user asks for the step ``name.backward(...)``."""
    zero_grads_clicked = Signal()
    """Emitted when the user asks to zero every leaf's gradient."""
    options_changed = Signal()
    """Emitted when the user picks another gradient or toggles ``retain_graph``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.gradient_box = QComboBox()
        translated(self, lambda: self.gradient_box.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "The gradient argument: how much each element of the tensor "
            "counts")))
        self.gradient_why = QLabel()
        self.gradient_why.setWordWrap(True)
        translated(self, lambda: self.gradient_why.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Why a tensor with several elements needs a gradient argument")))
        self.retain_graph_box = QCheckBox()
        translated(self, lambda: (
            self.retain_graph_box.setText(QCoreApplication.translate("AutogradPanel",
                                                                         "retain_graph=True"))))
        translated(self, lambda: self.retain_graph_box.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Keep the graph's saved tensors so backward can run through it "
            "again; without it a second backward fails")))
        self.backward_button = QPushButton()
        translated(self, lambda: (
            self.backward_button.setText(QCoreApplication.translate("AutogradPanel",
                                                                          "Backward"))))
        translated(self, lambda: self.backward_button.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Add the step name.backward(...) to the recipe: gradients are "
            "ADDED to each leaf's .grad")))
        self.zero_button = QPushButton()
        translated(self, lambda: (
            self.zero_button.setText(QCoreApplication.translate("AutogradPanel",
                                                                      "Zero grads"))))
        translated(self, lambda: self.zero_button.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "Add x.grad.zero_() for every leaf that has a gradient, so the "
            "next backward starts from 0")))
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        translated(self, lambda: self.preview.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                           "The step Backward adds")))
        form = QFormLayout()
        self.gradient_label = QLabel()
        translated(self, lambda: (
            self.gradient_label.setText(QCoreApplication.translate("AutogradPanel", "gradient")),
            self.gradient_label.setToolTip(self.gradient_box.toolTip())))
        form.addRow(self.gradient_label, self.gradient_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.backward_button)
        buttons.addWidget(self.zero_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.gradient_why)
        layout.addWidget(self.retain_graph_box)
        layout.addLayout(buttons)
        layout.addWidget(self.preview)
        layout.addStretch(1)
        self.backward_button.clicked.connect(self.backward_clicked)
        self.zero_button.clicked.connect(self.zero_grads_clicked)
        self.gradient_box.currentIndexChanged.connect(self.options_changed)
        self.retain_graph_box.toggled.connect(self.options_changed)

    def set_actions(self, tracked: bool, can_zero: bool) -> None:
        """Backward for a tensor autograd tracks; Zero grads when a leaf has a gradient."""
        self.backward_button.setEnabled(tracked)
        self.retain_graph_box.setEnabled(tracked)
        self.zero_button.setEnabled(can_zero)

    def set_gradients(self, shown: bool, choices: list[tuple[str, str]], why: str) -> None:
        """The gradient argument's ``(text, data)`` choices, shown only when one is needed."""
        with QSignalBlocker(self.gradient_box):
            self.gradient_box.clear()
            for text, data in choices:
                self.gradient_box.addItem(text, data)
        for w in (self.gradient_box, self.gradient_label, self.gradient_why):
            w.setVisible(shown)
        self.gradient_why.setText(why)

    def gradient_choice(self) -> str | None:
        """The data of the gradient picked (None when there is no choice)."""
        return self.gradient_box.currentData()

    def retains_graph(self) -> bool:
        return self.retain_graph_box.isChecked()

    def set_preview(self, text: str) -> None:
        self.preview.setText(text)


class JacobianPage(QWidget):
    """The Jacobian or Hessian of the drawn tensor with respect to an input, as a table."""

    jacobian_clicked = Signal()
    """Emitted when the user asks for the Jacobian."""
    hessian_clicked = Signal()
    """Emitted when the user asks for the Hessian."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.input_box = QComboBox()
        translated(self, lambda: self.input_box.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "The input tensor X: the drawn tensor is recomputed from it by "
            "the recipe's steps")))
        self.jacobian_button = QPushButton()
        translated(self, lambda: (
            self.jacobian_button.setText(QCoreApplication.translate("AutogradPanel",
                                                                          "Jacobian"))))
        translated(self, lambda: self.jacobian_button.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "torch.autograd.functional.jacobian: d(element i of the tensor) / "
            "d(element j of X), both flattened")))
        self.hessian_button = QPushButton()
        translated(self, lambda: (
            self.hessian_button.setText(QCoreApplication.translate("AutogradPanel",
                                                                         "Hessian"))))
        translated(self, lambda: self.hessian_button.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "torch.autograd.functional.hessian: second derivatives of a "
            "one-element tensor with respect to every pair of elements of X")))
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        translated(self, lambda: self.caption.setToolTip(QCoreApplication.translate("AutogradPanel",
                                                           "What the matrix holds")))
        self.matrix_model = TensorTableModel(self)
        self.matrix_table = small_table(self.matrix_model)
        translated(self, lambda: self.matrix_table.setToolTip(QCoreApplication.translate(
            "AutogradPanel", "The matrix; hover a cell for its full value")))
        form = QFormLayout()
        x_label = QLabel()
        translated(self, lambda: (
            x_label.setText(QCoreApplication.translate("AutogradPanel", "with respect to")),
            x_label.setToolTip(self.input_box.toolTip())))
        form.addRow(x_label, self.input_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.jacobian_button)
        buttons.addWidget(self.hessian_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.caption)
        layout.addWidget(self.matrix_table)
        layout.addStretch(1)
        self.jacobian_button.clicked.connect(self.jacobian_clicked)
        self.hessian_button.clicked.connect(self.hessian_clicked)

    def set_inputs(self, names: list[str]) -> None:
        """The tensors to differentiate with respect to; the one picked stays picked."""
        current = self.input_box.currentText()
        if names == [self.input_box.itemText(i) for i in range(self.input_box.count())] \
                and not self.matrix_model.values.size:
            return  # the same choice again (a new run of the step): nothing to redo
        with QSignalBlocker(self.input_box):
            self.input_box.clear()
            self.input_box.addItems(names)
            if current in names:
                self.input_box.setCurrentText(current)
        for w in (self.jacobian_button, self.hessian_button):
            w.setEnabled(bool(names))
        self.caption.setText("" if names else QCoreApplication.translate(
            "AutogradPanel", "Select a tensor computed from another floating point tensor."))
        self.matrix_model.clear()

    def input_name(self) -> str:
        return self.input_box.currentText()

    def show_matrix(self, matrix: TensorCopy, label: str, caption: str) -> None:
        self.caption.setText(caption)
        self.matrix_model.set_plane(matrix_of(matrix), PlaneAddress(label, 2))
        fit_rows(self.matrix_table, 12)

    def show_failure(self, caption: str) -> None:
        self.matrix_model.clear()
        self.caption.setText(caption)
