"""The storage inspector: which recipe tensors share memory (views) and which own it (copies).

A tree groups the recipe's tensors by the storage they read, with ``data_ptr``, storage
offset and strides. Selecting one shows it next to the other tensor of its memory (its
base, or its first view), with the base's cells that the view reads lit up: after an
in-place edit through a view (``v.add_(1)``) the base shows the change too. The map and
the two tensors shown come from the kernel (its ``storage`` query): small copies, with
the strides they have there.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue, kernel_run_id
from app.tensor_copy import TensorCopy, copy_of
from protocol.storage import StorageEntry, partner
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.layout_fence import fenced_content
from widgets.common.retranslate import translated
from widgets.explain.explained_grid import TensorCard

_NAME_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ("tensor", "memory", "shape", "strides", "offset", "data_ptr")
MAX_TREE_HEIGHT = 280


def _tuple(values: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


def group_by_storage(entries: list[StorageEntry]) -> list[list[StorageEntry]]:
    """Entries on the same storage together, groups in the order their base appears."""
    groups: dict[int, list[StorageEntry]] = {}
    for e in entries:
        groups.setdefault(e.storage_ptr, []).append(e)
    return list(groups.values())


class StorageView(FollowsDocument, QWidget):
    """The recipe's tensors grouped by shared memory, and a selected one beside its base.

    Parameters
    ----------
    document : Document
        The open recipe; the view follows its evaluations and selection, never edits it.
    parent : QWidget, optional
    """

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._entries: dict[str, StorageEntry] = {}
        self.groups: list[list[str]] = []
        """Names of the tensors sharing each storage, in recipe order."""
        self.selected: str | None = None
        self._stale = True
        # values a kernel run made: asked for (``kernel.queries``, ``storage``)
        self._remote: int | None = None  # the run asked about
        self._remote_values: dict[str, TensorCopy] = {}
        self._answered: str | None = None  # the name the last answer was about
        self._remote_mask: np.ndarray | None = None  # the base's elements the view reads
        self._asked = 0
        self._build()
        self._set_model_connected(True)
        translated(self, lambda: self._on_model_evaluated(None), now=False)  # new language

    def _build(self) -> None:
        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(COLUMNS))
        translated(self, lambda: self.tree.setHeaderLabels([
            self.tr("tensor"), self.tr("memory"), self.tr("shape"), self.tr("strides"),
            self.tr("offset"), self.tr("data_ptr")]))
        translated(self, lambda: self.tree.setToolTip(self.tr(
            "The recipe's tensors, grouped by the memory (storage) they read. A view shares "
            "its base's memory; a copy has its own.")))
        translated(self, self._set_header_tips)
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.currentItemChanged.connect(self._on_view_current_changed)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        translated(self, lambda: (
            self.summary.setToolTip(self.tr("Which tensors share memory with the selected one"))))
        self.selected_card, self.other_card = TensorCard(), TensorCard()
        cards = QHBoxLayout()
        cards.addWidget(self.selected_card, 0, Qt.AlignmentFlag.AlignTop)
        cards.addWidget(self.other_card, 0, Qt.AlignmentFlag.AlignTop)
        cards.addStretch(1)
        detail = QWidget()
        column = QVBoxLayout(detail)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.summary)
        column.addLayout(cards, 1)

        layout = QVBoxLayout(fenced_content(self))  # its labels change on every edit
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tree)
        layout.addWidget(detail, 1)

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _set_header_tips(self) -> None:
        tips = (self.tr("The tensor's name in the recipe"),
                self.tr("Whether it owns its memory or views another tensor's"),
                self.tr("Size of each dimension"),
                self.tr("Elements to skip in memory to step once along each dimension"),
                self.tr("Where its first element sits in the memory, in elements"),
                self.tr("The address of its first element"))
        for col, tip in enumerate(tips):
            self.tree.headerItem().setToolTip(col, tip)

    # -- public --------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the table from the document's latest run."""
        self._stale = False
        self._remote = kernel_run_id(self._document.run)
        if self._remote is not None:  # the kernel makes the map
            self._ask(self.selected or self._step_name())
            return
        self._show_entries([])  # no run yet

    def _show_entries(self, entries: list[StorageEntry]) -> None:
        self._entries = {e.name: e for e in entries}
        groups = group_by_storage(entries)
        self.groups = [[e.name for e in g] for g in groups]
        keep = self.selected if self.selected in self._entries else self._document_choice()
        with QSignalBlocker(self.tree):
            self.tree.clear()
            for group in groups:
                self.tree.addTopLevelItem(self._group_item(group))
            self.tree.expandAll()
        self._fit_tree()
        self.select_name(keep)

    def select_name(self, name: str | None) -> None:
        """Select tensor ``name`` in the table and show it beside its base or view."""
        self.selected = name if name in self._entries else None
        if self._missing(self.selected):
            self._ask(self.selected)
        item = self._item(self.selected)
        with QSignalBlocker(self.tree):
            if item is not None:
                self.tree.setCurrentItem(item)
            else:
                self.tree.clearSelection()
        self._show_detail()

    def row_text(self, name: str) -> list[str]:
        """The table's cells for tensor ``name``."""
        item = self._item(name)
        return [] if item is None else [item.text(c) for c in range(len(COLUMNS))]

    # -- model to view ---------------------------------------------------------------------------
    def _on_model_evaluated(self, _run: object) -> None:
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def _on_model_selection_changed(self, _index: int | None) -> None:
        if self.isVisible() and not self._stale:
            if self._remote is not None and self._step_name() not in self._entries:
                self.selected = self._step_name()  # the map may not have come yet
                self._ask(self.selected)
                self._show_detail()
                return
            self.select_name(self._document_choice())

    def _on_view_current_changed(self, item: QTreeWidgetItem | None, _prev: object) -> None:
        name = item.data(0, _NAME_ROLE) if item is not None else None
        self.selected = name
        if self._missing(name):
            self._ask(name)
        self._show_detail()

    # -- helpers ---------------------------------------------------------------------------------
    def _document_choice(self) -> str | None:
        name = self._step_name()
        return name if name in self._entries else None

    def _step_name(self) -> str | None:
        doc = self._document
        i = doc.selected
        steps = doc.recipe.steps
        if i is None or i >= len(steps):
            return None
        value = doc.run.results[i].value if i < len(doc.run.results) else None
        if steps[i].name is None and isinstance(value, KernelValue):  # code: what it bound
            return value.first_tensor()
        return steps[i].name

    def _missing(self, name: str | None) -> bool:
        """Whether ``name``'s values are in the kernel and not asked for yet."""
        return self._remote is not None and name is not None \
            and name not in self._remote_values and name != self._answered

    def _ask(self, name: str | None) -> None:
        self._asked += 1
        self._answered = None
        asked = self._asked
        self._document.ask("storage", {"run": self._remote, "name": name},
                           while_alive(self, lambda data, error: self._on_answer(
                               asked, name, data, error)))

    def _on_answer(self, asked: int, name: str | None, data: dict, error: str) -> None:
        if asked != self._asked or self._remote is None:
            return  # a newer question, or no run to ask about, since
        if error:
            data = {}
        entries = [StorageEntry(**{**e, "strides": tuple(e["strides"]),
                                   "shape": tuple(e["shape"])}) for e in data.get("entries", ())]
        self._answered = name
        self._remote_values = {n: copy_of(d) for n, d in data.get("tensors", {}).items()}
        mask = data.get("mask")
        self._remote_mask = None if mask is None else np.asarray(mask, dtype=bool)
        if [e.name for e in entries] != list(self._entries) \
                or any(self._entries.get(e.name) != e for e in entries):
            self.selected = name
            self._show_entries(entries)
        else:
            self._show_detail()

    def _group_item(self, group: list[StorageEntry]) -> QTreeWidgetItem:
        base = group[0]
        views = len(group) - 1
        head = QTreeWidgetItem([
            self.tr("memory of {0}").format(base.name),
            self.tr("shared by {0} tensors").format(len(group)) if views
            else self.tr("one tensor"), "", "", "", ""])
        head.setFlags(head.flags() & ~Qt.ItemFlag.ItemIsSelectable)
        head.setFirstColumnSpanned(False)
        bold = head.font(0)
        bold.setBold(True)
        for col in range(len(COLUMNS)):
            head.setFont(col, bold)
        for e in group:
            role = self.tr("view of {0}").format(e.base) if e.is_view else \
                self.tr("base of {0} view(s)").format(views) if views else self.tr("own memory")
            label = f"{e.name} (NumPy)" if e.numpy else e.name
            child = QTreeWidgetItem([label, role, _tuple(e.shape), _tuple(e.strides),
                                     str(e.offset), hex(e.data_ptr)])
            child.setData(0, _NAME_ROLE, e.name)
            child.setToolTip(0, self.tr("Select to see {0} beside the tensor it shares "
                                        "memory with").format(e.name))
            head.addChild(child)
        return head

    def _fit_tree(self) -> None:
        """As tall as its rows (up to a cap), so the values below keep their room."""
        rows = sum(1 + self.tree.topLevelItem(i).childCount()
                   for i in range(self.tree.topLevelItemCount()))
        row_height = self.tree.sizeHintForRow(0) if rows else 0
        height = (self.tree.header().sizeHint().height() + rows * max(row_height, 1)
                  + 2 * self.tree.frameWidth() + 4)
        self.tree.setFixedHeight(min(max(height, 60), MAX_TREE_HEIGHT))

    def _item(self, name: str | None) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, _NAME_ROLE) == name:
                    return top.child(j)
        return None

    def _show_detail(self) -> None:
        name = self.selected
        namespace = self._remote_values
        entry = self._entries.get(name) if name else None
        if entry is None:
            self.summary.setText(self.tr("Select a tensor to see which tensors share its "
                                         "memory."))
            self.selected_card.hide()
            self.other_card.hide()
            return
        group = next(g for g in self.groups if name in g)
        others = [n for n in group if n != name]
        value = namespace.get(name)
        if value is None and name != self._answered:
            self.summary.setText(self.tr("Asking the kernel for {0}…").format(name))
            self.selected_card.hide()
            self.other_card.hide()
            return
        if value is None:  # in the kernel, too large to copy
            self.summary.setText(self.tr(
                "{0} shares memory with: {1}. It is too large to show here; the Tensor "
                "viewer shows its values.").format(name, ", ".join(others) or self.tr("none")))
            self.selected_card.hide()
            self.other_card.hide()
            return
        self.selected_card.show_tensor(value, name, self.tr("selected"))
        self.selected_card.show()
        if not others:
            self.summary.setText(self.tr(
                "{0} has memory of its own: no other tensor of the recipe reads it, so "
                "changing {0} in place changes nothing else.").format(name))
            self.other_card.hide()
            return
        base, view = partner(list(self._entries.values()), name)  # type: ignore[misc]
        other = base if entry.is_view else view
        if other not in namespace:
            self.other_card.hide()
            return
        self.other_card.show_tensor(namespace[other], other,
                                    self.tr("base") if entry.is_view else self.tr("view"))
        self.other_card.show()
        base_card = self.other_card if entry.is_view else self.selected_card
        model = base_card.grid.table_model
        mask = self._remote_mask
        if mask is not None:
            model.set_marks(
                {model.cell_of(tuple(int(n) for n in i)): "source" for i in np.argwhere(mask)})
        self.summary.setText(self.tr(
            "{0} shares memory with {1}. Yellow: the elements of {2} that {3} reads. An "
            "in-place change through either one (such as {3}.add_(1)) shows in both.").format(
            name, ", ".join(others), base, view))


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.header import TORCH_LINE
    from app.recipe.reader import read_recipe
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(read_recipe(TORCH_LINE + "x = torch.arange(6.0)\nv = x.view(2, 3)\n"
                               "c = x.clone()\nv.add_(1)\n"))
    doc.select(1)
    view = StorageView(doc)
    view.resize(700, 500)
    sys.exit(run_demo(app, doc, view))
