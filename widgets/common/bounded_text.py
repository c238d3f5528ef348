"""Text from a recipe, cut to a size a label can show.

A word-wrapped ``QLabel`` asks its layout for room for its longest word and all of its
lines, so a 200,000-character name or a list nested 5,000 deep would stretch the window
past the screen. Every label that shows a recipe's text (its code, its names, its error
messages) shows ``bounded(text)``; the whole text goes in its tooltip where it matters.
"""

from __future__ import annotations

import re

#: The most lines, and characters per line, a label shows.
MAX_LINES = 12
MAX_LINE = 160
#: Characters per line of a message that wraps (an error): torch's run to about 200.
MAX_MESSAGE_LINE = 1000
#: A word longer than this gets a place to wrap (a zero-width space) every so many
#: characters: a label never asks for more width than this.
MAX_WORD = 48
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")


def bounded(text: str, lines: int = MAX_LINES, width: int = MAX_LINE) -> str:
    """``text`` with at most ``lines`` lines of at most ``width`` characters; a cut line or a
    cut text ends in "…"."""
    kept = text.splitlines()
    cut = len(kept) > lines
    kept = [line if len(line) <= width else line[:width - 1] + "…" for line in kept[:lines]]
    if cut:
        kept.append("…")
    return _LONG_WORD.sub(_breakable, "\n".join(kept))


def _breakable(match: re.Match) -> str:
    word = match.group()
    return "\u200b".join(word[i:i + MAX_WORD] for i in range(0, len(word), MAX_WORD))
