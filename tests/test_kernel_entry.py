"""The kernel is a plain python process started at its entry point (``python -m
kernel``): the window's side names it only by that, and the same entry point serves
a peer over stdin and stdout (what an ``ssh`` transport starts on a server)."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import time

from protocol import messages
from protocol.wire import Descriptors, Wire

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: What the window's link to a local kernel may import of the link, the protocol and the
#: kernel: the messages, their framing, and the budgets and kill path it owns; nothing the
#: kernel runs (no module of ``kernel``).
LINK = {"app.link", "app.link.supervisor", "app.link.transport", "protocol", "protocol.wire",
        "protocol.messages", "protocol.codec", "protocol.loop_report",
        "protocol.sealed", "protocol.budget", "protocol.reaper", "protocol.json_values"}
#: The packages whose modules count here.
PARTS = ("app.link", "protocol", "kernel")


def _module_file(name: str) -> pathlib.Path | None:
    path = ROOT / name.replace(".", "/")
    for found in (path / "__init__.py", path.with_suffix(".py")):
        if found.exists():
            return found
    return None


def _imports(name: str) -> set[str]:
    """Every module of ours that ``name`` imports, in functions too (read with ast)."""
    path = _module_file(name)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return {module for module in found
            if module.startswith(("app", "protocol", "kernel")) and _module_file(module)}


def _reached(*names: str) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _imports(name)
    return seen


def test_the_window_side_of_a_local_kernel_imports_nothing_the_kernel_runs():
    reached = {m for m in _reached("app.link.supervisor", "app.link.transport")
               if m.startswith(PARTS)}
    assert reached <= LINK, sorted(reached - LINK)


def test_importing_the_supervisor_loads_only_the_link(tmp_path):
    loaded = subprocess.run(
        [sys.executable, "-c", "import app.link.supervisor, sys; "
         f"print(sorted(m for m in sys.modules if m.startswith({PARTS!r})), "
         "'torch' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True).stdout
    modules, torch = loaded.rsplit(" ", 1)
    assert set(ast.literal_eval(modules)) <= LINK
    assert torch.strip() == "False"


def _messages(wire: Wire, until: type, timeout: float = 60) -> list:
    said, deadline = [], time.monotonic() + timeout
    while not said or not isinstance(said[-1], until):
        assert wire.poll(max(0.0, deadline - time.monotonic())), f"no {until.__name__}: {said}"
        said.append(messages.receive(wire))
    return said


def test_the_entry_point_serves_a_peer_on_stdin_and_stdout(tmp_path):
    """What the recipe writes to descriptor 1 (itself, or a process it starts) goes to
    the kernel's stderr, never into the frames; the peer's end of file ends the kernel."""
    recipe = tmp_path / "r.py"
    source = ("import os, subprocess, sys\nprint('printed')\nos.write(1, b'raw to fd 1')\n"
              "subprocess.run([sys.executable, '-c', 'print(\"from a child\")'])\n")
    kernel = subprocess.Popen([sys.executable, "-m", "kernel", "--stdio"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    wire = Wire(Descriptors(kernel.stdout.fileno(), kernel.stdin.fileno()))
    try:
        wire.send_bytes(messages.encode(messages.Hello(messages.VERSION)))
        wire.send_bytes(messages.encode(messages.RunSource(str(recipe), source,
                                                           str(tmp_path))))
        said = _messages(wire, messages.Done)
        assert isinstance(said[0], messages.Ready) and said[0].version == messages.VERSION
        assert said[-1].exit_code == 0
        assert [m.text for m in said if isinstance(m, messages.Output)] == ["printed\n"]
        kernel.stdin.close()  # the connection ends: so does the kernel
        kernel.wait(10)
        err = kernel.stderr.read().decode()
    finally:
        if kernel.poll() is None:
            kernel.kill()
        kernel.wait()
        kernel.stdout.close()
        kernel.stderr.close()
    assert "raw to fd 1" in err and "from a child" in err


def test_the_kernel_ends_within_2_s_of_its_peers_end_of_file(tmp_path):
    kernel = subprocess.Popen([sys.executable, "-m", "kernel", "--stdio"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    wire = Wire(Descriptors(kernel.stdout.fileno(), kernel.stdin.fileno()))
    try:
        wire.send_bytes(messages.encode(messages.Hello(messages.VERSION)))
        wire.send_bytes(messages.encode(messages.RunSource(
            str(tmp_path / "r.py"), "x = 1\n", str(tmp_path))))
        _messages(wire, messages.Done)
        closed = time.monotonic()
        kernel.stdin.close()
        kernel.wait(10)
        assert time.monotonic() - closed < 2.0
    finally:
        if kernel.poll() is None:
            kernel.kill()
        kernel.wait()
        kernel.stdout.close()
