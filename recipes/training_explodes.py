"""A run that explodes: the baseline for clipping and warm-up

A small tanh network learns y = sin(x) with SGD, momentum 0.9 and a learning rate of
0.3. That is too much: the first updates overshoot, the weights grow, the gradients
grow with them, and each step makes the next one larger. The loss is about 38 at step
10, 1e21 at step 20, and infinite at step 30, where the run stops with "training
diverged".

This run is the baseline of three lessons that keep every setting and change one:
gradient clipping by norm (training_clip_norm), by value (training_clip_value), and a
learning-rate warm-up (training_warmup). Open them side by side, or change the
settings here: a learning rate of 0.1 trains without any help.

一次发散的训练：梯度裁剪和预热的对照组

一个使用 tanh 的小网络用 SGD（动量 0.9，学习率 0.3）学习 y = sin(x)。这个学习率
太大了：最初的几次更新冲过了头，权重变大，梯度也跟着变大，每一步都让下一步更大。
损失在第 10 步约为 38，第 20 步约为 1e21，第 30 步变成无穷大，训练在这里以
“training diverged”停止。

这次训练是三节课的对照组，它们保留所有设置，只改变一项：按范数裁剪梯度
（training_clip_norm）、按值裁剪梯度（training_clip_value），以及学习率预热
（training_warmup）。把它们并排打开，或者直接修改这里的设置：学习率为 0.1 时，
不需要任何帮助也能训练。

Category: training
"""
import torch


training = dict(
    model=dict(inputs=1, hidden=32, layers=2, outputs=1, activation="tanh", dropout=0.0,
               batchnorm=False),
    init="default",
    data=dict(kind="sin", samples=320, noise=0.05, validation=0.2, classes=2, path="", targets=1),
    batch=dict(size=32, shuffle=True, drop_last=False),
    loss="mse",
    optimizer=dict(name="sgd", lr=0.3, momentum=0.9, nesterov=False, weight_decay=0.0),
    schedule=dict(kind="constant", warmup=0),
    clip=dict(mode="none", value=1.0),
    accumulate=1,
    steps=100,
    log_every=10,
    seed=0,
    dtype="float32",
    device="cpu",
)

# --- Tensor Lab training code: generated; the lab reads only the settings above ---
# The code below is app/training/program.py of Tensor Lab: the lab runs the same
# functions, so python prints the losses the lab shows.
import csv
import math
import sys

import torch
import torch.nn as nn

ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "sigmoid": nn.Sigmoid, "gelu": nn.GELU,
               "identity": nn.Identity}
# nn.init.calculate_gain knows no GELU; ReLU's gain is the usual stand-in.
GAINS = {"relu": "relu", "tanh": "tanh", "sigmoid": "sigmoid", "gelu": "relu",
         "identity": "linear"}
DTYPES = {"float32": torch.float32, "float64": torch.float64}


# -- data ----------------------------------------------------------------------------------
def spirals(n, noise, classes):
    """Interleaved spiral arms, one per class."""
    label = torch.arange(n) % classes
    t = torch.rand(n)  # how far along its arm each point lies
    angle = 3 * math.pi * t + 2 * math.pi * label / classes
    x = torch.stack([t * torch.cos(angle), t * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2), label


def circles(n, noise, classes):
    """Concentric rings, one per class."""
    label = torch.arange(n) % classes
    angle = 2 * math.pi * torch.rand(n)
    radius = (label + 1) / classes
    x = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2), label


def moons(n, noise, classes):
    """Two interleaving half circles."""
    label = torch.arange(n) % 2
    angle = math.pi * torch.rand(n)
    upper = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1)
    lower = torch.stack([1 - torch.cos(angle), 0.5 - torch.sin(angle)], dim=1)
    x = torch.where(label[:, None] == 0, upper, lower) - torch.tensor([0.5, 0.25])
    return x + noise * torch.randn(n, 2), label


def xor(n, noise, classes):
    """Points in a square; the class is whether x and y have the same sign."""
    x = 2 * torch.rand(n, 2) - 1
    label = (x[:, 0] * x[:, 1] > 0).long()
    return x + noise * torch.randn(n, 2), label


def blobs(n, noise, classes):
    """Gaussian blobs (std ``noise``) with their centres on the unit circle."""
    label = torch.arange(n) % classes
    angle = 2 * math.pi * label / classes
    centre = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1)
    return centre + noise * torch.randn(n, 2), label


def sin(n, noise):
    """y = sin(x) plus noise, for x in [-pi, pi]."""
    x = (2 * torch.rand(n, 1) - 1) * math.pi
    return x, torch.sin(x) + noise * torch.randn(n, 1)


def linear(n, noise):
    """y = 0.8 x + 0.2 plus noise, for x in [-1, 1]."""
    x = 2 * torch.rand(n, 1) - 1
    return x, 0.8 * x + 0.2 + noise * torch.randn(n, 1)


CLASSIFICATION = {"spirals": spirals, "circles": circles, "moons": moons, "xor": xor,
                  "blobs": blobs}
REGRESSION = {"sin": sin, "linear": linear}


def read_csv(path, targets):
    """Numbers from a CSV file: the last ``targets`` columns are the targets.

    A first row that is not all numbers is taken as a header and skipped.
    """
    with open(path, newline="", encoding="utf-8") as f:
        rows = [row for row in csv.reader(f) if row]
    try:
        [float(v) for v in rows[0]]
    except ValueError:
        rows = rows[1:]
    table = torch.tensor([[float(v) for v in row] for row in rows])
    return table[:, :-targets], table[:, -targets:]


def make_data(training):
    """Training and validation features and targets, shaped for the loss.

    Uses the global random generator, so call it right after ``torch.manual_seed``.
    """
    data, loss, outputs = training["data"], training["loss"], training["model"]["outputs"]
    kind = data["kind"]
    if kind == "csv":
        x, y = read_csv(data["path"], data["targets"])
        if loss == "cross_entropy":
            y = y[:, 0].long()
    elif kind in REGRESSION:
        x, y = REGRESSION[kind](data["samples"], data["noise"])
    else:
        x, label = CLASSIFICATION[kind](data["samples"], data["noise"], data["classes"])
        if loss == "cross_entropy":
            y = label
        elif outputs == 1:
            y = label[:, None].float()
        else:
            y = nn.functional.one_hot(label, outputs).float()
    order = torch.randperm(len(x))
    n_val = round(len(x) * data["validation"])
    val, train = order[:n_val], order[n_val:]
    return x[train], y[train], x[val], y[val]


def batches(loader, generator, seed, skip=0):
    """The loader's batches, epoch after epoch, after skipping the first ``skip``.

    Each epoch's order depends only on (seed, epoch), so a run can resume anywhere.
    """
    per_epoch = len(loader)
    if per_epoch == 0:
        raise ValueError("no batches: the batch is larger than the training set and "
                         "drop_last is on")
    epoch, skip = divmod(skip, per_epoch)
    while True:
        generator.manual_seed(seed + epoch)
        for i, batch in enumerate(loader):
            if i >= skip:
                yield batch
        epoch, skip = epoch + 1, 0


# -- model ---------------------------------------------------------------------------------
def build_model(model):
    """The MLP: (Linear, [BatchNorm1d], activation, [Dropout]) per hidden layer, then Linear."""
    layers, width = [], model["inputs"]
    for _ in range(model["layers"]):
        layers.append(nn.Linear(width, model["hidden"]))
        if model["batchnorm"]:
            layers.append(nn.BatchNorm1d(model["hidden"]))
        layers.append(ACTIVATIONS[model["activation"]]())
        if model["dropout"] > 0:
            layers.append(nn.Dropout(model["dropout"]))
        width = model["hidden"]
    layers.append(nn.Linear(width, model["outputs"]))
    return nn.Sequential(*layers)


def init_weights(model, scheme, activation):
    """Set every Linear layer's weights by ``scheme``, and its bias to zero.

    ``default`` keeps PyTorch's own initialisation, bias included. Xavier and Kaiming
    use the gain of the activation after the layer; the output layer has none (linear).
    """
    if scheme == "default":
        return
    linears = [layer for layer in model if isinstance(layer, nn.Linear)]
    with torch.no_grad():
        for i, layer in enumerate(linears):
            nonlinearity = GAINS[activation] if i < len(linears) - 1 else "linear"
            gain = nn.init.calculate_gain(nonlinearity)
            w = layer.weight
            if scheme == "normal":
                nn.init.normal_(w, 0.0, 1.0)
            elif scheme == "small_normal":
                nn.init.normal_(w, 0.0, 0.01)
            elif scheme == "xavier_uniform":
                nn.init.xavier_uniform_(w, gain=gain)
            elif scheme == "xavier_normal":
                nn.init.xavier_normal_(w, gain=gain)
            elif scheme == "kaiming_uniform":
                nn.init.kaiming_uniform_(w, nonlinearity=nonlinearity)
            elif scheme == "kaiming_normal":
                nn.init.kaiming_normal_(w, nonlinearity=nonlinearity)
            elif scheme == "zeros":
                nn.init.zeros_(w)
            nn.init.zeros_(layer.bias)


# -- training ------------------------------------------------------------------------------
def pick_device(name):
    """The device called ``name``, or the CPU and a warning when it is not present."""
    kind, _, index = name.partition(":")
    present = (kind == "cpu"
               or (kind == "cuda" and torch.cuda.is_available()
                   and int(index or 0) < torch.cuda.device_count())
               or (kind == "mps" and torch.backends.mps.is_available()))
    if present:
        return torch.device(name), None
    return torch.device("cpu"), f"device {name!r} is not present here: training on cpu instead"


def make_optimizer(params, opt):
    if opt["name"] == "sgd":
        return torch.optim.SGD(params, lr=opt["lr"], momentum=opt["momentum"],
                               nesterov=opt["nesterov"], weight_decay=opt["weight_decay"])
    if opt["name"] == "rmsprop":
        return torch.optim.RMSprop(params, lr=opt["lr"], momentum=opt["momentum"],
                                   weight_decay=opt["weight_decay"])
    kind = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[opt["name"]]
    return kind(params, lr=opt["lr"], weight_decay=opt["weight_decay"])


def make_loss(name):
    return {"mse": nn.MSELoss, "cross_entropy": nn.CrossEntropyLoss,
            "bce_with_logits": nn.BCEWithLogitsLoss}[name]()


def learning_rate(step, base, schedule, steps):
    """The learning rate of ``step`` (1-based): linear warm-up, then constant or cosine."""
    warmup = schedule["warmup"]
    if schedule["kind"] != "constant" and step <= warmup:
        return base * step / warmup
    if schedule["kind"] == "cosine":
        progress = (step - warmup) / max(1, steps - warmup)
        return base * 0.5 * (1 + math.cos(math.pi * progress))
    return base


def prepare(training):
    """Seed, then build the data, the model, the loss, the optimizer and the batches."""
    device, warning = pick_device(training["device"])
    dtype = DTYPES[training["dtype"]]
    torch.manual_seed(training["seed"])
    x, y, x_val, y_val = make_data(training)
    model = build_model(training["model"])
    init_weights(model, training["init"], training["model"]["activation"])
    model.to(device=device, dtype=dtype)

    def place(t):
        return t.to(device=device, dtype=dtype if t.is_floating_point() else None)

    x, y, x_val, y_val = place(x), place(y), place(x_val), place(y_val)
    dataset = torch.utils.data.TensorDataset(x, y)
    generator = torch.Generator()  # the shuffle order, apart from the global generator
    order = (torch.utils.data.RandomSampler(dataset, generator=generator)
             if training["batch"]["shuffle"] else torch.utils.data.SequentialSampler(dataset))
    # The sampler yields whole batches of indices and TensorDataset indexes with them at
    # once: the same batches as batch_size=..., without stacking one sample at a time.
    sampler = torch.utils.data.BatchSampler(order, training["batch"]["size"],
                                            training["batch"]["drop_last"])
    # The loader draws a seed per epoch too: from our generator, not the global one.
    loader = torch.utils.data.DataLoader(dataset, batch_size=None, sampler=sampler,
                                         generator=generator)
    return {"model": model, "params": list(model.parameters()),
            "loss_fn": make_loss(training["loss"]),
            "optimizer": make_optimizer(model.parameters(), training["optimizer"]),
            "loader": loader, "generator": generator,
            "batches": batches(loader, generator, training["seed"]),
            "x": x, "y": y, "x_val": x_val, "y_val": y_val,
            "device": device, "warning": warning}


def validate(run):
    """The loss on the validation set, in eval mode without gradients (None without one)."""
    if len(run["x_val"]) == 0:
        return None
    model = run["model"]
    model.eval()
    with torch.no_grad():
        loss = run["loss_fn"](model(run["x_val"]), run["y_val"])
    model.train()
    return loss


def train_steps(run, training, control, start=0):
    """Optimizer steps start + 1, start + 2, ...; yield (step, loss, val_loss) after each.

    ``control`` holds ``lr``, ``clip`` and ``clip_value``, read before every step, so they
    can change while training runs. Losses stay tensors: nothing here waits for the device.
    val_loss is computed every ``log_every`` steps, and is None otherwise.
    """
    model, optimizer, loss_fn = run["model"], run["optimizer"], run["loss_fn"]
    accumulate, log_every = training["accumulate"], training["log_every"]
    model.train()
    for step in range(start + 1, training["steps"] + 1):
        lr = learning_rate(step, control["lr"], training["schedule"], training["steps"])
        for group in optimizer.param_groups:
            group["lr"] = lr
        optimizer.zero_grad()
        losses = []
        for _ in range(accumulate):
            x, y = next(run["batches"])
            loss = loss_fn(model(x), y)
            if accumulate > 1:
                loss = loss / accumulate  # N batches' gradients add up to their mean's
            loss.backward()
            losses.append(loss.detach())
        if control["clip"] == "value":
            nn.utils.clip_grad_value_(run["params"], control["clip_value"])
        elif control["clip"] == "norm":
            nn.utils.clip_grad_norm_(run["params"], control["clip_value"])
        optimizer.step()
        step_loss = losses[0] if accumulate == 1 else torch.stack(losses).sum()
        yield step, step_loss, validate(run) if step % log_every == 0 else None


def log_line(step, loss, val_loss):
    """One printed line; floats in full (repr) so that histories compare exactly."""
    line = f"step {step} loss {loss!r}"
    return line if val_loss is None else f"{line} val_loss {val_loss!r}"


def main(training):
    """Train as the lab does, printing one line per logged step.

    Returns the logged (step, loss, val_loss) tuples; ``tensor-lab run --json`` reports them.
    """
    run = prepare(training)
    if run["warning"]:
        print(f"warning: {run['warning']}", file=sys.stderr)
    control = {"lr": training["optimizer"]["lr"], "clip": training["clip"]["mode"],
               "clip_value": training["clip"]["value"]}
    logged = []
    for step, loss, val_loss in train_steps(run, training, control):
        if step % training["log_every"] == 0:
            loss, val_loss = loss.item(), None if val_loss is None else val_loss.item()
            logged.append((step, loss, val_loss))
            print(log_line(step, loss, val_loss))
            if not math.isfinite(loss):
                print(f"training diverged at step {step}: the loss is {loss}")
                break
    return logged


main(training)
