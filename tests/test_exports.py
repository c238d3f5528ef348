"""Exports: a tensor as Python and as CSV, plots as PNG and SVG, the lesson as one HTML page."""

from __future__ import annotations

import base64
import html
import io
import os
import re
import sys

import numpy as np
import pytest
import torch

from app.exports import (
    LITERAL_LIMIT,
    markdown_html,
    plane_csv,
    table_csv,
    tensor_csv,
    tensor_literal,
)
from app.recipe.reader import read_recipe
from tests.python_run import run_python

TENSORS = {
    "float32 with nan and inf": torch.tensor([[0.1, float("nan")], [float("inf"), -2.5]]),
    "float64": torch.randn(3, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(1)),
    "float16": (torch.arange(6, dtype=torch.float32) / 7).reshape(2, 3).half(),
    "bfloat16": (torch.arange(5, dtype=torch.float32) / 3 - 1).bfloat16(),
    "int64 extremes": torch.tensor([-2**63, 0, 2**63 - 1]),
    "uint8": torch.tensor([0, 255], dtype=torch.uint8),
    "bool": torch.tensor([[True, False], [False, True]]),
    "0-d": torch.tensor(3.5),
    "empty": torch.zeros(0, 3),
    "3-d": torch.arange(24.0).reshape(2, 3, 4) / 10,
    "tiny and huge": torch.tensor([1e-30, 1e30, 1.0, -0.0]),
    "complex64": torch.tensor([1 + 2j, -0.5 - 1e-3j], dtype=torch.complex64),
}


def _read_back(literal: str) -> torch.Tensor:
    run = run_python(read_recipe(f"import torch\nx = {literal}\n"))
    assert run.results[0].status == "ok", run.results[0].error
    return run.results[0].value


@pytest.mark.parametrize("name", list(TENSORS))
def test_a_tensor_literal_reads_back_to_an_equal_tensor(name):
    t = TENSORS[name]
    back = _read_back(tensor_literal(t))
    assert back.dtype == t.dtype and back.shape == t.shape
    torch.testing.assert_close(back, t, rtol=0, atol=0, equal_nan=True)


def test_a_literal_is_plain_and_short():
    assert tensor_literal(torch.tensor([[1.0, 2.5]])) == \
        "torch.tensor([[1.0, 2.5]], dtype=torch.float32)"
    assert tensor_literal(torch.tensor([0.1])) == "torch.tensor([0.1], dtype=torch.float32)"
    with pytest.raises(ValueError, match="too many"):
        tensor_literal(torch.zeros(LITERAL_LIMIT + 1))


@pytest.mark.parametrize("name", ["float32 with nan and inf", "float64", "float16", "bfloat16",
                                  "int64 extremes", "0-d", "tiny and huge"])
def test_csv_round_trips_with_numpy(name):
    t = TENSORS[name]
    back = np.loadtxt(io.StringIO(tensor_csv(t)), delimiter=",", ndmin=2,
                      dtype=np.int64 if not t.is_floating_point() else np.float64)
    expected = t.to(torch.float32 if t.dtype == torch.bfloat16 else t.dtype).numpy()
    np.testing.assert_array_equal(back.reshape(t.shape).astype(expected.dtype), expected)


@pytest.mark.parametrize("name", [n for n in TENSORS if n not in ("3-d", "bfloat16")])
def test_a_viewed_planes_csv_is_the_tensors_without_torch(name, monkeypatch):
    """The viewer's plane is NumPy: the window writes its CSV as the kernel writes the
    tensor's, with ``import torch`` failing."""
    t = TENSORS[name]
    want, values = tensor_csv(t), t.numpy()
    monkeypatch.setitem(sys.modules, "torch", None)
    assert plane_csv(values) == want


def test_csv_refuses_three_dimensions_and_writes_named_columns():
    with pytest.raises(ValueError, match="at most two"):
        tensor_csv(TENSORS["3-d"])
    assert table_csv({"step": [1, 2, 3], "loss": [0.5, 0.25]}) == \
        "step,loss\n1,0.5\n2,0.25\n3,\n"


def test_lesson_markdown_is_escaped_and_formatted():
    out = markdown_html("Use `x < 3` and **bold**\ntext.\n\n- one\n- two\n\n# Next")
    assert out == ("<p>Use <code>x &lt; 3</code> and <strong>bold</strong> text.</p>\n"
                   "<ul><li>one</li><li>two</li></ul>\n<h2>Next</h2>")


# -- from the window ------------------------------------------------------------------------------
@pytest.mark.gui
def test_copy_as_python_and_csv_put_the_selected_tensor_on_the_clipboard(window):
    from PySide6.QtGui import QGuiApplication

    window.document.select_name("m")  # m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    window.window_actions["edit.copy_literal"].trigger()  # the kernel writes it
    window.settle()
    torch.testing.assert_close(_read_back(QGuiApplication.clipboard().text()),
                               torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    window.window_actions["edit.copy_csv"].trigger()
    window.settle()
    assert QGuiApplication.clipboard().text() == "1.0,2.0,3.0\n4.0,5.0,6.0\n"
    window.window_actions["edit.copy_step"].trigger()
    assert QGuiApplication.clipboard().text() == \
        "m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
    window.window_actions["edit.copy_heatmap"].trigger()
    image = QGuiApplication.clipboard().image()
    assert not image.isNull() and image.width() > 100


@pytest.mark.gui
def test_any_plot_saves_as_png_and_svg(qtbot, tmp_path):
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    from widgets.common.plot_export import save_plot

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(320, 240)
    plot.plot([0, 1, 2], [2, 0, 1])
    save_plot(plot, str(tmp_path / "p.png"))
    save_plot(plot, str(tmp_path / "p.svg"))
    assert not QImage(str(tmp_path / "p.png")).isNull()
    assert "<svg" in (tmp_path / "p.svg").read_text()


@pytest.mark.gui
def test_the_lesson_exports_as_one_html_page(window, tmp_path):
    from PySide6.QtGui import QImage

    window.document.select_name("noise")
    window.settle()  # the viewer has the plane from the kernel
    path = window.exports.export_lesson(str(tmp_path / "lesson.html"))
    page = (tmp_path / "lesson.html").read_text(encoding="utf-8")
    assert path and page.startswith("<!DOCTYPE html>")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for line in window.document.text.splitlines():
        assert line in text  # the code, docstring included
    title, _, body = window.document.recipe.docstring.strip().partition("\n")
    assert f"<h1>{html.escape(title)}</h1>" in page
    assert " ".join(body.split()) in " ".join(text.split())  # the lesson text
    assert window.document.output.splitlines()[0] in text
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 2  # the view shown and the selected tensor's heatmap
    assert all(not QImage.fromData(base64.b64decode(i)).isNull() for i in images)
    assert "http" not in page.replace("https://docs.pytorch.org", "")  # nothing to download


def _exported_code(page: str) -> str:
    """The recipe's code as a lesson page shows it (Pygments' spans taken out)."""
    code = re.search(r'<div class="code"><pre>(.*?)</pre></div>', page, re.S).group(1)
    return html.unescape(re.sub(r"<[^>]+>", "", code))


@pytest.mark.gui
def test_autosave_clipboard_and_lesson_export_write_each_gallery_recipes_own_text(
        qtbot, tmp_path):
    """Every path that writes the whole recipe writes the text on screen: for every
    gallery recipe, byte for byte what its file holds (its comments, Chinese ones
    included, and its order of imports and ``os.environ`` lines)."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QWidget

    from app.recipe.autosave import Autosave, find_recovery
    from app.recipe.document import Document
    from app.resources import RECIPES_DIR
    from tests.test_autosave import dead_pid
    from widgets.shell.autosave_hook import AutosaveHook
    from widgets.shell.exports import TensorExports

    host = QWidget()  # a window's document and its exports; no kernel is needed
    qtbot.addWidget(host)
    host.document = Document()
    exports = TensorExports(host)
    hook = AutosaveHook(host.document, Autosave(tmp_path, pid=dead_pid()), host)
    paths = sorted(RECIPES_DIR.glob("*.py"))
    assert len(paths) > 50
    wrong = []
    for path in paths:
        text = path.read_bytes().decode("utf-8")
        host.document.set_source(text)  # pasted into a new recipe: unsaved work
        assert host.document.text == text
        hook.save_now()
        recovered = find_recovery(tmp_path, own_pid=os.getpid())
        exports.copy_recipe_code()
        written = {"autosave": hook.autosave.recipe_file.read_bytes(),
                   "recovery": recovered.text.encode("utf-8"),
                   "clipboard": QGuiApplication.clipboard().text().encode("utf-8"),
                   "lesson export": _exported_code(exports.lesson_page()).encode("utf-8")}
        wrong += [f"{path.name}: {way}" for way, data in written.items()
                  if data != path.read_bytes()]
    hook.finish()
    assert not wrong, f"{len(wrong)} writes differ from the file: {wrong[:12]}"


def test_lesson_page_keeps_code_blocks_as_written_and_reads_restructured_text():
    out = markdown_html("Text `a_b` and ``x`y``.\n\n```python\nclass Net(nn.Module):\n"
                        "    def __init__(self):\n        x = a * b < c & d\n```\n\nAfter.")
    assert out == ("<p>Text <code>a_b</code> and <code>x`y</code>.</p>\n"
                   "<pre><code>class Net(nn.Module):\n    def __init__(self):\n"
                   "        x = a * b &lt; c &amp; d</code></pre>\n<p>After.</p>")
    rest = markdown_html("See `the docs <https://pytorch.org/docs>`_ and :math:`x^2`.\n\n"
                         "Try::\n\n    y = x.sum()\n    y.backward()\n")
    assert rest == ('<p>See <a href="https://pytorch.org/docs">the docs</a> and '
                    "<code>x^2</code>.</p>\n<p>Try:</p>\n"
                    "<pre><code>y = x.sum()\ny.backward()</code></pre>")
