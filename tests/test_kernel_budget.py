"""The memory budget is what the recipe allocates on top of the kernel's size when its
first run starts (``protocol.budget``): a budget below the warm kernel's own size still
runs a small recipe, and a memory bomb is still stopped with the budget named, by the
kernel's data cap or by the supervisor's watch.

Core tests: real spawned kernels and ``tensor-lab run`` processes.
"""

from __future__ import annotations

import subprocess
import sys

from app.link.session import KernelReady, KernelSession
from protocol.budget import budget_text
from tests.test_kernel_service import Watcher

#: Below the resident size of a kernel that has imported torch (about 280 MB).
SMALL_BUDGET = 200 * 2**20
BOMB = "import torch\nxs = []\nwhile True:\n    xs.append(torch.ones(10**6))\n"


def _vm_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        line = next(line for line in f if line.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def _lab(tmp_path, code: str, *options: str) -> subprocess.CompletedProcess:
    (tmp_path / "r.py").write_text(code, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "app", "run", *options, "r.py"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)


def test_a_budget_below_the_warm_kernels_size_runs_a_small_recipe_and_stops_a_bomb(tmp_path):
    session = KernelSession(memory_budget=SMALL_BUDGET)
    watcher = Watcher(session)
    try:
        session.start()
        pid = watcher.until(lambda e: isinstance(e, KernelReady)).pid
        small = session.run("import torch\nx = 1\n", str(tmp_path / "small.py"))
        ended = watcher.ended(small)
        assert (ended.reason, ended.exit_code) == ("", 0), ended.message
        assert _vm_rss(pid) > SMALL_BUDGET  # the kernel alone is past the budget
        bomb = session.run(BOMB, str(tmp_path / "bomb.py"))
        ended = watcher.ended(bomb)
        assert ended.reason == "memory" and budget_text(SMALL_BUDGET) in ended.message
    finally:
        session.close()


def test_tensor_lab_run_with_a_small_budget_runs_a_small_torch_recipe(tmp_path):
    # the recipe's import torch maps 0.6 GiB of address space: under an address-space
    # cap of 0.3 GiB it failed ("failed to map segment")
    lab = _lab(tmp_path, "import torch\nprint(torch.ones(3).sum().item())\n",
               "--memory", "0.3")
    assert (lab.returncode, lab.stdout) == (0, "3.0\n"), lab.stderr


def test_tensor_lab_run_says_why_when_the_watch_stops_a_recipe_past_its_budget(tmp_path):
    # the recipe lifts the kernel's own cap: the supervisor's watch stops it, and the
    # caller is told (it exited 1 without a word)
    lab = _lab(tmp_path, "import resource\n"
               "for limit in (resource.RLIMIT_AS, resource.RLIMIT_DATA):\n"
               "    resource.setrlimit(limit, (resource.RLIM_INFINITY,) * 2)\n"
               "xs = []\nwhile True:\n    xs.append(bytearray(10**6))\n", "--memory", "0.3")
    assert lab.returncode == 1
    assert lab.stderr.strip() == ("tensor-lab: r.py used more memory than its budget of "
                                  "0.3 GiB and was stopped (--memory GIB sets it)")


def test_a_memory_bomb_in_tensor_lab_run_fails_in_the_recipe_with_the_budget_named(tmp_path):
    lab = _lab(tmp_path, "x = bytearray(10**10)\n", "--memory", "0.3")
    assert lab.returncode == 1
    assert lab.stderr.splitlines()[-2:] == [
        "MemoryError", "tensor-lab: the recipe needed more memory than its budget of 0.3 GiB"]
