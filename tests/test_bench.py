"""The benchmark suite imports and formats its table; no timing is asserted here."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "tools" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("tensor_lab_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_check_reads_both_directions(bench):
    assert bench.check(0.95, ">= 0.90") and not bench.check(0.85, ">= 0.90")
    assert bench.check(50.0, "<= 50") and not bench.check(51.0, "<= 50")


def test_table_has_one_row_per_figure_and_says_pass_or_fail(bench):
    figures = [bench.figure("training overhead", "100 steps/s", "95 steps/s", 0.95, "",
                            ">= 0.90"),
               bench.figure("op re-evaluation", "1.0 ms torch.tril", "60.0 ms p95", 60.0,
                            " ms", "<= 50", "a note")]
    lines = bench.format_table(figures).splitlines()
    assert lines[0].split("|")[1].strip() == "figure"
    assert "pass" in lines[2] and "0.95" in lines[2]
    assert "FAIL" in lines[3] and "60 ms" in lines[3] and "<= 50 ms" in lines[3]
    assert lines[-1] == "- op re-evaluation: a note"


def test_percentile_and_interleave(bench):
    assert bench.percentile([5, 1, 3, 2, 4], 50) == 3
    assert bench.percentile(list(range(101)), 99) == 99
    calls = []
    a, b = bench.interleave(lambda: calls.append("a") or 1.0,
                            lambda: calls.append("b") or 2.0, 3)
    assert calls == ["a", "b"] * 3 and a == [1.0] * 3 and b == [2.0] * 3


def test_a_device_not_present_is_refused_before_anything_is_measured(bench, tmp_path,
                                                                     capsys):
    import torch

    absent = f"cuda:{torch.cuda.device_count()}"  # one past the last GPU, if any
    report = tmp_path / "bench.json"
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["--device", absent, "--only", "startup", "--json", str(report)])
    assert exit_info.value.code == 2
    assert f"device {absent!r} is not present here" in capsys.readouterr().err
    assert not report.exists()
    assert "cpu" in bench.present_devices()


def test_the_lenet_figures_time_the_lesson_as_python_runs_it(tmp_path):
    """``--only lenet`` runs the lesson itself, lengthened and timed: under python the
    file prints the lesson's own lines, then its loop's seconds and its last loss, which
    the bench reads (``tools.bench_training._printed``)."""
    import subprocess

    from tools.bench_lenet import lenet_recipe
    from tools.bench_training import _printed

    path = tmp_path / "lenet.py"
    path.write_text(lenet_recipe(steps=3), encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "step loss val_accuracy" and lines[1].startswith("0 ")
    assert lines[2].startswith("2 ")  # the last step's line, as the lesson prints it
    seconds, loss = _printed(done.stdout)
    assert 0 < seconds < 60 and loss == f"loss {float(lines[2].split()[1]):.4f}"
