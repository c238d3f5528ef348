"""The UI's language: Tensor Lab's own translation and Qt's, installed on the application."""

from __future__ import annotations

from pathlib import Path

from app.resources import I18N_DIR

_translators: list = []  # installed QTranslators, kept alive here


def translation_file(language: str) -> Path | None:
    """The ``.qm`` file for ``language`` (``zh_CN``, falling back to ``zh``), if shipped."""
    for name in (language, language.split("_")[0]):
        path = I18N_DIR / f"tensor_lab_{name}.qm"
        if name and path.is_file():
            return path
    return None


def lesson_language(setting: str) -> str:
    """The language lessons are shown in: the ``language`` setting, or the system's."""
    from PySide6.QtCore import QLocale

    return setting or QLocale.system().name()


def install_translators(language: str = "") -> str:
    """Translate the UI into ``language`` (a locale name; ``""`` follows the system).

    Installs Tensor Lab's own translation when ``resources/i18n`` has one, and Qt's
    translation of its standard dialogs. Returns the locale name used. Qt then sends
    ``QEvent.LanguageChange`` to every widget, and each sets its texts again
    (``widgets.common.retranslate``): ``MainWindow.switch_language`` calls it while the lab
    runs.
    """
    from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

    app = QCoreApplication.instance()
    for translator in _translators:
        app.removeTranslator(translator)
    _translators.clear()
    locale = QLocale(language) if language else QLocale.system()
    own = translation_file(locale.name())
    if own is not None:
        translator = QTranslator(app)
        if translator.load(str(own)):
            app.installTranslator(translator)
            _translators.append(translator)
    qt_base = QTranslator(app)
    if qt_base.load(locale, "qtbase", "_",
                    QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_base)
        _translators.append(qt_base)
    return locale.name()
