"""A recipe of thousands of statements: each of the kernel's reports costs the window work
for the steps it is about, never a pass over every step (issue 32: 5,000 statements ran
quadratically). The reports are the kernel's own messages, fed to a real ``Document``
and its views; what each costs is counted (rows written, full layouts), never timed.
"""

from __future__ import annotations

from app.link.events import Ended, RunMessage
from app.recipe.document import Document
from app.recipe.kernel_results import KernelRunState, KernelValue, tensor_names
from app.recipe.reader import read_recipe
from protocol import messages


def _running(n: int, text: str = "") -> tuple[Document, KernelRunState]:
    """A document of ``n`` statements (``text``) whose run the kernel is about to report."""
    text = text or "x = 0\n" + "".join(f"y{i} = x + {i}\n" for i in range(1, n))
    doc = Document()
    doc.set_source(text)  # statement i is step i, on line i + 1
    state = KernelRunState(doc.recipe, doc.recipe.source, doc.run, 7)
    doc.kernel_run = state  # as ``Document._run_in_kernel`` leaves it (no kernel here)
    return doc, state


def _shown_steps(qtbot, doc: Document, height: int):
    """The document's steps panel, shown."""
    from widgets.recipe.steps_panel import StepsPanel

    panel = StepsPanel(doc, None)
    qtbot.addWidget(panel)
    panel.resize(260, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _done(i: int, names: dict | None = None) -> RunMessage:
    return RunMessage(7, messages.StepDone(i, i + 1, 0.0, names=names or {}))


def test_each_report_of_a_long_run_redraws_only_the_rows_of_its_own_steps(qtbot, monkeypatch):

    n = 600
    doc, _state = _running(n)
    panel = _shown_steps(qtbot, doc, 400)
    # every row written for the run (those past the screen's come in parts, after)
    qtbot.waitUntil(lambda: all(panel.list.item(i).text().startswith("◌") for i in range(n)))
    written, layouts = [], []
    real_text = doc.step_text  # a step's code as written, read from the text
    monkeypatch.setattr(doc, "step_text", lambda i: written.append(i) or real_text(i))
    real_layout = panel.list.doItemsLayout
    monkeypatch.setattr(panel.list, "doItemsLayout", lambda: layouts.append(1) or real_layout())
    for i in range(n):
        doc.take_kernel_events([_done(i)])
        assert panel.list.item(i).text().startswith("●")  # shown as the report came
    # a report writes no step's text (each was written once, for the run) and lays out
    # no row but its own: the rows are one size, the widest row's
    assert written == []
    assert len(layouts) <= 2  # the widest row may change once or twice, not per report
    assert panel.list.item(n - 1).text() == f"●  y{n - 1} = x + {n - 1}"
    doc.take_kernel_events([RunMessage(7, messages.Done(0)), Ended(7, "", 0)])
    assert all(panel.list.item(i).text().startswith("●") for i in range(n))


def test_the_steps_list_is_as_wide_as_its_widest_row(qtbot):
    doc, _state = _running(3)
    panel = _shown_steps(qtbot, doc, 300)
    bar = panel.list.horizontalScrollBar()
    assert bar.maximum() == 0
    # a middle row far wider than the list, the last one short: all rows are as wide
    # as the widest, so the list scrolls to show it whole
    doc.recipe.restore(read_recipe("x = 0\ny = x + 123456789012345678901234567890123456789\n"
                                   "z = x\n").snapshot())
    wide = panel.list.fontMetrics().horizontalAdvance(panel.list.item(1).text())
    assert bar.maximum() > 0
    assert bar.maximum() + panel.list.viewport().width() >= wide


def test_the_tensor_names_follow_each_report_as_a_scan_of_every_step_finds_them():
    doc, _state = _running(40)
    tensor = {"type": "Tensor", "shape": [3]}
    number = {"type": "int", "value": 1}
    expected: dict[str, bool] = {}  # a name holds what its last binding put in it
    for i in range(40):
        names = {"x": tensor if i % 3 else number, f"y{i}": tensor if i % 2 else number}
        doc.take_kernel_events([_done(i, names)])
        for name, summary in names.items():
            expected[name] = summary["type"] == "Tensor"
        assert tensor_names(doc.run) == {n for n, t in expected.items() if t}
    # a step that reports again with fewer names: the earlier binding counts again
    results = doc.run.results
    results[39].value = KernelValue({}, statement=39)
    doc.run.touch([39])
    expected = {}
    for r in results:
        for name, summary in r.value.names.items():
            expected[name] = summary["type"] == "Tensor"
    assert tensor_names(doc.run) == {n for n, t in expected.items() if t}


def test_a_report_that_changes_no_tensor_name_leaves_the_op_panels_choices_alone(qtbot):
    """The Ops panel offers the tensors a new step can take: a run's report that changes
    none of them fills its list of inputs again no more (it did after every report)."""
    from widgets.ops.op_panel import OpPanel

    n = 300
    doc, _state = _running(n, "import torch\nx = torch.zeros(3)\n" + "x = x + 1\n" * (n - 2))
    panel = OpPanel(doc, None)
    qtbot.addWidget(panel)
    tensor = {"type": "Tensor", "shape": [3]}
    doc.take_kernel_events([_done(0, {"torch": {"type": "module"}}), _done(1, {"x": tensor})])
    offered = [panel.input_combo.itemText(i) for i in range(panel.input_combo.count())]
    refills = []
    panel.input_combo.model().modelReset.connect(lambda: refills.append(1))
    panel.input_combo.model().rowsRemoved.connect(lambda *_: refills.append(1))
    for i in range(2, n):
        doc.take_kernel_events([_done(i, {"x": tensor})])
    assert refills == []
    assert [panel.input_combo.itemText(i) for i in range(panel.input_combo.count())] == offered
    assert offered == ["x"]


def test_a_recipe_of_5000_statements_finishes_in_the_window_and_every_step_gets_its_result(
        make_window, tmp_path):
    """Issue 32's recipes in a real window and its kernel: 5,000 statements, each binding
    a name of its own (its kernel's part was quadratic), then each rebinding one tensor.
    Every step shows python's value; the window prints what python prints."""
    import subprocess
    import sys

    n = 5000
    own = tmp_path / "own_names.py"
    own.write_text("x0 = 0\n" + "".join(f"x{i} = x{i - 1} + 1\n" for i in range(1, n - 1))
                   + f"print(x{n - 2})\n", encoding="utf-8")
    window = make_window(str(own))  # waits for the run's end (at most two minutes)
    document = window.document
    python = subprocess.run([sys.executable, str(own)], capture_output=True, text=True)
    assert document.output == python.stdout == f"{n - 2}\n"
    results = document.run.results
    assert len(results) == n and all(r.status == "ok" for r in results)
    assert results[1234].value.names == {"x1234": {"type": "int", "value": 1234}}

    from tools.bench_scale import recipe_text

    tensors = tmp_path / "one_tensor.py"
    tensors.write_text(recipe_text(n), encoding="utf-8")
    document.open(tensors)
    window.settle()
    python = subprocess.run([sys.executable, str(tensors)], capture_output=True, text=True)
    assert document.output == python.stdout
    results = document.run.results
    assert results and all(r.status == "ok" for r in results)
    assert results[-2].value.names["t"]["values"] == [n - 3.0] * 3  # t = t + 1, n - 3 times


def test_a_new_run_of_many_steps_shows_the_rows_on_screen_at_once_and_the_rest_after(qtbot):
    import widgets.recipe.steps_panel as steps_panel

    chunk = getattr(steps_panel, "ROW_CHUNK", 200)  # (rows written beyond the screen's)
    n = 3000
    doc, _state = _running(n)
    panel = _shown_steps(qtbot, doc, 300)
    qtbot.waitUntil(lambda: all(panel.list.item(i).text().startswith("◌") for i in range(n)))
    doc.take_kernel_events([_done(i) for i in range(n)])  # one take of a whole run
    done = [i for i in range(n) if panel.list.item(i).text().startswith("●")]
    assert 0 in done and len(done) < 2 * chunk  # the rows on screen, and a part
    qtbot.waitUntil(lambda: all(panel.list.item(i).text().startswith("●") for i in range(n)))


def test_a_flood_of_reports_is_taken_in_parts_each_in_a_frame_of_its_own(qtbot, tmp_path):
    """The window was busy while the kernel ran 3,000 statements: their 6,000 reports wait
    in the queue. The window takes them in parts of a few milliseconds' work, not all in
    one go (a freeze of the window), and every step still gets its result."""
    import time

    from PySide6.QtWidgets import QWidget

    from app.link.session import KernelSession
    from widgets.common.kernel_hook import KernelHook

    n = 3000
    doc = Document()
    doc.kernel = KernelSession()
    owner = QWidget()
    qtbot.addWidget(owner)
    hook = KernelHook(doc, owner)
    taken = []
    take = doc.take_kernel_events
    doc.take_kernel_events = lambda events: taken.append(len(events)) or take(events)
    try:
        doc.set_source("x = 0\n" + "x = x + 1\n" * (n - 1))
        deadline = time.monotonic() + 120
        waiting = doc.kernel._events._items  # (read only: the reports the window has not taken)
        while len(waiting) < 2 * n and time.monotonic() < deadline:
            time.sleep(0.05)  # the window busy: the kernel's reports wait for it
        assert len(waiting) >= 2 * n
        qtbot.waitUntil(lambda: doc.kernel_run is None, timeout=120_000)
        assert all(r.status == "ok" for r in doc.run.results)
        assert len(taken) > 3 and max(taken) < n  # in parts, none of half of them
    finally:
        hook.close()


def test_a_long_recipe_is_coloured_off_the_gui_thread(qtbot, monkeypatch):
    """Opening 5,000 lines lexed them with Pygments on the GUI thread (a second's freeze);
    now the text shows at once and its colours follow, worked out in the background."""
    import threading

    import widgets.common.highlighter as highlighter
    from widgets.recipe.code_pane import CodePane

    lexed_on = []
    tokens = highlighter._tokens
    monkeypatch.setattr(highlighter, "_tokens", lambda lexer, text: lexed_on.append(
        threading.current_thread() is threading.main_thread()) or tokens(lexer, text))
    get_tokens = highlighter.PythonLexer.get_tokens
    monkeypatch.setattr(highlighter.PythonLexer, "get_tokens", lambda self, text: lexed_on.append(
        threading.current_thread() is threading.main_thread()) or get_tokens(self, text))
    text = "import torch\nt = torch.zeros(3)\n" + "t = t + 1  # one more\n" * 4998
    doc = Document()
    pane = CodePane(doc)
    qtbot.addWidget(pane)
    lexed_on.clear()
    doc.set_source(text)
    assert pane.text() == text  # at once
    qtbot.waitUntil(lambda: 4000 in pane._highlighter.spans, timeout=30_000)
    assert lexed_on and not any(lexed_on)  # never on the GUI thread
    block = pane.editor.document().findBlockByNumber(4000)
    qtbot.waitUntil(lambda: any(r.format.foreground().color().name() == "#8e908c"
                                for r in block.layout().formats()))  # the comment's colour
