"""Fidelity against PyTorch's own test inputs (issue 3, "Done when").

For every catalogued op, samples from ``op_db`` (PyTorch's OpInfo database) with at
most ``MAX_ELEMENTS`` elements are written as recipes with literal tensors, run as
``tensor-lab run --json`` runs them (the kernel's runner and report, in-process), and
compared with what torch gives when the same function is called directly: same shape,
dtype and values, NaNs in the same places. The op's ``error_inputs`` must give exit code
1 with torch's own message.

At most ``TENSOR_LAB_FIDELITY_SAMPLES`` samples (default 20) are taken per op to
keep the file fast; set it to 0 to run every small-enough sample. With
``TENSOR_LAB_FIDELITY_REPORT=path`` the counts (run, skipped and why) are written
there as JSON.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import torch

from app import cli
from app.catalog import CATALOG
from app.dtypes import DTYPE_NAMES
from app.recipe.call_text import call_text
from app.text_edits import literal_text
from kernel.report import run_with_report
from kernel.runner import Runner
from kernel.tensor_json import plain, tensor_report
from tests.python_run import as_a_kernel

MAX_ELEMENTS = 10_000
MAX_SAMPLES = int(os.environ.get("TENSOR_LAB_FIDELITY_SAMPLES", "20")) or None
MAX_ERROR_INPUTS = 10 if MAX_SAMPLES else None
SAMPLE_DTYPES = (torch.float32, torch.float64, torch.int64, torch.bool)
#: Samples drawn from one OpInfo at one dtype before moving on (keeps the mix varied).
PER_DTYPE = 6 if MAX_SAMPLES else None

#: Ops whose values come from the random number generator: both sides use seed 0.
RANDOM = frozenset({"multinomial", "rand", "randn", "randint", "randperm", "normal",
                    "rand_like", "randn_like", "randint_like"})
#: Ops whose values are whatever was in memory: only shape and dtype are compared.
UNINITIALISED = frozenset({"empty", "empty_like"})
#: OpInfo variants that call the op in another way than ``op(input, *args, **kwargs)``.
SKIPPED_VARIANTS = frozenset({("normal", "in_place")})
#: Catalogue keys with no OpInfo in op_db; their round trip is covered by test_ops_reader.
NO_OPINFO = frozenset({
    "print", "torch.manual_seed", "torch.tensor", "torch.rand", "torch.randperm",
    "Tensor.tolist", "torch.detach", "Tensor.detach", "torch.numel", "Tensor.numel",
    "Tensor.size", "Tensor.dim",
    # autograd steps (catalog_autograd): they change autograd state, not values
    "Tensor.backward", "Tensor.retain_grad", "Tensor.requires_grad_", "Tensor.detach_",
    # modules and builtins (catalog_nn): tests/test_nn_recipes.py runs them
    "nn.Linear", "nn.Embedding", "nn.Dropout", "nn.ReLU", "nn.Tanh", "nn.Sigmoid",
    "nn.Sequential", "nn.ModuleList", "nn.ModuleDict", "nn.Parameter", "len", "list",
    # the gallery's lessons (catalog_lessons): tests/test_gallery.py runs them
    "torch.Tensor", "Tensor.is_contiguous",
})

STATS: Counter[str] = Counter()


class Unexpressible(Exception):
    """A sample argument the recipe subset cannot write (memory_format, complex ...)."""


# -- which samples ---------------------------------------------------------------------------
@cache
def _op_db() -> list[Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    return op_db


def opinfos_for(key: str) -> list[Any]:
    """The OpInfos whose samples exercise catalogue entry ``key``."""
    spec = CATALOG.get(key)
    assert spec is not None
    name = spec.name
    # torch.relu is F.relu, listed as nn.functional.relu; F.softmax is listed as softmax
    wanted = {name, f"nn.functional.{name}"}
    if spec.in_place:  # add_ is the in-place variant of add's OpInfo (zero_ has its own)
        wanted.add(name[:-1])
    found = []
    for info in _op_db():
        names = {info.name, *(a.name for a in info.aliases)}
        if not names & wanted or (info.name, info.variant_test_name) in SKIPPED_VARIANTS:
            continue
        if spec.in_place and info.name != name and info.inplace_variant is None:
            continue
        found.append(info)
    return found


def _numel(value: Any) -> int:
    if isinstance(value, torch.Tensor):
        return value.numel()
    if isinstance(value, (list, tuple)):
        return sum(_numel(v) for v in value)
    if isinstance(value, dict):
        return sum(_numel(v) for v in value.values())
    return 0


def samples_for(key: str) -> list[tuple[Any, Any]]:
    """(OpInfo, SampleInput) pairs for ``key``: small enough, several dtypes, capped."""
    streams: list[list[Any]] = []
    for info in opinfos_for(key):
        supported = info.supported_dtypes("cpu")
        for dtype in SAMPLE_DTYPES:
            if dtype in supported:
                streams.append([(info, s) for s in _small_samples(info, dtype)])
    chosen: list[tuple[Any, Any]] = []
    # round robin over OpInfo variants and dtypes, so a capped list still mixes them
    for batch in itertools.zip_longest(*streams):
        chosen.extend(s for s in batch if s is not None)
        if MAX_SAMPLES and len(chosen) >= MAX_SAMPLES:
            return chosen[:MAX_SAMPLES]
    return chosen


_SAMPLES: dict[tuple[int, torch.dtype], tuple[Any, ...]] = {}


def _small_samples(info: Any, dtype: torch.dtype) -> tuple[Any, ...]:
    """The first samples of ``info`` at ``dtype`` with at most ``MAX_ELEMENTS`` elements.

    Cached, as a function and its method share an OpInfo. Generated on a fresh thread:
    op_db walks the whole call stack (``inspect.stack``) for every sample, which takes
    seconds under pytest's deep stack and milliseconds on a new thread.
    """
    def small() -> list[Any]:
        taken = []
        for sample in info.sample_inputs("cpu", dtype, requires_grad=False):
            if _numel(sample.input) + _numel(sample.args) + _numel(sample.kwargs) \
                    > MAX_ELEMENTS:
                STATS["skipped: more than 10,000 elements"] += 1
                continue
            taken.append(sample)
            if PER_DTYPE and len(taken) >= PER_DTYPE:
                break
        return taken

    key = (id(info), dtype)
    if key not in _SAMPLES:
        try:
            _SAMPLES[key] = tuple(on_fresh_thread(small))
        except Exception:  # noqa: BLE001 - a sample generator that fails is not ours to test
            STATS["skipped: op_db sample generator failed"] += 1
            _SAMPLES[key] = ()
    return _SAMPLES[key]


def on_fresh_thread(fn: Callable[[], Any]) -> Any:
    """``fn()``, run on a new thread (joined before returning) with a short stack."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
            result["error"] = e

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


# -- samples as recipes ----------------------------------------------------------------------
@dataclass
class Plan:
    """One call of a catalogue entry: the recipe that makes it, and the same call in torch."""

    key: str
    args: list[Any]
    kwargs: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    literals: dict[str, torch.Tensor] = field(default_factory=dict)

    @property
    def spec_name(self) -> str:
        return self.key.rsplit(".", 1)[-1]

    def expr(self, value: Any) -> str:
        """``value`` as recipe code; a tensor becomes a literal step read by name."""
        if isinstance(value, torch.Tensor):
            name = f"t{len(self.literals)}"
            self.literals[name] = value.detach()
            self.lines.append(f"{name} = {literal(value)}")
            return name
        if isinstance(value, torch.dtype):
            if value not in {getattr(torch, name) for name in DTYPE_NAMES}:
                raise Unexpressible(f"dtype {value}")
            return str(value)
        if isinstance(value, torch.device):
            if value.type != "cpu":
                raise Unexpressible("a device other than the CPU")
            return literal_text(str(value))
        if isinstance(value, (list, tuple)):  # torch.Size included
            items = [self.expr(v) for v in value]
            if isinstance(value, list):
                return "[" + ", ".join(items) + "]"
            return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if value is None or isinstance(value, (bool, int, float, str)):
            return literal_text(value)
        raise Unexpressible(type(value).__name__)

    def recipe(self) -> str:
        self.lines, self.literals = [], {}
        args = [self.expr(a) for a in self.args]
        kwargs = [f"{k}={self.expr(v)}" for k, v in self.kwargs.items()]
        namespace, name = self.key.rsplit(".", 1)
        if namespace == "Tensor":
            head, args = f"{args[0]}.{name}", args[1:]
        else:
            head = self.key
        lines = ["import torch", "import torch.nn.functional as F", "", *self.lines]
        if self.spec_name in RANDOM:
            lines.append("torch.manual_seed(0)")
        lines.append(f"out = {head}({', '.join(args + kwargs)})")
        return "\n".join(lines) + "\n"

    def reference(self) -> tuple[Any, list[Any]]:
        """What torch gives for the same call on fresh copies of the same tensors."""
        def fresh(v: Any) -> Any:
            if isinstance(v, torch.Tensor):
                return v.detach().clone(memory_format=torch.contiguous_format)
            if isinstance(v, list):
                return [fresh(i) for i in v]
            if isinstance(v, tuple) and not isinstance(v, torch.Size):
                return tuple(fresh(i) for i in v)
            return v

        args = [fresh(a) for a in self.args]
        kwargs = {k: fresh(v) for k, v in self.kwargs.items()}
        if self.spec_name in RANDOM:
            torch.manual_seed(0)
        return torch_callable(self.key)(*args, **kwargs), args


def literal(t: torch.Tensor) -> str:
    """``torch.tensor(<nested list>, dtype=...)``; ``torch.zeros(shape)`` when empty."""
    if t.numel() == 0:
        return f"torch.zeros({', '.join(str(n) for n in t.shape)}, dtype={t.dtype})"
    return call_text(CATALOG.get("torch.tensor"),
                     {"data": _data(t.tolist()), "dtype": str(t.dtype)})


def _data(value: Any) -> str:
    """Nested lists of numbers as Python text; a complex number as Python writes it."""
    if isinstance(value, list):
        return "[" + ", ".join(_data(v) for v in value) + "]"
    return repr(value) if isinstance(value, complex) else literal_text(value)


def torch_callable(key: str) -> Callable[..., Any]:
    namespace, name = key.rsplit(".", 1)
    if namespace == "Tensor":
        return lambda receiver, *a, **k: getattr(receiver, name)(*a, **k)
    return getattr({"torch": torch, "F": torch.nn.functional}[namespace], name)


def plan_for(key: str, info: Any, sample: Any) -> Plan:
    """The call of ``key`` that ``sample`` stands for, in the OpInfo's convention."""
    args, kwargs = list(sample.args), dict(sample.kwargs)
    if key.startswith("Tensor."):
        if not isinstance(sample.input, torch.Tensor):
            raise Unexpressible("no tensor to call the method on")
        return Plan(key, [sample.input, *args], kwargs)
    if info.name == "where":  # OpInfo calls where(input, condition, other)
        return Plan(key, [args[0], sample.input, *args[1:]], kwargs)
    if info.name == "einsum":  # OpInfo calls einsum(operands, equation)
        return Plan(key, [args[0], *sample.input], kwargs)
    return Plan(key, [sample.input, *args], kwargs)


# -- running ---------------------------------------------------------------------------------
def run_cli(path: Path, *flags: str) -> tuple[int, str, str]:
    """What ``tensor-lab run --json`` reports, made in this process with the kernel's own
    runner and report (a kernel process per sample would take an hour): exit code, the
    JSON and no stderr. ``test_cli`` runs the real command."""
    assert flags == ("--json",)
    runner = Runner(str(path), path.read_text(encoding="utf-8"))
    with as_a_kernel(), warnings.catch_warnings(record=True):  # warned, as under python
        warnings.simplefilter("always")
        code, report = run_with_report(runner)
    return (cli.EXIT_OK if code == 0 else cli.EXIT_STEP_FAILED), json.dumps(report), ""


def message(e: BaseException) -> str:
    """torch's message as the report gives it: the exception's ``str``, as python has it."""
    return str(e)


def check_sample(plan: Plan, text: str, path: Path) -> str | None:
    """None when the recipe ``text`` gives torch's result; else what differs."""
    try:
        # Under `python` a torch warning is printed, not raised, and so it is in the kernel:
        # the reference must not turn it into an error either.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected, ref_args = plan.reference()
    except Exception as e:  # noqa: BLE001 - then the recipe must fail the same way
        return check_error(text, e, path)
    if _numel(expected) > MAX_ELEMENTS:
        STATS["skipped: result larger than 10,000 elements"] += 1
        return None
    path.write_text(text)
    code, stdout, stderr = run_cli(path, "--json")
    if code != 0:
        return f"exit code {code}: {stdout}{stderr}\n{text}"
    report = json.loads(stdout)
    got = report["tensors"].get("out", report.get("values", {}).get("out"))
    problems = []
    if plan.spec_name in UNINITIALISED:
        want = tensor_report(expected)
        if (got["shape"], got["dtype"]) != (want["shape"], want["dtype"]):
            problems.append(f"out: {got['shape']} {got['dtype']} != {want['shape']} "
                            f"{want['dtype']}")
    elif got != plain(expected):
        problems.append(f"out: {_short(got)} != {_short(plain(expected))}")
    if CATALOG.get(plan.key).in_place:  # the receiver itself must have changed the same way
        receiver = next(iter(plan.literals))
        if report["tensors"][receiver] != plain(ref_args[0]):
            problems.append("the receiver after the in-place op differs")
    return "; ".join(problems) + "\n" + text if problems else None


def check_error(text: str, error: BaseException, path: Path) -> str | None:
    """None when the recipe's report fails with exit code 1 and torch's own message.

    (A plain ``tensor-lab run`` is ``python``: ``test_kernel`` and ``test_seeds`` check it,
    and the real command below checks one failure here.)
    """
    path.write_text(text)
    code, stdout, _ = run_cli(path, "--json")
    if code != 1:
        return f"exit code {code}, expected 1 for {type(error).__name__}: {error}\n{text}"
    errors = json.loads(stdout)["errors"]
    if not errors or errors[0]["message"] != message(error) \
            or errors[0]["type"] != type(error).__name__:
        return f"error {errors} != {type(error).__name__}: {message(error)}\n{text}"
    return None


def _short_text(text: str) -> str:
    return text if len(text) < 3000 else text[:3000] + "\n..."


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) < 300 else text[:300] + "..."


# -- the tests -------------------------------------------------------------------------------
KEYS = [k for k in CATALOG.keys() if k not in NO_OPINFO]


@pytest.fixture(scope="module", autouse=True)
def _write_stats():
    yield
    target = os.environ.get("TENSOR_LAB_FIDELITY_REPORT")
    if target:
        Path(target).write_text(json.dumps(dict(sorted(STATS.items())), indent=1))


@pytest.mark.parametrize("key", KEYS)
def test_op_matches_torch(key: str, tmp_path: Path) -> None:
    """op_db's samples give torch's results; its error inputs give torch's errors."""
    pairs = samples_for(key)
    assert pairs, f"no op_db samples for {key}: list it in NO_OPINFO or fix the matching"
    failures = check_samples(key, pairs, tmp_path) + check_error_inputs(key, tmp_path)
    assert not failures, f"{len(failures)} recipes differ from torch:\n" + \
        "\n".join(_short_text(f) for f in failures[:3])


def check_samples(key: str, pairs: list[tuple[Any, Any]], folder: Path) -> list[str]:
    failures = []
    for n, (info, sample) in enumerate(pairs):
        try:
            plan = plan_for(key, info, sample)
            text = plan.recipe()
        except Unexpressible as e:
            STATS[f"samples skipped: argument not expressible ({e})"] += 1
            continue
        problem = check_sample(plan, text, folder / f"sample{n}.py")
        STATS["samples run"] += 1
        STATS[f"samples run for {key}"] += 1
        if problem:
            failures.append(problem)
    return failures


def check_error_inputs(key: str, folder: Path) -> list[str]:
    """Each expressible ``error_inputs`` entry must fail the recipe as it fails torch."""
    checked = 0
    failures = []
    for info in opinfos_for(key):
        if info.error_inputs_func is None:
            continue
        try:
            error_inputs = on_fresh_thread(lambda info=info: list(info.error_inputs("cpu")))
        except Exception:  # noqa: BLE001 - a generator that fails is not ours to test
            STATS["error inputs: generator failed"] += 1
            continue
        for n, error_input in enumerate(error_inputs):
            if MAX_ERROR_INPUTS and checked >= MAX_ERROR_INPUTS:
                break
            sample = error_input.sample_input
            if _numel(sample.input) + _numel(sample.args) + _numel(sample.kwargs) \
                    > MAX_ELEMENTS:
                STATS["error inputs skipped: more than 10,000 elements"] += 1
                continue
            try:
                plan = plan_for(key, info, sample)
                text = plan.recipe()
            except Unexpressible as e:
                STATS[f"error inputs skipped: argument not expressible ({e})"] += 1
                continue
            try:
                plan.reference()
            except Exception as e:  # noqa: BLE001 - the error is what is being checked
                if not re.search(error_input.error_regex, str(e)):
                    STATS["error inputs skipped: torch fails differently here"] += 1
                    continue
                checked += 1
                STATS["error inputs run"] += 1
                STATS[f"error inputs run for {key}"] += 1
                problem = check_error(text, e, folder / f"error{n}.py")
                if problem:
                    failures.append(problem)
            else:  # the error needed a memory layout that a literal tensor does not have
                STATS["error inputs skipped: no error with contiguous inputs"] += 1
    return failures


def test_catalogue_keys_without_opinfo_are_the_listed_ones() -> None:
    missing = {k for k in CATALOG.keys() if not opinfos_for(k)}
    assert missing == set(NO_OPINFO)


def test_a_sample_through_the_real_command(tmp_path: Path) -> None:
    """One success and one failure through ``python -m app run`` in a subprocess."""
    info = next(i for i in opinfos_for("torch.gather"))
    sample = next(s for s in info.sample_inputs("cpu", torch.float32)
                  if _numel(s.input) <= 100)
    plan = plan_for("torch.gather", info, sample)
    path = tmp_path / "gather.py"
    path.write_text(plan.recipe())
    expected, _ = plan.reference()
    done = subprocess.run([sys.executable, "-m", "app", "run", str(path), "--json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tensors"]["out"] == tensor_report(expected)

    bad = tmp_path / "cat.py"
    bad.write_text("import torch\na = torch.zeros(2, 3)\nb = torch.zeros(2, 4)\n"
                   "c = torch.cat((a, b), dim=0)\n")
    done = subprocess.run([sys.executable, "-m", "app", "run", str(bad)],
                          capture_output=True, text=True, timeout=120, check=False)
    with pytest.raises(RuntimeError) as torch_error:
        torch.cat((torch.zeros(2, 3), torch.zeros(2, 4)), dim=0)
    assert done.returncode == 1
    # python's own traceback, ending with torch's message
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert done.stderr.strip().splitlines()[-1] == f"RuntimeError: {torch_error.value}"
