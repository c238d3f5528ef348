"""The kernel: a separate CPython process that runs a recipe exactly as ``python`` would.

Everything here runs in that process, started as ``python -m kernel`` (``__main__``), and
imports neither ``app`` nor ``widgets``: it speaks to the window only through the messages
of ``protocol/``.

- ``child``: the kernel's own main loop; ``runner`` runs a recipe's statements one by one
  in a ``__main__`` namespace; ``loops`` records loops; ``checkpoints`` resumes a run;
- ``capture``: the recipe's output; ``summary``, ``mirror``: what a step reports;
- ``queries``: the window's questions about a run's values (``tensor_info``,
  ``tensor_kinds``, ``machine``); ``explain/`` adds those of the window's explanations;
- ``watch*``: the training watch; ``report``, ``tensor_json``: ``tensor-lab run --json``.
"""
