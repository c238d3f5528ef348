"""The SSH kernel's figures for ``tools/bench.py`` (``--only ssh``): the window's kernel
on a server reached through a real OpenSSH server on 127.0.0.1 (``tests/sshd_server.py``:
throwaway keys, this python there), the same code paths a GPU server's would take.

- ``op re-evaluation, over ssh``: the ``op`` figure's edit, its kernel over ssh: the p95
  against 16 ms plus the median round trip of an empty message through the connection
  (the watcher's ``ping``, 50 of them, measured first).
- ``training recipe live over ssh vs python``: the ``training`` figure's first, its
  kernel over ssh (target at least 0.95).

Each figure checks that its recipe did run on the server (the watcher wrote its text in
its work folder there).
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import sys
import tempfile
from pathlib import Path

#: Round trips measured for the op figure's bound.
PINGS = 50


def bench_ssh(pairs: int, steps: int, bench_op, bench_training) -> list:
    from app.link.places import run_on
    from app.link.ssh import SshKernel, parse_target
    from tests.sshd_server import LocalSshd, available

    why = available()
    if why:
        raise RuntimeError(why)
    before = os.environ.get("TENSOR_LAB_SSH")
    with tempfile.TemporaryDirectory() as folder:
        server = LocalSshd(Path(folder))
        os.environ["TENSOR_LAB_SSH"] = server.ssh
        target = parse_target(server.url(sys.executable))
        work = server.home / ".local/share/tensor-lab/work"
        try:
            kernel = SshKernel(target)
            try:
                trips = [kernel.round_trip() for _ in range(PINGS)]
            finally:
                kernel.close()
            trip_ms = statistics.median(trips) * 1e3
            run_on(target)
            op = bench_op(pairs, name="op re-evaluation, over ssh", bound_ms=16 + trip_ms,
                          note=f"; the kernel over ssh to 127.0.0.1, whose round trip is "
                               f"{trip_ms:.2f} ms (median of {PINGS}; the bound is 16 ms "
                               f"plus it)")
            if not (work / "untitled").is_dir():
                raise RuntimeError("the op figure's recipe did not run on the server")
            training = bench_training(pairs, steps)[0]
            if not (work / "mlp_training" / "mlp_training.py").exists():
                raise RuntimeError("the training recipe did not run on the server")
        finally:
            run_on(None)
            server.stop()
            if before is None:
                os.environ.pop("TENSOR_LAB_SSH", None)
            else:
                os.environ["TENSOR_LAB_SSH"] = before
    return [*op, dataclasses.replace(
        training, name="training recipe live over ssh vs python",
        note=training.note + "; the kernel over ssh to 127.0.0.1")]
