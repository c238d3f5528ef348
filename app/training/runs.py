"""The runs a training lab keeps for comparison, one ``RunRecord`` each, until deleted.

A record outlives its training process: it holds the settings the run started with, its
``History`` (plain data) and how it ended. Qt-free; ``widgets.training.run_compare`` lists,
overlays and tabulates the records, ``widgets.training.panel`` makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.i18n import QT_TRANSLATE_NOOP, Filled
from app.training.history import History
from app.training.settings import TrainingSettings

#: The translation context of ``RunRecord.name`` (the unnamed one, as the run comparison's
#: other texts).
CONTEXT = ""


@dataclass(eq=False)
class RunRecord:
    """One run, kept for comparison until deleted.

    Parameters
    ----------
    number : int
        1, 2, ... in the order runs started; also picks the run's colour.
    settings : TrainingSettings
        The settings it started with.
    history : History
        Its metrics (the ``TrainingRun``'s history, kept after the process ends).
    info : RunInfo or None
        Layer names, device and summary, once the run reported them.
    state : str
        The run's last state (``running``, ``finished``, ``stopped``...).
    visible : bool
        Shown in the overlaid plots.
    notes : list of str
        Live changes made while it trained ("lr 0.1 from step 120").
    """

    number: int
    settings: TrainingSettings
    history: History
    info: Any = None
    state: str = "new"
    visible: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> Filled:
        """The run's name ("Run 3") in English; a view shows ``translate_core(CONTEXT, name)``."""
        return Filled(QT_TRANSLATE_NOOP("", "Run {0}"), self.number)

