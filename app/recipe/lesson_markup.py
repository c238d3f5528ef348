"""A lesson's text as the Markdown a pane renders, so that it shows as it was written.

Qt-free. Lessons are written the way notes are: code stands bare in the prose
(``super(Net, self).__init__()``, ``16 * 5 * 5``, ``grad_fn=<AddmmBackward0>``), and
Markdown would take some of it for markup: ``__init__`` turns bold, ``<AddmmBackward0>``
is dropped as an HTML tag, ``a*b*c`` goes italic. So before a pane renders a lesson,
every character Markdown would eat is escaped, outside code spans, fenced and indented
code blocks and links, which render exactly as they are:

- ``_``, ``\\``, ``<``, ``&`` and ``~`` always (lessons emphasise with ``*``, never
  ``_``; an ``<https://...>`` link stays a link);
- a ``*`` run unless it opens emphasis at a word's start or closes it at a word's end
  (``*word*``, ``**bold**``), or stands alone (a list's bullet, ``16 * 5``).

Headings, lists, ``**bold**``, ``*italic*``, code spans, fenced blocks and links keep
their meaning. A reStructuredText docstring (``app.recipe.rest``) is turned into
Markdown first.
"""

from __future__ import annotations

import re

from app.recipe.lesson_text import CJK_TEXT, for_display, is_in
from app.recipe.rest import is_restructured_text, rest_to_markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_INLINE = re.compile(
    r"(?P<code>(?<!`)(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`))"
    r"|(?P<autolink><(?:https?|ftp|mailto):[^\s<>]*>)"
    r"|(?P<destination>(?<=\])\([^()\s]*\))"
    r"|(?P<url>(?:https?://|www\.)[^\s<>()]*[^\s<>().,;:!?'\"])"
    r"|(?P<stars>\*+)"
    r"|(?P<char>[\\_<&~`])", re.DOTALL)
#: Characters after which a ``*`` may open emphasis, before which one may close it.
_OPENING = "([{\"'\u201c\u2018"
_CLOSING = ")]}\"'.,;:!?\u201d\u2019"


def lesson_markdown(lesson: str) -> str:
    """The Markdown a pane renders for ``lesson``: its title line as a heading, then its text.

    Parameters
    ----------
    lesson : str
        A lesson's text, title line first (``app.recipe.lesson_text.lesson_text``), in
        Markdown or reStructuredText.

    Returns
    -------
    str
        Markdown whose rendering shows every character of the lesson's code, bare or in
        code spans and blocks, as written.
    """
    text = lesson.strip()
    if is_restructured_text(text):
        text = rest_to_markdown(text)
    else:
        title, _, body = text.partition("\n")
        text = f"### {title.strip()}\n\n{body.strip()}"
    return shown_as_written(text)


def shown_as_written(markdown: str) -> str:
    """``markdown`` with what Markdown would eat escaped, outside its code (see the module)."""
    out: list[str] = []
    prose: list[str] = []
    fence = ""
    previous = ""  # the last line outside a fenced block, for indented code
    for line in markdown.splitlines():
        if fence:
            out.append(line)
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = ""
            continue
        opening = _FENCE.match(line)
        indented = line.startswith(("    ", "\t")) and line.strip() and (
            not previous.strip() and not (prose and _LIST_ITEM.match(prose[-1]))
            or out and not prose and out[-1].startswith(("    ", "\t")))
        if opening or indented:
            out += _escaped_prose(prose)
            prose = []
            out.append(line)
            fence = opening.group(1) if opening else ""
        else:
            prose.append(line)
        previous = line
    out += _escaped_prose(prose)
    return "\n".join(out)


def _escaped_prose(lines: list[str]) -> list[str]:
    if not lines:
        return []
    text = for_display("\n".join(lines))
    return _INLINE.sub(lambda m: _escape(m, text), text).split("\n")


def _escape(match: re.Match, text: str) -> str:
    kind = match.lastgroup
    if kind == "char":
        return "\\" + match.group()
    if kind != "stars":
        return match.group()  # code, a link: as it is
    start, end = match.span()
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isspace() and after.isspace():
        return match.group()  # a bullet, or a product written with spaces
    opens = (before.isspace() or before in _OPENING or is_in(before, CJK_TEXT)) and after.isalnum()
    closes = not before.isspace() and (after.isspace() or after in _CLOSING
                                       or is_in(after, CJK_TEXT))
    return match.group() if opens or closes else "\\*" * len(match.group())
