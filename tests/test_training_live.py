"""A window run's training loops, live (``kernel.watch_live``): the kernel sends
every ``backward()``'s loss and learning rate in batches while the loop trains, and obeys
the window's pause, single step, live learning rate and NaN pause at the next
``backward()``. Stop ends a paused loop.

Kernel tier: a real kernel process, polled as the window's timer polls it. Expected
values are what the recipe itself printed, or counts a person can check.
"""

from __future__ import annotations

import math
import time

from app.link.events import RunMessage
from protocol import messages
from tests import test_kernel_service
from tests.test_kernel_service import Watcher

#: One kernel for the module, as in the kernel service's tests.
watcher = test_kernel_service.watcher

MODEL = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
x = torch.randn(64, 4)
y = x.sum(dim=1, keepdim=True)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
"""
LOOP = MODEL + """\
for step in range({steps}):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    optimizer.step()
    print(step, repr(loss.item()), optimizer.param_groups[0]["lr"])
"""


def _batches(watcher: Watcher, run_id: int) -> list[messages.Training]:
    return watcher.messages(run_id, messages.Training)


def _steps(batches) -> list[int]:
    return [s for b in batches for s in b.steps]


def _next_batch(watcher: Watcher, run_id: int, test=lambda b: True, timeout: float = 60):
    return watcher.until(lambda e: isinstance(e, RunMessage) and e.run_id == run_id
                         and isinstance(e.message, messages.Training) and test(e.message),
                         timeout).message


def test_a_loop_sends_every_step_in_batches_with_its_layers(watcher, tmp_path):
    text = LOOP.format(steps=300)
    run_id = watcher.session.run(text, str(tmp_path / "r.py"), str(tmp_path))
    assert watcher.ended(run_id).exit_code == 0
    batches = _batches(watcher, run_id)
    assert _steps(batches) == list(range(300))
    assert 1 < len(batches) <= 300  # batched, not one message per step ... nor one in all
    loop_line = text.splitlines().index("for step in range(300):") + 1
    assert {(b.index, b.line) for b in batches} == {(7, loop_line)}
    printed = [line.split() for line in
               "".join(o.text for o in watcher.messages(run_id, messages.Output)).splitlines()]
    assert [lo for b in batches for lo in b.loss] == [float(p[1]) for p in printed]
    # python prints no warning here, so neither does the lab (the loop's report once read
    # `loss`, which requires grad, through float(): a UserWarning on stderr)
    assert not [o for o in watcher.messages(run_id, messages.Output) if o.stream == "stderr"]
    assert {lr for b in batches for lr in b.lr} == {0.05}
    # the layers: std for each leaf the forward pass called, a gradient norm for Linears
    sampled = [b for b in batches if b.layer_steps]
    assert sampled and sampled[0].layer_steps[0] == 0  # the first step is always taken
    assert set(sampled[0].layers) == {"net.0", "net.1", "net.2"}
    first = sampled[0].layers
    assert first["net.1"]["grad_norm"][0] is None and first["net.0"]["grad_norm"][0] > 0
    assert 0 < first["net.1"]["std"][0] < 1  # tanh's output


BY_HAND = MODEL + """\
import math

for step in range({steps}):
    with torch.no_grad():  # each layer's output before the step, as the forward pass has it
        h0 = net[0](x)
        h1 = net[1](h0)
        h2 = net[2](h1)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    norms = [math.sqrt(sum(p.grad.double().pow(2).sum().item() for p in m.parameters()))
             for m in (net[0], net[2])]
    optimizer.step()
    print(step, *[repr(h.std().item()) for h in (h0, h1, h2)], *map(repr, norms))
"""


def test_a_sampled_steps_layers_are_torchs_own_numbers_at_that_step(watcher, tmp_path):
    """The layers' numbers of a sampled step (its outputs' std, its parameters' gradient
    norm: read together after backward, one wait for the device) are what torch gives
    for that step's layer outputs and gradients, computed by the recipe itself."""
    run_id = watcher.session.run(BY_HAND.format(steps=300), str(tmp_path / "r.py"))
    assert watcher.ended(run_id).exit_code == 0
    printed = {int(p[0]): [float(v) for v in p[1:]] for p in (
        line.split() for line in
        "".join(o.text for o in watcher.messages(run_id, messages.Output)).splitlines())}
    sampled = [(step, {path: (series["std"][j], series["grad_norm"][j])
                       for path, series in b.layers.items()})
               for b in _batches(watcher, run_id) for j, step in enumerate(b.layer_steps)]
    assert len(sampled) >= 2 and sampled[0][0] == 0
    for step, layers in sampled:
        s0, s1, s2, n0, n2 = printed[step]
        assert set(layers) == {"net.0", "net.1", "net.2"}
        for (std, norm), (want_std, want_norm) in zip(
                (layers["net.0"], layers["net.1"], layers["net.2"]),
                ((s0, n0), (s1, None), (s2, n2)), strict=True):
            assert math.isclose(std, want_std, rel_tol=1e-6), (step, std, want_std)
            if want_norm is None:
                assert norm is None  # Tanh has no parameters
            else:
                assert math.isclose(norm, want_norm, rel_tol=1e-5), (step, norm, want_norm)


def test_pause_step_and_go_on_act_at_the_next_backward(watcher, tmp_path):
    run_id = watcher.session.run(LOOP.format(steps=10**7), str(tmp_path / "r.py"))
    _next_batch(watcher, run_id, lambda b: len(b.steps) > 0)
    watcher.session.control(pause=True)
    paused = _next_batch(watcher, run_id, lambda b: b.paused == "pause")
    last = _steps(_batches(watcher, run_id))[-1]
    time.sleep(0.4)
    watcher.poll()
    assert _steps(_batches(watcher, run_id))[-1] == last  # nothing trains while paused
    watcher.session.control(step=True)
    _next_batch(watcher, run_id, lambda b: b.paused == "pause")
    assert _steps(_batches(watcher, run_id))[-1] == last + 1  # one step, then paused again
    assert paused.index == 7
    watcher.session.control(pause=False)
    _next_batch(watcher, run_id, lambda b: len(b.steps) > 0 and b.steps[-1] > last + 50)
    watcher.session.stop()
    assert watcher.ended(run_id, timeout=20).reason == "stopped"


def test_stop_ends_a_paused_loop_and_its_time_limit_waits(watcher, tmp_path):
    limit = 4.0  # room for the recipe's imports and its first steps on a busy machine
    started = time.monotonic()
    run_id = watcher.session.run(LOOP.format(steps=10**7), str(tmp_path / "r.py"),
                                 timeout=limit)
    _next_batch(watcher, run_id, lambda b: len(b.steps) > 0)
    watcher.session.control(pause=True)
    _next_batch(watcher, run_id, lambda b: b.paused == "pause")
    # paused past the run's time limit: the limit counts running time only
    time.sleep(max(0.0, started + limit + 1.0 - time.monotonic()))
    watcher.poll()
    assert not [e for e in watcher.events if getattr(e, "run_id", None) == run_id
                and type(e).__name__ == "Ended"]
    start = time.monotonic()
    watcher.session.stop()
    ended = watcher.ended(run_id, timeout=20)
    assert ended.reason == "stopped" and time.monotonic() - start < 5
    done = watcher.messages(run_id, messages.StepDone)
    assert done[-1].error == "KeyboardInterrupt"  # python's own Stop, the kernel kept


def test_a_live_learning_rate_reaches_every_param_group_at_the_next_step(watcher, tmp_path):
    text = LOOP.format(steps=10**7)
    run_id = watcher.session.run(text, str(tmp_path / "r.py"))
    _next_batch(watcher, run_id, lambda b: len(b.steps) > 0)
    watcher.session.control(lr=0.01)
    _next_batch(watcher, run_id, lambda b: 0.01 in b.lr)
    watcher.session.stop()
    watcher.ended(run_id, timeout=20)
    lrs = [lr for b in _batches(watcher, run_id) for lr in b.lr if not math.isnan(lr)]
    switch = lrs.index(0.01)
    assert set(lrs[:switch]) == {0.05} and set(lrs[switch:]) == {0.01}
    printed = "".join(o.text for o in watcher.messages(run_id, messages.Output))
    assert " 0.01\n" in printed  # the recipe's optimizer itself has the new rate
    # the next run has the recipe's own rate again
    again = watcher.session.run(LOOP.format(steps=5), str(tmp_path / "r.py"))
    watcher.ended(again)
    assert {lr for b in _batches(watcher, again) for lr in b.lr} == {0.05}


NAN_LOOP = MODEL + """\
for step in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    if step >= 5:
        loss = loss * float("nan")
    loss.backward()
    optimizer.step()
"""


def test_the_first_nan_loss_pauses_before_its_backward_once(watcher, tmp_path):
    run_id = watcher.session.run(NAN_LOOP, str(tmp_path / "r.py"))
    paused = _next_batch(watcher, run_id, lambda b: bool(b.paused))
    assert paused.paused == "nan"
    assert _steps(_batches(watcher, run_id)) == [0, 1, 2, 3, 4]  # step 5 has not run
    watcher.session.control(pause=False)
    assert watcher.ended(run_id).exit_code == 0
    batches = _batches(watcher, run_id)
    assert _steps(batches) == list(range(20))
    assert [b.paused for b in batches if b.paused] == ["nan"]  # once, not at every NaN
    losses = [lo for b in batches for lo in b.loss]  # NaN: not finite (JSON's null)
    assert all(math.isfinite(lo) for lo in losses[:5])
    assert all(math.isnan(lo) for lo in losses[5:]) and len(losses) == 20

    watcher.session.control(nan_pause=False)
    quiet = watcher.session.run(NAN_LOOP, str(tmp_path / "r.py"))
    assert watcher.ended(quiet).exit_code == 0
    assert not [b for b in _batches(watcher, quiet) if b.paused]
    watcher.session.control(nan_pause=True)


def test_a_new_statements_first_step_on_the_lean_path_and_a_watch_fault_never_break_a_step():
    """In one process: the watch's steps, with what the window would be sent kept."""
    import torch

    from kernel.watch import TrainingWatch
    from kernel.watch_live import Controls, LiveFeed

    sent: list = []
    net = torch.nn.Linear(3, 1)
    watch = TrainingWatch({"net": net}, LiveFeed(sent.append), Controls())
    watch.install()
    try:
        for index in (4, 9):  # two loops, in two statements
            watch.begin(index, index + 1)
            watch._sampling = False  # the first loop's budget left sampling off
            for _ in range(3):
                net(torch.ones(2, 3)).sum().backward()
            watch.end()
        by_statement: dict[int, list[int]] = {}
        for message in sent:
            by_statement.setdefault(message.index, []).extend(message.steps)
        assert by_statement == {4: [0, 1, 2], 9: [0, 1, 2]}

        def broken(_loss):
            raise KeyError(13)
        watch._before_backward = broken  # a fault of the lab's own
        watch.begin(12, 13)
        x = torch.ones(2, 3, requires_grad=True)
        (x * 2).sum().backward()  # the recipe's step goes through...
        assert x.grad.tolist() == [[2.0] * 3] * 2
        (x * 2).sum().backward()  # ...and the next, the watch off
        assert x.grad.tolist() == [[4.0] * 3] * 2
    finally:
        watch.uninstall()


def test_a_loop_without_modules_takes_the_lean_path_and_sends_every_loss():
    """The notes' manual SGD (``w -= lr * w.grad``) calls no module: no layer, so no
    histogram is ever due. Its steps still go the lean way between two batches (once,
    the histogram's clock sent every step down the full path), and each one's loss
    reaches the window."""
    import torch

    from kernel.watch import TrainingWatch
    from kernel.watch_live import Controls, LiveFeed

    sent: list = []
    watch = TrainingWatch({}, LiveFeed(sent.append), Controls())
    full = []
    before = watch._before_backward
    watch._before_backward = lambda tensor: (full.append(1), before(tensor))[1]
    w = torch.tensor([3.0, -2.0], requires_grad=True)
    losses = []
    watch.install()
    try:
        watch.begin(2, 3)
        for _ in range(2000):
            loss = (w * w).sum()
            losses.append(loss.item())
            loss.backward()
            with torch.no_grad():
                w -= 0.001 * w.grad
                w.grad.zero_()
        watch.end()
    finally:
        watch.uninstall()
    steps = [s for message in sent for s in message.steps]
    sent_losses = [v for message in sent for v in message.loss]
    assert steps == list(range(2000)) and sent_losses == losses
    assert len(full) < 100  # the first step, a batch due, a layer sample: not every step


def test_a_pause_from_the_window_holds_the_very_next_backward_of_a_lean_loop():
    """Between two batches a loop's steps take the lean path; a pause that the reader
    thread applies meanwhile closes it, so the next ``backward()`` already waits (not
    the first one after the next batch, up to 50 ms of steps later)."""
    import threading

    import torch

    from kernel.watch import TrainingWatch
    from kernel.watch_live import Controls, LiveFeed

    controls = Controls()
    watch = TrainingWatch({}, LiveFeed(lambda message: None), controls)
    w = torch.tensor([3.0, -2.0], requires_grad=True)
    ends: list[float] = []
    watch.install()
    try:
        watch.begin(2, 3)
        for step in range(400):
            (w * w).sum().backward()
            ends.append(time.perf_counter())
            if step == 200:
                assert watch._due_at > time.perf_counter()  # the lean path is open
                reader = threading.Thread(target=controls.apply,
                                          args=(messages.TrainingControl(pause=True),))
                reader.start()
                reader.join()
                threading.Timer(0.3, controls.apply,
                                (messages.TrainingControl(pause=False),)).start()
        watch.end()
    finally:
        watch.uninstall()
    gaps = [b - a for a, b in zip(ends, ends[1:], strict=False)]
    assert gaps[200] >= 0.25  # step 201 waited for the resume
    assert max(gaps[:200] + gaps[201:]) < 0.2


def test_every_steps_rate_reaches_the_window_as_its_step_used_it_lean_steps_too():
    """A scheduler changes the rate at every step. The lean steps read it at
    ``backward()`` (the optimizers' hook is off in the lane); every step's rate that
    reaches the window is the one its ``optimizer.step()`` used, as torch's own
    schedule gives it, and the window's live rate still reaches the loop's steps."""
    import torch

    from kernel.watch import TrainingWatch
    from kernel.watch_live import Controls, LiveFeed

    def train(watch: TrainingWatch | None, controls: Controls | None, steps: int):
        torch.manual_seed(0)
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda k: 1 / (1 + k))
        x = torch.randn(16, 2)
        used = []
        if watch is not None:
            watch.install()
            watch.begin(5, 6)
        try:
            for step in range(steps):
                if controls is not None and step == steps // 2:
                    controls.apply(messages.TrainingControl(lr=0.5))  # the window's rate
                optimizer.zero_grad()
                loss = model(x).pow(2).mean()
                loss.backward()
                optimizer.step()
                used.append(optimizer.param_groups[0]["lr"])
                schedule.step()
            if watch is not None:
                watch.end()
        finally:
            if watch is not None:
                watch.uninstall()
        return used

    expected = train(None, None, 3000)
    assert expected[:3] == [0.1, 0.05, 0.1 / 3]  # torch's own schedule, by hand
    sent: list = []
    watch = TrainingWatch({}, LiveFeed(sent.append), Controls())
    full = []
    before = watch._before_backward
    watch._before_backward = lambda tensor: (full.append(1), before(tensor))[1]
    assert train(watch, None, 3000) == expected
    steps = [s for message in sent for s in message.steps]
    rates = [r for message in sent for r in message.lr.tolist()]
    assert steps == list(range(3000))
    assert rates == expected
    assert len(full) < 300  # most steps went the lean way
    controls = Controls()
    sent.clear()
    watch = TrainingWatch({}, LiveFeed(sent.append), controls)
    used = train(watch, controls, 3000)
    rates = [r for message in sent for r in message.lr.tolist()]
    assert used[:1500] == expected[:1500] and set(used[1500:]) == {0.5}
    assert rates == used
