"""Opening a 5,000-statement file parses its text once: the trust rule, the reader, the
retired-format check, the steps' lines and the run's statements share one tree (it was
parsed five times: about a second of the window's thread)."""

from __future__ import annotations

import ast

from app.recipe.document import Document
from app.recipe.kernel_results import KernelRunState
from app.settings import MemoryStorage
from app.trust import TrustStore, read_file


def _statements_file(tmp_path, statements: int = 5000):
    text = (f"# {tmp_path.name}\nimport torch\nt = torch.zeros(3)\n"
            + "t = t + 1\n" * (statements - 3) + "print(t)\n")
    path = tmp_path / "statements.py"
    path.write_text(text, encoding="utf-8")
    return path, text


def test_opening_a_5000_statement_file_parses_its_text_once(tmp_path, monkeypatch):
    path, text = _statements_file(tmp_path)
    parsed = []
    real = ast.parse

    def counting(source, *args, **kwargs):
        if len(source) >= len(text):  # the file's text, not a step's few characters
            parsed.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    opened = read_file(str(path), TrustStore(MemoryStorage()))
    document = Document()
    document.open(path, data=opened.data)
    # what the window's kernel hook does next: a run of the text, its steps found by line
    state = KernelRunState(document.recipe, document.recipe.source, document.run, 0)
    assert opened.problem is None and len(document.recipe.steps) == 4999
    assert len(state.statements) == 5000 and len(state.steps_of) == 4999
    assert parsed == [text]


def test_an_opened_file_reads_as_it_did_when_parsed_once(tmp_path):
    path, text = _statements_file(tmp_path, 10)
    document = Document()
    document.open(path)
    assert document.text == text
    assert [s.line for s in document.recipe.steps] == list(range(3, 12))
    assert document.recipe.step_lines() == list(range(3, 12))
