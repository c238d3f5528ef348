"""Values as JSON holds them: the window's half (``protocol.json_values``) imports no torch, the
kernel's (``kernel.tensor_json``) reports tensors wherever they sit. Core tier."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import torch

from kernel import tensor_json
from protocol.json_values import plain

ROOT = Path(__file__).resolve().parent.parent


def test_the_windows_half_imports_no_torch():
    code = ("import sys; sys.modules['torch'] = None\n"
            "from protocol.json_values import plain\n"
            "print(plain([1.5, float('nan'), -float('inf'), 2j, (None, True, 'x')]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[1.5, 'nan', '-inf', [0.0, 2.0], [None, True, 'x']]"


def test_values_json_cannot_hold_become_text_unless_told_otherwise():
    assert plain({1, 2}) == "{1, 2}"
    assert plain([{1}], lambda v: "other") == ["other"]
    assert plain(torch.Size([2, 3])) == [2, 3]  # a tuple


def test_the_kernels_half_reports_tensors_inside_lists_and_tuples():
    value = (torch.tensor([1.0, math.inf]), [2.5, math.nan, 1 + 1j], torch.Size([2]), {3})
    assert tensor_json.plain(value) == [
        {"shape": [2], "dtype": "torch.float32", "device": "cpu", "values": [1.0, "inf"]},
        [2.5, "nan", [1.0, 1.0]], [2], "{3}"]
