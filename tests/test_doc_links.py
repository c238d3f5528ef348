"""Views stop listening to the document when Qt destroys them (``widgets.common.doc_links``).

A document can outlive the C++ half of a view while Python still holds the view's
wrapper; a signal reaching such a view would call into a deleted widget.
"""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtGui import QUndoStack

from app.recipe.document import Document

pytestmark = pytest.mark.gui


def _views():
    from widgets.autograd.panel import AutogradPanel
    from widgets.explain.op_view import OpView
    from widgets.explain.storage_view import StorageView
    from widgets.ops.builder_panel import BuilderPanel
    from widgets.ops.op_panel import OpPanel
    from widgets.ops.timing_view import TimingView
    from widgets.recipe.docs_panel import DocsPanel
    from widgets.viewer.panel import ViewerPanel

    with_stack = [AutogradPanel, BuilderPanel, OpPanel, OpView]
    alone = [DocsPanel, StorageView, TimingView, ViewerPanel]
    return [(v, True) for v in with_stack] + [(v, False) for v in alone]


def _listeners(doc: Document) -> int:
    return len(doc.evaluated) + len(doc.selection_changed)


@pytest.mark.parametrize("kind, takes_stack", _views(), ids=lambda v: getattr(v, "__name__", ""))
def test_a_destroyed_view_no_longer_listens(qapp, kind, takes_stack):
    doc = Document()
    doc.open_welcome()
    before = _listeners(doc)
    stack = QUndoStack()
    view = kind(doc, stack) if takes_stack else kind(doc)
    stack.setParent(view)
    assert _listeners(doc) > before  # it listens...
    shiboken6.delete(view)  # ...until its C++ half goes; the Python wrapper stays
    assert _listeners(doc) == before
    doc.select(0)  # and nothing reaches the deleted widget
    assert view is not None


def test_listen_connects_disconnects_and_holds_the_handler_weakly(qapp):
    import gc
    import weakref

    from PySide6.QtCore import QObject

    from widgets.common.doc_links import listen

    doc = Document()

    class Owner(QObject):
        def on_selection(self, *args) -> None:
            self.seen = args

    owner = Owner()
    listen(owner, [(doc.selection_changed, owner.on_selection)], True)
    assert len(doc.selection_changed) == 1
    listen(owner, [(doc.selection_changed, owner.on_selection)], False)
    assert len(doc.selection_changed) == 0
    listen(owner, [(doc.selection_changed, owner.on_selection)], True)
    gone = weakref.ref(owner)
    del owner
    gc.collect()
    assert gone() is None  # the destruction hook did not keep it alive
