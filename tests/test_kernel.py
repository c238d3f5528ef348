"""The kernel runs a recipe as python does, and a recipe that hangs, eats memory or crashes
ends with a message and an exit code, never a hung ``tensor-lab run``.

Core tests: no QApplication. ``python -m app run`` is ``tensor-lab run``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from protocol import messages
from protocol.source import statements


def _run(tmp_path, code: str, *options: str, name: str = "r.py", argv=(), timeout=120):
    path = tmp_path / name
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    start = time.monotonic()
    lab = subprocess.run([sys.executable, "-m", "app", "run", *options, name, *argv],
                         capture_output=True, text=True, cwd=tmp_path, timeout=timeout)
    lab.seconds = time.monotonic() - start
    return lab


def _python(tmp_path, name: str = "r.py", *args: str):
    return subprocess.run([sys.executable, name, *args], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)


# -- reading -------------------------------------------------------------------------------
def test_statements_keep_their_exact_text_and_lines():
    source = ('"""Doc."""\nimport torch\n\n@staticmethod\ndef f(a):  # note\n'
              '    return a\n\nfor i in range(3):\n    print(i)\nx = 1; y = 2\n')
    found, nodes = statements(source)
    assert [s.kind for s in found] == ["Expr", "Import", "FunctionDef", "For", "Assign",
                                       "Assign"]
    assert found[2].text == "@staticmethod\ndef f(a):  # note\n    return a"
    assert (found[2].line, found[2].end_line) == (4, 6)
    assert found[3].text == "for i in range(3):\n    print(i)" and found[3].line == 8
    assert [found[4].text, found[5].text] == ["x = 1", "y = 2"]
    assert found[3].first_line == "for i in range(3):"


def test_a_syntax_error_names_the_file_and_line():
    with pytest.raises(SyntaxError) as raised:
        statements("x = 1\ny = (\n", "lesson.py")
    assert raised.value.filename == "lesson.py" and raised.value.lineno == 2


def test_messages_are_plain_json_and_nothing_else_decodes():
    done = messages.StepDone(3, 7, 0.5, "RuntimeError", "bad", 9)
    assert messages.decode(messages.encode(done)) == done
    with pytest.raises(ValueError):
        messages.decode(b'{"type": "os.system", "command": "true"}')


# -- fidelity to python ----------------------------------------------------------------------
FIDELITY = '''\
    """The lesson's title.

    More text.
    """
    from __future__ import annotations

    import pickle
    import sys

    import torch

    print(__name__, repr(__doc__[:17]), sys.argv[1:], __file__.endswith("r.py"))
    total = 0
    for step in range(5):
        if step % 2 == 0:
            total += step
    print(total)


    def grows(a: NotDefinedAnywhere) -> torch.Tensor:
        while a.norm() < 100:
            a = a * 2
        return a


    class Point:
        def __init__(self, x):
            self.x = x

        def __repr__(self):
            return f"Point({self.x})"


    print(grows(torch.ones(2)), pickle.loads(pickle.dumps(Point(3))))
    try:
        torch.ones(2, 3).view(4, 2)
    except RuntimeError as e:
        print("caught:", e)
    with torch.no_grad():
        w = torch.ones(2, requires_grad=True) * 3
    print(w.requires_grad, [k ** 2 for k in range(4)], {k: k for k in "ab"})
    if __name__ == "__main__":
        print("main guard runs")
    sys.stdout.write("no newline")
'''


def test_a_script_with_loops_defs_classes_and_try_prints_what_python_prints(tmp_path):
    lab = _run(tmp_path, FIDELITY, argv=("one", "--two"))
    python = _python(tmp_path, "r.py", "one", "--two")
    assert python.returncode == 0, python.stderr
    assert (lab.returncode, lab.stdout, lab.stderr) == (0, python.stdout, python.stderr)
    assert "['one', '--two']" in lab.stdout and "main guard runs" in lab.stdout


@pytest.mark.parametrize(("code", "status"), [
    ("import torch\nx = torch.ones(2)\nprint(x)\ny = x.view(3)\nprint('never')\n", 1),
    ("def f():\n    raise ValueError('inside')\n\nprint(1)\nf()\n", 1),
    ("import sys\nprint('bye')\nsys.exit(4)\n", 4),
    ("import sys\nsys.exit('a message')\n", 1),
    ("x = (\n", 1),
    ("try:\n    1 / 0\nexcept ZeroDivisionError:\n    raise KeyError('chained')\n", 1),
])
def test_errors_and_exits_match_python(tmp_path, code, status):
    lab = _run(tmp_path, code)
    python = _python(tmp_path)
    assert python.returncode == status
    assert (lab.returncode, lab.stdout, lab.stderr) == (status, python.stdout, python.stderr)


def test_files_land_in_the_callers_folder(tmp_path):
    code = 'import torch\ntorch.save({"w": torch.ones(2)}, "model.pth")\nprint("saved")\n'
    sub = tmp_path / "elsewhere"
    sub.mkdir()
    (sub / "r.py").write_text(code)
    lab = subprocess.run([sys.executable, "-m", "app", "run", "elsewhere/r.py"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert lab.returncode == 0, lab.stderr
    assert (tmp_path / "model.pth").is_file() and not (sub / "model.pth").exists()


# -- faults ----------------------------------------------------------------------------------
def test_a_loop_past_its_timeout_is_stopped_with_a_message(tmp_path):
    lab = _run(tmp_path, "import time\nprint('start', flush=True)\nwhile True:\n"
               "    time.sleep(0.01)\n", "--timeout", "1")
    assert lab.returncode == 1 and lab.stdout == "start\n"
    assert "KeyboardInterrupt" in lab.stderr and "/kernel/" not in lab.stderr
    assert "timeout of 1 s" in lab.stderr
    assert lab.seconds < 20


def test_a_busy_cpp_op_past_its_timeout_is_killed_within_the_grace(tmp_path):
    # a C++ op never sees KeyboardInterrupt until it returns: the kill path ends it
    lab = _run(tmp_path, "import torch\na = torch.rand(3000, 3000)\nwhile True:\n"
               "    a @ a\n", "--timeout", "2")
    assert lab.returncode == 1 and "timeout of 2 s" in lab.stderr
    assert lab.seconds < 30


def test_the_memory_bomb_ends_with_a_message_naming_the_budget(tmp_path):
    lab = _run(tmp_path, "import torch\nxs = []\nwhile True:\n    xs.append(torch.ones(10**6))\n",
               "--memory", "1")
    assert lab.returncode == 1
    assert "budget of 1.0 GiB" in lab.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGSEGV"), reason="POSIX signals")
def test_a_segfault_ends_as_under_python(tmp_path):
    lab = _run(tmp_path, "import ctypes\nprint('before', flush=True)\nctypes.string_at(0)\n")
    python = _python(tmp_path)
    assert python.returncode == lab.returncode == -signal.SIGSEGV
    assert (lab.stdout, lab.stderr) == ("before\n", python.stderr)  # (a shell names it)


def test_os_exit_keeps_its_status(tmp_path):
    lab = _run(tmp_path, "import os\nprint('x', flush=True)\nos._exit(3)\n")
    assert (lab.returncode, lab.stdout) == (3, "x\n")


def test_an_output_flood_streams_and_stops(tmp_path):
    lab = _run(tmp_path, "i = 0\nwhile True:\n    print(i)\n    i += 1\n", "--timeout", "2")
    assert lab.returncode == 1 and "timeout" in lab.stderr
    lines = lab.stdout.splitlines()
    assert len(lines) > 1000 and lines[:3] == ["0", "1", "2"]
