"""Time it: the selected step measured on every device, in a small table."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.explain.timing import (
    DEFAULT_MIN_RUN_TIME,
    UNTIMED_OPS,
    Timing,
    on_device,
)
from app.explain.timing import format_seconds as fmt
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from app.recipe.model import Step, write_step
from protocol.devices import Device
from widgets.common.answered import while_alive
from widgets.common.doc_links import FollowsDocument
from widgets.common.kernel_devices import kernel_devices
from widgets.common.retranslate import translated
from widgets.common.theme import error_style, set_style_sheet

HINT_STYLE = "color: palette(placeholder-text);"

class TimingView(FollowsDocument, QWidget):
    """A "Time it" button and a table: the selected step's median time on each device.

    Parameters
    ----------
    document : Document
        The open recipe; the view times its selected step and never changes it.
    parent : QWidget, optional
    """

    finished = Signal()
    """Emitted when a measurement ends, with results or with a reason in ``status``."""

    def __init__(self, document: Document, parent: QWidget | None = None):
        super().__init__(parent)
        self._document = document
        self._busy = False  # while the kernel times a step
        self._timed_step: Step | None = None
        self.min_run_time = DEFAULT_MIN_RUN_TIME
        """Seconds of measuring per device."""
        self.timings: list[Timing] = []
        """The latest results, one per device."""
        self._build()
        self._set_model_connected(True)
        self._on_model_selection_changed(document.selected)
        translated(self, lambda: (self._show_caption(kernel_devices().devices),
                                  self._sync_button()), now=False)

    def _build(self) -> None:
        self.time_button = QPushButton()
        translated(self, lambda: self.time_button.setText(self.tr("Time it")))
        translated(self, lambda: self.time_button.setToolTip(self.tr(
            "Run the selected step many times on every device and show the median time "
            "of one run.")))
        self.progress = QProgressBar()
        translated(self, lambda: (
            self.progress.setToolTip(self.tr("Measuring: each device takes a moment."))))
        self.progress.setTextVisible(True)
        self.progress.hide()
        row = QHBoxLayout()
        row.addWidget(self.time_button)
        row.addWidget(self.progress, 1)
        row.addStretch(0)

        self.status = QLabel()
        self.status.setWordWrap(True)
        translated(self, lambda: self.status.setToolTip(self.tr("What was timed.")))

        self.table = QTableWidget(0, 3)
        translated(self, lambda: self.table.setHorizontalHeaderLabels(
            [self.tr("Device"), self.tr("Median"), self.tr("Runs")]))
        translated(self, lambda: self.table.setToolTip(self.tr(
            "Median time of one run of the step on each device; hover a time for its spread "
            "(interquartile range). Runs is how many times the step ran to measure it.")))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.hide()

        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setStyleSheet(HINT_STYLE)
        translated(self, lambda: self.caption.setToolTip(self.tr("How to read the table.")))
        self._show_caption(kernel_devices().devices)
        kernel_devices().changed.connect(self._on_kernel_devices_changed)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.table)
        layout.addWidget(self.caption)
        self.time_button.clicked.connect(self.start)

    def _show_caption(self, devices: list[Device]) -> None:
        gpus = [d for d in devices if d.id != "cpu"]
        lead = "" if gpus else self.tr("Only the CPU is available on this machine. ")
        self.caption.setText(lead + self.tr(
            "A GPU wins on big tensors and heavy ops such as a large matmul; on small tensors "
            "the CPU usually wins, because starting work on the GPU costs more than the "
            "arithmetic. Copying the inputs to each device is not timed."))

    def _on_kernel_devices_changed(self) -> None:
        self._show_caption(kernel_devices().devices)

    def _model_links(self):
        doc = self._document
        return ((doc.evaluated, self._on_model_evaluated),
                (doc.selection_changed, self._on_model_selection_changed))

    # -- public --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._busy

    def start(self) -> None:
        """Time the selected step on every device the kernel has: it times it, one
        device per question (the window stays free)."""
        index = self._timeable_index()
        if index is None or self._busy:
            return
        doc = self._document
        step = doc.recipe.steps[index]
        devices = kernel_devices().devices
        self._timed_step = step
        self.time_button.setEnabled(False)
        self.progress.setRange(0, len(devices))
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("Starting…"))
        self.progress.show()
        self._say(self.tr("Timing {0} …").format(write_step(step)))
        value = doc.run.results[index].value
        if not isinstance(value, KernelValue):  # _timeable_index: the step ran, in the kernel
            return
        self._busy = True
        self._ask_kernel(value, step, [d.id for d in devices], [])

    def _ask_kernel(self, value: KernelValue, step: Step, devices: list[str],
                    timings: list[Timing]) -> None:
        """Ask the kernel to time ``step`` on the next of ``devices``; the last answer
        shows them all."""
        if len(timings) == len(devices):
            self._show_timings(timings)
            return
        device = devices[len(timings)]
        self._show_progress(None, (len(timings), len(devices), device))
        args = {"run": value.run_id, "text": on_device(write_step(step), device),
                "reads": list(step.reads), "device": device, "min_run_time": self.min_run_time}

        def answered(data: dict | None, error: str) -> None:
            if error or not data:
                self._show_failure(error or self.tr("The kernel did not answer."))
                return
            timings.append(Timing(**data))
            self._ask_kernel(value, step, devices, timings)
        if not self._document.ask("timing", args, while_alive(self, answered)):
            self._show_failure(self.tr("The kernel has stopped: run the recipe again."))

    # -- the kernel's answers to view ------------------------------------------------------
    def _show_progress(self, _key: object, progress: tuple[int, int, str]) -> None:
        i, n, device = progress
        self.progress.setValue(i)
        self.progress.setFormat(self.tr("Timing on {0} ({1}/{2})").format(device, i + 1, n))

    def _show_timings(self, timings: list[Timing]) -> None:
        self.timings = list(timings)
        self.table.setRowCount(len(timings))
        ok = [t.median_s for t in timings if t.ok]
        best = min(ok) if ok else None
        bold = QFont(self.font())
        bold.setBold(True)
        for row, t in enumerate(timings):
            device = QTableWidgetItem(t.device)
            if t.ok:
                median = QTableWidgetItem(fmt(t.median_s))
                median.setToolTip(self.tr("median {0}, interquartile range {1}").format(
                    fmt(t.median_s), fmt(t.iqr_s)))
                if t.median_s == best and len(ok) > 1:
                    median.setFont(bold)
                    device.setFont(bold)
            else:
                median = QTableWidgetItem(self.tr("failed"))
                median.setToolTip(t.error)
                device.setToolTip(t.error)
            runs = QTableWidgetItem(str(t.runs))
            for col, item in enumerate((device, median, runs)):
                self.table.setItem(row, col, item)
        self.table.setFixedHeight(self.table.horizontalHeader().height()
                                  + sum(self.table.rowHeight(r) for r in range(len(timings)))
                                  + 2 * self.table.frameWidth())
        self.table.show()
        if self._timed_step is not None:
            self._say(self.tr("Timed {0}").format(write_step(self._timed_step)))
        self._done()

    def _show_failure(self, message: str) -> None:
        self._say(message, error_style())
        self._done()

    def _say(self, text: str, style: str = "") -> None:
        self.status.setText(text)
        set_style_sheet(self.status, style)
        self.status.setVisible(bool(text))

    def _done(self) -> None:
        self._busy = False
        self.progress.hide()
        self._sync_button()
        self.finished.emit()

    # -- model to view ---------------------------------------------------------------------------
    def _on_model_selection_changed(self, index: int | None) -> None:
        if not self._busy:
            self.timings = []
            self.table.setRowCount(0)
            self.table.hide()
            self._say(self.tr("Select a step, then press Time it.") if index is None else "",
                      HINT_STYLE)
        self._sync_button()

    def _on_model_evaluated(self, _run: object) -> None:
        self._sync_button()

    def _sync_button(self) -> None:
        index = self._timeable_index()
        self.time_button.setEnabled(index is not None and not self._busy)
        if index is None:
            self.time_button.setToolTip(self.tr(
                "Select a step that ran without an error to time it."))
        else:
            self.time_button.setToolTip(self.tr(
                "Run the selected step many times on every device and show the median time "
                "of one run."))

    def _timeable_index(self) -> int | None:
        doc = self._document
        index = doc.selected
        if index is None or index >= len(doc.run.results):
            return None
        result = doc.run.results[index]
        if not result.ok or result.step.is_code or not isinstance(result.value, KernelValue) \
                or result.step.op in UNTIMED_OPS:
            return None
        return index


if __name__ == "__main__":
    import sys

    from PySide6.QtWidgets import QApplication

    from app.recipe.header import TORCH_LINE
    from app.recipe.reader import read_recipe
    from widgets.common.kernel_hook import run_demo

    app = QApplication(sys.argv)
    doc = Document(read_recipe(TORCH_LINE + "x = torch.ones(500, 500)\ny = x @ x\n"))
    doc.select(1)
    view = TimingView(doc)
    view.resize(360, 240)
    sys.exit(run_demo(app, doc, view))
