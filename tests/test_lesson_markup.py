"""Lesson text shows its code as written: every gallery lesson, Markdown and reST.

The rendering is Qt's own (``QTextDocument.setMarkdown``, md4c), the one the lesson pane
and the gallery use; what is checked is the plain text a student reads and copies.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from PySide6.QtGui import QTextDocument

from app.recipe.document import Document
from app.recipe.gallery import RECIPES_DIR, split_lesson
from app.recipe.lesson_markup import lesson_markdown
from app.recipe.reader import read_recipe_file
from app.recipe.rest import is_restructured_text
from widgets.recipe.lesson_pane import LessonPane

pytestmark = pytest.mark.gui

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
#: Characters Markdown takes for markup; a word holding one is code written bare.
_MARKUP = re.compile(r"[_\\<&~]|\w\*|\*[^\w\s*]")


def rendered(markdown: str) -> str:
    doc = QTextDocument()
    doc.setMarkdown(markdown)
    return doc.toPlainText()


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def code_in(lesson: str) -> list[str]:
    """What a student must see as written: code spans' text, and bare words with a
    character Markdown would take for markup (``__init__``, ``<AddmmBackward0>``)."""
    spans = [_flat(m[2]).strip() for m in _CODE_SPAN.finditer(lesson)]
    prose = _CODE_SPAN.sub(" ", lesson)
    return spans + [word for word in prose.split() if _MARKUP.search(word)]


def gallery_lessons() -> list[tuple[str, str]]:
    out = []
    for path in sorted(RECIPES_DIR.glob("*.py")):
        lesson = split_lesson(read_recipe_file(str(path)).docstring)
        out += [(f"{path.name}:{lang}", text) for lang, text in
                (("en", lesson.en), ("zh", lesson.zh)) if text]
    return out


def test_every_gallery_lesson_shows_its_code_as_written(qapp):
    lessons = gallery_lessons()
    assert len(lessons) > 80  # every recipe, both halves
    missing = {}
    for name, lesson in lessons:
        assert not is_restructured_text(lesson), name  # the gallery writes Markdown
        shown = _flat(rendered(lesson_markdown(lesson)))
        lost = [code for code in code_in(lesson) if code not in shown]
        if lost:
            missing[name] = lost
    assert not missing


def test_the_lenet_lesson_shows_super_init_in_both_languages(qtbot):
    doc = Document(read_recipe_file(str(RECIPES_DIR / "nn_lenet.py")))
    pane = LessonPane(doc)
    qtbot.addWidget(pane)
    for language in ("en", "zh_CN"):
        pane.set_language(language)
        shown = pane.browser.toPlainText()
        assert "super(Net, self).__init__()" in shown, language
        assert "grad_fn=<AddmmBackward0>" in shown and "16 * 5 * 5 = 400" in shown
    assert "LeNet：__init__ 创建各层" in shown


CODE_LESSON = textwrap.dedent("""\
    Code as written: a_b and *_like

    Call `super(Net, self).__init__()`, then `x = a * b * c` and `a*b*c`, `"\\n"`,
    `x < 3 && y`, bare a*b*c, x**2, C:\\temp\\new, `` `tick` ``, <T> & co, ~mask, 2*3.
    **Bold stays bold** and *italic stays italic*; so does 这是**重点**内容.

    ```python
    class Net(nn.Module):
        def __init__(self):  # 中文注释。
            super().__init__()  # *args, **kwargs, \\n, <tag> &amp;
    ```

    - a list item with net.__dict__
    - see <https://pytorch.org/docs/stable/generated/torch.nn.functional.cross_entropy.html>
    """)


def test_code_spans_and_blocks_render_exactly_and_emphasis_still_works(qapp):
    markdown = lesson_markdown(CODE_LESSON)
    shown = rendered(markdown)
    for code in ("super(Net, self).__init__()", "x = a * b * c", "a*b*c", '"\\n"',
                 "x < 3 && y", "`tick`", "Code as written: a_b and *_like"):
        assert code in shown, code
    assert "bare a*b*c, x**2, C:\\temp\\new," in shown
    assert "<T> & co, ~mask, 2*3." in shown
    # a fenced block keeps its lines (a Chinese comment is not joined to the next line)
    assert ("    def __init__(self):  # 中文注释。\n"
            "        super().__init__()  # *args, **kwargs, \\n, <tag> &amp;\n") in shown
    assert "net.__dict__" in shown and "torch.nn.functional.cross_entropy.html" in shown
    assert "Bold stays bold and italic stays italic; so does 这是重点内容." in shown
    doc = QTextDocument()
    doc.setMarkdown(markdown)
    assert 'href="https://pytorch.org/docs/stable/generated/torch.nn.functional.' \
           'cross_entropy.html"' in doc.toHtml()


#: In the form of pytorch/tutorials' beginner_source files (a text written for this test).
TUTORIAL = textwrap.dedent("""\
    Tensors and gradients
    =====================

    A tensor holds numbers; see `the docs <https://pytorch.org/docs/stable/tensors.html>`_
    and :class:`torch.Tensor`. Its gradient is :math:`\\frac{dy}{dx}`, kept in ``x.grad``.

    A first step
    ------------

    .. figure:: /_static/img/tensor.png
       :alt: tensor

       A 2 x 2 tensor

    Create one::

        x = torch.ones(2, 2, requires_grad=True)
        y = x.sum()

    .. code-block:: python

        y.backward()
        print(x.grad)

    .. note::
       ``backward()`` accumulates into ``.grad``.

    .. _target:

    Read `Backprop`_ again.
    """)


def test_a_restructured_text_tutorial_docstring_is_shown_readably(qapp):
    assert is_restructured_text(TUTORIAL)
    markdown = lesson_markdown(TUTORIAL)
    doc = QTextDocument()
    doc.setMarkdown(markdown)
    shown = doc.toPlainText()
    for raw in ("=====", "-----", ":math:", ":class:", ">`_", "::", ".. ", "`_", "``"):
        assert raw not in shown, raw
    first = doc.begin()
    assert first.text() == "Tensors and gradients" and first.blockFormat().headingLevel()
    headings = [b.text() for b in _blocks(doc) if b.blockFormat().headingLevel()]
    assert headings == ["Tensors and gradients", "A first step"]
    assert "see the docs and torch.Tensor. Its gradient is \\frac{dy}{dx}, kept in x.grad." \
        in _flat(shown)
    assert 'href="https://pytorch.org/docs/stable/tensors.html"' in doc.toHtml()
    assert "Figure: A 2 x 2 tensor" in shown and "*" not in shown
    assert "Create one:" in shown
    assert "x = torch.ones(2, 2, requires_grad=True)\ny = x.sum()" in shown
    assert "y.backward()\nprint(x.grad)" in shown
    assert "backward() accumulates into .grad." in shown and "Note" in shown
    assert "Read Backprop again." in shown


def _blocks(doc: QTextDocument):
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()
