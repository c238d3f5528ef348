"""The tensor viewer's body: a tensor's facts, statistics, plane picker and values.

``ViewerView`` builds it when a tensor is first shown or one of its parts is asked for
(``ViewerView.body_parts``), or right after the window's first paint (with the heatmap):
no tensor is shown before then, and the body is hidden. Its texts keep the
``ViewerPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from widgets.common.retranslate import add_tab, translated
from widgets.common.tensor_table_model import IndexHeader, TensorTableModel
from widgets.viewer.plane_dims import PlaneDims

#: The facts shown, in order.
FACT_KEYS = ("shape", "dtype", "device", "numel", "bytes", "strides", "storage offset",
             "is_contiguous", "requires_grad", "is_leaf", "grad_fn")
_FACT_COLUMN_ROWS = 6  # facts fill a first column of this many rows, then a second


class ViewerBody:
    """The body's parts, laid out in ``widget``: ``fact_values`` (a label per fact key),
    ``stats``, ``dims``, the grid (``table_model``, ``table``) and the Grid and Heatmap
    ``tabs`` (the heatmap goes into ``heatmap_tab``'s layout). ``heatmap_numel`` is the
    size from which a tensor opens as a heatmap (the Heatmap tab's tooltip says it)."""

    def __init__(self, widget: QWidget, heatmap_numel: int):
        body = QVBoxLayout(widget)
        body.setContentsMargins(0, 0, 0, 0)
        body.addLayout(self._build_facts(widget))
        self.stats = QLabel()
        self.stats.setWordWrap(True)
        self.stats.setTextFormat(Qt.TextFormat.PlainText)
        self.stats.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        translated(widget, lambda: self.stats.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "Statistics of the finite values: NaN and ±inf are left out and "
            "counted instead. std is the sample standard deviation.")))
        body.addWidget(self.stats)
        self.dims = PlaneDims()
        body.addWidget(self.dims)

        self.table_model = TensorTableModel(widget)
        self.table = QTableView()
        self.table.setHorizontalHeader(IndexHeader(Qt.Orientation.Horizontal, self.table))
        self.table.setVerticalHeader(IndexHeader(Qt.Orientation.Vertical, self.table))
        self.table.setModel(self.table_model)
        translated(widget, lambda: self.table.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "The plane's values; hover a cell for its full value")))
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.horizontalHeader().setDefaultSectionSize(72)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.heatmap_tab = QWidget()
        QVBoxLayout(self.heatmap_tab).setContentsMargins(0, 0, 0, 0)
        self.tabs = tabs = QTabWidget()
        add_tab(tabs, self.table, lambda: QCoreApplication.translate("ViewerPanel", "Grid"))
        add_tab(tabs, self.heatmap_tab,
                lambda: QCoreApplication.translate("ViewerPanel", "Heatmap"))
        translated(widget, lambda: (
            tabs.setTabToolTip(0, QCoreApplication.translate("ViewerPanel",
                                                             "Every value as a number"))))
        translated(widget, lambda: tabs.setTabToolTip(1, QCoreApplication.translate(
            "ViewerPanel", "Values as colours; the default above {n:,} elements").format(
            n=heatmap_numel)))
        # the values keep ten lines of room to be read (the window still fits 1366x768)
        tabs.setMinimumHeight(10 * self.table.fontMetrics().height())
        body.addWidget(tabs, 1)

    def _build_facts(self, widget: QWidget) -> QHBoxLayout:
        row = QHBoxLayout()
        self.fact_values: dict[str, QLabel] = {}
        names: dict[str, QLabel] = {}
        forms = [QFormLayout(), QFormLayout()]
        for i, key in enumerate(FACT_KEYS):
            names[key] = QLabel()
            value = QLabel()
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            forms[i // _FACT_COLUMN_ROWS].addRow(names[key], value)
            self.fact_values[key] = value
        translated(widget, lambda: self._set_fact_texts(names))
        for form in forms:
            form.setHorizontalSpacing(8)
            form.setVerticalSpacing(2)
            row.addLayout(form, 1)
        return row

    def _set_fact_texts(self, names: dict[str, QLabel]) -> None:
        help_texts = {
            "shape": QCoreApplication.translate("ViewerPanel", "Size of each dimension"),
            "dtype": QCoreApplication.translate("ViewerPanel", "Element type"),
            "device": QCoreApplication.translate("ViewerPanel", "Where the elements live"),
            "numel": QCoreApplication.translate("ViewerPanel", "Number of elements"),
            "bytes": QCoreApplication.translate(
                "ViewerPanel", "numel × element size: the memory the elements take"),
            "strides": QCoreApplication.translate(
                "ViewerPanel", "Elements to skip in storage to step one along each dimension"),
            "storage offset": QCoreApplication.translate(
                "ViewerPanel", "Where the tensor's first element sits in its storage"),
            "is_contiguous": QCoreApplication.translate(
                "ViewerPanel", "Whether the elements lie in storage in row-major order"),
            "requires_grad": QCoreApplication.translate(
                "ViewerPanel", "Whether autograd records operations on it"),
            "is_leaf": QCoreApplication.translate(
                "ViewerPanel", "Whether it was made by the user rather than by an operation"),
            "grad_fn": QCoreApplication.translate(
                "ViewerPanel", "The autograd node that made it, if any"),
        }
        for key, label in names.items():
            label.setText(QCoreApplication.translate("ViewerPanel", "{fact}:").format(fact=key))
            label.setToolTip(help_texts[key])
            self.fact_values[key].setToolTip(help_texts[key])
