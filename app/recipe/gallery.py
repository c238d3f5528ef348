"""The recipe gallery: the lessons shipped in ``recipes/``, read without running anything.

Qt-free. Each recipe's docstring carries its lesson in two languages and a little
metadata (see README, "Lessons in two languages")::

    Title in English

    The lesson in English (Markdown).

    中文标题

    The same lesson in Simplified Chinese.

    Category: shapes

The Chinese half starts at the first paragraph whose first line holds a Chinese
character. An error lesson says so with ``ERROR_MARKER`` (and ``ERROR_MARKER_ZH``).
``Category:`` lines are metadata: they are taken out of the lesson text; without one,
the category comes from the file name (``nn_*.py`` is ``nn``) or is ``other``.

Files are read with ``app.recipe.reader.read_recipe_file`` (``ast`` only): scanning the gallery
never executes, imports or compiles a recipe.
"""

from __future__ import annotations

import ast
import os
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.catalog import CATALOG
from app.catalog.call_keys import call_key
from app.recipe.lesson_text import (  # noqa: F401 - the gallery's names too
    for_display,
    is_chinese,
    lesson_text,
    split_lesson,
)
from app.recipe.model import Recipe
from app.recipe.reader import RecipeError, read_recipe_file
from app.resources import RECIPES_DIR

#: Categories in teaching order; the gallery lists them so, unknown ones last.
CATEGORIES = ("start", "creation", "shapes", "indexing", "math", "autograd", "nn", "training")
#: A file name prefix that tells the category of a recipe without a ``Category:`` line.
PREFIXES = {"create_": "creation", "shape_": "shapes", "index_": "indexing",
            "math_": "math", "autograd_": "autograd", "nn_": "nn", "training_": "training"}
#: The line that marks an error lesson: its last step raises on purpose.
ERROR_MARKER = "Error lesson: this recipe stops with an error on purpose."
#: The same line in the Chinese half.
ERROR_MARKER_ZH = "错误课：本课的配方故意以一个错误结束。"
#: Calls every recipe makes that say nothing about its lesson.
_PLUMBING = frozenset({"print", "torch.manual_seed"})

def ops_used(recipe: Recipe) -> tuple[str, ...]:
    """The catalogue keys a recipe calls (``torch.gather``, ``Tensor.view``), in order.

    ``print`` and ``torch.manual_seed`` are left out. A code step's calls count where
    the catalogue knows them (``nn.Conv2d`` in a class, ``.backward()`` in a loop): read
    from its text with ``ast``, never run.
    """
    found: dict[str, None] = {}
    for step in recipe.steps:
        text = step.code_text
        keys = step.calls if text is None else _code_calls(text)
        for key in keys:
            if key not in _PLUMBING:
                found[key] = None
    return tuple(found)


#: nn.Module's methods that lessons teach, found by name in code (``Module.<name>``).
MODULE_METHODS = frozenset({"parameters", "named_parameters", "buffers", "state_dict",
                            "load_state_dict", "register_buffer", "train", "eval",
                            "zero_grad", "forward"})


def _code_calls(text: str) -> Iterable[str]:
    """The catalogue keys the calls in ``text`` name: ``torch.x``, ``nn.X``, ``F.x``
    (however the module is spelled), tensor and module methods (``Tensor.x``)."""
    tree = _parsed(text)
    for node in ast.walk(tree) if tree is not None else ():
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        key = call_key(node.func)
        if CATALOG.get(key) is not None:
            yield key
            continue
        if CATALOG.get(f"Tensor.{node.func.attr}") is not None:  # x.view(...)
            yield f"Tensor.{node.func.attr}"
        elif node.func.attr in MODULE_METHODS:  # net.zero_grad()
            yield f"Module.{node.func.attr}"


def trains(recipe: Recipe) -> bool:
    """Whether a loop of ``recipe`` calls ``.backward()``: a training loop, which the
    Training tab plots as it runs (``kernel.watch``)."""
    return any(_loop_calls_backward(step.code_text) for step in recipe.steps
               if step.code_text is not None)


def _loop_calls_backward(text: str) -> bool:
    tree = _parsed(text)
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For | ast.While)] if tree else []
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == "backward" for loop in loops for node in ast.walk(loop))


def _parsed(text: str) -> ast.Module | None:
    """A code step's text read with ``ast`` (never run); None when it cannot be."""
    try:
        return ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError):
        return None


@dataclass(frozen=True)
class GalleryEntry:
    """One lesson of the gallery.

    Parameters
    ----------
    path : str
        The recipe file.
    title : str
        The English title (the docstring's first line).
    category : str
        One of ``CATEGORIES``, or another name a recipe gave itself.
    lesson_en, lesson_zh : str
        The two halves of the lesson, each starting with its title line; ``lesson_zh`` is
        empty for a recipe without a Chinese half.
    ops_used : tuple of str
        The catalogue keys its steps call.
    error_lesson : bool
        Its last step raises on purpose (``ERROR_MARKER`` is in its docstring).
    training : bool
        A loop of it trains a network: it calls ``.backward()`` (``trains``).
    """

    path: str
    title: str
    category: str
    lesson_en: str
    lesson_zh: str
    ops_used: tuple[str, ...]
    error_lesson: bool
    training: bool = False

    @property
    def name(self) -> str:
        """The file name without ``.py``."""
        return Path(self.path).stem

    @property
    def title_zh(self) -> str:
        """The Chinese title, or the English one when there is no Chinese half."""
        return self.lesson_zh.partition("\n")[0].strip() or self.title

    def title_for(self, language: str) -> str:
        return self.title_zh if is_chinese(language) else self.title

    def lesson(self, language: str) -> str:
        """The lesson for ``language`` (``en``, ``zh_CN``), falling back to English."""
        return self.lesson_zh if is_chinese(language) and self.lesson_zh else self.lesson_en

    def matches(self, query: str) -> bool:
        """Whether every word of ``query`` is in the title, the text, the category or an op.

        Case does not matter; op names match with or without their namespace
        (``gather``, ``torch.gather``, ``.view``).
        """
        haystack = self.search_text()
        return all(word in haystack for word in query.lower().split())

    def search_text(self) -> str:
        ops = " ".join(f"{op} {op.rsplit('.', 1)[-1]} .{op.rsplit('.', 1)[-1]}"
                       for op in self.ops_used)
        return "\n".join((self.title, self.lesson_en, self.lesson_zh, self.category,
                          self.name, ops)).lower()


def read_entry(path: str | os.PathLike[str]) -> GalleryEntry:
    """The gallery entry of one recipe file; raises ``RecipeError`` or ``OSError``."""
    recipe = read_recipe_file(os.fspath(path))
    lesson = split_lesson(recipe.docstring)
    category = lesson.category or _category_from_name(Path(path).name)
    return GalleryEntry(
        path=os.fspath(path), title=recipe.title, category=category,
        lesson_en=lesson.en, lesson_zh=lesson.zh, ops_used=ops_used(recipe),
        error_lesson=ERROR_MARKER in recipe.docstring, training=trains(recipe))


def _category_from_name(filename: str) -> str:
    for prefix, category in PREFIXES.items():
        if filename.startswith(prefix):
            return category
    return "other"


@dataclass(frozen=True)
class Gallery:
    """The lessons of a folder, in teaching order, and the files that were refused.

    Parameters
    ----------
    entries : tuple of GalleryEntry
        By category (``CATEGORIES`` order), then by title.
    refused : tuple of (str, str)
        ``(path, reason)`` for each file that is not a recipe.
    """

    entries: tuple[GalleryEntry, ...]
    refused: tuple[tuple[str, str], ...] = ()

    def categories(self) -> list[str]:
        """The categories that have entries, in teaching order."""
        return list(dict.fromkeys(e.category for e in self.entries))

    def in_category(self, category: str) -> list[GalleryEntry]:
        return [e for e in self.entries if e.category == category]

    def search(self, query: str) -> list[GalleryEntry]:
        """The entries matching ``query`` (all of them for a blank query)."""
        return search(self.entries, query)

    def entry_for(self, path: str | os.PathLike[str]) -> GalleryEntry | None:
        target = os.path.abspath(path)
        return next((e for e in self.entries if os.path.abspath(e.path) == target), None)


def scan(folder: str | os.PathLike[str] = RECIPES_DIR) -> Gallery:
    """Read every ``*.py`` in ``folder`` (not recursively) into a ``Gallery``."""
    entries, refused = [], []
    for path in sorted(Path(folder).glob("*.py")):
        try:
            entries.append(read_entry(path))
        except RecipeError as e:
            refused.append((str(path), str(e)))
        except OSError as e:
            refused.append((str(path), e.strerror or str(e)))
    entries.sort(key=_order)
    return Gallery(tuple(entries), tuple(refused))


def _order(entry: GalleryEntry) -> tuple[int, str, str]:
    rank = CATEGORIES.index(entry.category) if entry.category in CATEGORIES \
        else len(CATEGORIES)
    return rank, entry.category, entry.title.lower()


def search(entries: Iterable[GalleryEntry], query: str) -> list[GalleryEntry]:
    """The entries whose title, lesson text (either language), category or ops match."""
    return [e for e in entries if e.matches(query)]
