"""The gallery browser: the shipped lessons by category, searchable, previewed, opened in one go.

The panel renders an ``app.recipe.gallery.Gallery`` (read off the GUI thread, never executing a
recipe) and forwards what the user asks for: ``open_requested(path)`` and
``reset_requested()``. The main window decides what opening means (asking about unsaved
changes first); the panel itself never touches the document.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QModelIndex, QRect, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QIcon, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.recipe.document import Document
from app.recipe.gallery import RECIPES_DIR, Gallery, GalleryEntry, scan
from app.recipe.lesson_markup import lesson_markdown
from widgets.common.background import Job, start_job
from widgets.common.doc_links import FollowsDocument
from widgets.common.highlighter import PygmentsHighlighter
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import add_tab, translated

_ENTRY_ROLE = Qt.ItemDataRole.UserRole


def _scan(folder: str) -> Gallery:
    """Read the gallery folder (``ast`` only, nothing is run); a failure becomes a note."""
    try:
        return scan(folder)
    except Exception as e:  # noqa: BLE001 - shown in the panel, never a crash
        return Gallery((), ((folder, f"{type(e).__name__}: {e}"),))


class GalleryPanel(FollowsDocument, QWidget):
    """Lessons by category with a search box, a preview of the lesson and the code.

    Parameters
    ----------
    document : Document
        The open recipe: the panel marks its lesson in the list and enables "Reset to the
        Original" while it has changes. The panel never changes it.
    folder : path, optional
        Where the recipes are; ``recipes/`` by default.
    language : str
        ``en``, ``zh_CN`` ...: which half of each lesson to show.
    parent : QWidget, optional

    The folder is read, off the GUI thread, the first time the panel is shown (or
    ``ensure_scanned()`` is called) once the kernel has answered (the window's start is
    over: its first paint does not share the CPU with the lessons' reading), and again on
    ``refresh()``.
    """

    open_requested = Signal(str)
    """Emitted with a recipe's path when the user asks to open it."""
    reset_requested = Signal()
    """Emitted when the user asks to reopen the open recipe's file, discarding changes."""
    scanned = Signal()
    """Emitted after the folder was read and the list rebuilt."""

    def __init__(self, document: Document, folder: str | os.PathLike[str] = RECIPES_DIR,
                 language: str = "en", parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._folder = os.fspath(folder)
        self._language = language
        self._thread: Job | None = None
        self._waiting = False  # for the kernel to answer (``ensure_scanned``)
        self.gallery: Gallery | None = None
        """The lessons last read, or None before the first scan."""
        self._build()
        self._set_model_connected(True)
        self._on_model_path(document.path)
        translated(self, self._rebuild, now=False)  # the titles, tips, count and lesson

    def _build(self) -> None:
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        translated(self, lambda: self.search_edit.setPlaceholderText(
            self.tr("Search: title, text or op (gather, 梯度)")))
        translated(self, lambda: self.search_edit.setToolTip(self.tr(
            "Show only the lessons whose title, lesson text (English or Chinese), category "
            "or ops contain every word typed here")))
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        # A title wraps onto a second row rather than being cut: the panel is narrow
        # (a side dock) and a cut title ("view after transpose: an error l…") hides
        # what the lesson is about.
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setItemDelegate(_WrappedRows(self.tree))
        self.tree.header().sectionResized.connect(self._on_view_width)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        translated(self, lambda: (
            self.tree.setToolTip(self.tr("The lessons, by category. Double-click one (or press "
                                         "Enter) to open it."))))
        self.status = QLabel()
        translated(self, lambda: self.status.setText(self.tr("Reading the lessons…")))
        self.status.setWordWrap(True)
        translated(self, lambda: self.status.setToolTip(self.tr("How many lessons the list shows")))

        self.lesson_view = QTextBrowser()
        self.lesson_view.setOpenExternalLinks(True)
        translated(self, lambda: (
            self.lesson_view.setToolTip(self.tr("The selected lesson's text, as the Lesson panel "
                                                "will show it"))))
        self.code_view = QPlainTextEdit()
        self.code_view.setReadOnly(True)
        self.code_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.code_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        translated(self, lambda: self.code_view.setToolTip(
            self.tr("The selected lesson's recipe file, as it is on disk")))
        self._highlighter = PygmentsHighlighter(self.code_view.document())
        self.preview = QTabWidget()
        self.preview.setDocumentMode(True)
        add_tab(self.preview, self.lesson_view, lambda: self.tr("Lesson"),
                lambda: self.tr("What the lesson explains"))
        add_tab(self.preview, self.code_view, lambda: self.tr("Code"),
                lambda: self.tr("The recipe's Python code"))

        self.open_button = QPushButton()
        translated(self, lambda: self.open_button.setText(self.tr("Open")))
        translated(self, lambda: (
            self.open_button.setToolTip(self.tr("Open the selected lesson (asks first when the "
                                                "open recipe has unsaved changes)"))))
        self.open_button.setDefault(True)
        self.reset_button = QPushButton()
        translated(self, lambda: self.reset_button.setText(self.tr("Reset to the Original")))
        translated(self, lambda: self.reset_button.setToolTip(self.tr(
            "Open the recipe's file again, discarding every change made since it was opened: "
            "the class's experiments are undone")))
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.reset_button)
        buttons.addStretch(1)

        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.search_edit)
        column.addWidget(self.tree, 1)
        column.addWidget(self.status)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(buttons)

        self.search_edit.textChanged.connect(self._on_view_search)
        self.tree.currentItemChanged.connect(self._on_view_current)
        self.tree.itemActivated.connect(self._on_view_activated)
        self.open_button.clicked.connect(self.open_selected)
        self.reset_button.clicked.connect(self._on_view_reset)
        self._show_entry(None)

    def _model_links(self):
        doc = self._document
        return ((doc.path_changed, self._on_model_path),
                (doc.modified_changed, self._on_model_modified))

    # -- public ------------------------------------------------------------------------------
    @property
    def scanning(self) -> bool:
        return self._thread is not None

    def refresh(self) -> None:
        """Read the folder again, off the GUI thread; ``scanned`` follows."""
        if self._thread is not None:
            return
        self._thread = start_job(_scan, self._folder, on_done=self._on_worker_scanned)

    def ensure_scanned(self) -> None:
        """Read the folder unless it was read already (or is being read)."""
        if self.gallery is not None or self._waiting:
            return
        if kernel_devices().torch is None:  # the window is starting: read once it has
            self._waiting = True
            kernel_devices().changed.connect(self._on_kernel_said)
            return
        self.refresh()

    def _on_kernel_said(self) -> None:
        if kernel_devices().torch is not None:
            kernel_devices().changed.disconnect(self._on_kernel_said)
            self._waiting = False
            self.ensure_scanned()

    def set_language(self, language: str) -> None:
        """Show titles and lessons in ``language`` (``en``, ``zh_CN``)."""
        if language != self._language:
            self._language = language
            self._rebuild()

    def selected_entry(self) -> GalleryEntry | None:
        item = self.tree.currentItem()
        return None if item is None else item.data(0, _ENTRY_ROLE)

    def select_path(self, path: str | os.PathLike[str]) -> bool:
        """Select the lesson of ``path``; False when the list does not show it."""
        item = self._items().get(os.path.abspath(path))
        if item is None or item.isHidden():
            return False
        self.tree.setCurrentItem(item)
        return True

    def visible_entries(self) -> list[GalleryEntry]:
        """The lessons the list shows now (after the search), in order."""
        return [item.data(0, _ENTRY_ROLE) for item in self._items().values()
                if not item.isHidden()]

    def open_selected(self) -> None:
        """Ask to open the selected lesson."""
        entry = self.selected_entry()
        if entry is not None:
            self.open_requested.emit(entry.path)

    def category_title(self, category: str) -> str:
        """A category's name for people."""
        names = {"start": self.tr("Start here"), "creation": self.tr("Creating tensors"),
                 "shapes": self.tr("Shapes"), "indexing": self.tr("Indexing"),
                 "math": self.tr("Math"), "autograd": self.tr("Autograd"),
                 "nn": self.tr("nn modules"), "training": self.tr("Training"),
                 "other": self.tr("Other")}
        return names.get(category, category)

    # -- building the list -----------------------------------------------------------------------
    def _items(self) -> dict[str, QTreeWidgetItem]:
        out = {}
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                item = top.child(j)
                out[os.path.abspath(item.data(0, _ENTRY_ROLE).path)] = item
        return out

    def _rebuild(self) -> None:
        """Fill the tree from the gallery, keeping the selection and the search."""
        selected = self.selected_entry()
        with QSignalBlocker(self.tree):
            self.tree.clear()
            gallery = self.gallery
            if gallery is not None:
                bold = QFont(self.font())
                bold.setBold(True)
                warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
                blank = _blank_icon(self.tree.iconSize())  # keeps the titles lined up
                for category in gallery.categories():
                    top = QTreeWidgetItem([self.category_title(category)])
                    top.setFont(0, bold)
                    top.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    top.setToolTip(0, self.tr("Lessons about {0}").format(
                        self.category_title(category)))
                    self.tree.addTopLevelItem(top)
                    for entry in gallery.in_category(category):
                        item = QTreeWidgetItem([entry.title_for(self._language)])
                        item.setData(0, _ENTRY_ROLE, entry)
                        item.setToolTip(0, self._entry_tip(entry))
                        item.setIcon(0, warning if entry.error_lesson else blank)
                        top.addChild(item)
                    top.setExpanded(True)
        self._on_view_search(self.search_edit.text())
        self._mark_open()
        if selected is None or not self.select_path(selected.path):
            self._show_entry(self.selected_entry())

    def _entry_tip(self, entry: GalleryEntry) -> str:
        lines = [entry.title_for(self._language), Path(entry.path).name]
        if entry.error_lesson:
            lines.append(self.tr("Error lesson: its last step fails on purpose."))
        if entry.training:
            lines.append(self.tr("Trains a network: open it and use the Training tab."))
        if entry.ops_used:
            lines.append(self.tr("Ops: {0}").format(", ".join(_short(op)
                                                             for op in entry.ops_used)))
        return "\n".join(lines)

    def _mark_open(self) -> None:
        """The lesson open in the lab is shown in bold."""
        path = self._document.path
        target = os.path.abspath(path) if path else None
        for key, item in self._items().items():
            font = item.font(0)
            font.setBold(key == target)
            item.setFont(0, font)

    def _show_entry(self, entry: GalleryEntry | None) -> None:
        self.open_button.setEnabled(entry is not None)
        if entry is None:
            self.lesson_view.setMarkdown(self.tr("*Pick a lesson to see its text and code.*"))
            self._highlighter.set_text_spans("")
            self.code_view.setPlainText("")
            return
        notes = [f"`{Path(entry.path).name}`"]
        if entry.ops_used:
            notes.append(self.tr("Ops: {0}").format(
                ", ".join(f"`{_short(op)}`" for op in entry.ops_used)))
        self.lesson_view.setMarkdown(lesson_markdown(entry.lesson(self._language))
                                     + "\n\n---\n\n" + "  \n".join(notes))
        try:
            text = Path(entry.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            text = self.tr("The file cannot be read: {0}").format(e)
        self._highlighter.set_text_spans(text)
        self.code_view.setPlainText(text)

    # -- view to model -----------------------------------------------------------------------------
    def _on_view_search(self, text: str) -> None:
        shown = 0
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            visible = 0
            for j in range(top.childCount()):
                item = top.child(j)
                hit = item.data(0, _ENTRY_ROLE).matches(text)
                item.setHidden(not hit)
                visible += hit
            top.setHidden(visible == 0)
            top.setExpanded(True)
            shown += visible
        if self.gallery is None:
            return
        total = len(self.gallery.entries)
        if text.strip():
            status = self.tr("{0} of {1} lessons match").format(shown, total)
        else:
            status = self.tr("{0} lessons").format(total)
        if self.gallery.refused:
            names = ", ".join(Path(p).name for p, _ in self.gallery.refused)
            status += "  " + self.tr("Not recipes, left out: {0}").format(names)
        self.status.setText(status)
        current = self.tree.currentItem()
        if current is None or current.isHidden():
            visible = [i for i in self._items().values() if not i.isHidden()]
            self.tree.setCurrentItem(visible[0] if text.strip() and visible else None)

    def _on_view_current(self, item: QTreeWidgetItem | None, _previous) -> None:
        self._show_entry(None if item is None else item.data(0, _ENTRY_ROLE))

    def _on_view_width(self, *_section) -> None:
        # the rows' heights follow the wrapped titles (once the width has settled: the
        # scroll bar a taller list needs narrows it again)
        self.tree.scheduleDelayedItemsLayout()

    def _on_view_reset(self) -> None:
        self.reset_requested.emit()

    def _on_view_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        entry = item.data(0, _ENTRY_ROLE)
        if entry is not None:
            self.open_requested.emit(entry.path)

    # -- model to view -----------------------------------------------------------------------------
    def _on_model_path(self, _path) -> None:
        self._mark_open()
        self._on_model_modified(self._document.modified)

    def _on_model_modified(self, modified: bool) -> None:
        self.reset_button.setEnabled(self._document.path is not None and modified)

    # -- worker to view ----------------------------------------------------------------------------
    def _on_worker_scanned(self, _key: object, gallery: Gallery) -> None:
        self._thread = None
        self.gallery = gallery
        self._rebuild()
        self.scanned.emit()

    # -- Qt ----------------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.ensure_scanned()


class _WrappedRows(QStyledItemDelegate):
    """Rows as tall as their wrapped text at the tree's width (a ``QTreeView`` asks its
    delegate for a size without saying how wide the row is, so a long title would be cut)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802
        tree = self.parent()
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        indent = tree.indentation() * (depth + int(tree.rootIsDecorated()))
        width = tree.header().sectionSize(index.column()) - indent
        if width <= 0:
            return super().sizeHint(option, index)
        sized = QStyleOptionViewItem(option)
        sized.rect = QRect(0, 0, width, max(option.rect.height(), 1))
        return super().sizeHint(sized, index)


def _blank_icon(size: QSize) -> QIcon:
    pixmap = QPixmap(size)
    pixmap.fill(Qt.GlobalColor.transparent)
    return QIcon(pixmap)


def _short(op: str) -> str:
    """``torch.gather`` stays, ``Tensor.view`` becomes ``.view``."""
    return op.replace("Tensor.", ".").replace("Module.", ".")


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv)
    doc = Document()
    panel = GalleryPanel(doc, language=sys.argv[1] if len(sys.argv) > 1 else "en")
    panel.open_requested.connect(lambda path: print("open", path))
    panel.resize(380, 720)
    panel.show()
    sys.exit(app.exec())
