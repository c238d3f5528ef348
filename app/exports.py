"""Exports that need no window: a tensor as Python or CSV, metrics as CSV, a lesson as HTML.

Qt-free. ``widgets.shell.exports`` and ``widgets.common.plot_export`` put these on the
clipboard and in files, and add the figures (PNG images of the views) that only Qt draws.

* ``tensor_literal(t)`` and ``tensor_csv(t)``: a tensor as Python or CSV
  (``protocol.tensor_text``, where the kernel writes its tensors); ``plane_csv`` a
  plane the viewer shows, as CSV, without torch.
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

import numpy as np

from app.recipe.rest import is_restructured_text, rest_to_markdown
from protocol.tensor_text import LITERAL_LIMIT, array_csv, tensor_csv, tensor_literal

__all__ = ["LITERAL_LIMIT", "Figure", "lesson_html", "markdown_html", "plane_csv", "table_csv",
           "tensor_csv", "tensor_literal"]


def plane_csv(values: np.ndarray) -> str:
    """CSV of a 2-D numpy array (the plane a viewer shows), without torch."""
    return array_csv(values)


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
