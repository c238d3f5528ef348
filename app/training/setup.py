"""A training setup as typed, validated, immutable settings.

``TrainingSettings`` is the whole setup; each section (``model``, ``data``, ``batch``,
``optimizer``, ``schedule``, ``clip``) is a frozen dataclass whose fields carry their
limits as metadata (``label``, ``range``, ``choices``), so forms can be built from them.
``to_literal()`` and ``from_literal()`` convert to and from the plain dict a recipe holds;
errors are ``SettingsError`` naming the field, such as ``optimizer.lr``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import typing
from dataclasses import dataclass, field
from typing import Any

from protocol.i18n import QT_TRANSLATE_NOOP, Filled

# The context the settings' labels, help texts and choice names are marked under (with
# QT_TRANSLATE_NOOP); the forms translate them with QCoreApplication.translate(CONTEXT, text).
CONTEXT = "TrainingSettings"

# Choices: the value a recipe saves -> the label a form shows (translated at display time;
# names of functions and classes, like "ReLU" or "SGD", are not marked).
ACTIVATIONS = {"relu": "ReLU", "tanh": "Tanh", "sigmoid": "Sigmoid", "gelu": "GELU",
               "identity": "Identity"}
INITS = {"default": QT_TRANSLATE_NOOP("TrainingSettings", "PyTorch default"),
         "normal": "N(0, 1)", "small_normal": "N(0, 0.01)",
         "xavier_uniform": QT_TRANSLATE_NOOP("TrainingSettings", "Xavier uniform"),
         "xavier_normal": QT_TRANSLATE_NOOP("TrainingSettings", "Xavier normal"),
         "kaiming_uniform": QT_TRANSLATE_NOOP("TrainingSettings", "Kaiming uniform"),
         "kaiming_normal": QT_TRANSLATE_NOOP("TrainingSettings", "Kaiming normal"),
         "zeros": QT_TRANSLATE_NOOP("TrainingSettings", "Zeros")}
CLASSIFICATION_DATA = {"spirals": QT_TRANSLATE_NOOP("TrainingSettings", "Spirals"),
                       "circles": QT_TRANSLATE_NOOP("TrainingSettings", "Circles"),
                       "moons": QT_TRANSLATE_NOOP("TrainingSettings", "Moons"),
                       "xor": "XOR",
                       "blobs": QT_TRANSLATE_NOOP("TrainingSettings", "Gaussian blobs")}
REGRESSION_DATA = {"sin": "sin(x)",
                   "linear": QT_TRANSLATE_NOOP("TrainingSettings", "Linear plus noise")}
DATA = {**CLASSIFICATION_DATA, **REGRESSION_DATA,
        "csv": QT_TRANSLATE_NOOP("TrainingSettings", "CSV file")}
LOSSES = {"mse": "MSE", "cross_entropy": QT_TRANSLATE_NOOP("TrainingSettings", "Cross-entropy"),
          "bce_with_logits": QT_TRANSLATE_NOOP("TrainingSettings", "BCE with logits")}
OPTIMIZERS = {"sgd": "SGD", "adam": "Adam", "adamw": "AdamW", "rmsprop": "RMSprop"}
SCHEDULES = {"constant": QT_TRANSLATE_NOOP("TrainingSettings", "Constant"),
             "warmup": QT_TRANSLATE_NOOP("TrainingSettings", "Linear warm-up"),
             "cosine": QT_TRANSLATE_NOOP("TrainingSettings", "Cosine with warm-up")}
CLIPS = {"none": QT_TRANSLATE_NOOP("TrainingSettings", "None"),
         "value": QT_TRANSLATE_NOOP("TrainingSettings", "By value"),
         "norm": QT_TRANSLATE_NOOP("TrainingSettings", "By norm")}
DTYPES = {"float32": "float32", "float64": "float64"}
#: Data kinds with a fixed number of classes.
FIXED_CLASSES = {"moons": 2, "xor": 2}


class SettingsError(ValueError):
    """Settings that cannot be used, naming the field at fault.

    Parameters
    ----------
    field : str
        The dotted field name, such as ``optimizer.lr``.
    reason : str
        What is wrong, in words a student can act on: a template marked for translation
        (in the ``TrainingSettings`` context) when ``args`` fill it.
    *args
        The values for the template's ``{0}``, ``{1}``...; the reason is then a ``Filled``
        text, which the form shows in the UI language.
    """

    def __init__(self, field: str, reason: str, *args: object):
        self.field = field
        self.reason = Filled(reason, *args) if args else reason
        super().__init__(f"{field}: {self.reason}")

    def within(self, section: str) -> SettingsError:
        return SettingsError(f"{section}.{self.field}", self.reason)


def _f(default: Any, label: str, range: tuple[float | None, float | None] | None = None,
       choices: dict[str, str] | None = None, help: str = "") -> Any:
    meta = {"label": label, "range": range, "choices": choices, "help": help}
    return field(default=default, metadata=meta)


class _Section:
    """Checks every field against its type and metadata after construction."""

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = _check(getattr(self, f.name), hints[f.name], f.name, f.metadata)
            object.__setattr__(self, f.name, value)

    def to_literal(self) -> dict[str, Any]:
        """The section as a dict of plain literals."""
        return {f.name: (v.to_literal() if isinstance(v := getattr(self, f.name), _Section)
                         else v) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_literal(cls, value: Any) -> Any:
        """Build the section from a dict; missing keys take their defaults."""
        if isinstance(value, cls):
            return value
        if not isinstance(value, dict):
            raise SettingsError("", QT_TRANSLATE_NOOP(
                "TrainingSettings", "expected a dict, not {0}"), _kind(value))
        hints = typing.get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        kwargs = {}
        for key, item in value.items():
            if key not in names:
                raise SettingsError(str(key), QT_TRANSLATE_NOOP(
                    "TrainingSettings", "unknown setting; known: {0}"), ", ".join(sorted(names)))
            sub = hints[key]
            if isinstance(sub, type) and issubclass(sub, _Section):
                try:
                    item = sub.from_literal(item)
                except SettingsError as e:
                    raise e.within(key) if e.field else SettingsError(key, e.reason) from None
            kwargs[key] = item
        return cls(**kwargs)


def _kind(value: Any) -> str:
    return type(value).__name__ if value is not None else "None"


def _check(value: Any, kind: Any, name: str, meta: Any) -> Any:
    if isinstance(kind, type) and issubclass(kind, _Section):
        if not isinstance(value, kind):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "expected {0}, not {1}"), kind.__name__, _kind(value))
        return value
    if kind is bool:
        if not isinstance(value, bool):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "must be True or False, not {0!r}"), value)
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "must be a whole number, not {0!r}"), value)
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "must be a number, not {0!r}"), value)
        value = float(value)
        if not math.isfinite(value):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "must be a finite number, not {0!r}"), value)
    elif kind is str and not isinstance(value, str):
        raise SettingsError(name, QT_TRANSLATE_NOOP(
            "TrainingSettings", "must be a string, not {0!r}"), value)
    choices = meta.get("choices")
    if choices and value not in choices:
        raise SettingsError(name, QT_TRANSLATE_NOOP(
            "TrainingSettings", "{0!r} is not one of: {1}"), value, ", ".join(choices))
    bounds = meta.get("range")
    if bounds:
        lo, hi = bounds
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise SettingsError(name, QT_TRANSLATE_NOOP(
                "TrainingSettings", "{0!r} is outside {1}"), value, _range_text(lo, hi))
    return value


def _range_text(lo: float | None, hi: float | None) -> str:
    if hi is None:
        return f"[{lo}, ...)"
    return f"[{lo}, {hi}]" if lo is not None else f"(..., {hi}]"


@dataclass(frozen=True)
class ModelSettings(_Section):
    """The MLP: ``layers`` hidden layers of ``hidden`` units between inputs and outputs."""

    inputs: int = _f(2, QT_TRANSLATE_NOOP("TrainingSettings", "Inputs"), (1, 4096))
    hidden: int = _f(64, QT_TRANSLATE_NOOP("TrainingSettings", "Hidden width"), (1, 4096))
    layers: int = _f(2, QT_TRANSLATE_NOOP("TrainingSettings", "Hidden layers"), (0, 100),
                     help=QT_TRANSLATE_NOOP("TrainingSettings", "Depth: up to 100 hidden layers."))
    outputs: int = _f(2, QT_TRANSLATE_NOOP("TrainingSettings", "Outputs"), (1, 4096))
    activation: str = _f("relu", QT_TRANSLATE_NOOP("TrainingSettings", "Activation"),
                         choices=ACTIVATIONS)
    dropout: float = _f(0.0, QT_TRANSLATE_NOOP("TrainingSettings", "Dropout p"), (0.0, 0.99),
                        help=QT_TRANSLATE_NOOP("TrainingSettings", "0 means no Dropout layer."))
    batchnorm: bool = _f(False, "BatchNorm1d")


@dataclass(frozen=True)
class DataSettings(_Section):
    """Where the samples come from and how many are held out for validation."""

    kind: str = _f("spirals", QT_TRANSLATE_NOOP("TrainingSettings", "Data"), choices=DATA)
    samples: int = _f(1000, QT_TRANSLATE_NOOP("TrainingSettings", "Samples"), (4, 1_000_000))
    noise: float = _f(0.1, QT_TRANSLATE_NOOP("TrainingSettings", "Noise"), (0.0, 10.0))
    validation: float = _f(0.2, QT_TRANSLATE_NOOP("TrainingSettings", "Validation split"),
                           (0.0, 0.9))
    classes: int = _f(2, QT_TRANSLATE_NOOP("TrainingSettings", "Classes"), (2, 64),
                      help=QT_TRANSLATE_NOOP("TrainingSettings", "For spirals, circles and blobs."))
    path: str = _f("", QT_TRANSLATE_NOOP("TrainingSettings", "CSV file"),
                   help=QT_TRANSLATE_NOOP("TrainingSettings", "Numbers only; the last columns "
                                                              "are the targets."))
    targets: int = _f(1, QT_TRANSLATE_NOOP("TrainingSettings", "Target columns"), (1, 4096),
                      help=QT_TRANSLATE_NOOP("TrainingSettings", "For a CSV file."))

    @property
    def features(self) -> int | None:
        """Input width of this data, or None when only the file can tell."""
        if self.kind in CLASSIFICATION_DATA:
            return 2
        return 1 if self.kind in REGRESSION_DATA else None

    @property
    def n_classes(self) -> int | None:
        if self.kind not in CLASSIFICATION_DATA:
            return None
        return FIXED_CLASSES.get(self.kind, self.classes)


@dataclass(frozen=True)
class BatchSettings(_Section):
    size: int = _f(64, QT_TRANSLATE_NOOP("TrainingSettings", "Batch size"), (1, 1_000_000))
    shuffle: bool = _f(True, QT_TRANSLATE_NOOP("TrainingSettings", "Shuffle"))
    drop_last: bool = _f(False, QT_TRANSLATE_NOOP("TrainingSettings", "Drop last"))


@dataclass(frozen=True)
class OptimizerSettings(_Section):
    name: str = _f("adam", QT_TRANSLATE_NOOP("TrainingSettings", "Optimizer"), choices=OPTIMIZERS)
    lr: float = _f(0.01, QT_TRANSLATE_NOOP("TrainingSettings", "Learning rate"), (1e-12, 1e12))
    momentum: float = _f(0.0, QT_TRANSLATE_NOOP("TrainingSettings", "Momentum"), (0.0, 0.999),
                         help=QT_TRANSLATE_NOOP("TrainingSettings", "SGD and RMSprop."))
    nesterov: bool = _f(False, QT_TRANSLATE_NOOP("TrainingSettings", "Nesterov"),
                        help=QT_TRANSLATE_NOOP("TrainingSettings", "SGD with momentum."))
    weight_decay: float = _f(0.0, QT_TRANSLATE_NOOP("TrainingSettings", "Weight decay"),
                             (0.0, 10.0))


@dataclass(frozen=True)
class ScheduleSettings(_Section):
    kind: str = _f("constant", QT_TRANSLATE_NOOP("TrainingSettings", "Schedule"), choices=SCHEDULES)
    warmup: int = _f(0, QT_TRANSLATE_NOOP("TrainingSettings", "Warm-up steps"), (0, 10_000_000))


@dataclass(frozen=True)
class ClipSettings(_Section):
    mode: str = _f("none", QT_TRANSLATE_NOOP("TrainingSettings", "Gradient clipping"),
                   choices=CLIPS)
    value: float = _f(1.0, QT_TRANSLATE_NOOP("TrainingSettings", "Clip at"), (1e-12, 1e12),
                      help=QT_TRANSLATE_NOOP("TrainingSettings", "The largest gradient value, or "
                                                                 "the largest total norm."))


_DEVICE = re.compile(r"cpu|mps|cuda(:\d{1,3})?")


@dataclass(frozen=True)
class TrainingSettings(_Section):
    """A whole training setup; see the module docstring for the literal form."""

    model: ModelSettings = field(default_factory=ModelSettings)
    init: str = _f("default", QT_TRANSLATE_NOOP("TrainingSettings", "Initialisation"),
                   choices=INITS)
    data: DataSettings = field(default_factory=DataSettings)
    batch: BatchSettings = field(default_factory=BatchSettings)
    loss: str = _f("cross_entropy", QT_TRANSLATE_NOOP("TrainingSettings", "Loss"), choices=LOSSES)
    optimizer: OptimizerSettings = field(default_factory=OptimizerSettings)
    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    clip: ClipSettings = field(default_factory=ClipSettings)
    accumulate: int = _f(1, QT_TRANSLATE_NOOP("TrainingSettings", "Accumulate batches"), (1, 1024))
    steps: int = _f(500, QT_TRANSLATE_NOOP("TrainingSettings", "Steps"), (1, 100_000_000))
    log_every: int = _f(10, QT_TRANSLATE_NOOP("TrainingSettings", "Log every"), (1, 100_000_000))
    seed: int = _f(0, QT_TRANSLATE_NOOP("TrainingSettings", "Seed"), (0, 2**63 - 1))
    dtype: str = _f("float32", "dtype", choices=DTYPES)
    device: str = _f("cpu", QT_TRANSLATE_NOOP("TrainingSettings", "Device"),
                     help=QT_TRANSLATE_NOOP("TrainingSettings", "cpu, cuda:N or mps; cpu when "
                                                                "not present."))

    def __post_init__(self) -> None:
        super().__post_init__()
        if not _DEVICE.fullmatch(self.device):
            raise SettingsError("device", QT_TRANSLATE_NOOP(
                "TrainingSettings", "{0!r} is not cpu, cuda, cuda:N or mps"), self.device)
        for problem in self._conflicts():
            raise SettingsError(*problem)

    def _conflicts(self) -> list[tuple[object, ...]]:
        """(field, reason, values for the reason's template) for each conflict found."""
        m, d, found = self.model, self.data, []
        if d.features is not None and m.inputs != d.features:
            found.append(("model.inputs", QT_TRANSLATE_NOOP(
                "TrainingSettings",
                "the {0} data has {1} feature(s), so the model needs {1} input(s)"),
                d.kind, d.features))
        if d.kind in REGRESSION_DATA:
            if self.loss != "mse":
                found.append(("loss", QT_TRANSLATE_NOOP(
                    "TrainingSettings", "{0} is regression data: use mse"), d.kind))
            elif m.outputs != 1:
                found.append(("model.outputs", QT_TRANSLATE_NOOP(
                    "TrainingSettings", "{0} data has one target: use 1 output"), d.kind))
        k = d.n_classes
        if k is not None:
            if self.loss == "cross_entropy" and m.outputs != k:
                found.append(("model.outputs", QT_TRANSLATE_NOOP(
                    "TrainingSettings", "cross-entropy on {0} classes needs {0} outputs"), k))
            elif self.loss != "cross_entropy" and m.outputs not in (1, k):
                found.append(("model.outputs", QT_TRANSLATE_NOOP(
                    "TrainingSettings",
                    "use 1 output (the label) or {0} (one-hot) with this loss"), k))
        if d.kind == "csv":
            if not d.path:
                found.append(("data.path", QT_TRANSLATE_NOOP(
                    "TrainingSettings", "choose a CSV file")))
            if self.loss == "cross_entropy" and d.targets != 1:
                found.append(("data.targets", QT_TRANSLATE_NOOP(
                    "TrainingSettings", "cross-entropy takes one column of class indices")))
        if self.optimizer.nesterov and (self.optimizer.name != "sgd"
                                        or self.optimizer.momentum <= 0):
            found.append(("optimizer.nesterov", QT_TRANSLATE_NOOP(
                "TrainingSettings", "Nesterov needs SGD with momentum above 0")))
        if m.batchnorm and self.batch.size < 2:
            found.append(("batch.size", QT_TRANSLATE_NOOP(
                "TrainingSettings", "BatchNorm1d needs batches of at least 2")))
        train = None if d.kind == "csv" else d.samples - round(d.samples * d.validation)
        if train is not None and self.batch.drop_last and self.batch.size > train:
            found.append(("batch.size", QT_TRANSLATE_NOOP(
                "TrainingSettings", "with drop_last, a batch larger than the {0} training "
                "samples leaves no batch at all"), train))
        elif train is not None and m.batchnorm and not self.batch.drop_last \
                and train % self.batch.size == 1:
            found.append(("batch.drop_last", QT_TRANSLATE_NOOP(
                "TrainingSettings",
                "{0} samples leave a last batch of one, which BatchNorm1d cannot train on"),
                train))
        if self.schedule.warmup > self.steps:
            found.append(("schedule.warmup", QT_TRANSLATE_NOOP(
                "TrainingSettings", "{0} warm-up steps is more than the {1} steps"),
                self.schedule.warmup, self.steps))
        return found

    def replace(self, **changes: Any) -> TrainingSettings:
        """A copy with ``changes``; a section may be given as a dict of its changed fields.

        ``settings.replace(optimizer={"lr": 0.1}, steps=100)``
        """
        for name, value in list(changes.items()):
            current = getattr(self, name)
            if isinstance(value, dict) and isinstance(current, _Section):
                try:
                    changes[name] = dataclasses.replace(current, **value)  # type: ignore
                except TypeError as e:
                    raise SettingsError(name, str(e)) from None
                except SettingsError as e:
                    raise e.within(name) from None
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_literal(cls, value: Any) -> TrainingSettings:
        """Settings from the plain dict a recipe holds; raises ``SettingsError``."""
        settings = super().from_literal(value)
        assert isinstance(settings, TrainingSettings)
        return settings


def with_value(literal: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """A deep copy of a settings literal with the dotted field ``name`` set to ``value``."""
    out = copy.deepcopy(literal)
    *path, last = name.split(".")
    target = out
    for part in path:
        target = target[part]
    target[last] = value
    return out


def harmonise(literal: dict[str, Any]) -> dict[str, Any]:
    """The literal with the model's inputs, outputs and loss made to fit its data.

    Used after the data kind, the classes or the loss changed, so that choosing "circles"
    or "sin(x)" gives a setup that trains rather than a list of conflicts.
    """
    out = copy.deepcopy(literal)
    data, model = out["data"], out["model"]
    if data["kind"] in REGRESSION_DATA:
        model["inputs"], model["outputs"], out["loss"] = 1, 1, "mse"
    elif data["kind"] in CLASSIFICATION_DATA:
        model["inputs"] = 2
        if out["loss"] == "mse" and literal["data"]["kind"] in REGRESSION_DATA:
            out["loss"] = "cross_entropy"
        classes = 2 if data["kind"] in ("moons", "xor") else data["classes"]
        if out["loss"] == "cross_entropy" or model["outputs"] not in (1, classes):
            model["outputs"] = classes
    return out
