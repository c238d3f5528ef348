"""Hostile Python files for the "opening never runs" tests: each would leave a trace if run.

Deterministic (one seeded ``random.Random``, no hypothesis), so a failing file can be
made again from its index. Every generated file combines

- an **action** that, if it ever ran, creates its own canary file (``canary-<i>`` in the
  folder given), and on the way starts a process, opens a socket, loads a C library or
  writes through an unusual door (``torch.save``, ``sqlite3``, ``pickle``...);
- a **wrapper** that decides *when* the action would run: at module level, in a class
  body, a decorator or a default argument evaluated at definition, ``__init_subclass__``,
  a metaclass, ``__set_name__``, ``__del__``, ``atexit``, a thread, ``asyncio``, under
  ``if __name__ == "__main__":``, in a loop, a comprehension, an ``exec``/``eval`` string,
  an ``nn.Module``'s ``forward``, a tensor hook...;
- a **disguise** around it: a lesson docstring and real recipe steps, a shebang, a BOM,
  a latin-1 coding line, a training settings block with the payload after the marker
  that the lab skips, a long recipe with the payload at its end;
- a **layout**: LF, CRLF, CR line endings, or tabs.

The first ``len(KINDS)`` files take every action, wrapper, disguise and layout at least
once (``stratified``); the rest are random combinations. ``python FILE`` of any generated
file creates its canary (``tests/test_open_never_runs.py`` proves it on a sample). The
hand-written corpus of ``tests/test_hostile_recipes.py`` joins with ``corpus=``: its
canary path is rewritten to each file's own.
"""

from __future__ import annotations

import base64
import codecs
import marshal
import os
import pickle
import random
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: In every canary's path and every generated file: what a leaked event would mention.
MARKER = "tensor-lab-hostile"

# -- actions: statement blocks; @C@ is the canary path literal, @SH@ a shell command ------------
ACTIONS: dict[str, str] = {
    "open_write": 'open(@C@, "w").write("ran")',
    "pathlib": '__import__("pathlib").Path(@C@).write_text("ran")',
    "os_open": "import os\nos.close(os.open(@C@, os.O_CREAT | os.O_WRONLY, 0o600))",
    "io_open": 'import io\nwith io.open(@C@, "w") as _f:\n    _f.write("ran")',
    "builtins_getattr": 'getattr(__import__("builtins"), "op" + "en")(@C@, "w").close()',
    "sys_modules": 'import sys\nsys.modules["builtins"].open(@C@, "w").close()',
    "fullwidth_open": 'ｏｐｅｎ(@C@, "w").close()',  # NFKC: the name is open
    "logging": "import logging\nlogging.FileHandler(@C@).close()",
    "sqlite": 'import sqlite3\n_db = sqlite3.connect(@C@)\n_db.execute("create table t (x)")\n'
              "_db.close()",
    "torch_save": "import torch\ntorch.save(torch.ones(1), @C@)",
    "numpy_tofile": "import torch\ntorch.ones(2).numpy().tofile(@C@)",
    "torch_hook": "import torch\n_x = torch.ones(1, requires_grad=True)\n"
                  '_x.register_hook(lambda g: open(@C@, "w").close() or g)\n_x.sum().backward()',
    "torch_apply": 'import torch\ntorch.ones(1).apply_(lambda v: open(@C@, "w").close() or v)',
    "forward_hook": "import torch\nimport torch.nn as nn\n_m = nn.Linear(1, 1)\n"
                    '_m.register_forward_hook(lambda *a: open(@C@, "w").close())\n'
                    "_m(torch.ones(1))",
    "subclasses": '[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '
                  '"_wrap_close"][0].__init__.__globals__["system"](@SH@)',
    "importlib": '__import__("importlib").import_module("os").system(@SH@)',
    "os_system": "import os\nos.system(@SH@)",
    "os_popen": "import os\nos.popen(@SH@).read()",
    "subprocess_run": 'import subprocess\nsubprocess.run(["touch", @C@], check=False)',
    "subprocess_python": "import subprocess\nimport sys\nsubprocess.run([sys.executable, "
                         "\"-c\", \"open(%r, 'w').close()\" % @C@], check=False)",
    "popen_shell": "import subprocess\nsubprocess.Popen(@SH@, shell=True).wait()",
    "posix_spawn": 'import os\nos.waitpid(os.posix_spawnp("touch", ["touch", @C@], '
                   "dict(os.environ)), 0)",
    "spawn": 'import os\nos.spawnlp(os.P_WAIT, "touch", "touch", @C@)',
    "fork": 'import os\n_pid = os.fork()\nif _pid == 0:\n    open(@C@, "w").close()\n'
            "    os._exit(0)\nos.waitpid(_pid, 0)",
    "fork_exec": 'import os\n_pid = os.fork()\nif _pid == 0:\n    os.execvp("touch", '
                 '["touch", @C@])\nos.waitpid(_pid, 0)',
    "socket_bind": "import socket\n_s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
                   '_s.bind(("127.0.0.1", 0))\n_s.close()\nopen(@C@, "w").close()',
    "socket_connect": "import socket\ntry:\n    socket.create_connection((\"127.0.0.1\", 9), "
                      'timeout=0.5).close()\nexcept OSError:\n    pass\nopen(@C@, "w").close()',
    "socket_udp": "import socket\n_s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                  '_s.sendto(b"ran", ("127.0.0.1", 9))\n_s.close()\nopen(@C@, "w").close()',
    "urllib": "import urllib.request\ntry:\n    urllib.request.urlopen(\"http://127.0.0.1:9/\", "
              'timeout=0.5)\nexcept OSError:\n    pass\nopen(@C@, "w").close()',
    "ctypes_system": "import ctypes\nctypes.CDLL(None).system(@SH@.encode())",
    "ctypes_find": 'import ctypes\nimport ctypes.util\nctypes.CDLL(ctypes.util.find_library("c")'
                   " or None).system(@SH@.encode())",
    "pickle": "import pickle\npickle.loads(@PICKLE@)",
    "marshal": 'exec(__import__("marshal").loads(@MARSHAL@))',
    "rot13": 'exec(__import__("codecs").decode(@ROT13@, "rot13"))',
    "base64": 'exec(__import__("base64").b64decode(@B64@))',
    "compile_exec": 'exec(compile(@SRC@, "<recipe>", "exec"))',
    "eval_import": 'eval("__import__(\'os\').system(" + repr(@SH@) + ")")',
    "breakpointhook": 'import sys\nsys.breakpointhook = lambda: open(@C@, "w").close()\n'
                      "breakpoint()",
}


def _indent(block: str, levels: int = 1) -> str:
    pad = "    " * levels
    return "\n".join(pad + line if line else line for line in block.split("\n"))


def _exec(block: str) -> str:
    return f"exec({block!r})"


# -- wrappers: when the action would run -------------------------------------------------------
WRAPPERS = {
    "module": lambda b: b,
    "function": lambda b: f"def _step():\n{_indent(b)}\n\n\n_step()",
    "main_guard": lambda b: f'if __name__ == "__main__":\n{_indent(b)}',
    "class_body": lambda b: f"class Steps:\n{_indent(b)}",
    "module_class_body": lambda b: "import torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                                   f"{_indent(b)}",
    "decorator": lambda b: f"def _register(fn):\n{_indent(b)}\n    return fn\n\n\n"
                           "@_register\ndef step():\n    return 1",
    "class_decorator": lambda b: f"def _register(cls):\n{_indent(b)}\n    return cls\n\n\n"
                                 "@_register\nclass Step:\n    pass",
    "decorator_factory": lambda b: f"def _tagged(name):\n{_indent(b)}\n"
                                   "    return lambda fn: fn\n\n\n"
                                   '@_tagged("x")\ndef step():\n    return 1',
    "default_argument": lambda b: f"def _act():\n{_indent(b)}\n    return 0\n\n\n"
                                  "def step(x=_act()):\n    return x",
    "lambda_default": lambda b: f"_step = lambda x=exec({b!r}): x",
    "annotation": lambda b: f"def _act():\n{_indent(b)}\n    return int\n\n\n"
                            "def step(x: _act()) -> None:\n    return x",
    "lambda_call": lambda b: f"_act = lambda: {_exec(b)}\n_act()",
    "exec_string": _exec,
    "eval_compile": lambda b: f'eval(compile({b!r}, "<step>", "exec"))',
    "getattr_exec": lambda b: f'getattr(__import__("builtins"), "ex" + "ec")({b!r})',
    "fullwidth_exec": lambda b: f"ｅｘｅｃ({b!r})",
    "for_loop": lambda b: f"for _i in range(3):\n    if _i == 2:\n{_indent(b, 2)}",
    "while_loop": lambda b: f"_n = 0\nwhile _n < 1:\n    _n += 1\n{_indent(b)}",
    "comprehension": lambda b: f"[{_exec(b)} for _ in range(1)]",
    "generator": lambda b: f"def _g():\n{_indent(b)}\n    yield 1\n\n\nlist(_g())",
    "try_except": lambda b: f"try:\n    1 / 0\nexcept ZeroDivisionError:\n{_indent(b)}",
    "try_finally": lambda b: f"try:\n    pass\nfinally:\n{_indent(b)}",
    "with_block": lambda b: f"class _Ctx:\n    def __enter__(self):\n{_indent(b, 2)}\n"
                            "        return self\n\n    def __exit__(self, *exc):\n"
                            "        return False\n\n\nwith _Ctx():\n    pass",
    "init_subclass": lambda b: "class _Base:\n    def __init_subclass__(cls, **kw):\n"
                               f"{_indent(b, 2)}\n\n\nclass Step(_Base):\n    pass",
    "metaclass": lambda b: "class _Meta(type):\n    def __new__(mcs, name, bases, ns):\n"
                           f"{_indent(b, 2)}\n        return super().__new__(mcs, name, "
                           "bases, ns)\n\n\nclass Step(metaclass=_Meta):\n    pass",
    "set_name": lambda b: "class _Field:\n    def __set_name__(self, owner, name):\n"
                          f"{_indent(b, 2)}\n\n\nclass Step:\n    field = _Field()",
    "del": lambda b: f"class _Gone:\n    def __del__(self):\n{_indent(b, 2)}\n\n\n_Gone()",
    "atexit": lambda b: f"import atexit\n\n\ndef _at_exit():\n{_indent(b)}\n\n\n"
                        "atexit.register(_at_exit)",
    "thread": lambda b: f"import threading\n\n\ndef _work():\n{_indent(b)}\n\n\n"
                        "_t = threading.Thread(target=_work)\n_t.start()\n_t.join()",
    "asyncio": lambda b: f"import asyncio\n\n\nasync def _main():\n{_indent(b)}\n\n\n"
                         "asyncio.run(_main())",
    "match": lambda b: f"match 1:\n    case 1:\n{_indent(b, 2)}",
    "walrus_if": lambda b: f"if (_go := True):\n{_indent(b)}",
    # Python 3.11 allows no backslash inside an f-string's braces: the code goes in a name
    "fstring": lambda b: f'_code = {b!r}\n_label = f"{{exec(_code)}}"',
    "bool_op": lambda b: f"_ok = True and {_exec(b)}",
    "assert": lambda b: f"assert {_exec(b)} is None",
    "print_step": lambda b: f"print({_exec(b)})",
    "recipe_step": lambda b: f"y = {_exec(b)}",
    "tensor_step": lambda b: f"import torch\nz = torch.tensor({_exec(b)} or 1.0)",
    "closure": lambda b: f"def _outer():\n    def _inner():\n{_indent(b, 2)}\n"
                         "    return _inner\n\n\n_outer()()",
    "classmethod": lambda b: f"class Step:\n    @classmethod\n    def go(cls):\n{_indent(b, 2)}"
                             "\n\n\nStep.go()",
    "property": lambda b: f"class Step:\n    @property\n    def value(self):\n{_indent(b, 2)}"
                          "\n        return 1\n\n\nStep().value",
    "global": lambda b: f"def _act():\n    global _done\n{_indent(b)}\n    _done = True\n\n\n"
                        "_act()",
    "star_args": lambda b: f"def _act(*a, **k):\n{_indent(b)}\n\n\n_act(*[1], **{{'k': 2}})",
    "module_forward": lambda b: "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):"
                                f"\n    def forward(self, x):\n{_indent(b, 2)}\n"
                                "        return x\n\n\nnet = Net()\ny = net(torch.ones(1))",
    "module_init": lambda b: "import torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                             "    def __init__(self):\n        super().__init__()\n"
                             f"{_indent(b, 2)}\n\n\nnet = Net()",
}
if sys.version_info >= (3, 14):  # annotations are evaluated lazily (PEP 649): never runs
    del WRAPPERS["annotation"]

LESSON = '"""Broadcasting, step by step\n\nThe first line of the docstring is the title.\n"""\n'
HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n"
STEPS = "x = torch.arange(12)\ny = x.view(3, 4) * 2\n"
TRAINING = """training = dict(
    model=dict(inputs=2, hidden=64, layers=2, outputs=2, activation="relu", dropout=0.0,
               batchnorm=False),
    data=dict(kind="spirals", samples=1000, noise=0.1, validation=0.2, classes=2, path="",
              targets=1),
    steps=5,
    device="cpu",
)

# --- Tensor Lab training code: generated; the lab reads only the settings above ---
"""

# -- disguises: what surrounds the payload -----------------------------------------------------
DISGUISES = {
    "bare": lambda p: p,
    "lesson": lambda p: f"{LESSON}{HEADER}{STEPS}\n{p}\n\nz = y.sum()\nprint(z)",
    "shebang": lambda p: f"#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n{p}",
    "bom": lambda p: "\ufeff" + p,
    "latin1": lambda p: f"# -*- coding: latin-1 -*-\n# caf\xe9 cr\xe8me\n{p}",
    "training": lambda p: f"{LESSON}{HEADER}{STEPS}{TRAINING}{p}",
    "long": lambda p: LESSON + HEADER + "".join(
        f"s{i} = torch.ones({i % 7 + 1})\n" for i in range(40)) + p,
    "after_steps": lambda p: f"{HEADER}{STEPS}{p}\nw = x + 1",
}
LAYOUTS = ("lf", "crlf", "cr", "tabs")
#: One entry per stratum; the first len(KINDS) files cover each at least once.
KINDS = max(len(ACTIONS), len(WRAPPERS), len(DISGUISES), len(LAYOUTS))


@dataclass(frozen=True)
class HostileFile:
    """One written file and the canary its code would create.

    Attributes
    ----------
    path : Path
        The file.
    canary : Path
        What running it would create (it must never exist).
    kind : str
        ``action/wrapper/disguise/layout``, or ``corpus/<name>`` for a hand-written case.
    proven : bool
        True when ``python path`` is known to create ``canary`` (every generated file).
    """

    path: Path
    canary: Path
    kind: str
    proven: bool


class _Exec:
    """Unpickles into ``exec(code)``: the pickle action's payload."""

    def __init__(self, code: str):
        self.code = code

    def __reduce__(self):
        return exec, (self.code,)


def action_code(action: str, canary: Path) -> str:
    """The statements of ``action`` aimed at ``canary``."""
    c = str(canary)
    touch = f'open({c!r}, "w").close()'
    fills = {
        "@C@": repr(c),
        "@SH@": repr("touch " + shlex.quote(c)),
        "@SRC@": repr(touch),
        "@ROT13@": repr(codecs.encode(touch, "rot13")),
        "@B64@": repr(base64.b64encode(touch.encode())),
        "@MARSHAL@": repr(marshal.dumps(compile(touch, "<payload>", "exec"))),
        "@PICKLE@": repr(pickle.dumps(_Exec(touch), protocol=2)),
    }
    code = ACTIONS[action]
    for key, value in fills.items():
        code = code.replace(key, value)
    return code


def hostile_source(action: str, wrapper: str, disguise: str, layout: str,
                   canary: Path) -> bytes:
    """The bytes of one generated file."""
    payload = WRAPPERS[wrapper](action_code(action, canary))
    text = DISGUISES[disguise](payload)
    text += f"\n# {MARKER}: {action}/{wrapper}/{disguise}/{layout}\n"
    if layout == "tabs":
        text = "\n".join(_tabs(line) for line in text.split("\n"))
    elif layout == "crlf":
        text = text.replace("\n", "\r\n")
    elif layout == "cr":
        text = text.replace("\n", "\r")
    if disguise == "latin1":
        return text.encode("latin-1")
    return text.encode("utf-8")


def _tabs(line: str) -> str:
    stripped = line.lstrip(" ")
    spaces = len(line) - len(stripped)
    return "\t" * (spaces // 4) + " " * (spaces % 4) + stripped


def _combination(i: int, rng: random.Random) -> tuple[str, str, str, str]:
    actions, wrappers, disguises = list(ACTIONS), list(WRAPPERS), list(DISGUISES)
    if i < KINDS:  # the stratified head: every stratum once, at least
        action, wrapper = actions[i % len(actions)], wrappers[i % len(wrappers)]
        disguise, layout = disguises[i % len(disguises)], LAYOUTS[i % len(LAYOUTS)]
    else:
        action, wrapper = rng.choice(actions), rng.choice(wrappers)
        disguise = rng.choice(disguises)
        layout = rng.choice(LAYOUTS) if rng.random() < 0.4 else "lf"
    if disguise == "latin1" and not action_code(action, Path()).isascii():
        disguise = "bom"  # latin-1 cannot spell a full-width name
    if disguise == "latin1" and wrapper == "fullwidth_exec":
        disguise = "shebang"
    return action, wrapper, disguise, layout


def write_hostile_files(folder: Path, canaries: Path, count: int, *, seed: int = 0,
                        corpus: Mapping[str, str | bytes] | None = None,
                        corpus_canary: str | None = None,
                        only: set[int] | None = None) -> list[HostileFile]:
    """Write ``count`` hostile files into ``folder``; their canaries would go in ``canaries``.

    Parameters
    ----------
    folder, canaries : Path
        Created if missing. ``canaries`` must exist for a canary to be creatable: it is,
        and it must stay empty.
    count : int
        Files in all, the ``corpus`` included (it comes first, cut to ``count``).
    seed : int
        The random generator's seed: the same seed writes the same files.
    corpus : mapping, optional
        Hand-written cases (name to source). ``corpus_canary``, a path they name, is
        replaced by each file's own canary.
    only : set of int, optional
        Write only these indices (the others are the same as in a full run, unwritten).
    """
    folder.mkdir(parents=True, exist_ok=True)
    canaries.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    files: list[HostileFile] = []
    for name, source in list((corpus or {}).items())[:count]:
        i = len(files)
        canary = canaries / f"{MARKER}-canary-{i}"
        if corpus_canary:
            if isinstance(source, bytes):
                source = source.replace(corpus_canary.encode(), str(canary).encode())
            else:
                source = source.replace(corpus_canary, str(canary))
        data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        path = folder / f"{MARKER}-{i:05d}.py"
        if only is None or i in only:
            path.write_bytes(data)
        files.append(HostileFile(path, canary, f"corpus/{name}", False))
    generated = 0
    while len(files) < count:
        i = len(files)
        action, wrapper, disguise, layout = _combination(generated, rng)
        generated += 1
        canary = canaries / f"{MARKER}-canary-{i}"
        path = folder / f"{MARKER}-{i:05d}.py"
        if only is None or i in only:
            path.write_bytes(hostile_source(action, wrapper, disguise, layout, canary))
        files.append(HostileFile(path, canary, f"{action}/{wrapper}/{disguise}/{layout}", True))
    return files


def stratified(files: list[HostileFile]) -> list[HostileFile]:
    """The generated files that together take every action, wrapper, disguise and layout."""
    return [f for f in files if f.proven][:KINDS]


# -- what a run would leave: audit events ------------------------------------------------------
#: Audit events that start a process.
PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec",
                  "os.fork", "os.forkpty", "pty.spawn")
#: Audit events that reach a network, a C library or another way out.
OTHER_EVENTS = ("socket.", "urllib.Request", "http.client.", "webbrowser.open", "ftplib.",
                "smtplib.", "ctypes.dlopen", "ctypes.dlsym", "sqlite3.connect",
                "pickle.find_class", "builtins.breakpoint", "builtins.input")
_WATCHED = PROCESS_EVENTS + OTHER_EVENTS
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _short(value: object) -> str:
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return repr(value)[:300]
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_short(v) for v in value[:8]) + ")"
    return type(value).__name__  # a half-made socket, an environment: never their repr


def _code_mentions(code: object, depth: int = 0) -> bool:
    """Whether a code object comes from a hostile file or holds one of its strings."""
    if MARKER in getattr(code, "co_filename", ""):
        return True
    for const in getattr(code, "co_consts", ()):
        if isinstance(const, str) and MARKER in const:
            return True
        if isinstance(const, bytes) and MARKER.encode() in const:
            return True
        if depth < 8 and hasattr(const, "co_consts") and _code_mentions(const, depth + 1):
            return True
    return False


def audit_line(event: str, args: tuple) -> str | None:
    """One line for an audit event worth reporting, or None (cheap: called for every event).

    Reported: process, network, C-library and other ways out (``PROCESS_EVENTS``,
    ``OTHER_EVENTS``); ``exec`` of code from a hostile file or naming its canary; any
    ``open`` of a path that names ``MARKER``, as ``open<TAB>read`` or ``open<TAB>write``.
    """
    if event == "open":
        path = args[0] if args else ""
        if MARKER not in str(path):
            return None
        mode, flags = (tuple(args[1:]) + (None, None))[:2]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and bool(flags & _WRITE_FLAGS))
        return f"open\t{'write' if writes else 'read'}\t{path}"
    if event == "exec":
        code = args[0] if args else None
        return f"exec\t{getattr(code, 'co_filename', '?')}" if _code_mentions(code) else None
    if not event.startswith(_WATCHED):
        return None
    return f"{event}\t{_short(tuple(args))}".replace("\n", " ")
