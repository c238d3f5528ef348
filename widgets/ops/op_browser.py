"""The op panel's catalogue browser: the ops by category, and a search field to filter them.

``OpBrowser`` lists the ops it is given under their categories, each with its summary as
tooltip, hides those that do not match the search text (in their name or summary), and
tells which op an item stands for. Its texts keep the ``OpPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.catalog import CATEGORIES, OpSpec
from widgets.common.i18n_text import op_summary
from widgets.common.retranslate import translated

_SPEC_ROLE = Qt.ItemDataRole.UserRole


class OpBrowser(QWidget):
    """A search field above a tree of ``specs`` by category.

    Parameters
    ----------
    specs : list of OpSpec
        The ops, in the order shown within their categories.
    parent : QWidget, optional

    Attributes
    ----------
    search_edit : QLineEdit
    op_tree : QTreeWidget
        Its ``currentItemChanged`` says an op was picked; see ``spec_of``.
    """

    def __init__(self, specs: list[OpSpec], parent: QWidget | None = None):
        super().__init__(parent)
        self._specs = specs
        self.search_edit = QLineEdit()
        translated(self, lambda: self.search_edit.setPlaceholderText(QCoreApplication.translate(
            "OpPanel", "Search ops: name or what it does")))
        self.search_edit.setClearButtonEnabled(True)
        translated(self, lambda: self.search_edit.setToolTip(QCoreApplication.translate(
            "OpPanel", "Show only ops whose name or summary contains this text, such as 'dim' "
                       "or 'mask'.")))
        self.op_tree = QTreeWidget()
        self.op_tree.setHeaderHidden(True)
        translated(self, lambda: self.op_tree.setToolTip(QCoreApplication.translate(
            "OpPanel", "The ops, by category. Pick one to see what it does and to apply it.")))
        self._tops: list[tuple[QTreeWidgetItem, str]] = []
        for category in dict.fromkeys(s.category for s in specs):
            top = QTreeWidgetItem([category])
            self._tops.append((top, category))
            top.setFlags(top.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            bold = top.font(0)
            bold.setBold(True)
            top.setFont(0, bold)
            for i, spec in enumerate(specs):
                if spec.category == category:
                    child = QTreeWidgetItem([spec.name])
                    child.setData(0, _SPEC_ROLE, i)
                    top.addChild(child)
            self.op_tree.addTopLevelItem(top)
        self.op_tree.expandAll()
        translated(self, self._set_tree_texts)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.search_edit)
        box.addWidget(self.op_tree)
        self.search_edit.textChanged.connect(self._on_view_search_changed)

    def _set_tree_texts(self) -> None:
        """The categories' names and the ops' summaries, in the UI's language."""
        for top, category in self._tops:
            top.setText(0, QCoreApplication.translate(CATEGORIES, category))
            for j in range(top.childCount()):
                child = top.child(j)
                child.setToolTip(0, op_summary(self._specs[child.data(0, _SPEC_ROLE)]))

    def spec_of(self, item: QTreeWidgetItem | None) -> OpSpec | None:
        """The op ``item`` stands for (None for a category or no item)."""
        if item is None or item.data(0, _SPEC_ROLE) is None:
            return None
        return self._specs[item.data(0, _SPEC_ROLE)]

    def select(self, spec: OpSpec) -> None:
        """Make ``spec`` the current item, scrolled into view."""
        index = self._specs.index(spec)
        for i in range(self.op_tree.topLevelItemCount()):
            top = self.op_tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, _SPEC_ROLE) == index:
                    self.op_tree.setCurrentItem(top.child(j))
                    self.op_tree.scrollToItem(
                        top.child(j), QTreeWidget.ScrollHint.PositionAtCenter)
                    return

    def _on_view_search_changed(self, text: str) -> None:
        words = text.strip().lower()
        for i in range(self.op_tree.topLevelItemCount()):
            top = self.op_tree.topLevelItem(i)
            shown = 0
            for j in range(top.childCount()):
                child = top.child(j)
                spec = self._specs[child.data(0, _SPEC_ROLE)]
                match = not words or words in spec.name.lower() or words in spec.summary.lower()
                child.setHidden(not match)
                shown += match
            top.setHidden(shown == 0)
            top.setExpanded(True)
