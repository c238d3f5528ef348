"""The window's link to its kernel: the kernel runs in a process of its own (``kernel/``,
started as ``python -m kernel``), and the window reaches it only through the messages of
``protocol/``.

- ``session``: ``KernelSession``, what the window asks of a kernel, read on one thread;
- ``transport``: ``Transport``, what ``KernelSession`` needs of the way to its kernel;
- ``supervisor``: today's transport, a local process: it starts a kernel, talks to it,
  and owns its budgets, Stop and the kill path;
- ``events``: what the kernel said, as the window's thread takes it.
"""
