"""The training lab's engine, Qt-free.

- ``settings``: ``TrainingSettings``, the typed, validated setup, and its literal form.
- ``program``: the plain-torch training code that recipes carry and the engine runs.
- ``data``, ``model``: the data and the MLP of a setup, with the model's summary.
- ``loop``: ``TrainingLoop``, steps in chunks with metrics kept on the device.
- ``worker``: ``TrainingRun``, the loop in a spawned process, steered by commands.
- ``history``: bounded numpy histories of a run's metrics.
- ``script``: the recipe format (settings block, marker, generated code).
- ``write``: a setup written as a short plain training loop, and the old format converted
  to one (``old_format`` reads the settings block for it).
"""
