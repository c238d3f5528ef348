"""``LayoutFence``: a holder that keeps a panel's text changes from re-laying out the window.

A ``QLabel`` whose text changes asks its parent layout to recompute, and Qt passes the
request on to every ancestor, whether or not any size changed (``QLayout::activate``
ends with an unconditional ``updateGeometry``). A ``QTabWidget`` that receives it
repaints itself and every page child, so a statistics line changing on each edit
repainted the whole tensor view, heatmap included, up to three times per edit.

The fence holds one widget, sizes it to itself, and passes a request on only when the
widget's size hints really changed.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget


class LayoutFence(QWidget):
    """Holds ``content``, filling itself with it; geometry requests stop here unless the
    content's size hints changed.

    Parameters
    ----------
    content : QWidget
        The widget held; it is reparented to the fence.
    """

    def __init__(self, content: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.content = content
        content.setParent(self)
        self._follow_size_policy()
        self._hints = self._content_hints()

    def _follow_size_policy(self) -> None:
        # Layouts and scroll areas ask the policy, not hasHeightForWidth(), whether the
        # height depends on the width.
        policy = self.content.sizePolicy()
        policy.setHeightForWidth(self.content.hasHeightForWidth())
        self.setSizePolicy(policy)

    def _content_hints(self) -> tuple[object, ...]:
        c = self.content
        width_bound = (c.heightForWidth(max(1, self.width())) if c.hasHeightForWidth()
                       else None)
        return (c.sizeHint(), c.minimumSizeHint(), c.minimumSize(), c.maximumSize(),
                c.sizePolicy(), width_bound)

    def _pass_on_if_changed(self) -> None:
        hints = self._content_hints()
        if hints != self._hints:
            self._hints = hints
            self._follow_size_policy()
            self.updateGeometry()

    # -- what the parent layout asks -------------------------------------------------------
    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.content.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.content.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return self.content.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.content.heightForWidth(width)

    # -- events ----------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        # The content's request arrives here as a posted LayoutRequest (a fence has no
        # layout of its own).
        if event.type() == QEvent.Type.LayoutRequest:
            self._pass_on_if_changed()
            return True
        return super().event(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        self.content.setGeometry(self.rect())
        self._hints = self._content_hints()  # the width decides heightForWidth
        super().resizeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        # Requests are not posted to a hidden widget: catch up on what changed meanwhile.
        self._pass_on_if_changed()
        super().showEvent(event)


def fenced_content(panel: QWidget) -> QWidget:
    """A new widget filling ``panel`` behind a ``LayoutFence``: build the panel in it.

    For a panel whose texts change on every edit and that sits in a tab widget or another
    container that repaints everything on a layout request.
    """
    content = QWidget()
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(LayoutFence(content))
    return content
