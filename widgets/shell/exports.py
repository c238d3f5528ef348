"""Exports from the window: tensors to the clipboard, the recipe's code, the lesson as HTML.

The text formats are made by ``app.exports`` (Qt-free); this module adds what needs
Qt: the clipboard, file dialogs and PNG images of heatmaps and views. It imports them,
and the heatmap, when first used: the window makes its exports before its first paint.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QImage
from PySide6.QtWidgets import QFileDialog, QLabel

from app.recipe.document import Document
from app.recipe.kernel_results import shown_name, tensor_summary
from app.recipe.results import StepResult
from app.torch_loaded import is_tensor
from widgets.common.plot_export import _tr, ask_save_plot, copy_text, grab_png, png_bytes
from widgets.common.retranslate import translated

HEATMAP_EXPORT_SIZE = (560, 440)


def heatmap_image(values: np.ndarray, size: tuple[int, int] = HEATMAP_EXPORT_SIZE) -> QImage:
    """A heatmap of the 2-D array ``values`` with its colour bar, as the viewer draws it."""
    from widgets.viewer.heatmap_view import HeatmapView

    view = HeatmapView()
    try:
        for label in view.findChildren(QLabel):  # the hover read-out says nothing in a picture
            label.hide()
        view.resize(*size)
        view.set_plane(values)
        view.ensurePolished()
        return view.grab().toImage()
    finally:
        view.deleteLater()


# -- the selected tensor -------------------------------------------------------------------
def selected_tensor(document: Document) -> StepResult | None:
    """The selected step's result, if its value is a tensor (the window's or the kernel's)."""
    index = document.selected
    results = document.run.results
    if index is None or not 0 <= index < len(results):
        return None
    return results[index] if tensor_summary(results[index]) is not None else None


def tensor_text(document: Document, result: StepResult, fmt: str,
                then: Callable[[str, str], None]) -> None:
    """``then(text, error)`` with ``result``'s tensor as Python (``fmt`` ``literal``) or
    CSV (``csv``): written here, or in the kernel that holds it."""
    value = result.value
    if is_tensor(value):
        from app.exports import tensor_csv, tensor_literal

        try:
            then(tensor_literal(value) if fmt == "literal" else tensor_csv(value), "")
        except ValueError as e:
            then("", str(e))
        return
    args = {"run": value.run_id, "statement": value.statement, "name": shown_name(result),
            "format": fmt}
    if not document.ask("text", args, lambda data, error: then(
            (data or {}).get("text", ""), error)):
        then("", _tr("The kernel has stopped: run the recipe again."))


class TensorExports(QObject):
    """Copy and save the selected tensor and the recipe's code; export the lesson.

    Parameters
    ----------
    window : QWidget
        The main window: its ``document``, ``viewer`` (for the plane shown) and
        ``views`` (for figures) are used; messages go to its status bar.
    """

    def __init__(self, window):
        super().__init__(window)
        self._window = window

    @property
    def document(self) -> Document:
        return self._window.document

    def _plane(self) -> np.ndarray | None:
        viewer = getattr(self._window, "viewer", None)
        if viewer is None or selected_tensor(self.document) is None:
            return None
        values = viewer.table_model.values
        return values if values.size else None

    def _say(self, text: str) -> None:
        bar = getattr(self._window, "statusBar", None)
        if bar is not None:
            bar().showMessage(text, 5000)

    def _with_text(self, fmt: str, then: Callable[[str], None]) -> bool:
        """Call ``then`` with the selected tensor as ``fmt`` (above two dimensions, CSV
        is of the plane shown); False when no tensor is selected."""
        result = selected_tensor(self.document)
        if result is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return False
        if fmt == "csv" and len(tensor_summary(result)["shape"]) > 2:
            plane = self._plane()
            if plane is None:
                return False
            from app.exports import plane_csv

            then(plane_csv(plane))
            return True

        def done(text: str, error: str) -> None:
            self._say(error) if error else then(text)
        tensor_text(self.document, result, fmt, done)
        return True

    # -- clipboard -----------------------------------------------------------------------
    def copy_literal(self) -> bool:
        """Copy the selected tensor as ``torch.tensor([...], dtype=...)``."""
        return self._with_text("literal", lambda text: (
            copy_text(text), self._say(_tr("Copied the tensor as Python."))))

    def copy_csv(self) -> bool:
        """Copy the selected tensor (or, above two dimensions, the plane shown) as CSV."""
        return self._with_text("csv", lambda text: (
            copy_text(text), self._say(_tr("Copied the values as CSV."))))

    def copy_heatmap(self) -> bool:
        """Copy a heatmap of the plane shown as an image."""
        plane = self._plane()
        if plane is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return False
        QGuiApplication.clipboard().setImage(heatmap_image(plane))
        self._say(_tr("Copied the heatmap as an image."))
        return True

    def copy_step_code(self) -> bool:
        index = self.document.selected
        if index is None:
            self._say(_tr("Select a step first."))
            return False
        copy_text(self.document.step_text(index) + "\n")  # the text's own bytes
        self._say(_tr("Copied the step's code."))
        return True

    def copy_recipe_code(self) -> bool:
        copy_text(self.document.text)  # the text on screen, comments and order kept
        self._say(_tr("Copied the whole recipe."))
        return True

    # -- files -------------------------------------------------------------------------------
    def save_heatmap(self) -> str | None:
        """Save the heatmap of the plane shown as PNG or SVG."""
        plane = self._plane()
        if plane is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return None
        heatmap = self._window.viewer.heatmap
        if heatmap.values.shape != plane.shape or heatmap.values.size == 0:
            heatmap.set_plane(plane)  # the grid tab was shown: draw the heatmap first
        name = self.document.recipe.steps[self.document.selected].label
        return ask_save_plot(self._window, heatmap, name)

    def save_csv(self, path: str | None = None) -> str | None:
        """Save the selected tensor (or the plane shown) as CSV to ``path``, asked for when
        not given; the file is written when the values come."""
        if selected_tensor(self.document) is None:
            self._say(_tr("Select a step whose value is a tensor first."))
            return None
        if path is None:
            name = self.document.recipe.steps[self.document.selected].label
            path, _ = QFileDialog.getSaveFileName(
                self._window, _tr("Save as CSV"),
                os.path.join(os.path.expanduser("~"), f"{name}.csv"),
                _tr("CSV files (*.csv);;All files (*)"))
            if not path:
                return None

        def write(text: str) -> None:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return path if self._with_text("csv", write) else None

    def lesson_page(self) -> str:
        """The lesson as one HTML page: text, figures of the current views, code, output."""
        from app.exports import Figure, lesson_html

        recipe = self.document.recipe
        title, _, body = recipe.docstring.strip().partition("\n")
        figures: list[Figure] = []
        views = getattr(self._window, "views", None)
        if views is not None and views.currentWidget() is not None:
            figures.append(Figure(
                _tr("{0}: {1}").format(views.tabText(views.currentIndex()),
                                       self._selected_label()),
                grab_png(views.currentWidget())))
        plane = self._plane()
        if plane is not None and plane.shape[0] > 1:
            figures.append(Figure(_tr("Heatmap of {0}").format(self._selected_label()),
                                  png_bytes(heatmap_image(plane))))
        return lesson_html(title.strip() or recipe.title, body.strip(), self.document.text,
                           figures, self.document.output, labels={
                               "figures": _tr("Figures"), "code": _tr("The recipe"),
                               "output": _tr("Output"),
                               "generator": _tr("Made with Tensor Lab")})

    def export_lesson(self, path: str | None = None) -> str | None:
        """Write ``lesson_page()`` to ``path`` (asked for when not given)."""
        if path is None:
            base = os.path.splitext(self.document.path or os.path.join(
                os.path.expanduser("~"), "lesson.py"))[0]
            path, _ = QFileDialog.getSaveFileName(
                self._window, _tr("Export Lesson as HTML"), base + ".html",
                _tr("Web pages (*.html);;All files (*)"))
            if not path:
                return None
        page = self.lesson_page()
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        self._say(_tr("Exported the lesson to {0}").format(path))
        return path

    def _selected_label(self) -> str:
        index = self.document.selected
        if index is None or index >= len(self.document.recipe.steps):
            return self.document.recipe.title
        return self.document.recipe.steps[index].label

    # -- context menus ------------------------------------------------------------------------
    def install_viewer_menus(self, viewer) -> list[QAction]:
        """Right-click menus on the viewer's grid and heatmap (on the Heatmap tab's page:
        the heatmap is built later, and a right-click on it comes to its page)."""
        made: list[QAction] = []
        for widget in (viewer.table_view, viewer.heatmap_tab):
            widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
            actions = []
            for slot in (self.copy_literal, self.copy_csv, self.copy_heatmap,
                         self.save_heatmap):
                action = QAction(widget)
                action.triggered.connect(lambda _=False, s=slot: s())
                widget.addAction(action)
                actions.append(action)
            translated(widget, lambda actions=actions: _set_viewer_menu_texts(actions))
            made += actions
        return made


def _set_viewer_menu_texts(actions: list[QAction]) -> None:
    for action, (text, tip) in zip(actions, (
            (_tr("Copy as Python"), _tr("Copy the tensor as torch.tensor([...]), "
                                        "ready to paste into a recipe")),
            (_tr("Copy as CSV"), _tr("Copy the values as comma-separated numbers")),
            (_tr("Copy Heatmap Image"), _tr("Copy the plane as a heatmap picture")),
            (_tr("Save Heatmap as PNG or SVG..."),
             _tr("Write the heatmap to an image or a drawing"))), strict=True):
        action.setText(text)
        action.setToolTip(tip)
        action.setStatusTip(tip)
