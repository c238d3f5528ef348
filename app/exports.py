"""Exports that need no window: a tensor as Python or CSV, metrics as CSV, a lesson as HTML.

Qt-free. ``widgets.shell.exports`` and ``widgets.common.plot_export`` put these on the
clipboard and in files, and add the figures (PNG images of the views) that only Qt draws.

* ``tensor_literal(t)`` is Python that a recipe may hold and that builds an equal
  tensor: ``torch.tensor([[1.0, 2.0]], dtype=torch.float32)``. Every element is written
  with the fewest digits that read back to the same value of its dtype; NaN and
  infinities as ``float("nan")``, ``float("inf")``.
* ``tensor_csv(t)`` writes a 0-, 1- or 2-D tensor as rows of numbers that
  ``numpy.loadtxt(..., delimiter=",")`` reads back exactly.
* ``table_csv(columns)`` writes named columns (training metrics, timings...).
* ``lesson_html(...)`` is one self-contained page: title, lesson text, figures as
  ``data:`` PNGs, the highlighted code and the printed output.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from app.recipe.rest import is_restructured_text, rest_to_markdown

if TYPE_CHECKING:
    import torch

#: Above this many elements a literal is refused: the recipe reader takes at most 500,000.
LITERAL_LIMIT = 100_000


# -- tensors -----------------------------------------------------------------------------------
def tensor_literal(t: torch.Tensor) -> str:
    """Python for ``t``: ``torch.tensor(...)`` with its dtype, readable by ``app.recipe.reader``.

    Raises ``ValueError`` above ``LITERAL_LIMIT`` elements or for dtypes a recipe
    cannot name.
    """
    t = t.detach()
    if t.numel() > LITERAL_LIMIT:
        raise ValueError(f"{t.numel():,} elements are too many for a literal "
                         f"(at most {LITERAL_LIMIT:,})")
    dtype = str(t.dtype)
    if t.dtype.is_complex is False and dtype not in _ELEMENT_FORMATS:
        raise ValueError(f"a recipe cannot write tensors of {dtype}")
    if t.numel() == 0:
        sizes = ", ".join(str(s) for s in t.shape)
        return f"torch.zeros({sizes}, dtype={dtype})" if sizes else \
            f"torch.zeros((), dtype={dtype})"
    values = _as_numpy(t.cpu())
    fmt = _element_format(t.dtype)
    return f"torch.tensor({_nested(values, fmt)}, dtype={dtype})"


def tensor_csv(t: torch.Tensor) -> str:
    """Comma-separated values of a tensor of at most two dimensions, one line per row.

    A 0-D tensor is one value, a 1-D tensor one row. Floats keep every digit their dtype
    holds; NaN and infinities are written ``nan``, ``inf``, ``-inf``.
    """
    t = t.detach().cpu()
    if t.ndim > 2:
        raise ValueError(f"CSV holds at most two dimensions, not {t.ndim}; "
                         "export one plane")
    values = _as_numpy(t)
    rows = values.reshape(1, -1) if values.ndim < 2 else values
    fmt = _element_format(t.dtype)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([_csv_cell(v, fmt) for v in row])
    return out.getvalue()


def plane_csv(values: np.ndarray) -> str:
    """CSV of a 2-D numpy array (the plane a viewer shows)."""
    import torch

    return tensor_csv(torch.from_numpy(np.ascontiguousarray(values)))


def table_csv(columns: Mapping[str, Sequence[object]]) -> str:
    """CSV with a header row of the column names, then one row per index.

    Columns may have different lengths (metrics logged at different steps); missing
    cells are empty. Floats keep their full precision.
    """
    names = list(columns)
    length = max((len(c) for c in columns.values()), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for i in range(length):
        writer.writerow([_table_cell(columns[n][i]) if i < len(columns[n]) else ""
                         for n in names])
    return out.getvalue()


def _table_cell(value: object) -> str:
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    return str(value)


def _as_numpy(t: torch.Tensor) -> np.ndarray:
    if str(t.dtype) == "torch.bfloat16":
        return t.float().numpy()  # exact: every bfloat16 is a float32
    return t.numpy()


def _element_format(dtype: torch.dtype):
    if dtype.is_complex:
        part = _ELEMENT_FORMATS["torch.float32" if str(dtype) == "torch.complex64"
                                else "torch.float64"]

        def complex_text(v: complex) -> str:
            re_, im = part(v.real), part(v.imag)
            if not (math.isfinite(v.real) and math.isfinite(v.imag)):
                raise ValueError("a literal cannot hold a complex NaN or infinity")
            sign = "-" if im.startswith("-") else "+"
            return f"({re_} {sign} {im.lstrip('-')}j)"
        return complex_text
    return _ELEMENT_FORMATS[str(dtype)]


def _float_text(kind):
    def text(v) -> str:
        f = float(v)
        if math.isnan(f):
            return 'float("nan")'
        if math.isinf(f):
            return 'float("inf")' if f > 0 else 'float("-inf")'
        s = str(kind(v))  # numpy's shortest text that reads back to the same value
        return s if any(c in s for c in ".en") else s + ".0"
    return text


#: How each dtype a literal can hold writes an element, by the dtype's name.
_ELEMENT_FORMATS = {
    "torch.float16": _float_text(np.float16),
    "torch.bfloat16": _float_text(np.float32),
    "torch.float32": _float_text(np.float32),
    "torch.float64": _float_text(np.float64),
    "torch.bool": lambda v: "True" if v else "False",
    **{f"torch.{d}": (lambda v: str(int(v))) for d in ("uint8", "int8", "int16", "int32",
                                                      "int64")},
}


def _nested(values: np.ndarray, fmt) -> str:
    if values.ndim == 0:
        return fmt(values.item() if values.dtype.kind == "c" else values[()])
    if values.ndim == 1:
        items = values.tolist() if values.dtype.kind == "c" else values
        return "[" + ", ".join(fmt(v) for v in items) + "]"
    return "[" + ", ".join(_nested(row, fmt) for row in values) + "]"


def _csv_cell(v, fmt) -> str:
    if isinstance(v, np.complexfloating):
        return str(complex(v))
    text = fmt(v)
    return {'float("nan")': "nan", 'float("inf")': "inf", 'float("-inf")': "-inf"}.get(text,
                                                                                      text)


# -- the lesson as one page ------------------------------------------------------------------
@dataclass(frozen=True)
class Figure:
    """A picture for the handout: PNG bytes and a caption."""

    caption: str
    png: bytes


def lesson_html(title: str, lesson: str, code: str, figures: Sequence[Figure] = (),
                output: str = "", *, labels: Mapping[str, str] | None = None) -> str:
    """One self-contained HTML page for a lesson; nothing in it loads from elsewhere.

    Parameters
    ----------
    title : str
        The recipe's title.
    lesson : str
        The lesson text (the docstring after its first line), in the Markdown subset the
        lesson pane shows: paragraphs, ``#`` headings, ``-`` lists, ```code```,
        ``**bold**`` and ``*italic*``.
    code : str
        The recipe as Python; highlighted with Pygments.
    figures : sequence of Figure
        Embedded as ``<img src="data:image/png;base64,...">``.
    output : str
        What the recipe's print steps wrote.
    labels : mapping, optional
        Translated section headings: ``figures``, ``code``, ``output``, ``generator``.
    """
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    words = {"figures": "Figures", "code": "The recipe", "output": "Output",
             "generator": "Made with Tensor Lab", **(labels or {})}
    formatter = HtmlFormatter(cssclass="code", nowrap=False)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<style>",
        _PAGE_CSS,
        formatter.get_style_defs(".code"),
        "</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<section class="lesson">{markdown_html(lesson)}</section>',
    ]
    if figures:
        parts.append(f"<h2>{html.escape(words['figures'])}</h2>")
        for fig in figures:
            data = base64.b64encode(fig.png).decode("ascii")
            parts.append(f'<figure><img src="data:image/png;base64,{data}" '
                         f'alt="{html.escape(fig.caption, quote=True)}">'
                         f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>")
    parts.append(f"<h2>{html.escape(words['code'])}</h2>")
    # stripnl=False: Pygments would drop the code's leading and trailing blank lines
    parts.append(highlight(code, PythonLexer(stripnl=False), formatter))
    if output:
        parts.append(f"<h2>{html.escape(words['output'])}</h2>")
        parts.append(f'<pre class="output">{html.escape(output)}</pre>')
    parts.append(f'<footer>{html.escape(words["generator"])}</footer>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


_PAGE_CSS = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em;
       line-height: 1.5; color: #1a1a1a; background: #ffffff; }
h1 { font-size: 1.8em; margin-bottom: 0.3em; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid #b8b8b8; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Consolas, monospace; }
.code pre, pre.output { padding: 0.8em; overflow-x: auto; border: 1px solid #b8b8b8;
                        border-radius: 4px; }
pre.output { background: #f6f6f6; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #b8b8b8; }
figcaption { color: #555555; font-size: 0.9em; }
footer { margin-top: 3em; color: #767676; font-size: 0.8em; }
"""


def markdown_html(text: str) -> str:
    """HTML for the small Markdown subset lesson texts use; everything else is escaped.

    Fenced code blocks keep their lines as written; a reStructuredText text (the form
    pytorch/tutorials docstrings take) is turned into Markdown first
    (``app.recipe.rest``).
    """
    if is_restructured_text(text):
        text = rest_to_markdown(text)
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    fence: list[str] = []  # the opening fence, then the block's lines

    def flush() -> None:
        if paragraph:
            blocks.append("<p>" + _inline(" ".join(paragraph)) + "</p>")
            paragraph.clear()
        if items:
            blocks.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if fence:
            if line.startswith(fence[0]) and not line.strip(fence[0][0]):
                blocks.append("<pre><code>" + html.escape("\n".join(fence[1:])) + "</code></pre>")
                fence.clear()
            else:
                fence.append(raw)
            continue
        opening = re.match(r"^ {0,3}(`{3,}|~{3,})", raw)
        if opening:
            flush()
            fence.append(opening.group(1))
            continue
        heading = re.match(r"(#{1,6})\s+(.*)", line)
        bullet = re.match(r"[-*]\s+(.*)", line)
        if not line:
            flush()
        elif heading:
            flush()
            level = min(len(heading.group(1)) + 1, 6)  # the page's own title is the h1
            blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet:
            if paragraph:
                flush()
            items.append(bullet.group(1))
        elif items and raw[:1].isspace():
            items[-1] += " " + line
        else:
            if items:
                flush()
            paragraph.append(line)
    flush()
    if fence:  # a block never closed runs to the end, as in Markdown
        blocks.append("<pre><code>" + html.escape("\n".join(fence[1:])) + "</code></pre>")
    return "\n".join(blocks)


#: A code span: a run of backticks, its text, the same run again (``x``, ```` ``a`b`` ````).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def _inline(text: str) -> str:
    out: list[str] = []
    for i, part in enumerate(_CODE_SPAN.split(text)):
        if i % 3 == 1:
            continue  # the span's backticks
        if i % 3 == 2:
            out.append(f"<code>{html.escape(part.strip() or part)}</code>")
            continue
        part = html.escape(part)
        part = re.sub(r"\[([^\]]+)\]\(([^()\s]+)\)", r'<a href="\2">\1</a>', part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", part)
        out.append(part)
    return "".join(out)
