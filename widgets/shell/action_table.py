"""The window's actions as one table, and what they call beyond the window's own methods.

``action_table(window)`` lists every action once (``ActionSpec``: where it goes, its
text, keys, tooltip, icon and what it calls); ``widgets.shell.actions.WindowActions``
turns it into ``QAction`` objects, the menu bar and the toolbar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence

from app.palette import THEMES
from widgets.common.theme import apply_theme

Keys = QKeySequence.StandardKey | str

#: Languages offered in View > Language, by locale name, in their own words.
LANGUAGES = {"": None, "en": "English", "zh_CN": "简体中文"}


def _tr(text: str) -> str:
    # lupdate files _tr(...) calls under the unnamed context (-tr-function-alias tr+=_tr)
    return QCoreApplication.translate("", text)


@dataclass(frozen=True)
class ActionSpec:
    """One action of the window.

    Parameters
    ----------
    key : str
        A stable name: ``"file.save"``; ``WindowActions[key]`` is its ``QAction``.
    menu : str
        The menu path, such as ``"file"`` or ``"view/theme"``.
    text : str
        The menu text (translated), with ``&`` before the mnemonic.
    slot : callable
        Called with no arguments (with the checked state for checkable actions).
    shortcuts : tuple
        ``QKeySequence.StandardKey`` values or strings such as ``"Ctrl+="``.
    tip : str
        The tooltip and status bar text.
    icon : str
        A name in ``resources/icons``.
    toolbar : bool
        Also on the toolbar.
    checkable : bool
        A toggle; ``checked`` is its starting state.
    group : str
        Checkable actions with the same group are exclusive (a radio choice).
    """

    key: str
    menu: str
    text: str
    slot: Callable[..., object]
    shortcuts: tuple[Keys, ...] = ()
    tip: str = ""
    icon: str = ""
    toolbar: bool = False
    checkable: bool = False
    checked: bool = False
    group: str = ""
    separator_before: bool = False
    extra: dict[str, object] = field(default_factory=dict, hash=False, compare=False)


#: Top-level menus in menu bar order.
MENUS = ("file", "edit", "view", "kernel", "help")


def menu_title(path: str) -> str:
    titles = {"file": _tr("&File"), "edit": _tr("&Edit"), "view": _tr("&View"),
              "kernel": _tr("&Kernel"), "help": _tr("&Help"), "file/export": _tr("&Export"),
              "edit/copy": _tr("Cop&y As"), "view/theme": _tr("&Theme"),
              "view/language": _tr("&Language")}
    return titles[path]


def action_table(window) -> list[ActionSpec]:
    """Every action of ``window`` (a ``MainWindow``), in menu order."""
    w = window
    settings = w.settings
    theme_names = {"system": _tr("Follow the &System"), "light": _tr("&Light"),
                   "dark": _tr("&Dark")}
    table = [
        ActionSpec("file.new", "file", _tr("&New"), w.new_recipe,
                   (QKeySequence.StandardKey.New,), _tr("Start an empty recipe"), "new", True),
        ActionSpec("file.new_training", "file", _tr("New &Training..."), w.new_training,
                   ("Ctrl+Shift+T",), _tr("Write a short training recipe from a few "
                                          "choices: data, model, initialisation, optimizer, "
                                          "clipping; the Training tab watches its loop"),
                   "training", True),
        ActionSpec("file.open", "file", _tr("&Open..."), w.open_dialog,
                   (QKeySequence.StandardKey.Open,),
                   _tr("Open a recipe (.py); it is read, never run. You can also drop a "
                       "recipe file on the window."), "open", True),
        ActionSpec("file.gallery", "file", _tr("&Gallery"), w.show_gallery, ("Ctrl+G",),
                   _tr("Browse the lessons by category, search them, and open one"),
                   "gallery", True),
        ActionSpec("file.welcome", "file", _tr("Open &Welcome Recipe"),
                   w.document.open_welcome, (), _tr("Open the recipe Tensor Lab starts with")),
        ActionSpec("file.reset", "file", _tr("Rese&t to the Original"), w.reset_to_original,
                   (), _tr("Open the recipe's file again, discarding every change since it "
                           "was opened or saved: a class's experiments are undone")),
        ActionSpec("file.show_folder", "file", _tr("Show the Recipe's &Folder"),
                   w.show_run_folder, (),
                   _tr("Open the folder the recipe runs in, where the files it writes "
                       "land: a saved recipe's own folder; for a new recipe or a gallery "
                       "lesson, the lab's work folder; on a server, its folder there")),
        ActionSpec("file.download", "file", _tr("&Download from the Server..."),
                   w.download_from_server, (),
                   _tr("List the files the recipe wrote in its folder on the server (Kernel "
                       "> Run On), and save one on this computer")),
        ActionSpec("file.save", "file", _tr("&Save"), w.save, (QKeySequence.StandardKey.Save,),
                   _tr("Save the recipe as a Python script; a gallery lesson is saved as "
                       "a copy of your own"), "save", True,
                   separator_before=True),
        ActionSpec("file.save_as", "file", _tr("Save &As..."), w.save_as,
                   (QKeySequence.StandardKey.SaveAs,), _tr("Save the recipe under a new name")),
        ActionSpec("file.export_html", "file/export", _tr("Lesson as &HTML Page..."),
                   lambda: w.exports.export_lesson(), ("Ctrl+E",),
                   _tr("One web page with the lesson text, the figures shown now, the code "
                       "and the output, to hand out after class"), "export", True),
        ActionSpec("file.export_heatmap", "file/export", _tr("&Heatmap as PNG or SVG..."),
                   lambda: w.exports.save_heatmap(), (),
                   _tr("Save the selected tensor's heatmap")),
        ActionSpec("file.export_csv", "file/export", _tr("Tensor as &CSV..."),
                   lambda: w.exports.save_csv(), (),
                   _tr("Save the selected tensor's values as CSV")),
        ActionSpec("file.quit", "file", _tr("&Quit"), w.close,
                   (QKeySequence.StandardKey.Quit,), _tr("Close Tensor Lab"),
                   separator_before=True),
        # undo and redo come from the undo stack: see WindowActions._undo_actions
        ActionSpec("edit.move_up", "edit", _tr("Move Step &Up"),
                   lambda: w.steps.move_selected(-1), ("Alt+Up",),
                   _tr("Move the selected step one place earlier"), separator_before=True),
        ActionSpec("edit.move_down", "edit", _tr("Move Step &Down"),
                   lambda: w.steps.move_selected(1), ("Alt+Down",),
                   _tr("Move the selected step one place later")),
        ActionSpec("edit.delete", "edit", _tr("&Delete Step"), w.steps.delete_selected,
                   (QKeySequence.StandardKey.Delete,),
                   _tr("Delete the selected step; steps that read it will show an error")),
        ActionSpec("edit.copy_literal", "edit/copy", _tr("Tensor as &Python"),
                   lambda: w.exports.copy_literal(), ("Ctrl+Shift+C",),
                   _tr("Copy the selected tensor as torch.tensor([...]), ready to paste "
                       "into a recipe"), "copy"),
        ActionSpec("edit.copy_csv", "edit/copy", _tr("Tensor as &CSV"),
                   lambda: w.exports.copy_csv(), (),
                   _tr("Copy the selected tensor's values as comma-separated numbers")),
        ActionSpec("edit.copy_heatmap", "edit/copy", _tr("Tensor as &Heatmap Image"),
                   lambda: w.exports.copy_heatmap(), (),
                   _tr("Copy the plane shown as a heatmap picture")),
        ActionSpec("edit.copy_step", "edit/copy", _tr("&Step's Code"),
                   lambda: w.exports.copy_step_code(), ("Ctrl+Alt+C",),
                   _tr("Copy the selected step as one line of Python")),
        ActionSpec("edit.copy_recipe", "edit/copy", _tr("Whole &Recipe's Code"),
                   lambda: w.exports.copy_recipe_code(), (),
                   _tr("Copy the whole recipe as Python")),
        ActionSpec("edit.run", "edit", _tr("&Run Again"), w.document.run_again, ("Ctrl+R",),
                   _tr("Evaluate the whole recipe again (random steps without a seed give "
                       "new values)"), "run", True, separator_before=True),
        ActionSpec("edit.stop", "edit", _tr("S&top"), w.document.stop, ("Ctrl+.",),
                   _tr("Stop the recipe's run: it gets a KeyboardInterrupt, and the values of "
                       "the steps that finished stay"), "stop", True),
        ActionSpec("kernel.restart", "kernel", _tr("&Restart the Kernel"),
                   lambda: restart_kernel(w), (),
                   _tr("End the kernel, with everything the recipe started, and run the "
                       "recipe again in a fresh one (where Run On says)")),
        ActionSpec("view.previous_step", "view", _tr("&Previous Step"),
                   lambda: step_selection(w, -1), ("Alt+PgUp",),
                   _tr("Select the step before the selected one (PgUp in presenter mode)"),
                   "step-previous", True),
        ActionSpec("view.next_step", "view", _tr("&Next Step"), lambda: step_selection(w, 1),
                   ("Alt+PgDown",), _tr("Select the next step: it is highlighted in the code "
                                        "and shown in the views (PgDown in presenter mode)"),
                   "step-next", True),
        ActionSpec("view.presenter", "view", _tr("&Presenter Mode"),
                   w.presenter.set_enabled, ("F5",),
                   _tr("Big text, cells and plot lines for a projector; hides the editing "
                       "panels; PgDown and PgUp step through the recipe"), "presenter", True,
                   checkable=True, separator_before=True),
        ActionSpec("view.zoom_in", "view", _tr("Zoom &In"), lambda: w.presenter.zoom(1),
                   (QKeySequence.StandardKey.ZoomIn, "Ctrl+="),
                   _tr("Make text, cells and plot lines bigger"), "zoom-in", True),
        ActionSpec("view.zoom_out", "view", _tr("Zoom &Out"), lambda: w.presenter.zoom(-1),
                   (QKeySequence.StandardKey.ZoomOut, "Ctrl+-"),
                   _tr("Make text, cells and plot lines smaller"), "zoom-out", True),
        ActionSpec("view.zoom_reset", "view", _tr("&Actual Size"), w.presenter.reset_zoom,
                   ("Ctrl+0",), _tr("Back to normal size (the presenter size in presenter "
                                    "mode)")),
        *[ActionSpec(f"view.theme.{name}", "view/theme", theme_names[name],
                     lambda _=False, n=name: set_theme(w, n), (),
                     _tr("Use this colour theme and remember it"), checkable=True,
                     checked=settings.theme == name, group="theme") for name in THEMES],
        ActionSpec("view.high_contrast", "view/theme", _tr("&High Contrast"),
                   lambda on: set_high_contrast(w, on), (),
                   _tr("White on black with bright colours: reads best on a projector"),
                   checkable=True, checked=settings.high_contrast, separator_before=True),
        *[ActionSpec(f"view.language.{code or 'system'}", "view/language",
                     label or _tr("Follow the &System"),
                     lambda _=False, c=code: set_language(w, c), (),
                     _tr("Show Tensor Lab in this language now, and remember it"),
                     checkable=True, checked=settings.language == code, group="language")
          for code, label in LANGUAGES.items()],
        ActionSpec("view.docs", "view", _tr("&Docs for the Selected Op"), lambda: show_docs(w),
                   ("F1",),
                   _tr("Explain the op picked in the builder or op panel, or the selected "
                       "step's op, with its signature, an example and a link to PyTorch's "
                       "documentation"), "docs", separator_before=True),
        ActionSpec("view.reset_layout", "view", _tr("&Reset Layout"), w.reset_layout, (),
                   _tr("Put every panel back where it started")),
        ActionSpec("help.shortcuts", "help", _tr("&Keyboard Shortcuts"),
                   lambda: show_shortcuts(w), ("Ctrl+/",), _tr("List every keyboard shortcut"),
                   "keyboard"),
        ActionSpec("help.about", "help", _tr("&About Tensor Lab"), w.about, (),
                   _tr("Versions of Tensor Lab, Python, PyTorch, Qt and the libraries"),
                   "about"),
    ]
    return table


# -- what the actions do, beyond the window's own methods ------------------------------------
def step_selection(window, delta: int) -> None:
    """Select the step ``delta`` places after the selected one (the first when none is)."""
    document = window.document
    count = len(document.recipe.steps)
    if count == 0:
        return
    index = document.selected
    document.select(0 if index is None else min(max(index + delta, 0), count - 1))


def set_theme(window, name: str) -> None:
    """Use theme ``name`` and remember it."""
    window.settings.theme = name
    apply_theme(name, window.settings.high_contrast)


def set_high_contrast(window, on: bool) -> None:
    window.settings.high_contrast = bool(on)
    apply_theme(window.settings.theme, bool(on))


def set_language(window, code: str) -> bool:
    """Remember the language and show the window in it now (``MainWindow.switch_language``).

    False when the language was already in use.
    """
    if code == window.settings.language:
        return False
    window.settings.language = code  # the window stores its settings as they change
    window.switch_language(code)
    return True


def show_docs(window) -> None:
    """F1: show the docs panel on the op of the focused panel or of the selected step."""
    from PySide6.QtWidgets import QApplication

    focus = QApplication.focusWidget()
    dock = window.docks["docs"]
    dock.show()
    dock.raise_()
    window.docs_panel.show_for_focus(focus)


def show_shortcuts(window):
    """Help > Keyboard Shortcuts, as a window-modal dialog that does not block."""
    from widgets.shell.shortcuts_dialog import ShortcutsDialog

    dialog = ShortcutsDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def restart_kernel(window) -> None:
    """A fresh kernel, and the recipe run in it (unless the trust rule holds it)."""
    window.kernel_hook.session.restart()
    document = window.document
    if not document.held and document.recipe.steps:
        document.run_again()
