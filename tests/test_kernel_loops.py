"""A top-level loop run for the window reports its iterations: how many, full summaries of
chosen ones (0-99, an even sample, the last) and scalars for every one, while its output,
errors and namespace stay python's.

Core tests: no QApplication; a real spawned kernel process. ``iterations`` counts the
iterations that reached their end: a loop that raises in iteration 5 reports 5.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace

import pytest

from app.link.supervisor import Kernel
from kernel.loops import ITERATION_OUTPUT, RECORDER
from protocol import messages as msg

NAMES = "print(sorted(k for k in globals() if not k.startswith('__')))\n"


def _collect(kernel: Kernel, timeout: float = 120) -> list:
    messages, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = kernel.receive(0.1)
        if message is not None:
            messages.append(message)
            if isinstance(message, msg.Done):
                return messages
    raise AssertionError(f"no Done within {timeout} s: {messages[-5:]}")


def _run(kernel: Kernel, tmp_path, source: str) -> tuple[list, str, str, int]:
    path = tmp_path / "loop.py"
    path.write_text(source, encoding="utf-8")
    kernel.run_source(str(path), source, str(tmp_path))
    messages = _collect(kernel)
    out = "".join(m.text for m in messages if isinstance(m, msg.Output)
                  and m.stream == "stdout")
    err = "".join(m.text for m in messages if isinstance(m, msg.Output)
                  and m.stream == "stderr")
    # each loop report as the window reads it (``LoopReport.expanded``)
    steps = [replace(m, loop=m.loop.expanded()) if m.loop is not None else m
             for m in messages if isinstance(m, msg.StepDone)]
    return steps, out, err, messages[-1].exit_code


def _python(tmp_path, source: str) -> subprocess.CompletedProcess:
    path = tmp_path / "loop.py"
    path.write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          cwd=str(tmp_path), timeout=60)


@pytest.fixture(scope="module")
def kernel():
    k = Kernel()
    yield k
    k.close()


def test_a_thousand_iterations_keep_0_57_and_the_last(kernel, tmp_path):
    source = ("total = 0\nfor i in range(1000):\n    sq = i * i\n    total += sq\n"
              "    half = i / 2\n" + NAMES)
    steps, out, _, code = _run(kernel, tmp_path, source)
    loop = steps[1].loop
    assert code == 0 and steps[0].loop is None and steps[2].loop is None
    assert loop["iterations"] == 1000
    assert {0, 57, 999} <= set(loop["kept"]) and len(loop["kept"]) <= 210
    assert loop["kept"][:100] == list(range(100))
    assert loop["samples"]["0"] == {"i": {"type": "int", "value": 0},
                                    "sq": {"type": "int", "value": 0},
                                    "total": {"type": "int", "value": 0},
                                    "half": {"type": "float", "value": 0.0}}
    assert loop["samples"]["57"]["total"] == {"type": "int", "value": sum(
        k * k for k in range(58))}
    assert loop["samples"]["57"]["half"] == {"type": "float", "value": 28.5}
    assert loop["samples"]["999"]["sq"] == {"type": "int", "value": 998001}
    assert loop["scalar_steps"] == list(range(1000))
    assert loop["scalars"]["i"] == list(range(1000))
    assert loop["scalars"]["half"] == [k / 2 for k in range(1000)]
    running, want = 0, []
    for k in range(1000):
        running += k * k
        want.append(running)
    assert loop["scalars"]["total"] == want
    assert RECORDER not in out
    assert out == _python(tmp_path, source).stdout


def test_break_continue_and_else_behave_as_under_python(kernel, tmp_path):
    source = '''\
s = 0
for k in range(50):
    if k % 3 == 0:
        continue
    s += k
    if k > 40:
        break
else:
    print("no break")
print(s)
n = 0
while n < 10:
    n += 1
    if n % 2:
        continue
    print("even", n)
else:
    print("while else", n)
for a in range(3):
    for b in range(3):
        if b == 1:
            break
    else:
        continue
    print("inner broke at", a, b)
''' + NAMES
    steps, out, _, code = _run(kernel, tmp_path, source)
    assert code == 0 and out == _python(tmp_path, source).stdout
    first, second, nested = steps[1].loop, steps[4].loop, steps[5].loop
    assert first["iterations"] == 42  # 0..41: every one ends (continue, break or end)
    assert first["samples"]["41"]["s"]["value"] == sum(k for k in range(42) if k % 3)
    assert second["iterations"] == 10 and second["scalars"]["n"] == list(range(1, 11))
    assert nested["iterations"] == 3  # the top-level loop's iterations only
    assert nested["scalars"]["b"] == [1, 1, 1]


def test_a_loop_that_raises_reports_the_iterations_done_and_pythons_traceback(
        kernel, tmp_path):
    source = "values = []\nfor i in range(10):\n    values.append(i)\n    y = 1 / (5 - i)\n"
    steps, out, err, code = _run(kernel, tmp_path, source)
    python = _python(tmp_path, source)
    assert code == python.returncode == 1
    assert err == python.stderr and RECORDER not in err
    loop = steps[1].loop
    assert steps[1].error == "ZeroDivisionError" and steps[1].error_line == 4
    assert loop["iterations"] == 5  # iteration 5 raised: 0..4 ended
    assert loop["scalars"]["y"] == [1 / (5 - i) for i in range(5)]
    assert loop["samples"]["4"] == {"i": {"type": "int", "value": 4},
                                    "y": {"type": "float", "value": 1.0}}


def test_the_recorder_is_never_seen_after_the_loop(kernel, tmp_path):
    source = ("for i in range(3):\n    seen = '" + RECORDER + "' in globals()\n"
              "print(dir())\n" + NAMES + "print(seen)\n")
    steps, out, _, code = _run(kernel, tmp_path, source)
    python = _python(tmp_path, source).stdout.splitlines()
    lines = out.splitlines()
    assert code == 0 and lines[1] == python[1] and RECORDER not in lines[0]
    assert lines[2] == "True"  # visible only while the loop runs


def test_a_long_loop_keeps_bounded_samples_and_an_unbound_name(kernel, tmp_path):
    source = '''\
total = 0.0
for i in range(250_000):
    x = i * 0.5
    total += x
    if i == 200_000:
        late = 1
print(total)
'''
    steps, out, _, code = _run(kernel, tmp_path, source)
    assert code == 0 and out == _python(tmp_path, source).stdout
    loop = steps[1].loop
    assert loop["iterations"] == 250_000 and 249_999 in loop["kept"]
    assert len(loop["kept"]) <= 210
    steps_kept = loop["scalar_steps"]
    assert len(steps_kept) <= 100_000 and steps_kept[0] == 0
    assert loop["scalars"]["i"] == steps_kept
    assert loop["scalars"]["x"] == [s * 0.5 for s in steps_kept]
    assert loop["samples"]["249999"]["late"] == {"type": "int", "value": 1}
    assert "late" not in loop["samples"]["0"]


def test_a_while_loop_past_many_chunks_keeps_every_value_and_its_iterator_state(
        kernel, tmp_path):
    source = '''\
it = iter(range(10_000))
n, acc = 0, 0.0
while n < 5000:
    n += 1
    acc += n / 4
    if n == 4321:
        break
for a in it:
    if a == 2500:
        break
print(n, acc, list(it)[:3])
'''
    steps, out, _, code = _run(kernel, tmp_path, source)
    assert code == 0 and out == _python(tmp_path, source).stdout
    loop = steps[2].loop
    assert loop["iterations"] == 4321
    assert loop["scalars"]["n"] == list(range(1, 4322))
    running, want = 0.0, []
    for k in range(1, 4322):
        running += k / 4
        want.append(running)
    assert loop["scalars"]["acc"] == want
    assert loop["samples"]["4320"]["n"] == {"type": "int", "value": 4321}
    assert steps[3].loop["iterations"] == 2501  # 0..2499 go on, 2500 breaks
    assert steps[3].loop["scalars"]["a"] == list(range(2501))


def test_a_name_that_stops_being_a_number_or_is_deleted_is_recorded_as_it_is(
        kernel, tmp_path):
    source = '''\
for i in range(3000):
    v = i * 2 if i < 2500 else "done"
    w = i
    if i == 2700:
        del w
print(v)
'''
    steps, out, _, code = _run(kernel, tmp_path, source)
    assert code == 0 and out == _python(tmp_path, source).stdout
    loop = steps[0].loop
    assert loop["iterations"] == 3000
    assert loop["scalars"]["v"] == [i * 2 for i in range(2500)] + [None] * 500
    assert loop["scalars"]["w"] == [i if i != 2700 else None for i in range(3000)]
    assert loop["samples"]["2999"]["v"] == {"type": "str", "value": "done"}
    assert loop["samples"]["2999"]["w"] == {"type": "int", "value": 2999}
    kept_late = [n for n in loop["kept"] if n >= 2500]
    assert kept_late and all(loop["samples"][str(n)]["v"]["type"] == "str"
                             for n in kept_late)


def test_errors_of_the_iterable_itself_read_as_under_python(kernel, tmp_path):
    for source in ("for i in 5:\n    pass\n",
                   "def gen():\n    yield 1\n    yield 2\n    raise ValueError('no 3')\n"
                   "for i in gen():\n    print(i)\n"):
        steps, out, err, code = _run(kernel, tmp_path, source)
        python = _python(tmp_path, source)
        assert (code, out, err) == (python.returncode, python.stdout, python.stderr)
    assert steps[-1].loop["iterations"] == 2 and steps[-1].loop["scalars"]["i"] == [1, 2]


def test_a_function_called_in_the_loop_sees_the_names_as_python_has_them(kernel, tmp_path):
    source = '''\
seen = []
def look():
    seen.append((k, total, "k" in globals()))
total = 0
for k in range(3):
    total += k
    look()
    exec("extra = k * 10")
print(seen, extra, [name for name in globals() if name.startswith("__tensor")])
'''
    steps, out, _, code = _run(kernel, tmp_path, source)
    assert code == 0 and out == _python(tmp_path, source).stdout
    assert steps[3].loop["scalars"]["total"] == [0, 1, 3]


def test_a_tensor_loop_reports_zero_d_tensors_as_floats(kernel, tmp_path):
    source = '''\
import torch
w = torch.zeros(3)
for step in range(150):
    w += 1
    loss = (w * w).sum()
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[2].loop
    assert code == 0 and loop["iterations"] == 150
    assert loop["scalar_kinds"] == {"step": "int", "loss": "tensor"}
    assert loop["scalars"]["loss"] == [3.0 * (s + 1) ** 2 for s in range(150)]
    assert loop["samples"]["10"]["w"]["values"] == [11.0, 11.0, 11.0]  # then, not at the end
    assert loop["samples"]["149"]["loss"]["values"] == 3.0 * 150 ** 2


@pytest.mark.parametrize("header", [
    "",  # the builtin range: the counter's values are worked out, never taken
    "def range(*args):\n    return [k for k in __builtins__.range(*args)]\n\n\n",  # not it
])
def test_a_range_counter_is_told_as_python_has_it(kernel, tmp_path, header):
    source = header + ("total = 0\nfor i in range(3, 300_003, 2):\n    total += i\n"
                       "    if i == 7:\n        continue\n")
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[-1].loop
    assert code == 0 and loop["iterations"] == 150_000
    kept = loop["scalar_steps"]
    assert len(kept) == 75_000 and kept[:3] == [0, 2, 4]  # 10^5 at most: every other one
    assert loop["scalars"]["i"] == [3 + 2 * n for n in kept]
    assert loop["scalar_kinds"]["i"] == "int"
    for n in (0, 57, 149_999):
        if str(n) in loop["samples"]:
            sample = loop["samples"][str(n)]
            assert list(sample)[0] == "i"  # the target first, as the loop names it
            assert sample["i"] == {"type": "int", "value": 3 + 2 * n}
            assert sample["total"]["value"] == sum(3 + 2 * k for k in range(n + 1))


def test_a_counter_the_body_rebinds_behind_its_back_is_not_told(kernel, tmp_path):
    source = "for i in range(5000):\n    exec('i = -1')\n    j = i\n"
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[0].loop
    assert code == 0 and loop["iterations"] == 5000
    assert "i" not in loop["scalars"] and loop["scalars"]["j"] == [-1] * 5000


def test_a_loop_of_known_length_is_sampled_evenly_over_all_of_it(kernel, tmp_path):
    """``range(2000)`` has a length: after the first 100 iterations, about 100 more are
    kept, each 19 apart (1900 / 100), spanning the loop, and its last."""
    steps, _, _, code = _run(kernel, tmp_path, "for k in range(2000):\n    sq = k * k\n")
    kept = steps[0].loop["kept"]
    assert code == 0 and kept[:100] == list(range(100)) and kept[-1] == 1999
    later = kept[100:-1]
    assert 95 <= len(later) <= 100 and later[0] == 100 and later[-1] >= 1900 - 19
    assert {b - a for a, b in zip(later, later[1:], strict=False)} == {19}
    samples = steps[0].loop["samples"]
    assert all(samples[str(n)]["sq"] == {"type": "int", "value": n * n} for n in kept)


def test_a_long_loop_without_scalars_reports_a_bounded_sample_of_its_steps(kernel, tmp_path):
    """``for _ in range(300_000): pass`` keeps no scalar but its counter: the steps it is
    reported at stay within the limit, an even sample (a list of 300,000 once took the
    window 140 ms to read, and made a Stop look like a stuck kernel)."""
    steps, _, _, code = _run(kernel, tmp_path, "for k in range(300_000):\n    pass\n")
    loop = steps[0].loop
    assert code == 0 and loop["iterations"] == 300_000
    kept = loop["scalar_steps"]
    assert 50_000 <= len(kept) <= 100_000 and kept[0] == 0
    assert kept == list(range(0, 300_000, kept[1]))[:len(kept)]
    assert loop["scalars"]["k"] == kept  # the counter's value at each step kept


def test_a_long_tensor_loop_keeps_an_even_sample_of_its_scalars(kernel, tmp_path):
    """Past 10^5 iterations, off the fast path (a 0-d tensor, taken after every iteration):
    every other iteration's scalars are kept, as the fast path keeps them."""
    source = '''\
import torch
one = torch.tensor(1.0)
for step in range(150_000):
    loss = one * (step % 7)
    half = step // 2
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[2].loop
    assert code == 0 and loop["iterations"] == 150_000
    kept = list(range(0, 150_000, 2))
    assert loop["scalar_steps"] == kept
    assert loop["scalars"]["loss"] == [float(s % 7) for s in kept]
    assert loop["scalars"]["half"] == [s // 2 for s in kept]
    assert loop["samples"]["149999"]["loss"]["values"] == 149_999 % 7


def test_a_tensor_changed_in_place_is_taken_at_every_iteration(kernel, tmp_path):
    """``total += 1`` on a 0-d tensor changes the same object: held for later, its
    earlier values would read as its last. Each iteration's value is the one it had as
    that iteration ended, from the start (the first loop) and after it changes from a new
    tensor each time to the same one changed in place (the second, from step 1500)."""
    source = '''\
import torch
total = torch.zeros(())
for step in range(3000):
    loss = torch.ones(()) * step
    total += 1
late = torch.zeros(())
for step in range(3000):
    if step < 1500:
        late = torch.ones(()) * step
    else:
        late += 2
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    first, second = steps[2].loop, steps[4].loop
    assert code == 0 and first["iterations"] == second["iterations"] == 3000
    assert first["scalars"]["total"] == [float(s + 1) for s in range(3000)]
    assert first["scalars"]["loss"] == [float(s) for s in range(3000)]
    assert second["scalars"]["late"] == [float(s) if s < 1500 else 1499.0 + 2 * (s - 1499)
                                         for s in range(3000)]
    assert second["samples"]["2999"]["late"]["values"] == 1499.0 + 2 * 1500


def test_a_loop_holds_no_earlier_iteration_of_its_loss(kernel, tmp_path):
    """A training loop's loss is a 0-d tensor with an autograd graph: the recorder takes
    it as a number, and holds none of the earlier iterations' tensors (held by the
    hundred, they cost a fast loop a few percent; the last one alone, into the next
    iteration's ``backward()``, about 1%). As under python, one is alive at a time. The
    samples still tell each sampled loss as the tensor it was, and the last iteration's
    too."""
    source = '''\
import weakref
import torch
w = torch.ones((), requires_grad=True)
refs = []
for step in range(3000):
    loss = w * step
    loss.backward()
    refs.append(weakref.ref(loss))
    alive = sum(r() is not None for r in refs[-300:])
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[4].loop
    assert code == 0 and loop["iterations"] == 3000
    python = _python(tmp_path, source + "print(alive)\n")
    assert python.stdout.strip() == "1"
    assert set(loop["scalars"]["alive"]) == {1}
    assert loop["scalars"]["loss"] == [float(s) for s in range(3000)]
    late = max(int(n) for n in loop["samples"])
    assert late >= 1000 and loop["samples"][str(late)]["loss"]["values"] == float(late)
    assert "MulBackward0" in str(loop["samples"][str(late)]["loss"])
    assert loop["samples"]["2999"]["loss"]["values"] == 2999.0  # the last, still alive


def test_the_last_iterations_tensor_rebound_by_an_error_is_told_by_its_number_only(
        kernel, tmp_path):
    """The recorder holds the last iteration's tensors weakly: one the next iteration
    bound again before it raised (a Stop in ``backward()`` is the same) is gone, so that
    iteration's sample leaves it out, never shows another tensor for it; its number,
    read as the iteration ended, is kept with the others, and a tensor still alive (the
    weight) is summarized."""
    source = '''\
import torch
w = torch.ones((), requires_grad=True)
for i in range(300):
    loss = w * i
    if i == 250:
        raise ValueError("stop")
    loss.backward()
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[2].loop
    assert code == 1 and loop["iterations"] == 250
    assert loop["scalars"]["loss"] == [float(i) for i in range(250)]
    last = loop["samples"]["249"]  # not an even sample's: 2 apart from 100 on
    assert "loss" not in last and last["i"]["value"] == 249 and "248" in loop["samples"]
    assert loop["samples"]["248"]["loss"]["values"] == 248.0


def test_a_loss_changed_after_its_backward_is_taken_as_it_ended(kernel, tmp_path):
    """The training watch reads each loss at ``backward()``, and the recorder reuses that
    number for the same tensor; a loss changed in place after its ``backward()`` (here
    through a detached view, which shares its version counter) is read again, as the
    iteration left it."""
    source = '''\
import torch
w = torch.ones((), requires_grad=True)
for step in range(3000):
    loss = w * step
    loss.backward()
    if step % 3 == 0:
        loss.detach().add_(0.5)
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    loop = steps[2].loop
    assert code == 0 and loop["iterations"] == 3000
    assert loop["scalars"]["loss"] == [step + (0.5 if step % 3 == 0 else 0.0)
                                       for step in range(3000)]


def test_the_loops_are_compiled_before_the_run_with_their_future_flags(tmp_path, monkeypatch):
    """``compile_loops`` rewrites and compiles every loop statement before the first
    statement runs (python compiles the whole file first), each with the ``__future__``
    flags the statements before it turn on; running them rewrites nothing more."""
    from kernel import loops
    from kernel.runner import Runner
    from tests.python_run import as_a_kernel

    source = '''\
from __future__ import annotations
total = 0
for i in range(5):
    total += i
def f(x: int) -> int:
    return x
for j in range(3):
    y: undefined_name = f(j)  # an annotation python never evaluates, under the import
    total += y
'''
    def no_rewrite(node):
        raise AssertionError("rewritten as it ran")
    runner = Runner(str(tmp_path / "r.py"), source)
    with as_a_kernel():
        runner.prepare()
        runner.compile_loops()
        monkeypatch.setattr(loops, "instrument", no_rewrite)
        outcomes = [runner.run_statement(i, record_loops=True)
                    for i in range(len(runner.statements))]
    assert [o.error for o in outcomes] == [None] * 5
    assert runner.namespace["total"] == 0 + 1 + 2 + 3 + 4 + 0 + 1 + 2
    assert outcomes[2].loop.iterations == 5 and outcomes[4].loop.iterations == 3


def test_a_sampled_0d_tensor_reads_as_summarize_has_it_nan_and_inf_too(kernel, tmp_path):
    """A loop's 0-d tensors travel as their kind's summary once and a value per sample;
    the window reads each one as ``summarize`` has that tensor (a non-finite value as
    text), whatever its kind (here two dtypes and two grad_fns)."""
    import torch

    from kernel.summary import summarize

    source = '''\
import torch
w = torch.ones((), requires_grad=True)
for step in range(6):
    special = [float("nan"), float("inf"), -float("inf")]
    v = torch.tensor(special[step % 3] if step % 2 else float(step))
    g = (w * step) if step % 2 else (w + step)
    n = torch.tensor(step)
    o = torch.arange(6.0)[step]
'''
    steps, _, _, code = _run(kernel, tmp_path, source)
    samples = steps[2].loop["samples"]
    assert code == 0 and sorted(samples, key=int) == [str(s) for s in range(6)]
    w = torch.ones((), requires_grad=True)
    special = [float("nan"), float("inf"), -float("inf")]
    for step in range(6):
        want = {"v": torch.tensor(special[step % 3] if step % 2 else float(step)),
                "g": (w * step) if step % 2 else (w + step), "n": torch.tensor(step),
                "o": torch.arange(6.0)[step]}  # (its storage offset: the step)
        for name, value in want.items():
            assert samples[str(step)][name] == summarize(value), (step, name)


def _printed_by(i: int) -> str:
    """What iteration ``i`` of ``PRINTING`` writes (stdout and stderr alike)."""
    return "".join(f"{word} {i}\n" for word, every in (("three", 3), ("seven", 7))
                   if i % every == 0)


PRINTING = '''\
import sys
import torch
def numbers(n):
    yield from range(n)
for i in range(1000):
    if i % 3 == 0: print("three", i)
    if i % 7 == 0: print("seven", i, file=sys.stderr)
for i in numbers(30000):
    if i % 3 == 0: print("three", i)
    if i % 7 == 0: print("seven", i, file=sys.stderr)
for i in range(3000):
    x = torch.tensor(float(i))
    if i % 3 == 0: print("three", i)
    if i % 7 == 0: print("seven", i, file=sys.stderr)
i = 0
while i < 2500:
    if i % 3 == 0: print("three", i)
    if i % 7 == 0: print("seven", i, file=sys.stderr)
    i += 1
'''


def test_each_kept_iteration_reports_what_it_printed(kernel, tmp_path):
    """A loop step's output, iteration by iteration, for every iteration it kept: a range
    (the fast path), a generator (the sample's stride doubling), a tensor loop (the taker)
    and a ``while``; both streams, in the order written."""
    steps, out, err, code = _run(kernel, tmp_path, PRINTING)
    python = _python(tmp_path, PRINTING)
    assert (out, err, code) == (python.stdout, python.stderr, 0)
    loops = [s.loop for s in steps if s.loop is not None]
    assert [loop["iterations"] for loop in loops] == [1000, 30000, 3000, 2500]
    for loop in loops:
        printed = loop["printed"]
        assert printed, loop["iterations"]
        for n in loop["kept"]:  # each kept iteration's own, whole; none that printed none
            assert printed.get(str(n), "") == _printed_by(n), (loop["iterations"], n)
        assert set(printed) <= {str(n) for n in loop["kept"]}
        assert sum(1 for n in loop["kept"] if n > 200 and _printed_by(n)) > 10


def test_an_iterations_output_is_bounded_to_its_last_characters(kernel, tmp_path):
    source = ("for i in range(3):\n    for j in range(100_000 if i == 1 else 1):\n"
              "        print(i, j)\n")
    steps, out, _, code = _run(kernel, tmp_path, source)
    printed = steps[0].loop["printed"]
    assert code == 0 and printed["0"] == "0 0\n" and printed["2"] == "2 0\n"
    whole = "".join(f"1 {j}\n" for j in range(100_000))
    assert printed["1"] == whole[-ITERATION_OUTPUT:]
