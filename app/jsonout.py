"""The ``tensor-lab run --json`` report: tensors with their values, and errors."""

from __future__ import annotations

import math
from typing import Any

import torch

from app.evaluator import RecipeRun


def run_report(run: RecipeRun) -> dict[str, Any]:
    """A JSON-ready dict: ``{"tensors": {...}, "errors": [...]}`` in recipe order."""
    tensors: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for name, value in run.namespace.items():
        if isinstance(value, torch.Tensor):
            tensors[name] = tensor_report(value)
        else:
            values[name] = plain(value)
    errors = [
        {"line": r.step.line or (i + 1), "step": r.step.label, "message": r.error,
         "type": r.error_type}
        for i, r in enumerate(run.results) if r.status == "error"
    ]
    report: dict[str, Any] = {"tensors": tensors, "errors": errors}
    warnings = [{"line": r.step.line or (i + 1), "step": r.step.label, "message": w}
                for i, r in enumerate(run.results) for w in r.warnings]
    if warnings:
        report["warnings"] = warnings
    if values:
        report["values"] = values
    return report


def tensor_report(t: torch.Tensor) -> dict[str, Any]:
    """Shape, dtype, device and nested values of one tensor."""
    data = t.detach()
    if data.device.type != "cpu":
        data = data.cpu()
    return {"shape": list(t.shape), "dtype": str(t.dtype), "device": str(t.device),
            "values": plain(data.tolist())}


def plain(value: Any) -> Any:
    """``value`` with NaN and infinities as the strings "nan", "inf", "-inf"."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, complex):
        return [plain(value.real), plain(value.imag)]
    if isinstance(value, (list, tuple, torch.Size)):
        return [plain(v) for v in value]
    if isinstance(value, torch.Tensor):
        return tensor_report(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)
