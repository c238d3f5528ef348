"""Kernel > Run On > Add a Server...: an SSH server's address and python, checked before
it is added.

The check connects as a run would (``app.link.ssh.probe``, off the GUI thread) and says
what the server has (its Python, torch and numpy) or, in one line, why it cannot run
recipes: ssh's own words (a refused connection, an unknown host key, a key it does not
accept), or the python that is missing, too old, or lacks torch.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from app.link.address import SshTarget, parse_target
from app.link.ssh import probe
from widgets.common.background import JobError, start_job
from widgets.common.theme import error_style


def _tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # (lupdate files _tr calls under "")


class ServerDialog(QDialog):
    """Asks for ``[user@]host[:port]`` and the python there; ``target`` once accepted."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(_tr("Add a Server"))
        self.target: SshTarget | None = None
        self.address = QLineEdit()
        self.address.setPlaceholderText(_tr("user@host:port, or a Host of ~/.ssh/config"))
        self.address.setToolTip(_tr("The server, as you would give it to ssh: your keys, "
                                    "agent, ~/.ssh/config and jump hosts apply"))
        self.python = QLineEdit("python3")
        self.python.setToolTip(_tr("The python on the server that has torch, such as "
                                   "python3 or /opt/conda/bin/python"))
        self.status = QLabel(_tr("Recipes will run there, in "
                                 "~/.local/share/tensor-lab/work; nothing is installed."))
        self.status.setWordWrap(True)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setToolTip(_tr("Connecting to the server"))
        self.busy.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        add = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        add.setText(_tr("Check and Add"))
        add.setToolTip(_tr("Connect to the server, check its Python and torch, and add it"))
        self.buttons.accepted.connect(self._check)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(_tr("&Server:"), self.address)
        form.addRow(_tr("&Python there:"), self.python)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(self.busy)
        layout.addWidget(self.buttons)
        self.resize(520, self.sizeHint().height())
        self._job = None

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(error_style() if error else "")

    def _check(self) -> None:
        address = self.address.text().strip()
        python = self.python.text().strip() or "python3"
        try:
            target = parse_target(address)
        except ValueError as e:
            return self._say(str(e), error=True)
        target = SshTarget(target.host, target.user, target.port,
                           python if python != "python3" else target.python)
        self._say(_tr("Connecting to {0}…").format(target))
        self.busy.show()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self._job = start_job(probe, target, on_done=self._checked, key=target)

    def _checked(self, target: SshTarget, result: object) -> None:
        self.busy.hide()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
        if isinstance(result, JobError):
            return self._say(result.message, error=True)
        self.target = target
        self.server = result
        self.accept()
