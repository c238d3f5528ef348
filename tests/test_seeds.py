"""Every code example of the course notes runs under ``tensor-lab run`` as under ``python``.

``tests/seeds/`` holds each example of ``../shared/seeds/`` as a teacher would paste it
(see its INDEX.md), including those that raise, need CUDA, a download or a file. Both
commands run in that folder; their output, their tracebacks and their exit codes must be
the same. Memory addresses in a repr (``0x7f...``) are the only thing masked.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent / "seeds"
EXAMPLES = sorted(p.name for p in SEEDS.glob("*.py"))
EXPECTED = json.loads((SEEDS / "expected.json").read_text(encoding="utf-8"))
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


@functools.cache
def python_run(name: str) -> subprocess.CompletedProcess:
    """``python NAME`` in the seeds' folder (run once a session: the SSH kernel's tests
    compare with it too)."""
    return subprocess.run([sys.executable, name], capture_output=True, text=True, cwd=SEEDS,
                          env=ENV, timeout=300)


def _both(name: str) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    with ThreadPoolExecutor(2) as pool:
        python = pool.submit(python_run, name)
        lab = subprocess.run([sys.executable, "-m", "app", "run", name], capture_output=True,
                             text=True, cwd=SEEDS, env=ENV, timeout=300)
        return python.result(), lab


def _masked(text: str) -> str:
    return _ADDRESS.sub("0x…", text)


def test_every_example_of_the_notes_is_here():
    assert len(EXAMPLES) >= 60
    assert set(EXAMPLES) == set(EXPECTED)
    for notes in ("000", "001", "002", "003", "004"):
        assert any(name.startswith(notes + "_") for name in EXAMPLES), notes


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_lab_runs_the_example_as_python_does(name):
    python, lab = _both(name)
    assert python.returncode == EXPECTED[name]["exit_code"], python.stderr[-2000:]
    assert lab.returncode == python.returncode, lab.stderr[-2000:]
    assert _masked(lab.stdout) == _masked(python.stdout)
    assert _masked(lab.stderr) == _masked(python.stderr)
