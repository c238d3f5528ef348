"""The ``tensor-lab run --json`` report: tensors with their values, and errors."""

from __future__ import annotations

from typing import Any

import torch

from app.json_values import plain, tensor_report
from app.recipe.evaluator import RecipeRun


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
