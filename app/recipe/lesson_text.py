"""A lesson's text: a recipe docstring's English and Chinese halves, and its category.

Qt-free, and light: the window shows the welcome's lesson in its first paint, before the
gallery (``app.recipe.gallery``, which names these too) is scanned or imported. The
docstring's layout is the gallery's (see README, "Lessons in two languages").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CATEGORY_LINE = re.compile(r"^\s*Category\s*:\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Lesson:
    """A docstring split into its parts.

    Parameters
    ----------
    en, zh : str
        The English and the Chinese half, each starting with its title line; ``zh`` is
        empty when the docstring has no Chinese half.
    category : str
        From the ``Category:`` line, lower case; empty when there is none.
    """

    en: str
    zh: str
    category: str


def split_lesson(docstring: str) -> Lesson:
    """The English half, the Chinese half and the category of a recipe docstring."""
    category = ""
    kept: list[str] = []
    for line in docstring.strip().splitlines():
        match = _CATEGORY_LINE.match(line)
        if match:
            category = category or match["name"].lower()
        else:
            kept.append(line.rstrip())
    paragraphs = _paragraphs(kept)
    start = next((i for i, p in enumerate(paragraphs) if i and _has_ideograph(p[0])), None)
    en = paragraphs if start is None else paragraphs[:start]
    zh = [] if start is None else paragraphs[start:]
    return Lesson(_join(en), _join(zh), category)


def _paragraphs(lines: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            out[-1].append(line)
        elif out[-1]:
            out.append([])
    return [p for p in out if p]


def _join(paragraphs: list[list[str]]) -> str:
    return "\n\n".join("\n".join(p) for p in paragraphs)


def is_chinese(language: str) -> bool:
    """Whether a locale name (``zh_CN``, ``zh``, ``en``) asks for the Chinese half."""
    return language.lower().replace("-", "_").startswith("zh")


def lesson_text(docstring: str, language: str) -> str:
    """The half of ``docstring`` for ``language`` (``en``, ``zh_CN``), title line first.

    The Chinese half when the language is Chinese and the recipe has one, else the
    English half; ``Category:`` lines are left out.
    """
    lesson = split_lesson(docstring)
    return lesson.zh if is_chinese(language) and lesson.zh else lesson.en


#: Chinese text, as code point ranges: its punctuation (with the full-width forms), then
#: the ideographs. Tested by comparison, not with ``re``: a character class this wide
#: takes ``re.compile`` 2 ms (it fills a table of every code point in it), and the
#: lesson the window opens with needs these before its first paint.
CJK_PUNCTUATION = ((0x3000, 0x303F), (0xFF00, 0xFFEF))
CJK_IDEOGRAPHS = ((0x3400, 0x9FFF), (0xF900, 0xFAFF))
CJK_TEXT = CJK_PUNCTUATION + CJK_IDEOGRAPHS


def is_in(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether the one character ``char`` lies in one of ``ranges`` (``CJK_TEXT``)."""
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


def _has_ideograph(line: str) -> bool:
    return any(is_in(c, CJK_IDEOGRAPHS) for c in line if c > "\u2fff")


def for_display(text: str) -> str:
    """``text`` without the line breaks inside a paragraph that follow Chinese text.

    Markdown turns a line break inside a paragraph into a space, which is right between
    English words and wrong between Chinese characters or after Chinese punctuation.
    """
    lines = text.split("\n")
    out = [lines[0]]
    for k in range(1, len(lines)):
        before, after = lines[k - 1][-1:], lines[k][:1]
        blank_next = not after and k < len(lines) - 1  # a paragraph ends here
        joined = before and ((is_in(before, CJK_PUNCTUATION) and not blank_next)
                             or (after and is_in(before, CJK_TEXT) and is_in(after, CJK_TEXT)))
        out.append(lines[k] if joined else "\n" + lines[k])
    return "".join(out)
