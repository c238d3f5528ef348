"""Training, Qt-free: recipes whose loops train, and what the lab keeps of them.

- ``setup``: ``TrainingSettings``, the typed, validated setup New training's form edits.
- ``write``: a setup written as a short plain training loop, and the old format converted
  to one (``old_format`` reads the settings block for it).
- ``fields``: a training recipe's knobs, the literals a form may rewrite in its text.
- ``live``, ``history``: the loops of a document's runs as the kernel reports them, in
  bounded histories.
- ``compare``: what differs between the recipes of two runs.
"""
