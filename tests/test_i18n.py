"""The Simplified Chinese translation: complete, placeholders intact, and really shown.

``pyside6-lupdate`` extracts every UI text (``self.tr``, ``QCoreApplication.translate``,
the ``_tr`` helpers, ``QT_TRANSLATE_NOOP`` in the core) from the current sources; the
committed ``resources/i18n/tensor_lab_zh_CN.ts`` must translate each one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "i18n" / "tensor_lab_zh_CN.ts"
QM = TS.with_suffix(".qm")
BIN = Path(sys.executable).parent
#: The same flags as ``make translations``.
LUPDATE_FLAGS = ["-tr-function-alias", "tr+=_tr", "-locations", "none", "-no-obsolete",
                 "-source-language", "en"]
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%n|%\d+|%[vmp]")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _sources() -> list[str]:
    files = [p for part in ("app", "widgets", "kernel", "protocol")
             for p in ROOT.glob(f"{part}/**/*.py")]
    return sorted(str(p.relative_to(ROOT)) for p in files)


def _messages(path: Path) -> dict[tuple[str, str], ET.Element]:
    out = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out[(name, message.findtext("source") or "")] = message
    return out


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed next to {sys.executable}")
    return str(path)


@pytest.fixture(scope="module")
def committed() -> dict[tuple[str, str], ET.Element]:
    return _messages(TS)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str, str]]:
    out = tmp_path_factory.mktemp("i18n") / "current.ts"
    subprocess.run([_tool("pyside6-lupdate"), *LUPDATE_FLAGS, *_sources(), "-ts", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    return set(_messages(out))


def _finished(message: ET.Element) -> bool:
    translation = message.find("translation")
    return (translation is not None and translation.get("type") not in ("unfinished", "vanished",
                                                                       "obsolete")
            and bool((translation.text or "").strip()))


def test_every_ui_text_has_a_chinese_translation(extracted, committed):
    missing = sorted(key for key in extracted
                     if key not in committed or not _finished(committed[key]))
    assert not missing, (f"{len(missing)} UI texts lack a Chinese translation; run "
                         f"'make translations' and translate them: {missing[:20]}")


def test_the_extraction_covers_the_menus_and_the_core_markers(extracted):
    sources = {source for _, source in extracted}
    assert {"&File", "&Edit", "&View", "&Help"} <= sources  # the _tr helpers are read


def test_placeholders_match(committed):
    wrong = []
    for (context, source), message in committed.items():
        if not _finished(message):
            continue
        text = message.findtext("translation") or ""
        if sorted(_PLACEHOLDER.findall(source)) != sorted(_PLACEHOLDER.findall(text)):
            wrong.append((context, source, text))
    assert not wrong, wrong[:10]


def test_accelerators_survive(committed):
    """A menu text with an ``&`` mnemonic keeps one in Chinese, as ``文件(&F)``."""
    lost = [source for (_, source), m in committed.items()
            if re.search(r"&[A-Za-z]", source.replace("&amp;", ""))
            and "<" not in source and _finished(m)
            and not re.search(r"&[A-Za-z]", m.findtext("translation") or "")]
    assert not lost, lost


def test_the_committed_qm_is_built_from_the_ts(tmp_path):
    """The shipped ``.qm`` is committed (a wheel builds without make); it must be what
    ``make translations`` (lrelease) makes of the ``.ts`` today, byte for byte."""
    fresh = tmp_path / QM.name
    subprocess.run([_tool("pyside6-lrelease"), "-silent", str(TS), "-qm", str(fresh)],
                   check=True, capture_output=True, timeout=60)
    assert QM.is_file(), f"{QM} is not committed; run 'make translations'"
    assert QM.read_bytes() == fresh.read_bytes(), (
        f"{QM.name} is stale: run 'make translations' and commit it")


def test_the_extraction_reads_the_subpackages():
    assert "widgets/shell/main_window.py" in _sources()
    assert "app/catalog/spec.py" in _sources()


def test_the_window_title_and_menus_are_chinese(qtbot):
    from app.settings import Settings
    from widgets.launch import make_window
    from widgets.shell.translators import install_translators

    install_translators("zh_CN")
    try:
        window = make_window(restore_layout=False, present=True, settings=Settings())
        qtbot.addWidget(window)
        menus = [a.text() for a in window.menuBar().actions() if a.menu() is not None]
        assert len(menus) >= 4
        for text in [window.windowTitle(), *menus]:
            assert _CJK.search(text), text
        assert "文件(&F)" in menus
    finally:
        install_translators("en")


def test_the_command_line_renders_in_chinese(tmp_path):
    out = tmp_path / "zh.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "widgets", "--present", "--lang", "zh_CN",
                           "--screenshot", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 10_000


def test_op_explanations_and_lessons_show_in_chinese(qapp):
    """The core's texts (``QT_TRANSLATE_NOOP``, ``Filled`` templates) are shown translated."""
    from app.catalog import CATALOG
    from app.catalog.error_lessons import explain
    from widgets.common.i18n_text import lesson_text, op_summary
    from widgets.shell.translators import install_translators

    zeros, gt = CATALOG.get("torch.zeros"), CATALOG.get("torch.gt")
    lesson = explain("torch.unsqueeze", "IndexError",
                     "Dimension out of range (expected to be in range of [-3, 2], but got 5)")
    assert lesson is not None
    english = [op_summary(zeros), op_summary(gt), lesson_text(lesson.cause)]
    assert english == [zeros.summary, gt.summary, lesson.cause]  # English until installed
    install_translators("zh_CN")
    try:
        texts = [op_summary(zeros), op_summary(gt), lesson_text(lesson.cause),
                 lesson_text(lesson.fix)]
        for text in texts:
            assert _CJK.search(text), text
        assert "`input > other`" in texts[1] and "大于" in texts[1]  # the word, translated
        assert "[-3, 2]" in texts[2] and "2 维张量" in texts[2]  # values filled in, rank too
    finally:
        install_translators("en")
    assert op_summary(zeros) == zeros.summary


def test_the_restore_question_is_asked_in_chinese(qapp, chinese):
    """The crash-recovery question (module-level ``_tr`` in ``autosave_hook``) was English
    in the Chinese window: its helper asked the "Autosave" context, where lupdate files a
    module-level call's text under the empty one."""
    from app.recipe.autosave import Recovery
    from widgets.shell.autosave_hook import restore_box

    box = restore_box(None, Recovery(text="x = 1\n", path="/tmp/net.py", saved=0.0, pid=1,
                                     files=()))
    try:
        texts = [box.windowTitle(), box.text(),
                 *(button.text() for button in box.buttons())]
        for text in texts:
            assert _CJK.search(text), text
    finally:
        box.deleteLater()


def test_module_level_tr_helpers_ask_the_context_lupdate_files_them_under():
    """lupdate (``-tr-function-alias tr+=_tr``) files a ``_tr`` call outside a class under
    the empty context; a module's ``_tr`` helper that asks another context is never
    translated (every such helper in the views, read with ``ast``)."""
    import ast

    wrong = []
    for path in sorted(ROOT.glob("widgets/**/*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not (isinstance(node, ast.FunctionDef) and node.name == "_tr"):
                continue
            for call in ast.walk(node):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "translate" and call.args
                        and isinstance(call.args[0], ast.Constant)
                        and call.args[0].value != ""):
                    wrong.append((str(path.relative_to(ROOT)), call.args[0].value))
    assert not wrong, wrong
