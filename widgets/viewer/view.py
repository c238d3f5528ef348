"""The tensor viewer's passive view: a step's header, a tensor's facts, statistics and values.

``ViewerView`` emits what the user does and shows what it is given; it never reads the
document. ``widgets.viewer.controller.ViewerController`` drives it, and
``widgets.viewer.panel.ViewerPanel`` puts the two together. Its texts keep the
``ViewerPanel`` translation context.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from widgets.common.bounded_text import MAX_MESSAGE_LINE, bounded
from widgets.common.layout_fence import fenced_content
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, set_style_sheet
from widgets.viewer.iteration_picker import IterationPicker

if TYPE_CHECKING:
    from widgets.common.tensor_table_model import PlaneAddress, TensorTableModel
    from widgets.viewer.body import ViewerBody
    from widgets.viewer.heatmap_view import HeatmapView

#: Above this many elements a tensor opens as a heatmap rather than a grid.
HEATMAP_NUMEL = 100_000
#: The most cells a heatmap asks the kernel for (about 512x512): more than it can show
#: on a screen, a quarter of a 1000x1000 plane's bytes.
HEATMAP_CELLS = 1 << 18
MODES = ("grid", "heatmap")


class ViewerView(QWidget):
    """The selected step's title, code and status; for a tensor, its facts, statistics, plane
    picker and values as a grid or a heatmap."""

    mode_changed = Signal(str)
    """Emitted with ``"grid"`` or ``"heatmap"`` when the user switches tabs."""
    plane_changed = Signal()
    """Emitted when the user picks another plane of the tensor (``plane_dims`` has it)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        #: The facts' and statistics' texts written inside ``batched``: only the last of
        #: each is set on its label, at the end.
        self._batch: dict[QLabel, str] | None = None
        self._title = QLabel()
        font = self._title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self._title.setFont(font)
        translated(self, lambda: (
            self._title.setToolTip(QCoreApplication.translate("ViewerPanel", "The selected step"))))
        self._title.setTextFormat(Qt.TextFormat.PlainText)
        self._code = QLabel()
        self._code.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        translated(self, lambda: (
            self._code.setToolTip(QCoreApplication.translate("ViewerPanel", "The step's code"))))
        self._code.setWordWrap(True)  # a long literal must not widen the panel
        self._status = QLabel()
        self._status.setWordWrap(True)
        self._status.setTextFormat(Qt.TextFormat.PlainText)  # torch messages may hold '<'
        self._code.setTextFormat(Qt.TextFormat.PlainText)
        self._status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        translated(self, lambda: self._status.setToolTip(QCoreApplication.translate("ViewerPanel",
                                                           "What the step produced")))

        # The body (a tensor's facts, statistics, plane and values) is built when a tensor is
        # first shown or a part of it asked for (``body_parts``), or right after the
        # window's first paint with the heatmap: hidden until then, it shows nothing.
        self._body = QWidget()
        self._body.hide()
        self._parts: ViewerBody | None = None
        self._body_hooks: list[Callable[[], object]] = []  # ``when_body_built``'s
        # The heatmap (pyqtgraph, and its plot) is built when first shown or asked for, or
        # right after the window's first paint (``build_heatmap``): the grid shows first.
        self._heatmap: HeatmapView | None = None
        self._heatmap_labels: tuple[str, str] | None = None  # (rows, columns) axes

        # The code and statistics lines change on every edit: behind the fence they no
        # longer re-lay out and repaint the window's central tabs each time.
        self._note = QLabel()
        translated(self, lambda: self._note.setText(QCoreApplication.translate(
            "ViewerPanel", "The code is not Python yet: what shows here is from the last "
            "text that read as Python.")))
        self._note.setWordWrap(True)
        set_style_sheet(self._note, error_style())
        self._note.hide()
        layout = QVBoxLayout(fenced_content(self))
        layout.addWidget(self._note)
        layout.addWidget(self._title)
        layout.addWidget(self._code)
        layout.addWidget(self._status)
        self.iterations = IterationPicker()
        layout.addWidget(self.iterations)
        self._text = QPlainTextEdit()  # what the step printed, a module as print shows it
        self._text.setReadOnly(True)
        self._text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        translated(self, lambda: self._text.setToolTip(QCoreApplication.translate(
            "ViewerPanel", "What this step printed, and its modules as print() shows them; "
            "the Output pane keeps the whole run's output")))
        self._text.setMinimumHeight(4 * self._text.fontMetrics().height())
        self._text.hide()
        layout.addWidget(self._text, 1)
        layout.addWidget(self._body, 2)
        self._stretch = QWidget()  # takes the space the body leaves when it is hidden
        layout.addWidget(self._stretch, 1)

    # -- texts written together ------------------------------------------------------
    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        """Inside, a fact or the statistics written more than once reach their label once,
        as last written: a tensor's facts shown "…" while asked for, then answered in the
        same call (a run's answers come with it), re-lay out and repaint nothing that ends
        the same. Nothing is painted inside, so no "…" would have been seen."""
        if self._batch is not None:  # (already inside one)
            yield
            return
        self._batch = {}
        try:
            yield
        finally:
            batch, self._batch = self._batch, None
            for label, text in batch.items():
                label.setText(text)

    def _set_text(self, label: QLabel, text: str) -> None:
        if self._batch is None:
            label.setText(text)
        else:
            self._batch[label] = text

    def _text_of(self, label: QLabel) -> str:
        """``label``'s text, as written last (inside ``batched`` too)."""
        if self._batch is not None and label in self._batch:
            return self._batch[label]
        return label.text()

    # -- the body, built on first need ------------------------------------------------
    def body_parts(self) -> ViewerBody:
        """The body's parts (``widgets.viewer.body``), built now if they were not: at the
        display scale (presenter mode's), then ``when_body_built``'s callbacks run."""
        if self._parts is None:
            from widgets.common.scale import display_scale, rescale_widgets
            from widgets.viewer.body import ViewerBody

            parts = self._parts = ViewerBody(self._body, HEATMAP_NUMEL)
            parts.dims.changed.connect(self.plane_changed)
            parts.tabs.currentChanged.connect(self._on_view_tab_changed)
            if display_scale().value != 1.0:
                rescale_widgets(self._body, display_scale().value)
            hooks, self._body_hooks = self._body_hooks, []
            for hook in hooks:
                hook()
        return self._parts

    def when_body_built(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the body is built (now, if it is)."""
        if self._parts is None:
            self._body_hooks.append(callback)
        else:
            callback()

    _fact_values = property(lambda self: self.body_parts().fact_values)
    _stats = property(lambda self: self.body_parts().stats)
    _dims = property(lambda self: self.body_parts().dims)
    _table_model = property(lambda self: self.body_parts().table_model)
    _table = property(lambda self: self.body_parts().table)
    _heatmap_tab = property(lambda self: self.body_parts().heatmap_tab)
    _tabs = property(lambda self: self.body_parts().tabs)

    # -- public accessors ------------------------------------------------------------
    @property
    def table_model(self) -> TensorTableModel:
        return self._table_model

    @property
    def table_view(self) -> QTableView:
        return self._table

    @property
    def heatmap(self) -> HeatmapView:
        """The heatmap, built now if it was not (``build_heatmap``)."""
        return self.build_heatmap()

    @property
    def heatmap_tab(self) -> QWidget:
        """The Heatmap tab's page: it holds the heatmap once built."""
        return self._heatmap_tab

    def heatmap_built(self) -> bool:
        return self._heatmap is not None

    def build_heatmap(self) -> HeatmapView:
        """Build the heatmap in its tab, if it is not built yet; the heatmap."""
        if self._heatmap is None:
            from widgets.viewer.heatmap_view import HeatmapView

            heatmap = self._heatmap = HeatmapView()
            translated(heatmap, lambda: heatmap.setToolTip(QCoreApplication.translate(
                "ViewerPanel", "The plane as colours; hover for a cell's value")))
            if self._heatmap_labels is not None:
                heatmap.set_axis_labels(*self._heatmap_labels)
            self._heatmap_tab.layout().addWidget(heatmap)
        return self._heatmap

    @property
    def mode(self) -> str:
        """``"grid"`` or ``"heatmap"``."""
        return MODES[self._tabs.currentIndex()]

    def set_mode(self, mode: str) -> None:
        """Switch to ``"grid"`` or ``"heatmap"``, as the user would."""
        if mode == "heatmap":
            self.build_heatmap()
        self._tabs.setCurrentIndex(MODES.index(mode))

    @property
    def rows_dim_box(self) -> QComboBox:
        return self._dims.rows_box

    @property
    def cols_dim_box(self) -> QComboBox:
        return self._dims.cols_box

    def index_box(self, dim: int) -> QSpinBox:
        """The spin box fixing the index of dimension ``dim`` (hidden for the shown two)."""
        return self._dims.index_box(dim)

    @property
    def plane_dims(self) -> tuple[int, int, dict[int, int]]:
        """The rows dimension, the columns dimension and the other dimensions' indices."""
        return self._dims.plane

    def code_text(self) -> str:
        """The step's code as shown (``bounded``; its breakable marks taken out)."""
        return self._code.text().replace("\u200b", "")

    def title_text(self) -> str:
        return self._title.text()

    def status_text(self) -> str:
        return self._status.text()

    def facts_text(self) -> str:
        """The facts as ``label: value`` lines."""
        return "\n".join(f"{k}: {self._text_of(v)}" for k, v in self._fact_values.items())

    def stats_text(self) -> str:
        return self._text_of(self._stats).replace("\N{NO-BREAK SPACE}", " ")

    def stats_pending(self) -> bool:
        """Whether the shown tensor's statistics are still being computed."""
        return self._text_of(self._stats) == QCoreApplication.translate("ViewerPanel",
                                                                "Statistics: computing…")

    def dims_visible(self) -> bool:
        return not self._dims.isHidden()

    def body_visible(self) -> bool:
        """Whether facts and values are shown (only for a tensor)."""
        return not self._body.isHidden()

    # -- setters ---------------------------------------------------------------------
    def show_header(self, title: str, code: str, status: str, error: bool = False) -> None:
        """The step's title, its code (cut short, in full in the tooltip) and its status."""
        if code:
            short = bounded(code)
            self._code.setToolTip(bounded(code, 40, 200) if short != code else
                                  QCoreApplication.translate("ViewerPanel", "The step's code"))
            code = short
        self._title.setText(bounded(title, 1))
        self._code.setText(code)
        self._code.setVisible(bool(code))
        self._status.setText(bounded(status, 40, MAX_MESSAGE_LINE))
        self._status.setVisible(bool(status))
        set_style_sheet(self._status, error_style() if error else "")

    def show_unparsed(self, unparsed: bool) -> None:
        """Say (or stop saying) that the code on screen is not Python yet."""
        self._note.setVisible(unparsed)

    def note_visible(self) -> bool:
        return not self._note.isHidden()

    def note_text(self) -> str:
        return self._note.text()

    def show_step_text(self, text: str) -> None:
        """Show ``text`` (what the step printed, its modules' text) under the header; ""
        hides it."""
        if text != self._text.toPlainText():
            self._text.setPlainText(text)
        self._text.setVisible(bool(text))
        self._stretch.setVisible(self._body.isHidden() and not text)

    def step_text(self) -> str:
        return self._text.toPlainText() if not self._text.isHidden() else ""

    def step_text_visible(self) -> bool:
        return not self._text.isHidden()

    def show_no_tensor(self) -> None:
        """Hide the facts and values: the step gave no tensor."""
        if self._parts is not None:  # (an unbuilt body holds none)
            self._dims.clear_shape()
            self.clear_plane()
        self._body.hide()
        self._stretch.setVisible(self._text.isHidden())

    def show_tensor(self, facts: list[tuple[str, str]]) -> None:
        """Show the body, with a tensor's ``facts``; a fact not given shows as not known
        yet ("…"), never as the last tensor's."""
        self._body.show()
        self._stretch.hide()
        given = dict(facts)
        for key, label in self._fact_values.items():
            self._set_text(label, given.get(key, "…"))

    def set_shape(self, shape: tuple[int, ...]) -> None:
        """Fit the plane picker to a tensor of ``shape``."""
        self._dims.set_shape(shape)

    def show_mode(self, mode: str) -> None:
        """Switch to ``"grid"`` or ``"heatmap"`` without emitting ``mode_changed``."""
        with QSignalBlocker(self._tabs):
            self.set_mode(mode)

    def show_stats(self, stats: list[tuple[str, str]]) -> None:
        # no-break spaces keep each label with its value when the line wraps
        self._set_text(self._stats, "   ".join(f"{k}\N{NO-BREAK SPACE}{v}" for k, v in stats))

    def show_stats_pending(self) -> None:
        self._set_text(self._stats, QCoreApplication.translate("ViewerPanel",
                                                               "Statistics: computing…"))

    def show_stats_failed(self, message: str) -> None:
        self._set_text(self._stats, QCoreApplication.translate(
            "ViewerPanel", "Statistics could not be taken: {message}").format(message=message))

    def clear_plane(self) -> None:
        self._table_model.clear()
        if self._heatmap is not None:
            self._heatmap.clear_plane()

    def show_plane(self, values: np.ndarray, address: PlaneAddress) -> None:
        """The plane's values in the grid, and the heatmap's axes named; the heatmap itself
        is drawn by ``draw_heatmap``, only while it is shown."""
        self._table_model.set_plane(values, address)
        if self._table.isVisible():  # the headers' new sections laid out now, not on their
            for header in (self._table.horizontalHeader(), self._table.verticalHeader()):
                header.executeDelayedItemsLayout()  # timer: a second frame after this one
        if address.ndim >= 2:
            self._heatmap_labels = (
                QCoreApplication.translate("ViewerPanel", "dim {d}").format(d=address.rows_dim),
                QCoreApplication.translate("ViewerPanel", "dim {d}").format(d=address.cols_dim))
        else:
            self._heatmap_labels = ("", QCoreApplication.translate("ViewerPanel", "dim 0")
                                    if address.ndim else "")
        if self._heatmap is not None:
            self._heatmap.set_axis_labels(*self._heatmap_labels)

    def draw_heatmap(self) -> None:
        self.heatmap.set_plane(self._table_model.values, self._table_model.address.step)

    def heatmap_image_coming(self) -> None:
        """The heatmap shows a sample: the kernel's image of the plane is on its way."""
        self.heatmap.expect_image()

    def show_heatmap_image(self, image: np.ndarray, levels: tuple[float, float],
                           block: tuple[int, int]) -> None:
        """The kernel's image of a big plane: the mean of each ``block`` of its cells."""
        self.heatmap.set_image(image, levels, block)

    def heatmap_image_failed(self, message: str) -> None:
        self.heatmap.image_failed(message)

    def _on_view_tab_changed(self, tab: int) -> None:
        if MODES[tab] == "heatmap":
            self.build_heatmap()
        self.mode_changed.emit(MODES[tab])
