"""reStructuredText docstrings, as pytorch/tutorials files write them, turned into Markdown.

Qt-free. The lesson pane renders Markdown; a tutorial's docstring is reST: a title
underlined with ``=====``, ``:math:`` and ``:class:`` roles, `` `text <url>`_ `` links,
``.. code-block::`` and ``::`` literal blocks, ``.. note::`` admonitions. This is a small
converter for that common subset, not a reST parser (docutils is not a dependency):
what it does not know stays as text, readable, never dropped.
"""

from __future__ import annotations

import re
import textwrap

#: A section title's underline (or overline): one punctuation character, repeated.
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+:.<>_])\1{2,}\s*$")
_ROLE = re.compile(r":(?:py:)?([a-z][\w-]*):`([^`]+)`")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w-]+)::\s*(.*)$")
_TARGET = re.compile(r"^\s*\.\.\s+_[^:]*:.*$")
_LINK = re.compile(r"`([^`<]+?)\s*<([^`>]+)>`__?")
_REFERENCE = re.compile(r"`([^`<]+)`__?(?!\w)")
_ENUMERATED = re.compile(r"^(\s*)#\.\s")
#: Directives whose content is code (shown as a fenced block), with the fence's language.
_CODE_DIRECTIVES = {"code-block": None, "code": None, "sourcecode": None, "math": "text",
                    "testcode": "python", "doctest": "python"}
#: Directives whose only use is a picture or a page layout: the argument is named, no more.
_FIGURES = {"figure", "image"}


def is_restructured_text(text: str) -> bool:
    """Whether ``text`` is reST rather than Markdown.

    Roles (``:math:`x```), directives (``.. note::``), `` `text <url>`_ `` links and
    ``.. _target:`` lines are reST only. A title underlined with ``===`` alone is not
    enough: Markdown has that heading too, and renders it the same.
    """
    return bool(_ROLE.search(text) or _LINK.search(text)
                or any(_DIRECTIVE.match(line) or _TARGET.match(line)
                       for line in text.splitlines()))


def rest_to_markdown(text: str) -> str:
    """Markdown that shows what the reST ``text`` shows.

    Titles become headings (``###`` for the first level met, then ``####``...),
    literal blocks (``::``, ``.. code-block::``, ``.. math::``) fenced code, roles and
    ``literals`` code spans, `` `text <url>`_ `` links, admonitions quoted paragraphs.
    """
    lines = textwrap.dedent(text.strip("\n")).splitlines()
    out: list[str] = []
    levels: list[str] = []  # adornment characters, in the order titles use them
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        after = lines[i + 2] if i + 2 < len(lines) else ""
        title_under = (line.strip() and not _ADORNMENT.match(line) and _ADORNMENT.match(nxt)
                       and len(nxt.rstrip()) >= len(line.rstrip()) - 1)
        title_over = (_ADORNMENT.match(line) and nxt.strip() and _ADORNMENT.match(after)
                      and after.strip() == line.strip())
        if title_over or title_under:
            mark = (line.strip()[0] + "o") if title_over else nxt.strip()[0]
            if mark not in levels:
                levels.append(mark)
            depth = min(3 + levels.index(mark), 6)
            out += ["#" * depth + " " + _inline((nxt if title_over else line).strip()), ""]
            i += 3 if title_over else 2
            continue
        directive = _DIRECTIVE.match(line)
        if directive:
            indent, name, argument = directive.groups()
            body, i = _indented_block(lines, i + 1, len(indent))
            out += _directive(name.lower(), argument, body)
            continue
        if _TARGET.match(line) or re.match(r"^\s*\.\.(\s|$)", line):
            _, i = _indented_block(lines, i + 1, len(line) - len(line.lstrip()))
            continue  # a link target or a comment: nothing to show
        if line.rstrip().endswith("::") and _starts_literal(lines, i + 1):
            head = line.rstrip()[:-2].rstrip()
            if head.strip():
                out.append(_inline(head + (":" if not head.endswith(":") else "")))
            body, i = _indented_block(lines, i + 1, len(line) - len(line.lstrip()))
            out += _fence(body, None)
            continue
        out.append(_inline(_ENUMERATED.sub(r"\g<1>1. ", line)))
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


def _starts_literal(lines: list[str], start: int) -> bool:
    """Whether an indented block follows (after blank lines) at ``start``."""
    rest = [line for line in lines[start:] if line.strip()]
    return bool(rest) and rest[0][:1].isspace()


def _indented_block(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines after ``start`` indented deeper than ``indent`` (blank lines included),
    dedented, and the index of the first line after them."""
    end = start
    while end < len(lines) and (not lines[end].strip()
                                or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to what follows
    return textwrap.dedent("\n".join(lines[start:end])).strip("\n").splitlines(), end


def _directive(name: str, argument: str, body: list[str]) -> list[str]:
    options = [line for line in body if re.match(r"^:[\w-]+:", line)]
    content = body[len(options):] if body[:len(options)] == options else body
    if name in _CODE_DIRECTIVES:
        language = argument.strip() or _CODE_DIRECTIVES[name]
        return ["", *_fence(([argument] if name == "math" and argument else []) + content,
                            language)]
    if name in _FIGURES:
        caption = " ".join(line.strip() for line in content if line.strip())
        return ["", f"*Figure: {_inline(caption or argument.strip())}*", ""]
    # an admonition (note, warning, tip, ...), or a directive this does not know: its
    # text, quoted, under its name
    text = [argument] if argument else []
    converted = rest_to_markdown("\n".join(text + [""] + content)).splitlines() \
        if any(line.strip() for line in text + content) else []
    return ["", f"> **{name.capitalize()}**", ">",
            *[f"> {line}".rstrip() for line in converted], ""]


def _fence(body: list[str], language: str | None) -> list[str]:
    ticks = "`" * max([3, *(len(m) + 1 for line in body for m in re.findall(r"`{3,}", line))])
    return ["", ticks + (language or ""), *body, ticks, ""]


def _inline(text: str) -> str:
    """A line's reST inline markup as Markdown: roles, links, escapes."""
    text = text.replace("\\ ", "")  # reST's "no space here"
    text = _ROLE.sub(_role, text)
    text = _LINK.sub(lambda m: f"[{m[1].strip()}]({m[2].strip()})", text)
    return _REFERENCE.sub(lambda m: m[1], text)


def _role(match: re.Match) -> str:
    name, content = match[1], match[2]
    target = re.match(r"^(.*?)\s*<([^>]+)>$", content)
    if target:  # :ref:`words <label>` shows the words
        return target[1] if name in {"ref", "doc"} else f"`{target[1]}`"
    if name in {"ref", "doc", "term", "abbr"}:
        return content
    return f"`{content.lstrip('~!')}`"
