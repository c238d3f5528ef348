"""The kernel: a separate CPython process that runs a recipe exactly as ``python`` would.

- ``source``: a recipe's top-level statements, read with ``ast``, each with its exact text.
- ``runner``: runs those statements one by one in a ``__main__`` namespace (in the kernel).
- ``protocol``: the plain messages between the window (or ``tensor-lab run``) and a kernel.
- ``child``: the kernel process's own main loop; ``__main__`` its entry point
  (``python -m app.kernel``: the window starts it by that name alone).
- ``supervisor``: starts a kernel, talks to it, and owns its budgets, Stop and the kill path.
"""
