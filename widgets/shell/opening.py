"""The one way a file opens in the window, and the trust rule it applies.

The menu, the recent files, the gallery, drag and drop, the command line and
``--screenshot`` all call :func:`open_file`. It reads the file once
(``app.trust.read_file``: never runs it) and opens exactly the bytes it judged; a
gallery recipe, a file this lab saved while it ran, or one its user said to always run
opens and runs; any other file opens held, with the trust bar's Run and "Always run
this file". A file that cannot be a recipe leaves the window as it was and says why in
the bar: nothing here waits for a click.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject

from app.recipe.reader import RecipeError
from widgets.common.doc_links import listen
from widgets.common.i18n_text import translate_core
from widgets.shell.settings_store import QSettingsStore
from widgets.shell.trust_bar import TrustBar

if TYPE_CHECKING:
    from app.trust import TrustStore


def _unreadable(window: Any, path: str, text: str, problem: str) -> bool:
    """Show a file Python cannot read: its text, held, and why in the bar; False."""
    window.document.open_unreadable(path, text, problem)
    window.trust_bar.show_unreadable(path, problem)
    return False


def trust_store() -> TrustStore:
    """The user's trust store, kept in ``QSettings`` (``app.trust`` is imported at the
    first file opened or saved, not before the window's first paint)."""
    from app.trust import TrustStore

    return TrustStore(QSettingsStore())


def open_file(window: Any, path: str, *, trust: bool = False) -> bool:
    """Open ``path`` in ``window`` by the trust rule; False when it did not open.

    ``window`` has ``document`` and ``trust_bar``. ``trust`` runs a file from elsewhere
    at once (``--screenshot --trust``; the user asked for it).
    """
    from app.trust import read_file

    bar: TrustBar = window.trust_bar
    try:
        opened = read_file(path, trust_store())
    except OSError as e:
        bar.show_problem(path, e.strerror or str(e))
        return False
    if opened.problem is not None:
        return _unreadable(window, path, opened.text, translate_core("Trust", opened.problem))
    runs = trust or opened.runs_at_once
    try:  # the bytes judged, not a second read: a file (or a symlink) changed since the
        # check is not what opens and runs
        window.document.open(path, run=runs, data=opened.data)
    except RecipeError as e:
        return _unreadable(window, path, opened.text, QCoreApplication.translate(
            "TrustBar", "line {0}, column {1}: {2}").format(e.line, e.column, e.reason))
    if runs:
        bar.hide()
    else:
        bar.show_untrusted(path)
    return True


class TrustGate(QObject):
    """The window's trust bar and the document's saves, wired to the trust store.

    Run releases the held recipe; "Always run this file" also remembers its path; a save
    of a recipe that runs remembers the saved bytes, so the file runs when this lab opens
    it again. Saving a held recipe is not choosing to run it: it stays held, and so does
    the file when it opens again.
    """

    def __init__(self, window: Any):
        super().__init__(window)
        self._document, self._bar = window.document, window.trust_bar
        self._bar.run_requested.connect(self._on_view_run)
        self._bar.always_requested.connect(self._on_view_always)
        listen(self, [(self._document.file_saved, self._on_model_file_saved),
                      (self._document.held_changed, self._on_model_held_changed),
                      (self._document.path_changed, self._on_model_path_changed)], True)

    def _on_view_run(self) -> None:
        self._bar.hide()
        self._document.release()

    def _on_view_always(self) -> None:
        if self._document.path:
            trust_store().always_run(self._document.path)
        self._on_view_run()

    def _on_model_held_changed(self, held: bool) -> None:
        if not held and self._bar.run_button.isVisible():  # a new recipe, or released
            self._bar.hide()

    def _on_model_path_changed(self, _path: object) -> None:
        if self._document.problem is None and not self._document.held:
            self._bar.hide()  # another recipe: what the bar said was about the last file

    def _on_model_file_saved(self, _path: str) -> None:
        document = self._document
        if not document.held and document.problem is None:
            trust_store().remember_saved(document.file_bytes())  # the bytes just written


def describe(window: Any) -> str:
    """What ``--screenshot`` prints after the file name: why nothing shows, if so."""
    document = window.document
    if document.problem is not None and document.path:
        return f" (not run: {os.path.basename(document.path)} cannot be read as Python)"
    if document.held and document.path:
        return (f" (not run: {os.path.basename(document.path)} came from elsewhere; "
                "--trust runs it)")
    return ""
