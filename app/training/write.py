"""A training setup written out as a short PyTorch recipe: the loop a person would write.

``training_recipe(settings)`` turns a ``TrainingSettings`` into plain code in the style of
the lecture notes: ``torch.manual_seed``, a ``device`` used with ``.to(device)``, the one
dataset function chosen, ``model = nn.Sequential(...)``, an initialisation function when
one is chosen, ``loss_fn``, ``optimizer`` and a ``for step in range(steps):`` loop that
prints the training and validation loss. Nothing is written for a choice left at "none":
no clip line without clipping, no scheduler for a constant learning rate, no inner loop
without accumulation. The lab watches any such loop live (``kernel.watch``), so
the recipe needs no engine of its own.

The knobs a form may rewrite later stay plain literals where ``ast`` finds them: the
top-level ``device = "cpu"``, ``steps = 100``, ``batch_size = 32`` (and ``accumulate``)
assignments, the optimizer call's keywords and the clip call's number.

``convert_old(source)`` rewrites a recipe of the retired format (a ``training = dict(...)``
block, then the pasted engine; see ``app.training.old_format``) as such a loop.

Each batch is drawn at random with ``torch.randint``, so 4 draws of 16 are the same samples
as one draw of 64 (accumulation matches a big batch); ``batch.shuffle=False`` takes the
batches in order instead, wrapping around, and ``batch.drop_last`` has no part to play.
"""

from __future__ import annotations

import ast
import json
from typing import TYPE_CHECKING

from app.training import old_format

if TYPE_CHECKING:  # (imported where used: the window imports this module before it paints)
    from app.training.setup import TrainingSettings

_ACTIVATIONS = {"relu": "nn.ReLU()", "tanh": "nn.Tanh()", "sigmoid": "nn.Sigmoid()",
                "gelu": "nn.GELU()", "identity": "nn.Identity()"}
# nn.init.calculate_gain knows no GELU; ReLU's gain is the usual stand-in.
_GAINS = {"relu": "relu", "tanh": "tanh", "sigmoid": "sigmoid", "gelu": "relu",
          "identity": "linear"}
_INITS = {"normal": "nn.init.normal_(layer.weight, mean=0.0, std=1.0)",
          "small_normal": "nn.init.normal_(layer.weight, mean=0.0, std=0.01)",
          "xavier_uniform": "nn.init.xavier_uniform_(layer.weight, gain=nn.init."
                            "calculate_gain({gain}))",
          "xavier_normal": "nn.init.xavier_normal_(layer.weight, gain=nn.init."
                           "calculate_gain({gain}))",
          "kaiming_uniform": "nn.init.kaiming_uniform_(layer.weight, nonlinearity={gain})",
          "kaiming_normal": "nn.init.kaiming_normal_(layer.weight, nonlinearity={gain})",
          "zeros": "nn.init.zeros_(layer.weight)"}
_LOSSES = {"mse": "nn.MSELoss()", "cross_entropy": "nn.CrossEntropyLoss()",
           "bce_with_logits": "nn.BCEWithLogitsLoss()"}
_OPTIMIZERS = {"sgd": "SGD", "adam": "Adam", "adamw": "AdamW", "rmsprop": "RMSprop"}
#: Each dataset as the function the recipe defines, and how it is called ({n}, {noise},
#: {classes} filled in).
_DATA = {
    "spirals": ('''def make_spirals(n, noise, classes):
    """Interleaved spiral arms, one per class: points and their labels."""
    label = torch.arange(n) % classes
    t = torch.rand(n)  # how far along its arm each point lies
    angle = 3 * math.pi * t + 2 * math.pi * label / classes
    x = torch.stack([t * torch.cos(angle), t * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2), label''',
                "make_spirals({n}, noise={noise}, classes={classes})"),
    "circles": ('''def make_circles(n, noise, classes):
    """Concentric rings, one per class: points and their labels."""
    label = torch.arange(n) % classes
    angle = 2 * math.pi * torch.rand(n)
    radius = (label + 1) / classes
    x = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2), label''',
                "make_circles({n}, noise={noise}, classes={classes})"),
    "moons": ('''def make_moons(n, noise):
    """Two interleaving half circles: points and their labels (0 or 1)."""
    label = torch.arange(n) % 2
    angle = math.pi * torch.rand(n)
    upper = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1)
    lower = torch.stack([1 - torch.cos(angle), 0.5 - torch.sin(angle)], dim=1)
    x = torch.where(label[:, None] == 0, upper, lower) - torch.tensor([0.5, 0.25])
    return x + noise * torch.randn(n, 2), label''', "make_moons({n}, noise={noise})"),
    "xor": ('''def make_xor(n, noise):
    """Points in a square; the label is 1 where x and y have the same sign."""
    x = 2 * torch.rand(n, 2) - 1
    label = (x[:, 0] * x[:, 1] > 0).long()
    return x + noise * torch.randn(n, 2), label''', "make_xor({n}, noise={noise})"),
    "blobs": ('''def make_blobs(n, noise, classes):
    """Gaussian blobs (std noise) with their centres on the unit circle."""
    label = torch.arange(n) % classes
    angle = 2 * math.pi * label / classes
    centre = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1)
    return centre + noise * torch.randn(n, 2), label''',
              "make_blobs({n}, noise={noise}, classes={classes})"),
    "sin": ('''def make_sin(n, noise):
    """y = sin(x) plus noise, for x in [-pi, pi]."""
    x = (2 * torch.rand(n, 1) - 1) * math.pi
    return x, torch.sin(x) + noise * torch.randn(n, 1)''', "make_sin({n}, noise={noise})"),
    "linear": ('''def make_linear(n, noise):
    """y = 0.8 x + 0.2 plus noise, for x in [-1, 1]."""
    x = 2 * torch.rand(n, 1) - 1
    return x, 0.8 * x + 0.2 + noise * torch.randn(n, 1)''', "make_linear({n}, noise={noise})"),
    "csv": ('''def read_csv(path, targets):
    """Numbers from a CSV file; the last `targets` columns are the targets.

    A first row that is not all numbers is a header, and is skipped.
    """
    with open(path, newline="", encoding="utf-8") as f:
        rows = [row for row in csv.reader(f) if row]
    try:
        [float(v) for v in rows[0]]
    except ValueError:
        rows = rows[1:]
    table = torch.tensor([[float(v) for v in row] for row in rows])
    return table[:, :-targets], table[:, -targets:]''', "read_csv({path}, targets={targets})"),
}


def training_recipe(settings: TrainingSettings, lesson: str | None = None) -> str:
    """The recipe text that trains ``settings`` as a plain loop.

    Parameters
    ----------
    settings : TrainingSettings
        The setup; only its choices are written (no clip line without clipping...).
    lesson : str, optional
        The docstring at the top, such as a gallery lesson ending in ``Category: ...``.

    Returns
    -------
    str
        Python source that ``python`` runs as it is; the same text for the same settings.
    """
    return _recipe(settings, lesson, [], [])


def init_line(init: str, activation: str) -> str:
    """The statement that sets one Linear ``layer``'s weight by ``init`` (not "default")."""
    return _INITS[init].format(gain=json.dumps(_GAINS[activation]))


def convert_old(source: str) -> str | None:
    """A recipe of the retired format rewritten as a loop; None without a settings block.

    The docstring and the top-level statements before ``training = dict(...)`` are kept
    (imports the loop has already are not repeated); the block becomes the loop, and the
    engine pasted after the marker line is dropped.

    Raises
    ------
    ValueError
        When the block is not literals, or its settings do not validate (naming the field).
    """
    if source.isascii() and not ("training" in source and "dict" in source):
        return None  # no ``training = dict(...)`` in it: no need to parse it
    tree = ast.parse(old_format.split_generated(source))
    block = next((node for node in tree.body if old_format.is_settings(node)), None)
    if block is None:
        return None
    assert isinstance(block, ast.Assign)
    from app.training.setup import SettingsError, TrainingSettings

    try:
        settings = TrainingSettings.from_literal(old_format.settings_literal(block.value))
    except SettingsError as e:
        raise ValueError(f"line {block.lineno}: the training settings are not valid: "
                         f"{e}") from None
    lesson = ast.get_docstring(tree, clean=False)
    lines = source.splitlines()
    imports, others = [], []
    for node in tree.body[: tree.body.index(block)]:
        if node is tree.body[0] and lesson is not None:
            continue
        text = "\n".join(lines[node.lineno - 1: node.end_lineno])
        (imports if isinstance(node, (ast.Import, ast.ImportFrom)) else others).append(text)
    return _recipe(settings, lesson, imports, others)


# -- the parts of a recipe ---------------------------------------------------------------
def _recipe(s: TrainingSettings, lesson: str | None, imports: list[str],
            others: list[str]) -> str:
    own = (["import csv"] if s.data.kind == "csv" else []) + [
        "import math", "", *(f"import {spec}" for spec in ("torch", "torch.nn as nn"))]
    imports = own + [i for i in imports if i not in own]
    blocks: list[str] = ["\n".join(imports)]
    if others:
        blocks.append("\n".join(others))
    blocks += [_knobs(s), _DATA[s.data.kind][0], _data(s)]
    if s.init != "default":
        gain = "  # calculate_gain knows no GELU: ReLU's stands in" \
            if s.model.activation == "gelu" and "xavier" in s.init else ""
        blocks.append("def init_weights(layer):\n    if isinstance(layer, nn.Linear):\n"
                      f"        {init_line(s.init, s.model.activation)}{gain}\n"
                      "        nn.init.zeros_(layer.bias)")
    schedule = _scheduler(s)
    if schedule and "lr_factor" in schedule:  # the function, then the scheduler that uses it
        blocks += [_model(s), _lr_factor(s.schedule.warmup), schedule]
    else:
        blocks.append(_model(s) + (f"\n{schedule}" if schedule else ""))
    blocks.append(_loop(s))
    text = ""
    for i, block in enumerate(blocks):
        if i:  # two blank lines around a function, one between other blocks
            functions = block.startswith("def ") or blocks[i - 1].startswith("def ")
            text += "\n\n\n" if functions else "\n\n"
        text += block
    if lesson is not None:
        escaped = lesson.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
        text = f'"""{escaped}"""\n{text}'
    return text + "\n"


def _literal(value: object) -> str:
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _knobs(s: TrainingSettings) -> str:
    lines = [f"torch.manual_seed({s.seed})"]
    if s.dtype == "float64":
        lines.append("torch.set_default_dtype(torch.float64)  # data and model in float64")
    lines += [f"device = {_literal(s.device)}", f"steps = {s.steps}",
              f"batch_size = {s.batch.size}"]
    if s.accumulate > 1:
        lines.append(f"accumulate = {s.accumulate}  # batches per optimizer step")
    return "\n".join(lines)


def _data(s: TrainingSettings) -> str:
    d = s.data
    call = _DATA[d.kind][1].format(n=d.samples, noise=_literal(d.noise), classes=d.classes,
                                   path=_literal(d.path), targets=d.targets)
    lines = [f"x, y = {call}"]
    to_float = "double" if s.dtype == "float64" else "float"
    if d.kind == "csv":
        if s.loss == "cross_entropy":
            lines.append("y = y[:, 0].long()  # cross-entropy takes class indices")
        lines += ["order = torch.randperm(len(x))  # the file's rows in a random order",
                  "x, y = x[order], y[order]", f"n_val = round(len(x) * {d.validation!r})"]
        held = "n_val"
    else:
        held = str(round(d.samples * d.validation))
        if d.n_classes is not None and s.loss != "cross_entropy":
            lines.append(f"y = y[:, None].{to_float}()  # the label as a float target"
                         if s.model.outputs == 1 else
                         f"y = nn.functional.one_hot(y, {s.model.outputs}).{to_float}()")
    if held == "0":
        lines.append("x_train, y_train = x.to(device), y.to(device)")
    else:
        lines += [f"x_val, y_val = x[:{held}].to(device), y[:{held}].to(device)"
                  "  # held out",
                  f"x_train, y_train = x[{held}:].to(device), y[{held}:].to(device)"]
    return "\n".join(lines)


def _layer(m, width_in: int) -> str:
    parts = [f"nn.Linear({width_in}, {m.hidden})"]
    if m.batchnorm:
        parts.append(f"nn.BatchNorm1d({m.hidden})")
    parts.append(_ACTIVATIONS[m.activation])
    if m.dropout > 0:
        parts.append(f"nn.Dropout({m.dropout!r})")
    return ", ".join(parts)


def _model(s: TrainingSettings) -> str:
    m = s.model
    last = f"nn.Linear({m.hidden if m.layers else m.inputs}, {m.outputs})"
    if m.layers <= 3:
        rows = [_layer(m, m.inputs if i == 0 else m.hidden) + "," for i in range(m.layers)]
        lines = ["model = nn.Sequential(", *(f"    {r}" for r in rows), f"    {last},",
                 ").to(device)"]
    else:
        lines = [f"layers = [{_layer(m, m.inputs)}]",
                 f"for _ in range({m.layers - 1}):  # {m.layers} hidden layers in all",
                 f"    layers += [{_layer(m, m.hidden)}]",
                 f"model = nn.Sequential(*layers, {last}).to(device)"]
    if s.init != "default":
        lines.append("model.apply(init_weights)  # every Linear layer, one after another")
    lines += [f"loss_fn = {_LOSSES[s.loss]}", _optimizer(s)]
    return "\n".join(lines)


def _optimizer(s: TrainingSettings) -> str:
    o = s.optimizer
    args = [f"lr={o.lr!r}"]
    if o.name in ("sgd", "rmsprop") and o.momentum > 0:
        args.append(f"momentum={o.momentum!r}")
    if o.nesterov:
        args.append("nesterov=True")
    if o.weight_decay > 0 or o.name == "adamw":  # AdamW's own default is 0.01
        args.append(f"weight_decay={o.weight_decay!r}")
    return f"optimizer = torch.optim.{_OPTIMIZERS[o.name]}(model.parameters(), {', '.join(args)})"


def _scheduler(s: TrainingSettings) -> str | None:
    kind, warmup = s.schedule.kind, s.schedule.warmup
    head = "scheduler = torch.optim.lr_scheduler."
    if kind == "warmup" and warmup > 0:
        return (f"# the learning rate rises from lr / {warmup} to lr over {warmup} steps\n"
                f"{head}LinearLR(optimizer, start_factor=1 / {warmup}, total_iters={warmup})")
    if kind == "cosine" and warmup == 0:
        return f"{head}CosineAnnealingLR(optimizer, T_max=steps)  # lr falls to 0 at the end"
    if kind == "cosine":
        return f"{head}LambdaLR(optimizer, lr_factor)"
    return None


def _lr_factor(warmup: int) -> str:
    return ("def lr_factor(step):\n"
            f'    """A linear warm-up over {warmup} steps, then a cosine down to 0."""\n'
            f"    if step < {warmup}:\n        return (step + 1) / {warmup}\n"
            f"    return 0.5 * (1 + math.cos(math.pi * (step - {warmup}) / "
            f"max(1, steps - {warmup})))")


def _loop(s: TrainingSettings) -> str:
    accumulate, shuffle = s.accumulate > 1, s.batch.shuffle
    validate = s.data.kind == "csv" and s.data.validation > 0 \
        or round(s.data.samples * s.data.validation) > 0
    pad = "        " if accumulate else "    "
    loop = "i" if accumulate and not shuffle else "_"  # the batch's place, for batches in order
    if shuffle:
        draw = "batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch"
    elif accumulate:
        draw = ("first = (step * accumulate + i) * batch_size  # the batches in order\n"
                f"{pad}batch = torch.arange(first, first + batch_size) % len(x_train)")
    else:
        draw = ("batch = torch.arange(step * batch_size, (step + 1) * batch_size) % "
                "len(x_train)  # in order")
    header = ["step", "loss"] + (["val_loss"] if validate else []) \
        + (["lr"] if _scheduler(s) else [])
    lines = [f"print({', '.join(json.dumps(h) for h in header)})", "for step in range(steps):"]
    forward = "loss = loss_fn(model(x_train[batch]), y_train[batch])"
    if accumulate:
        lines += ["    optimizer.zero_grad()", "    total = 0.0",
                  f"    for {loop} in range(accumulate):",
                  f"        {draw}",
                  f"        {forward} / accumulate",
                  "        loss.backward()  # adds to each parameter's .grad",
                  "        total += loss.item()"]
        value = "total"
    else:
        lines += [f"    {draw}", "    optimizer.zero_grad()", f"    {forward}",
                  "    loss.backward()"]
        value = "loss.item()"
    if s.clip.mode == "norm":
        lines.append(f"    nn.utils.clip_grad_norm_(model.parameters(), {s.clip.value!r})")
    elif s.clip.mode == "value":
        lines.append(f"    nn.utils.clip_grad_value_(model.parameters(), {s.clip.value!r})")
    lines += ["    optimizer.step()", f"    if step % {s.log_every} == 0 or step == steps - 1:"]
    printed = [f"round({value}, 4)"]
    if validate:
        toggle = s.model.batchnorm or s.model.dropout > 0  # they act differently in eval
        lines += ["        model.eval()"] * toggle + [
            "        with torch.no_grad():", "            val_loss = loss_fn(model(x_val), y_val)",
        ] + ["        model.train()"] * toggle
        printed.append("round(val_loss.item(), 4)")
    if _scheduler(s):
        lines.append('        lr = optimizer.param_groups[0]["lr"]  # this step\'s')
        printed.append("round(lr, 4)")
    lines += [f"        print(step, {', '.join(printed)})",
              f"        if not math.isfinite({value}):",
              '            print("training diverged")',
              "            break"]
    if _scheduler(s):
        lines.append("    scheduler.step()  # the learning rate of the next step")
    return "\n".join(lines)
