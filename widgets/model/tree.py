"""``ModuleTreeView``: an ``nn.Module``'s tree in torchinfo's columns.

A row per module, in ``print(net)`` order, collapsible: its name and class, the shapes
of its last call's inputs and output (once it has been called), its parameters' count
(its children's included, a shared parameter once) and whether they train. Under it, a
row per parameter and buffer of its own: name, shape, dtype, count, ``requires_grad``.
The tree is the kernel's (``protocol.module_data``); nothing here computes on a tensor.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from protocol.module_data import CallShapes, ModuleNode, ModuleTree, TensorRow
from widgets.common.retranslate import translated

#: The columns, in order.
COLUMNS = ("name", "type", "input", "output", "shape", "dtype", "count", "trainable")
COUNT = COLUMNS.index("count")
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
#: The data role of a parameter's or buffer's row: its dotted path in the module
#: (``conv1.weight``); a module's row holds its own path (``features.0``).
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
#: The data role saying what a row is: "module", "parameter" or "buffer".
KIND_ROLE = Qt.ItemDataRole.UserRole + 2


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


def shape_text(shape: tuple[int, ...] | None) -> str:
    """``(1, 6, 28, 28)``, as torch prints a ``torch.Size`` inside its brackets."""
    if shape is None:
        return _tr("not made yet")
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def shapes_text(shapes: tuple[tuple[int, ...], ...]) -> str:
    return ", ".join(shape_text(s) for s in shapes) if shapes else "—"


class ModuleTreeView(QTreeWidget):
    """The tree of one module.

    Signals
    -------
    tensor_chosen(str, str)
        A parameter's or buffer's row was activated (double-click, Enter): its dotted
        path in the module, and "parameter" or "buffer".
    """

    tensor_chosen = Signal(str, str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setColumnCount(len(COLUMNS))
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(False)
        self.itemActivated.connect(self._on_view_activated)
        self.tree: ModuleTree | None = None
        translated(self, self._set_texts)

    def show_tree(self, tree: ModuleTree | None, name: str = "") -> None:
        """Show ``tree`` (None: nothing), its root named ``name``; modules expanded to
        the depth that keeps the view short."""
        self.tree = tree
        self.clear()
        if tree is None:
            return
        root = self._module_item(tree.root, name, "")
        self.addTopLevelItem(root)
        root.setExpanded(True)
        for i in range(root.childCount()):  # the first level open: print(net)'s lines
            child = root.child(i)
            child.setExpanded(tree.modules <= 40 and child.data(0, KIND_ROLE) == "module")

    def row_of(self, path: str) -> QTreeWidgetItem | None:
        """The row of a module, parameter or buffer by its dotted path ("" the root)."""
        found = [self.topLevelItem(0)] if self.topLevelItemCount() else []
        while found:
            item = found.pop()
            if item.data(0, PATH_ROLE) == path:
                return item
            found.extend(item.child(i) for i in range(item.childCount()))
        return None

    def tensor_row(self, path: str) -> TensorRow | None:
        """The parameter or buffer at dotted ``path`` (``conv1.weight``) of the tree shown."""
        if self.tree is None:
            return None
        node, *parents, name = [self.tree.root, *path.split(".")]
        for part in parents:
            node = next((c for c in node.children if c.name == part), None)
            if node is None:
                return None
        return next((r for r in node.parameters + node.buffers if r.name == name), None)

    def rows(self) -> int:
        """Every row, expanded or not."""
        count, found = 0, [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while found:
            item = found.pop()
            count += 1
            found.extend(item.child(i) for i in range(item.childCount()))
        return count

    # -- building ------------------------------------------------------------------------
    def _module_item(self, node: ModuleNode, name: str, path: str) -> QTreeWidgetItem:
        call = node.last_call
        count, trainable = node.count, node.trainable
        item = QTreeWidgetItem([
            name or node.name, node.type, _inputs(call), _outputs(call), "", "",
            f"{count:,}", _trains(trainable, count)])
        item.setTextAlignment(COUNT, _RIGHT)
        item.setData(0, PATH_ROLE, path)
        item.setData(0, KIND_ROLE, "module")
        item.setToolTip(0, _tr("{0}: a {1}").format(path or name or node.name, node.type))
        if call is None:
            item.setToolTip(2, _tr("Not called yet: its shapes show once a step calls it"))
        for row, kind in [(r, "parameter") for r in node.parameters] + \
                         [(r, "buffer") for r in node.buffers]:
            item.addChild(self._tensor_item(row, kind, _join(path, row.name)))
        for child in node.children:
            item.addChild(self._module_item(child, child.name, _join(path, child.name)))
        return item

    def _tensor_item(self, row: TensorRow, kind: str, path: str) -> QTreeWidgetItem:
        trains = (_tr("yes") if row.requires_grad else _tr("no")) if kind == "parameter" \
            else "—"
        item = QTreeWidgetItem([row.name, _tr("parameter") if kind == "parameter"
                                else _tr("buffer"), "", "", shape_text(row.shape),
                                row.dtype.removeprefix("torch."), f"{row.numel:,}", trains])
        item.setTextAlignment(COUNT, _RIGHT)
        item.setData(0, PATH_ROLE, path)
        item.setData(0, KIND_ROLE, kind)
        font = QFont(item.font(0))
        font.setItalic(True)
        item.setFont(0, font)
        item.setToolTip(0, _tr("Double-click to open {0} in the tensor viewer").format(path))
        return item

    def _on_view_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        kind = item.data(0, KIND_ROLE)
        if kind in ("parameter", "buffer"):
            self.tensor_chosen.emit(item.data(0, PATH_ROLE), kind)

    def _set_texts(self) -> None:
        titles = (_tr("Layer"), _tr("Type"), _tr("Input shape"), _tr("Output shape"),
                  _tr("Shape"), _tr("dtype"), _tr("Param #"), _tr("Trainable"))
        tips = (_tr("The module's name in its parent, or the parameter's or buffer's"),
                _tr("The module's class; parameter or buffer"),
                _tr("The shapes of the tensors its last call was given (positional)"),
                _tr("The shapes of the tensors its last call returned"),
                _tr("A parameter's or buffer's shape"),
                _tr("A parameter's or buffer's dtype"),
                _tr("Elements in its parameters, its submodules' included (a shared "
                    "parameter once)"),
                _tr("Whether its parameters train (requires_grad)"))
        self.setHeaderLabels(list(titles))
        for column, tip in enumerate(tips):
            self.headerItem().setToolTip(column, tip)
        if self.tree is not None:
            self.show_tree(self.tree, self.topLevelItem(0).text(0)
                           if self.topLevelItemCount() else "")


def _trains(trainable: int, total: int) -> str:
    if total == 0:
        return "—"
    if trainable == total:
        return _tr("yes")
    return _tr("no") if trainable == 0 else _tr("partly")


def _inputs(call: CallShapes | None) -> str:
    return "" if call is None else shapes_text(call.inputs)


def _outputs(call: CallShapes | None) -> str:
    return "" if call is None else shapes_text(call.outputs)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
