"""What a server's python runs first, sent by the window over SSH (never imported there).

The ssh command is ``python3 -c BOOT`` (``protocol.remote.BOOT``): it defines ``_take(n)``,
which reads exactly ``n`` bytes of descriptor 0, and runs this file's text, which came
first on stdin (its length, then its bytes). This text then reads the kernel's code, a
zip of the ``kernel`` and ``protocol`` packages' sources (its length, then its bytes),
and imports them from memory: nothing is written on the server. Then it runs the
watcher (``kernel.remote``), or, for ``python3 -c BOOT kernel ARGS...`` (the watcher
starting the kernel, the same two texts on its stdin), the kernel (``python -m kernel
ARGS``).

It must read on any Python 3, to say plainly that the server's is too old.
"""

import struct
import sys

if sys.version_info < (3, 10):  # noqa: UP036 - read by any Python, to say it is old
    sys.stderr.write("tensor-lab: the server's Python is %d.%d (%s); the kernel needs "  # noqa: UP031
                     "Python 3.10 or newer\n" % (sys.version_info[0], sys.version_info[1],
                                                 sys.executable))
    sys.stderr.flush()
    raise SystemExit(3)

import importlib.abc  # noqa: E402 - after the version check, which any Python reads
import importlib.util  # noqa: E402
import io  # noqa: E402
import os  # noqa: E402
import zipfile  # noqa: E402

#: The pseudo folder the kernel's modules are named in (their ``__file__``).
ROOT = "/<tensor-lab>/"


class _Sources(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The ``kernel`` and ``protocol`` packages, imported from the zip's sources."""

    def __init__(self, data: bytes):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            self.files = {name: z.read(name) for name in z.namelist()}

    def _file(self, fullname: str):
        base = fullname.replace(".", "/")
        for name, package in ((base + "/__init__.py", True), (base + ".py", False)):
            if name in self.files:
                return name, package
        return None, False

    def find_spec(self, fullname, path=None, target=None):
        name, package = self._file(fullname)
        if name is None:
            return None
        spec = importlib.util.spec_from_loader(fullname, self, origin=ROOT + name,
                                               is_package=package)
        spec.has_location = True
        if package:
            spec.submodule_search_locations = [ROOT + name.rsplit("/", 1)[0]]
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name, _ = self._file(module.__name__)
        module.__file__ = ROOT + name
        code = compile(self.files[name], module.__file__, "exec", dont_inherit=True)
        exec(code, module.__dict__)

    def get_source(self, fullname):
        name, _ = self._file(fullname)
        return None if name is None else self.files[name].decode("utf-8")


_bundle = _take(struct.unpack("<Q", _take(8))[0])  # noqa: F821 - BOOT's reader
sys.meta_path.insert(0, _Sources(_bundle))
_nothing = os.open(os.devnull, os.O_RDONLY)
if sys.argv[1:2] == ["kernel"]:  # the watcher's kernel: its stdin held only the two texts
    os.dup2(_nothing, 0)
    os.close(_nothing)
    from kernel.__main__ import main

    main(sys.argv[2:])
else:
    os.close(_nothing)
    from kernel.remote import main

    main(_boot_text, _bundle)  # noqa: F821 - BOOT's copy of this text
