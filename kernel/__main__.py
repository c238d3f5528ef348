"""The kernel process's entry point: ``python -m kernel --fd N [--raised M] [--parent PID]``,
or ``python -m kernel --stdio``.

The window (``app.link.supervisor``) starts it as a plain subprocess and names it
nothing but descriptors and its own pid, so that the window imports nothing the kernel
runs, and another transport (a server's ``ssh``) can start the same entry point:

- ``--fd``: the kernel's end of its pipe (a socket; frames both ways, ``protocol.wire``);
- ``--stdio``: frames come on stdin and go out on stdout (a peer on its standard streams;
  the SSH watcher, ``kernel.remote``, moves its own streams off 0 and 1 the same way).
  The kernel moves them to descriptors of their own first, then gives its descriptor 0
  ``/dev/null`` and its descriptor 1 its stderr: what the recipe or a process it starts
  writes there cannot reach the frames. Its end of file ends the kernel;
- ``--raised``: a pipe's write end, where the kernel writes a byte when a Stop's
  ``KeyboardInterrupt`` is raised in the recipe (``Kernel.interrupt_raised``);
- ``--parent``: the process whose end the kernel watches (it ends with it);
- ``--entry``: ``module:function`` to call in place of ``kernel.child.kernel_main``
  (a test's stand-in kernel).

Its standard streams are the caller's, as under python: what a recipe prints reaches the
window as messages (``kernel.capture``), and ``tensor-lab run``'s recipe writes to
the terminal's descriptors itself. ``sys.stdin`` is ``/dev/null`` until a run asks for
the caller's (``tensor-lab run``), as a ``multiprocessing`` child's was.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

KERNEL_ENTRY = "kernel.child:kernel_main"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kernel")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--fd", type=int)
    where.add_argument("--stdio", action="store_true")
    parser.add_argument("--raised", type=int, default=None)
    parser.add_argument("--parent", type=int, default=None)
    parser.add_argument("--entry", default=KERNEL_ENTRY)
    args = parser.parse_args(argv)
    module, _, name = args.entry.partition(":")
    start = getattr(importlib.import_module(module), name)
    from protocol.wire import Descriptors

    conn = stdio_descriptors() if args.stdio else Descriptors(args.fd)
    if sys.stdin is not None:  # input() in a window's run meets an end of file
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the process's own, for its life
    start(conn, args.parent, args.raised)


def stdio_descriptors():
    """The frames' ``Descriptors``, moved off stdin and stdout (see ``--stdio``)."""
    from protocol.wire import Descriptors

    sys.stdout.flush()
    read, write = os.dup(0), os.dup(1)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    os.dup2(2, 1)
    return Descriptors(read, write)


if __name__ == "__main__":
    main()
