"""``tensor-lab run FILE`` gives what ``python FILE`` gives: the same stdout, stderr and exit
status, for the files and processes python's own rules cover (a BOM, a PEP 263 coding
line, stdin from a pipe, a death by signal, a closed stdout, ``multiprocessing`` and
``DataLoader`` workers, threads left running).

Both commands run as subprocesses on the same file, in the same folder. Core tests: no
QApplication. ``python -m app run`` is ``tensor-lab run``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.link.supervisor import Kernel
from protocol import messages as msg

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and fork")


def _both(folder: Path, data: bytes, stdin: str | None = None,
          options: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, ...]:
    """``python r.py`` and ``tensor-lab run r.py``, side by side, on the file ``data``."""
    (folder / "r.py").write_bytes(data)
    commands = ([sys.executable, "r.py"], [sys.executable, "-m", "app", "run", *options, "r.py"])

    def run(command: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(command, input=stdin, capture_output=True, text=True,
                              cwd=folder, timeout=180,
                              stdin=subprocess.DEVNULL if stdin is None else None)

    with ThreadPoolExecutor(2) as pool:
        python, lab = pool.map(run, commands)
    return python, lab


def _same(python: subprocess.CompletedProcess, lab: subprocess.CompletedProcess) -> None:
    assert (lab.returncode, lab.stdout, lab.stderr) == (
        python.returncode, python.stdout, python.stderr)


# -- reading the file ----------------------------------------------------------------------
def test_bom_file_runs_as_python_runs_it(tmp_path):
    source = 'print("bom")\nx = 1\nraise ValueError(x)\n'
    python, lab = _both(tmp_path, b"\xef\xbb\xbf" + source.encode("utf-8"))
    assert python.stdout == "bom\n" and 'line 3, in <module>' in python.stderr
    _same(python, lab)


def test_a_coding_line_reads_the_file_as_python_does(tmp_path):
    source = '# -*- coding: latin-1 -*-\nprint("caf\xe9")\n\nraise ValueError("na\xefve")\n'
    python, lab = _both(tmp_path, source.encode("latin-1"))
    assert python.returncode == 1 and 'raise ValueError("na\xefve")' in python.stderr
    _same(python, lab)


def test_a_file_python_cannot_decode_fails_as_python_fails(tmp_path):
    python, lab = _both(tmp_path, b'print("never")\nprint("caf\xe9")\n')
    assert python.returncode == lab.returncode == 1
    assert python.stdout == lab.stdout == ""
    assert lab.stderr.splitlines()[-1].startswith("SyntaxError: ")


# -- the process's streams -----------------------------------------------------------------
def test_stdin_from_a_pipe_reaches_the_recipe(tmp_path):
    source = ('import sys\nprint("got", input())\nprint(repr(sys.stdin.read()))\n'
              'print(sys.stdin.name, sys.stdin.mode, sys.stdin.encoding, sys.stdin.errors)\n')
    python, lab = _both(tmp_path, source.encode(), stdin="hi\nthere\nend\n")
    assert python.stdout.startswith("got hi\n'there\\nend\\n'\n")
    _same(python, lab)


def test_a_closed_stdout_gives_pythons_own_traceback(tmp_path):
    python, lab = _both(tmp_path, b'import sys\nsys.stdout.close()\nprint("x")\n')
    assert "ValueError: I/O operation on closed file." in python.stderr
    _same(python, lab)


@pytest.mark.parametrize("hook", [
    "def hook(*args):\n    raise RuntimeError('the hook broke')\nsys.excepthook = hook\n",
    "del sys.excepthook\n",
])
def test_an_excepthook_that_raises_or_is_missing_is_dealt_with_as_python_does(tmp_path, hook):
    python, lab = _both(tmp_path, f"import sys\n{hook}raise ValueError(1)\n".encode())
    assert python.returncode == 1 and python.stderr.endswith("ValueError: 1\n")
    _same(python, lab)


# -- ends by signal ------------------------------------------------------------------------
@POSIX
@pytest.mark.parametrize("name", ["SIGKILL", "SIGTERM", "SIGSEGV"])
def test_a_recipe_that_signals_itself_ends_as_python_does(tmp_path, name):
    source = (f'import os, signal\nprint("a", flush=True)\n'
              f'os.kill(os.getpid(), signal.{name})\nprint("never")\n')
    python, lab = _both(tmp_path, source.encode())
    assert python.returncode == -getattr(signal, name)  # a shell shows 128 + n
    _same(python, lab)


# -- processes and threads -----------------------------------------------------------------
DATALOADER = '''\
import multiprocessing
import torch
from torch.utils.data import DataLoader, Dataset


class Numbers(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return torch.tensor([i])


print(multiprocessing.get_start_method())
train_set = Numbers()
train_loader = DataLoader(train_set, batch_size=16, shuffle=False, num_workers=2)
for batch in train_loader:
    print(batch.view(-1).tolist())
'''

SPAWN = '''\
import multiprocessing


class Job:
    def __init__(self, n):
        self.n = n

    def __call__(self):
        return self.n * 2


def run(job):
    return job(), __name__


if __name__ == "__main__":
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        print(pool.map(run, [Job(1), Job(2)]))
    print(multiprocessing.get_start_method(), multiprocessing.current_process().name)
'''


@POSIX
def test_dataloader_workers_with_a_recipe_dataset_run_as_under_python(tmp_path):
    python, lab = _both(tmp_path, DATALOADER.encode())
    assert python.returncode == 0, python.stderr
    _same(python, lab)


def test_spawned_workers_unpickle_classes_defined_in_the_recipe(tmp_path):
    python, lab = _both(tmp_path, SPAWN.encode())
    assert python.returncode == 0 and "[(2, '__mp_main__'), (4, '__mp_main__')]" in \
        python.stdout, python.stderr
    _same(python, lab)


def test_the_windows_kernel_starts_processes_as_python_does(tmp_path):
    default = subprocess.run([sys.executable, "-c", "import multiprocessing as m; "
                              "print(m.get_start_method())"], capture_output=True, text=True,
                             check=True).stdout.strip()
    path = tmp_path / "lesson.py"
    path.write_text(DATALOADER, encoding="utf-8")
    kernel = Kernel()
    try:
        kernel.run_source(str(path), DATALOADER, str(tmp_path))
        messages, deadline = [], time.monotonic() + 120
        while not (messages and isinstance(messages[-1], msg.Done)):
            assert time.monotonic() < deadline, messages[-5:]
            message = kernel.receive(0.1)
            if message is not None:
                messages.append(message)
    finally:
        kernel.close()
    errors = [m.message for m in messages if isinstance(m, msg.StepDone) and m.error]
    printed = "".join(m.text for m in messages
                      if isinstance(m, msg.Output) and m.stream == "stdout")
    assert errors == [] and messages[-1].exit_code == 0
    assert printed == default + "\n" + "".join(
        f"{list(range(k, k + 16))}\n" for k in (0, 16))


@POSIX
def test_a_forked_child_of_a_window_run_prints_to_the_kernels_own_stdout(tmp_path, capfd):
    # (the window's Output pane is the kernel's; a child prints where python's would)
    source = ('import os\npid = os.fork()\nif pid == 0:\n    print("from the child", flush=True)\n'
              '    os._exit(0)\nos.waitpid(pid, 0)\nprint("parent")\n')
    kernel = Kernel()
    try:
        kernel.run_source(str(tmp_path / "fork.py"), source, str(tmp_path))
        deadline = time.monotonic() + 60
        while not isinstance(kernel.receive(0.1), msg.Done):
            assert time.monotonic() < deadline
    finally:
        kernel.close()
    assert "from the child\n" in capfd.readouterr().out


def test_a_thread_left_running_ends_at_the_timeout_with_its_message(tmp_path):
    (tmp_path / "r.py").write_text(
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,)).start()\nprint('main done')\n")
    start = time.monotonic()
    lab = subprocess.run([sys.executable, "-m", "app", "run", "--timeout", "2", "r.py"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=180)
    assert time.monotonic() - start < 30  # python itself would wait the minute out
    assert (lab.returncode, lab.stdout) == (1, "main done\n")
    assert "timeout of 2 s" in lab.stderr and lab.stderr.count("\n") == 1, lab.stderr


def test_non_daemon_threads_are_waited_for_as_under_python(tmp_path):
    source = ('import threading, time\n'
              'def late():\n    time.sleep(1)\n    print("thread done")\n'
              'threading.Thread(target=late).start()\nprint("main done")\n')
    python, lab = _both(tmp_path, source.encode())
    assert python.stdout == "main done\nthread done\n"
    _same(python, lab)
