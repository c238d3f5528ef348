"""``tensor-lab run --json`` keeps the plain run's budgets: ``--timeout`` and ``--memory``
stop it with the same message and exit code, the report still comes with what the run
gathered, and a flood of output keeps only its tail, in bounded memory.

Real processes, as a user runs them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from kernel.report import OUTPUT_TAIL

ROOT = Path(__file__).parent.parent


def _lab(recipe: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    return subprocess.run([sys.executable, "-m", "app", "run", str(recipe), *args], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_json_stops_at_its_timeout_as_the_plain_run_does_and_reports_what_it_gathered(
        tmp_path):
    recipe = tmp_path / "forever.py"
    recipe.write_text("n = 41\nprint('before')\nwhile True:\n    n = 41\n")
    plain = _lab(recipe, "--timeout", "2")
    lab = _lab(recipe, "--json", "--timeout", "2")
    said = plain.stderr.splitlines(keepends=True)[-1]  # (the recipe's traceback before)
    assert lab.returncode == plain.returncode == 1 and lab.stderr == said
    assert "timeout of 2 s" in said
    report = json.loads(lab.stdout)
    assert report["stderr"] + said == plain.stderr
    assert report["values"] == {"n": 41} and report["stdout"] == "before\n"
    assert report["errors"][-1]["message"] == said.strip()


def test_json_keeps_the_memory_budget_as_the_plain_run_does(tmp_path):
    recipe = tmp_path / "big.py"  # 2 GiB at once: past a budget of 1 GiB
    recipe.write_text("import torch\nprint('before')\nx = torch.ones(2**28, dtype=torch.float64)\n"
                      "print('after')\n")
    plain = _lab(recipe, "--memory", "1")
    lab = _lab(recipe, "--json", "--memory", "1")
    assert lab.returncode == plain.returncode == 1, lab.stderr
    report = json.loads(lab.stdout)
    assert report["stdout"] == plain.stdout == "before\n"
    assert "budget of 1.0 GiB" in plain.stderr and "budget of 1.0 GiB" in report["stderr"]
    assert "x" not in report["tensors"] and report["errors"]


def _peak_of(recipe: Path) -> tuple[int, str]:
    """The largest resident size of ``tensor-lab run --json recipe`` and its kernel,
    in bytes, and what it printed."""
    measure = textwrap.dedent(f"""
        import resource, subprocess, sys
        lab = subprocess.run([sys.executable, "-m", "app", "run", {str(recipe)!r}, "--json"],
                             capture_output=True, text=True)
        sys.stdout.write(lab.stdout)
        sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
    """)
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    run = subprocess.run([sys.executable, "-c", measure], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=600)
    return int(run.stderr.split()[-1]) * 1024, run.stdout


def test_json_keeps_the_last_mib_of_a_flood_in_bounded_memory(tmp_path):
    lines, width = 200_000, 1000
    flood, small = tmp_path / "flood.py", tmp_path / "small.py"
    flood.write_text(f"for i in range({lines}):\n    print('x' * {width})\n")
    small.write_text(f"for i in range({OUTPUT_TAIL // (width + 1)}):\n    print('x' * {width})\n")
    small_peak, _ = _peak_of(small)
    flood_peak, printed = _peak_of(flood)
    report = json.loads(printed)
    written = lines * (width + 1)  # 200 MB
    line = "x" * width + "\n"
    assert report["stdout"] == (line * (OUTPUT_TAIL // len(line) + 1))[-OUTPUT_TAIL:]
    assert report["dropped"] == {"stdout": written - OUTPUT_TAIL}
    assert len(printed) < 2 * OUTPUT_TAIL
    # 200 MB printed costs no more than a run that printed 1 MB (a loaded machine's
    # margin: 64 MiB)
    print(f"peak: {flood_peak / 2**20:.0f} MiB for 200 MB printed, "
          f"{small_peak / 2**20:.0f} MiB for 1 MB")
    assert flood_peak - small_peak < 64 * 2**20
