"""The tensor viewer: the selected step's value, its facts, its statistics and its elements."""

from __future__ import annotations

from typing import Any

import torch
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.explain.tensor_info import plane, plane_array, tensor_facts, tensor_stats
from app.recipe.document import Document
from app.recipe.evaluator import StepResult
from app.recipe.writer import write_step
from widgets.common.background import JobError, start_job
from widgets.common.doc_links import listen
from widgets.common.layout_fence import fenced_content
from widgets.common.tensor_table_model import IndexHeader, PlaneAddress, TensorTableModel
from widgets.common.theme import error_style, set_style_sheet
from widgets.viewer.heatmap_view import HeatmapView

#: Above this many elements a tensor opens as a heatmap rather than a grid.
HEATMAP_NUMEL = 100_000
#: Above this many elements the statistics are taken off the GUI thread: the tensor shows
#: at once, and its statistics follow.
SYNC_STATS_NUMEL = 1 << 20
#: Longest repr shown for a value that is not a tensor, and longest code line.
REPR_LIMIT = 1_000
CODE_LIMIT = 160
_MODES = ("grid", "heatmap")
_FACT_COLUMN_ROWS = 6  # facts fill a first column of this many rows, then a second
_INDEX_BOXES_PER_LINE = 4


class ViewerPanel(QWidget):
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
        self._document = document
        self._tensor: torch.Tensor | None = None
        self._name = ""
        self._stats_generation = 0  # a newer tensor makes older statistics stale
        self._rows_dim, self._cols_dim = 0, 1
        self._fixed: dict[int, int] = {}
        self._dims_ndim = -1  # ndim the dim controls were built for
        self._preferred_mode = "grid"
        self._auto_key: tuple[Any, ...] | None = None
        self._heatmap_stale = False
        self._build()
        self._set_document_connected(True)
        self._refresh()

    # -- public accessors ------------------------------------------------------------
    @property
    def table_model(self) -> TensorTableModel:
        return self._table_model

    @property
    def table_view(self) -> QTableView:
        return self._table

    @property
    def heatmap(self) -> HeatmapView:
        return self._heatmap

    @property
    def mode(self) -> str:
        """``"grid"`` or ``"heatmap"``."""
        return _MODES[self._tabs.currentIndex()]

    def set_mode(self, mode: str) -> None:
        """Switch to ``"grid"`` or ``"heatmap"``, as the user would."""
        self._tabs.setCurrentIndex(_MODES.index(mode))

    @property
    def rows_dim_box(self) -> QComboBox:
        return self._rows_box

    @property
    def cols_dim_box(self) -> QComboBox:
        return self._cols_box

    def index_box(self, dim: int) -> QSpinBox:
        """The spin box fixing the index of dimension ``dim`` (hidden for the shown two)."""
        return self._index_boxes[dim]

    @property
    def plane_dims(self) -> tuple[int, int, dict[int, int]]:
        """The rows dimension, the columns dimension and the other dimensions' indices."""
        return self._rows_dim, self._cols_dim, dict(self._fixed)

    def title_text(self) -> str:
        return self._title.text()

    def status_text(self) -> str:
        return self._status.text()

    def facts_text(self) -> str:
        """The facts as ``label: value`` lines."""
        return "\n".join(f"{k}: {v.text()}" for k, v in self._fact_values.items())

    def stats_text(self) -> str:
        return self._stats.text().replace("\N{NO-BREAK SPACE}", " ")

    def dims_visible(self) -> bool:
        return not self._dims.isHidden()

    def body_visible(self) -> bool:
        """Whether facts and values are shown (only for a tensor)."""
        return not self._body.isHidden()

    # -- building --------------------------------------------------------------------
    def _build(self) -> None:
        self._title = QLabel()
        font = self._title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self._title.setFont(font)
        self._title.setToolTip(self.tr("The selected step"))
        self._title.setTextFormat(Qt.TextFormat.PlainText)
        self._code = QLabel()
        self._code.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._code.setToolTip(self.tr("The step's code"))
        self._code.setWordWrap(True)  # a long literal must not widen the panel
        self._status = QLabel()
        self._status.setWordWrap(True)
        self._status.setTextFormat(Qt.TextFormat.PlainText)  # torch messages may hold '<'
        self._code.setTextFormat(Qt.TextFormat.PlainText)
        self._status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._status.setToolTip(self.tr("What the step produced"))

        self._body = QWidget()
        body = QVBoxLayout(self._body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addLayout(self._build_facts())
        self._stats = QLabel()
        self._stats.setWordWrap(True)
        self._stats.setTextFormat(Qt.TextFormat.PlainText)
        self._stats.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._stats.setToolTip(self.tr(
            "Statistics of the finite values: NaN and ±inf are left out and counted instead. "
            "std is the sample standard deviation."))
        body.addWidget(self._stats)
        self._dims = self._build_dims()
        body.addWidget(self._dims)

        self._table_model = TensorTableModel(self)
        self._table = QTableView()
        self._table.setHorizontalHeader(IndexHeader(Qt.Orientation.Horizontal, self._table))
        self._table.setVerticalHeader(IndexHeader(Qt.Orientation.Vertical, self._table))
        self._table.setModel(self._table_model)
        self._table.setToolTip(self.tr("The plane's values; hover a cell for its full value"))
        self._table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self._table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self._table.horizontalHeader().setDefaultSectionSize(72)
        self._table.verticalHeader().setDefaultSectionSize(
            self._table.fontMetrics().height() + 6)
        self._heatmap = HeatmapView()
        self._heatmap.setToolTip(self.tr("The plane as colours; hover for a cell's value"))
        self._tabs = QTabWidget()
        self._tabs.addTab(self._table, self.tr("Grid"))
        self._tabs.addTab(self._heatmap, self.tr("Heatmap"))
        self._tabs.setTabToolTip(0, self.tr("Every value as a number"))
        self._tabs.setTabToolTip(1, self.tr("Values as colours; the default above "
                                            "{n:,} elements").format(n=HEATMAP_NUMEL))
        self._tabs.currentChanged.connect(self._on_view_mode_changed)
        body.addWidget(self._tabs, 1)

        # The code and statistics lines change on every edit: behind the fence they no
        # longer re-lay out and repaint the window's central tabs each time.
        layout = QVBoxLayout(fenced_content(self))
        layout.addWidget(self._title)
        layout.addWidget(self._code)
        layout.addWidget(self._status)
        layout.addWidget(self._body, 1)
        self._stretch = QWidget()  # takes the space the body leaves when it is hidden
        layout.addWidget(self._stretch, 1)

    def _build_facts(self) -> QHBoxLayout:
        help_texts = {
            "shape": self.tr("Size of each dimension"),
            "dtype": self.tr("Element type"),
            "device": self.tr("Where the elements live"),
            "numel": self.tr("Number of elements"),
            "bytes": self.tr("numel × element size: the memory the elements take"),
            "strides": self.tr("Elements to skip in storage to step one along each dimension"),
            "storage offset": self.tr("Where the tensor's first element sits in its storage"),
            "is_contiguous": self.tr("Whether the elements lie in storage in row-major order"),
            "requires_grad": self.tr("Whether autograd records operations on it"),
            "is_leaf": self.tr("Whether it was made by the user rather than by an operation"),
            "grad_fn": self.tr("The autograd node that made it, if any"),
        }
        row = QHBoxLayout()
        self._fact_values: dict[str, QLabel] = {}
        forms = [QFormLayout(), QFormLayout()]
        for i, (key, tip) in enumerate(help_texts.items()):
            label, value = QLabel(self.tr("{fact}:").format(fact=key)), QLabel()
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            for w in (label, value):
                w.setToolTip(tip)
            forms[i // _FACT_COLUMN_ROWS].addRow(label, value)
            self._fact_values[key] = value
        for form in forms:
            form.setHorizontalSpacing(8)
            form.setVerticalSpacing(2)
            row.addLayout(form, 1)
        return row

    def _build_dims(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._rows_box, self._cols_box = QComboBox(), QComboBox()
        self._rows_box.setToolTip(self.tr("The dimension shown down the rows"))
        self._cols_box.setToolTip(self.tr("The dimension shown across the columns"))
        self._rows_box.currentIndexChanged.connect(self._on_view_rows_dim_changed)
        self._cols_box.currentIndexChanged.connect(self._on_view_cols_dim_changed)
        pick = QHBoxLayout()
        for text, combo in ((self.tr("Rows:"), self._rows_box),
                            (self.tr("Columns:"), self._cols_box)):
            label = QLabel(text)
            label.setToolTip(combo.toolTip())
            pick.addWidget(label)
            pick.addWidget(combo)
        pick.addStretch(1)
        layout.addLayout(pick)
        self._index_grid = QGridLayout()
        self._index_grid.setContentsMargins(0, 0, 0, 0)
        self._index_grid.setColumnStretch(_INDEX_BOXES_PER_LINE, 1)
        layout.addLayout(self._index_grid)
        self._index_boxes: list[QSpinBox] = []
        self._index_cells: list[QWidget] = []
        box.hide()
        return box

    def _rebuild_index_boxes(self, ndim: int) -> None:
        """Make one combo entry and one index spin box per dimension; only when ndim changes."""
        for cell in self._index_cells:
            self._index_grid.removeWidget(cell)
            cell.deleteLater()
        self._index_boxes, self._index_cells = [], []
        with QSignalBlocker(self._rows_box), QSignalBlocker(self._cols_box):
            self._rows_box.clear()
            self._cols_box.clear()
            for d in range(ndim):
                self._rows_box.addItem("", d)
                self._cols_box.addItem("", d)
        for d in range(ndim):
            cell = QWidget(self._dims)
            row = QHBoxLayout(cell)
            row.setContentsMargins(0, 0, 8, 0)
            label = QLabel(self.tr("dim {d}:").format(d=d))
            spin = QSpinBox()
            spin.setToolTip(self.tr("The index of dimension {d} that the plane is taken at")
                            .format(d=d))
            label.setToolTip(spin.toolTip())
            spin.valueChanged.connect(self._on_view_index_changed)
            row.addWidget(label)
            row.addWidget(spin)
            self._index_cells.append(cell)
            self._index_boxes.append(spin)
        self._layout_index_boxes()
        self._dims_ndim = ndim

    def _layout_index_boxes(self) -> None:
        """Show the index boxes of the dimensions not on screen, a few to a line."""
        shown = (self._rows_dim, self._cols_dim)
        slot = 0
        for d, cell in enumerate(self._index_cells):
            self._index_grid.removeWidget(cell)
            cell.setVisible(d not in shown)
            if d not in shown:
                self._index_grid.addWidget(cell, slot // _INDEX_BOXES_PER_LINE,
                                           slot % _INDEX_BOXES_PER_LINE)
                slot += 1

    # -- wiring ----------------------------------------------------------------------
    def _set_document_connected(self, connect: bool) -> None:
        """Connect to (or disconnect from) the document: the one place the panel listens."""
        doc = self._document
        links = ((doc.evaluated, self._on_model_evaluated),
                 (doc.selection_changed, self._on_model_selection_changed))
        listen(self, links, connect)

    def _on_model_evaluated(self, run: object) -> None:
        self._refresh()

    def _on_model_selection_changed(self, index: int | None) -> None:
        self._refresh()

    # -- showing the selected step ---------------------------------------------------------
    def _selected_result(self) -> StepResult | None:
        index = self._document.selected
        results = self._document.run.results
        if index is None or not 0 <= index < len(results):
            return None
        return results[index]

    def _refresh(self) -> None:
        result = self._selected_result()
        if result is None:
            self._show_header("", "", self.tr("Select a step to see its value."))
            self._show_no_tensor()
            return
        step = result.step
        code = write_step(step)
        self._code.setToolTip(code if len(code) > CODE_LIMIT else self.tr("The step's code"))
        if len(code) > CODE_LIMIT:
            code = code[:CODE_LIMIT] + " …"
        if result.status == "error":
            self._show_header(step.label, code,
                              self.tr("{kind}: {message}").format(kind=result.error_type,
                                                                  message=result.error),
                              error=True)
        elif result.status == "blocked":
            self._show_header(step.label, code, self.tr(
                "Not run: it reads '{name}', which failed.").format(name=result.blocked_by))
        elif result.status == "skipped":
            self._show_header(step.label, code,
                              self.tr("Not run: an earlier step stopped the run."))
        elif isinstance(result.value, torch.Tensor):
            self._show_header(step.label, code, "")
            self._show_tensor(result.value, step.name or "value")
            return
        elif result.value is None:
            self._show_header(step.label, code, self.tr("This step gives no value."))
        else:
            text = repr(result.value)
            if len(text) > REPR_LIMIT:
                text = text[:REPR_LIMIT] + " …"
            self._show_header(step.label, code, self.tr("{type}: {value}").format(
                type=type(result.value).__name__, value=text))
        self._show_no_tensor()

    def _show_header(self, title: str, code: str, status: str, error: bool = False) -> None:
        self._title.setText(title)
        self._code.setText(code)
        self._code.setVisible(bool(code))
        self._status.setText(status)
        self._status.setVisible(bool(status))
        set_style_sheet(self._status, error_style() if error else "")

    def _show_no_tensor(self) -> None:
        self._tensor = None
        self._stats_generation += 1
        self._auto_key = None
        self._table_model.clear()
        self._heatmap.clear_plane()
        self._body.hide()
        self._stretch.show()

    def _show_tensor(self, t: torch.Tensor, name: str) -> None:
        self._tensor, self._name = t.detach(), name
        self._body.show()
        self._stretch.hide()
        for key, value in tensor_facts(t):
            self._fact_values[key].setText(value)
        self._stats_generation += 1
        if t.numel() > SYNC_STATS_NUMEL and t.device.type != "meta":
            self._stats.setText(self.tr("Statistics: computing…"))
            start_job(tensor_stats, t, on_done=self._on_view_stats_done,
                      key=self._stats_generation)
        else:
            self._show_stats(tensor_stats(t))
        self._sync_dims(t)
        big = t.numel() > HEATMAP_NUMEL
        auto_key = (self._document.selected, name, big)
        if auto_key != self._auto_key:  # a new step, or one that grew past the threshold
            self._auto_key = auto_key
            with QSignalBlocker(self._tabs):
                self.set_mode("heatmap" if big else self._preferred_mode)
        self._show_plane()

    def _show_stats(self, stats: list[tuple[str, str]]) -> None:
        # no-break spaces keep each label with its value when the line wraps
        self._stats.setText("   ".join(f"{k}\N{NO-BREAK SPACE}{v}" for k, v in stats))

    def _on_view_stats_done(self, generation: object, stats: object) -> None:
        if generation != self._stats_generation:
            return  # another tensor is shown by now
        if isinstance(stats, JobError):
            self._stats.setText(self.tr("Statistics could not be taken: {message}").format(
                message=stats.message))
        else:
            self._show_stats(stats)

    def stats_pending(self) -> bool:
        """Whether the shown tensor's statistics are still being computed."""
        return self._stats.text() == self.tr("Statistics: computing…")

    def _sync_dims(self, t: torch.Tensor) -> None:
        """Fit the dim controls to ``t``: rebuilt when ndim changes, else only re-ranged."""
        if t.ndim != self._dims_ndim:
            self._rows_dim, self._cols_dim = max(t.ndim - 2, 0), max(t.ndim - 1, 1)
            self._fixed = {}
            self._rebuild_index_boxes(t.ndim)
        self._fixed = {d: min(self._fixed.get(d, 0), max(t.shape[d] - 1, 0))
                       for d in range(t.ndim) if d not in (self._rows_dim, self._cols_dim)}
        for combo in (self._rows_box, self._cols_box):
            with QSignalBlocker(combo):
                for d in range(t.ndim):
                    combo.setItemText(d, self.tr("dim {d} (size {n})").format(d=d, n=t.shape[d]))
        with QSignalBlocker(self._rows_box), QSignalBlocker(self._cols_box):
            self._rows_box.setCurrentIndex(self._rows_dim)
            self._cols_box.setCurrentIndex(self._cols_dim)
        for d, spin in enumerate(self._index_boxes):
            with QSignalBlocker(spin):
                spin.setRange(0, max(t.shape[d] - 1, 0))
                spin.setValue(self._fixed.get(d, 0))
        self._dims.setVisible(t.ndim >= 3)

    def _show_plane(self) -> None:
        t = self._tensor
        if t is None:
            return
        address = PlaneAddress(self._name, t.ndim, self._rows_dim, self._cols_dim,
                               dict(self._fixed))
        try:
            values = plane_array(plane(t, self._rows_dim, self._cols_dim, self._fixed))
        except (IndexError, RuntimeError, NotImplementedError, TypeError):
            # No plane to show: a fixed dimension of size 0, or a tensor without data (meta).
            self._table_model.clear()
            self._heatmap.clear_plane()
            return
        self._table_model.set_plane(values, address)
        if t.ndim >= 2:
            self._heatmap.set_axis_labels(self.tr("dim {d}").format(d=self._rows_dim),
                                          self.tr("dim {d}").format(d=self._cols_dim))
        else:
            self._heatmap.set_axis_labels("", self.tr("dim 0") if t.ndim else "")
        self._heatmap_stale = True
        if self.mode == "heatmap":
            self._sync_heatmap()

    def _sync_heatmap(self) -> None:
        """Draw the heatmap only while it is the view shown."""
        if self._heatmap_stale:
            self._heatmap_stale = False
            self._heatmap.set_plane(self._table_model.values)

    # -- user actions ----------------------------------------------------------------
    def _on_view_mode_changed(self, tab: int) -> None:
        self._preferred_mode = _MODES[tab]
        if self._preferred_mode == "heatmap":
            self._sync_heatmap()

    def _on_view_rows_dim_changed(self, combo_index: int) -> None:
        self._pick_dims(rows=combo_index)

    def _on_view_cols_dim_changed(self, combo_index: int) -> None:
        self._pick_dims(cols=combo_index)

    def _on_view_index_changed(self, value: int) -> None:
        self._fixed = {d: spin.value() for d, spin in enumerate(self._index_boxes)
                       if d in self._fixed}
        self._show_plane()

    def _pick_dims(self, rows: int | None = None, cols: int | None = None) -> None:
        """Show ``rows`` x ``cols``; picking the dimension the other axis shows swaps the two."""
        if self._tensor is None or (rows is not None and rows < 0) or (cols is not None
                                                                        and cols < 0):
            return
        old_rows, old_cols = self._rows_dim, self._cols_dim
        new_rows = old_rows if rows is None else rows
        new_cols = old_cols if cols is None else cols
        if new_rows == new_cols:
            new_rows, new_cols = (new_rows, old_rows) if rows is not None else (old_cols,
                                                                                new_cols)
        self._rows_dim, self._cols_dim = new_rows, new_cols
        self._fixed = {d: self._index_boxes[d].value() for d in range(self._tensor.ndim)
                       if d not in (new_rows, new_cols)}
        with QSignalBlocker(self._rows_box), QSignalBlocker(self._cols_box):
            self._rows_box.setCurrentIndex(new_rows)
            self._cols_box.setCurrentIndex(new_cols)
        self._layout_index_boxes()
        self._show_plane()


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv)
    document = Document()
    document.open_welcome()
    panel = ViewerPanel(document)
    panel.resize(560, 720)
    panel.setWindowTitle("Tensor viewer")
    panel.show()
    document.select_name("cube")
    sys.exit(app.exec())
