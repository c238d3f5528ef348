"""Extras that draw shapes and memory: view and reshape, squeeze and unsqueeze, broadcasting."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from app.explain.step_view import StepView, shape_text
from app.recipe.document import Document
from app.tensor_copy import TensorCopy
from widgets.common.retranslate import translated
from widgets.explain.extra_base import Decoration, OpExtra
from widgets.explain.shape_diagrams import (
    Box,
    BoxDiagram,
    BoxRow,
    StorageOrderDiagram,
    align_dims,
    broadcast_table,
    is_contiguous,
    numbered_grid,
)


class StorageOrderExtra(OpExtra):
    """view and reshape: cells numbered in row-major order before and after, with strides."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        self.diagram = StorageOrderDiagram()
        translated(self, lambda: self.diagram.setToolTip(self.tr(
            "Big number: the element's place in row-major order. @n: where it sits in "
            "memory. Blue cells are in memory order, red ones are not.")))
        self._beside(self.diagram)

    def title(self) -> str:
        return self.tr("Row-major order and memory")

    def show_step(self, sv: StepView) -> Decoration:
        t, out = sv.receiver(), sv.output
        if t is None:
            self.diagram.set_grids([])
            self.caption.setText("")
            return Decoration()
        name = sv.operand_text(sv.spec.receiver) if sv.spec else "input"
        offset = sv.offsets.get(sv.spec.receiver, 0) if sv.spec else 0
        grids = [numbered_grid(self.tr("{0}: strides {1}").format(name, shape_text(t.strides)),
                               t, offset)]
        contiguous = is_contiguous(t)
        if isinstance(out, TensorCopy):
            label = sv.step.name or self.tr("result")
            grids.append(numbered_grid(self.tr("{0}: strides {1}").format(
                label, shape_text(out.strides)), out))
            if contiguous:  # view and reshape read it anew; else reshape copies
                text = self.tr("The same memory read with new strides: no element moved. "
                               "{0} numbers its elements (@: place in memory) in the same "
                               "order as {1}.")
            else:
                text = self.tr("{1} was not in row-major order in memory, so {0} is a copy: "
                               "new memory, filled in row-major order.")
            text = text.format(label, name)
        elif contiguous:
            text = self.tr("{0}'s elements lie in memory in row-major order (@0, @1, ...), "
                           "so any shape with {1} elements can view them.").format(name, t.numel())
        else:
            text = self.tr("Big numbers count {0}'s elements in row-major order; @ is where "
                           "each sits in memory. They disagree (red cells): the elements are "
                           "not in row-major order in memory, so view cannot give them a new "
                           "shape without copying. Call "
                           ".contiguous() first, or use reshape, which copies when it must."
                           ).format(name)
        self.diagram.set_grids(grids)
        self.caption.setText(text)
        return Decoration()


class ShapeChangeExtra(OpExtra):
    """squeeze and unsqueeze: a box per dimension; size-1 dimensions appear or disappear."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        self.diagram = BoxDiagram()
        translated(self, lambda: (
            self.diagram.setToolTip(self.tr("One box per dimension, with its size; yellow boxes "
                                            "are size-1 dimensions"))))
        self._beside(self.diagram)
        translated(self, lambda: (
            self.caption.setText(self.tr("A size-1 dimension holds no extra elements: adding or "
                                         "removing one changes the shape, never the data."))))

    def title(self) -> str:
        return self.tr("Shape")

    def show_step(self, sv: StepView) -> Decoration:
        t, out = sv.receiver(), sv.output
        if t is None:
            self.diagram.set_rows([])
            return Decoration()
        before = tuple(t.shape)
        after = tuple(out.shape) if isinstance(out, TensorCopy) else None
        pairs = align_dims(before, after) if after is not None \
            else [(i, None) for i in range(len(before))]
        top, bottom, links = [], [], []
        for col, (i, j) in enumerate(pairs):
            if i is not None:
                gone = after is not None and j is None
                top.append(Box(col, str(before[i]), "removed" if gone else
                               "one" if before[i] == 1 else "plain",
                               self.tr("removed dim {0}").format(i) if gone
                               else self.tr("dim {0}").format(i)))
            if j is not None and after is not None:
                new = i is None
                bottom.append(Box(col, str(after[j]), "added" if new else
                                  "one" if after[j] == 1 else "plain",
                                  self.tr("new dim {0}").format(j) if new
                                  else self.tr("dim {0}").format(j)))
            if i is not None and j is not None:
                links.append(((0, col), (1, col)))
        name = sv.operand_text(sv.spec.receiver) if sv.spec else "input"
        rows = [BoxRow(self.tr("{0}.shape").format(name), tuple(top), shape_text(before))]
        if after is not None:
            rows.append(BoxRow(self.tr("{0}.shape").format(sv.step.name or self.tr("result")),
                               tuple(bottom), shape_text(after)))
        self.diagram.set_rows(rows, links)
        return Decoration()


#: Operators and ops whose operands broadcast against each other.
BROADCAST_OPS = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "==", "!=", "<", "<=",
                 ">", ">=", "add", "add_", "sub", "mul", "div", "eq", "ne", "gt", "lt", "ge",
                 "le", "where")
_BROADCAST_KINDS = ("tensor", "any")  # not alpha or rounding_mode


class BroadcastExtra(OpExtra):
    """Binary ops: the operands' shapes right-aligned, the stretched dimensions marked."""

    def __init__(self, document: Document, undo_stack: QUndoStack | None,
                 parent: QWidget | None = None):
        super().__init__(document, undo_stack, parent)
        self.diagram = BoxDiagram()
        translated(self, lambda: (
            self.diagram.setToolTip(self.tr("Shapes lined up from the right; 1→n marks a "
                                            "dimension stretched to size n"))))
        self._beside(self.diagram)
        self.cells: list[list] = []
        """``broadcast_table`` rows, one per operand (for tests and tours)."""

    def title(self) -> str:
        return self.tr("Broadcasting")

    def show_step(self, sv: StepView) -> Decoration:
        shapes: list[tuple[int, ...]] = []
        labels: list[str] = []
        for pname in sv.operands():
            kind = sv.spec.param(pname).kind if sv.spec is not None and pname != \
                sv.spec.receiver else "tensor"
            if kind not in _BROADCAST_KINDS:
                continue
            value = sv.part(pname)
            if isinstance(value, TensorCopy):
                shapes.append(tuple(value.shape))
                labels.append(f"{sv.operand_text(pname)}  {shape_text(value.shape)}")
            elif isinstance(value, (int, float, bool)):
                shapes.append(())
                labels.append(self.tr("{0}  (a number)").format(sv.operand_text(pname)))
        rows, result = broadcast_table(shapes)
        self.cells = rows
        ndim = len(result)
        diagram_rows = []
        for label, row in zip(labels, rows, strict=True):
            boxes = []
            for col, cell in enumerate(row):
                out = result[col]
                if cell.state == "stretched":
                    text = f"{'(1)' if cell.size is None else cell.size}→{out}"
                    caption = self.tr("stretched")
                else:
                    text = "·" if cell.size is None else str(cell.size)
                    caption = self.tr("dim {0}").format(col - ndim) if cell.size is not None \
                        else ""
                boxes.append(Box(col, text, cell.state if cell.state != "same" else "plain",
                                 caption))
            diagram_rows.append(BoxRow(label, tuple(boxes)))
        result_text = shape_text(r if r is not None else "?" for r in result)
        diagram_rows.append(BoxRow(self.tr("result  {0}").format(result_text), tuple(
            Box(c, "?" if r is None else str(r), "conflict" if r is None else "plain")
            for c, r in enumerate(result))))
        self.diagram.set_rows(diagram_rows)
        if None in result:
            self.caption.setText(self.tr(
                "Lined up from the right, each pair of sizes must be equal, or one of them 1. "
                "The red column breaks that rule, so the shapes cannot broadcast."))
        elif any(c.state == "stretched" for row in rows for c in row):
            self.caption.setText(self.tr(
                "Lined up from the right, a size-1 (or missing) dimension is stretched to the "
                "other size: its values are reused along it, without copying."))
        else:
            self.caption.setText(self.tr("The shapes already match: nothing is stretched."))
        return Decoration()
