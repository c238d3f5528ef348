"""File > Download from the Server...: the files a recipe wrote in its work folder on the
server (``torch.save``, a CSV, a figure), listed, and one saved on this computer.

The kernel lists and reads them (the ``files`` and ``file`` queries, ``kernel.files``);
the window asks, as for any value it shows, and writes what comes where the user says.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.link.places import chosen
from protocol.budget import budget_text


def _tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # (lupdate files _tr calls under "")


def size_text(size: int) -> str:
    """``size`` bytes in words: "812 B", "3.1 MiB"."""
    return f"{size} B" if size < 1024 else budget_text(size)


class ServerFiles(QDialog):
    """The recipe's work folder on the server: its files, the newest first; Download
    saves the one picked (a double-click too)."""

    def __init__(self, window: QWidget, document):
        super().__init__(window)
        self._document = document
        self.setWindowTitle(_tr("Download from the Server"))
        self.folder = QLabel(_tr("Asking the server for the recipe's files…"))
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list = QListWidget()
        self.list.setToolTip(_tr("The files in the folder the recipe runs in on the server, "
                                 "the newest first"))
        self.list.itemDoubleClicked.connect(lambda _item: self._download_picked())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.download_button = self.buttons.addButton(
            _tr("&Download…"), QDialogButtonBox.ButtonRole.ActionRole)
        self.download_button.setToolTip(_tr("Save the file picked on this computer"))
        self.download_button.setEnabled(False)
        self.download_button.clicked.connect(self._download_picked)
        self.buttons.rejected.connect(self.reject)
        self.list.currentItemChanged.connect(
            lambda item, _old: self.download_button.setEnabled(item is not None))
        layout = QVBoxLayout(self)
        layout.addWidget(self.folder)
        layout.addWidget(self.list)
        layout.addWidget(self.buttons)
        self.resize(560, 360)
        self.names: list[str] = []
        self.saved: list[str] = []  # the files written on this computer

    def refresh(self) -> None:
        """Ask the kernel for the folder's files (the list fills when it answers)."""
        if not self._document.ask("files", {}, self._listed):
            self.folder.setText(_tr("No kernel runs: run the recipe first."))

    def _listed(self, data: dict, error: str) -> None:
        self.list.clear()
        if error:
            self.folder.setText(error)
            return
        where = chosen()
        self.folder.setText(_tr("{0} on {1}").format(data["folder"], where)
                            if where is not None else data["folder"])
        self.names = [f["name"] for f in data["files"]]
        for f in data["files"]:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(f["modified"]))
            item = QListWidgetItem(f"{f['name']}    {size_text(f['size'])}    {when}")
            item.setData(Qt.ItemDataRole.UserRole, f["name"])
            self.list.addItem(item)
        if not data["files"]:
            self.folder.setText(self.folder.text() + "\n" + _tr("The recipe wrote no file "
                                                                  "there yet."))

    def _download_picked(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        start = os.path.join(os.path.dirname(self._document.run_path()[0]), name)
        path, _ = QFileDialog.getSaveFileName(self, _tr("Save {0} as").format(name), start)
        if path:
            self.download(name, path)

    def download(self, name: str, path: str,
                 done: Callable[[str], None] | None = None) -> None:
        """Fetch ``name`` from the server and write it at ``path``; ``done(error)`` after
        ("" when it was written)."""
        self.folder.setText(_tr("Downloading {0}…").format(name))

        def got(data: dict, error: str) -> None:
            if not error:
                try:
                    with open(path, "wb") as f:
                        f.write(bytes(data["data"]))
                except OSError as e:
                    error = _tr("Could not write {0}: {1}").format(path, e.strerror or e)
            if error:
                self.folder.setText(error)
            else:
                self.saved.append(path)
                self.folder.setText(_tr("Saved {0} as {1}").format(name, path))
            if done is not None:
                done(error)

        if not self._document.ask("file", {"name": name}, got):
            got({}, _tr("No kernel runs: run the recipe first."))
